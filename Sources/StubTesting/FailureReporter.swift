import Foundation

#if canImport(Testing)
    import Testing
#endif
#if canImport(XCTest)
    import XCTest
#endif

/// Where a failed check was written, in the form its caller had at hand.
enum FailureLocation {
    /// From an XCTest-style helper (`file: StaticString = #filePath, line: UInt = #line`).
    case xctest(file: StaticString, line: UInt)
    #if canImport(Testing)
        /// From a Swift Testing-style helper (`sourceLocation: SourceLocation = #_sourceLocation`).
        case testing(SourceLocation)
    #endif
}

/// Reports a failed check to whichever framework runs the current test, as swift-argument-parser's
/// helpers do: a Swift Testing `Issue` when `Test.current` is set, else `XCTFail`.
///
/// Both XCTest-named and Swift Testing-named helpers go through here, so either works in either kind of test.
/// - Parameter server: the in-process server checked, whose journal is attached to a Swift Testing
///   test (once; see ``JournalAttachment``).
func reportFailure(_ message: String, at location: FailureLocation, server: StubServer? = nil) {
    let attached = server.map { JournalAttachment.recordInSwiftTesting($0, at: location) } ?? false
    record(message, at: location, attachedJournal: attached)
}

/// Reports a failed check of `server` (see ``reportFailure(_:at:server:)``), attaching its journal to a Swift
/// Testing test once: an in-process server's as it is, an external server's read over its admin API.
func reportFailure(_ message: String, at location: FailureLocation, server: some AsyncStubServerAdmin) async {
    guard let any = server as? AnyStubServer else { return reportFailure(message, at: location) }
    if let local = any.inProcess { return reportFailure(message, at: location, server: local) }
    record(
        message, at: location,
        attachedJournal: await JournalAttachment.recordInSwiftTesting(external: any, at: location))
}

/// Reports the failure a check of `server` found (`nil`: it passed), with the caller's `message` added
/// (``RequestVerification/combine(_:with:)``), and returns whether the check passed.
@discardableResult
func report(_ failure: String?, adding message: () -> String, at location: FailureLocation, server: StubServer) -> Bool
{
    guard let failure else { return true }
    reportFailure(RequestVerification.combine(failure, with: message()), at: location, server: server)
    return false
}

/// ``report(_:adding:at:server:)-(_,_,_,StubServer)`` for a server reached with `await`; `message` is taken before
/// the check, as the caller's autoclosure cannot cross it.
@discardableResult
func report(_ failure: String?, adding message: String, at location: FailureLocation, server: some AsyncStubServerAdmin)
    async -> Bool
{
    guard let failure else { return true }
    await reportFailure(RequestVerification.combine(failure, with: message), at: location, server: server)
    return false
}

/// Records `message` in the running test's framework; `attachedJournal` says the journal was attached with it.
private func record(_ message: String, at location: FailureLocation, attachedJournal attached: Bool) {
    #if canImport(Testing)
        if Test.current != nil {
            Issue.record(
                Comment(rawValue: attached ? message + JournalAttachment.whereToFind : message),
                sourceLocation: location.sourceLocation)
            return
        }
    #endif
    #if canImport(XCTest)
        switch location {
        case let .xctest(file, line):
            XCTFail(message, file: file, line: line)
        #if canImport(Testing)
            case let .testing(sourceLocation):
                // XCTFail takes only a StaticString file, so the location goes into the message.
                XCTFail("\(sourceLocation): \(message)")
        #endif
        }
    #else
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    #endif
}

#if canImport(Testing)
    extension FailureLocation {
        var sourceLocation: SourceLocation {
            switch self {
            case let .testing(location):
                return location
            case let .xctest(file, line):
                let path = "\(file)"
                // `#fileID` is `Module/File.swift`; in a SwiftPM target the folder is named after the module.
                let components = path.split(separator: "/")
                let fileID = components.suffix(2).joined(separator: "/")
                return SourceLocation(
                    fileID: components.count >= 2 ? fileID : "Tests/" + fileID,
                    filePath: path, line: Int(line), column: 1)
            }
        }
    }
#endif
