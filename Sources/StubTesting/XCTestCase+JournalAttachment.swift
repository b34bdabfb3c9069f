#if canImport(XCTest)
    import Foundation
    import XCTest

    extension XCTestCase {
        /// Attaches `server`'s journal (see ``JournalAttachment``) to this test when it failed, on Apple
        /// platforms; swift-corelibs-xctest (Linux) has no attachments, so there it does nothing.
        func attachJournalIfFailed(_ server: StubServer) {
            #if canImport(ObjectiveC)
                // `XCTAttachment` and `XCTestCase.add(_:)` are Apple's Objective-C XCTest API: the
                // ObjectiveC module is there exactly where they are (darwin-check's stand-in has neither).
                guard let run = testRun, !run.hasSucceeded, server.failureLedger.shouldAttachJournal() else { return }
                let attachment = XCTAttachment(
                    data: Data(JournalAttachment.json(server).utf8), uniformTypeIdentifier: "public.json")
                attachment.name = JournalAttachment.fileName
                attachment.lifetime = .keepAlways
                add(attachment)
            #endif
        }

        /// Attaches the journal of `server`, outside this process, read over its admin API, when the test failed
        /// (Apple platforms), as ``attachJournalIfFailed(_:)`` does for an in-process server. Added as a teardown
        /// block first, so that it runs after the checks that may fail the test.
        func attachJournalAtTeardownIfFailed(_ server: AnyStubServer) {
            #if canImport(ObjectiveC)
                addTeardownBlock { [self] in
                    guard let run = testRun, !run.hasSucceeded, server.remoteLedger.shouldAttachJournal() else {
                        return
                    }
                    let attachment = XCTAttachment(
                        data: Data(JournalAttachment.jsonWaiting(external: server).utf8),
                        uniformTypeIdentifier: "public.json")
                    attachment.name = JournalAttachment.fileName
                    attachment.lifetime = .keepAlways
                    add(attachment)
                }
            #endif
        }
    }
#endif
