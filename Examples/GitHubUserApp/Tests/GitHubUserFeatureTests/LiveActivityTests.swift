import Foundation
import GitHubUserFeature
import StubTesting
import Testing

/// The live activity list against `Stubs/mappings/live-activity.json` (three events with ids, then the stream
/// stays open), with events pushed from the test into the open stream, and the stream finished or cut. In-process,
/// or against a server CI started (`STUBSERVER_URL`); cutting a stream is in-process only (`abortSurvived`).
@Suite(.stubServer(stubsNamed: "Stubs", failOnUnmatchedRequests: true))
@MainActor
struct LiveActivityTests {
    static let path = "/users/shashikant86/events/live"
    /// The stub file's events, newest first, as the list shows them.
    static let stubbed = ["forked octocat/Hello-World", "pushed to shashikant86/XCFit", "starred apple/swift"]

    func model(_ server: AnyStubServer, maxAttempts: Int = 5) async throws -> LiveActivityModel {
        LiveActivityModel(
            login: "shashikant86",
            configuration: AppConfiguration(environment: try await server.launchEnvironment(), allowsOverride: true),
            reconnect: ReconnectPolicy(maxAttempts: maxAttempts, delay: .milliseconds(20)))
    }

    /// Runs `model` while `body` runs, then stops it (as the view going away does) and waits until it stopped.
    func running(_ model: LiveActivityModel, _ body: () async throws -> Void) async throws {
        let run = Task { await model.run() }
        do {
            try await body()
        } catch {
            run.cancel()
            await run.value
            throw error
        }
        run.cancel()
        await run.value
    }

    /// An event as the API sends it.
    static func event(_ action: String, _ repo: String, id: String) -> ServerSentEvent {
        ServerSentEvent(data: #"{"action": "\#(action)", "repo": "\#(repo)"}"#, event: "push", id: id)
    }

    @Test("The list shows the stub file's events in order, newest first, and the status is live")
    func showsStubbedEvents() async throws {
        let server = try #require(AnyStubServer.current)
        let model = try await model(server)
        try await running(model) {
            try await waitUntil("three items") { model.items.count == 3 }
            #expect(model.items.map(\.text) == Self.stubbed)
            #expect(model.items.map(\.eventID) == ["3", "2", "1"])
            #expect(model.items.map(\.kind) == ["fork", "push", "star"])
            #expect(model.status == .live)
        }
        await expectRequested(server, .get(Self.path).withHeader("Accept", "text/event-stream"), count: 1)
        #expect(model.status == .idle)
    }

    @Test("An event the test pushes into the open stream shows on top")
    func pushedEventShows() async throws {
        let server = try #require(AnyStubServer.current)
        let model = try await model(server)
        try await running(model) {
            try await waitUntil("three items") { model.items.count == 3 }
            // The list shows the stub's events, so the stream is open: push one more into it.
            let streams = try await server.send(
                [Self.event("pushed to", "octocat/hello", id: "4")], toStreamsMatching: .get(Self.path))
            #expect(streams == 1)
            try await waitUntil("the pushed event") { model.items.count == 4 }
            let pushed = try #require(model.items.first)
            #expect((pushed.eventID, pushed.kind, pushed.text) == ("4", "push", "pushed to octocat/hello"))
        }
    }

    @Test("A finished stream reconnects with Last-Event-ID: the server resumes after it, nothing shows twice")
    func finishReconnects() async throws {
        let server = try #require(AnyStubServer.current)
        let model = try await model(server)
        try await running(model) {
            try await waitUntil("three items") { model.items.count == 3 }
            #expect(try await server.finishStreams(matching: .get(Self.path)) == 1)
            try await waitUntil("a second request") { try await server.requests.count == 2 }
            #expect(try await server.requests.map { $0.header("Last-Event-ID") } == [nil, "3"])
            // The new stream (the stub's events after id 3: none) opens just after its request is journaled:
            // push into it once it is open.
            #expect(try await server.waitForStreams(matching: .get(Self.path)) == 1)
            try await server.send(
                [Self.event("starred", "swiftlang/swift-testing", id: "4")], toStreamsMatching: .get(Self.path))
            try await waitUntil("the pushed event") { model.items.count == 4 }
            #expect(model.items.map(\.text) == ["starred swiftlang/swift-testing"] + Self.stubbed)
            #expect(model.status == .live)
        }
    }

    @Test("A cut stream (abort) is survived: the client reconnects, and events resent show once")
    func abortSurvived() async throws {
        let server = try #require(AnyStubServer.current)
        let model = try await model(server)
        try await running(model) {
            try await waitUntil("three items") { model.items.count == 3 }
            #expect(try await server.waitForStreams(matching: .get(Self.path)) == 1)
            try await server.send(
                [Self.event("pushed to", "octocat/hello", id: "4")], toStreamsMatching: .get(Self.path))
            try await waitUntil("the pushed event") { model.items.count == 4 }
            #expect(try await server.abortStreams(matching: .get(Self.path)) == 1)
            try await waitUntil("a second request") { try await server.requests.count == 2 }
            // Id 4 is not one of the stub's, so the server sends its three events again: the list has them.
            #expect(try await server.requests.last?.header("Last-Event-ID") == "4")
            #expect(try await server.waitForStreams(matching: .get(Self.path)) == 1)
            try await server.send(
                [Self.event("forked", "octocat/Spoon-Knife", id: "5")], toStreamsMatching: .get(Self.path))
            try await waitUntil("the event after the cut") { model.items.first?.eventID == "5" }
            #expect(model.items.map(\.eventID) == ["5", "4", "3", "2", "1"])
            #expect(Set(model.items.map(\.id)).count == 5)
        }
    }

    @Test("A stream that keeps failing without events is retried a bounded number of times, then given up")
    func faultsAreBounded() async throws {
        let server = try #require(AnyStubServer.current)
        try await server.stub(
            .get(Self.path), .events([ServerSentEvent(data: "only once", id: "1", retry: 10)], end: .fault), priority: 1
        )
        let model = try await model(server, maxAttempts: 3)
        try await running(model) {
            try await waitUntil("the client gives up") {
                if case .ended = model.status { true } else { false }
            }
        }
        #expect(model.items.map(\.text) == ["only once"])
        // The first connection, then three reconnections (Last-Event-ID 1: nothing after it, and a fault).
        #expect(try await server.requests.map { $0.header("Last-Event-ID") } == [nil, "1", "1", "1"])
        #expect(model.status.text.contains("gave up after 3 reconnections"), "\(model.status)")
    }

    @Test("An event without an id of its own shows: it carries the id before it, and is not the same event")
    func carriedID() async throws {
        let server = try #require(AnyStubServer.current)
        try await server.stub(
            .get(Self.path),
            .events([ServerSentEvent(data: "first", id: "1"), ServerSentEvent(data: "second")], end: .open),
            priority: 1)
        let model = try await model(server)
        try await running(model) {
            try await waitUntil("two items") { model.items.count == 2 }
            #expect(model.items.map(\.text) == ["second", "first"])
            #expect(model.items.map(\.eventID) == ["1", "1"])
        }
    }

    @Test("The list keeps the newest 50 events (maxItems)")
    func capped() async throws {
        let server = try #require(AnyStubServer.current)
        let events = (1...60).map { ServerSentEvent(data: "e\($0)", id: "\($0)") }
        try await server.stub(.get(Self.path), .events(events, end: .open), priority: 1)
        let model = try await model(server)
        try await running(model) {
            try await waitUntil("the last event") { model.items.first?.text == "e60" }
            #expect(model.items.count == LiveActivityModel.maxItems)
            #expect(model.items.last?.text == "e11")
        }
    }

    @Test("An answer other than 200 ends the stream at once, with the status in its message")
    func notAStream() async throws {
        let server = try #require(AnyStubServer.current)
        try await server.stub(.get(Self.path), .status(404), priority: 1)
        let model = try await model(server)
        try await running(model) {
            try await waitUntil("the stream ends") {
                if case .ended = model.status { true } else { false }
            }
        }
        #expect(model.status == .ended("The server answered HTTP 404, not a stream"))
        #expect(try await server.requests.count == 1)
    }
}

/// Waits, at most 20 seconds and 4,000 checks, until `condition` holds; throws ``WaitTimedOut`` if it never does.
@MainActor
func waitUntil(_ what: String, _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(20)
    for _ in 0..<4_000 {
        if try await condition() { return }
        if ContinuousClock.now >= deadline { break }
        try await Task.sleep(for: .milliseconds(5))
    }
    if try await condition() { return }
    throw WaitTimedOut(what: what)
}

/// ``waitUntil(_:_:)``'s condition never held.
struct WaitTimedOut: Error, CustomStringConvertible {
    let what: String
    var description: String { "waited 20 seconds for \(what)" }
}
