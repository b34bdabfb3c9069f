import Foundation
import StubTestSupport
import Testing

@testable import StubHTTP

/// ``HTTPServerConfiguration/additionalListeners`` over real loopback sockets: one server, several ports, each
/// request labelled with the listener that accepted it.
@Suite("Additional listeners")
struct AdditionalListenersTests {
    /// Answers the request's listener label, or `primary`.
    private static let labelHandler: @Sendable (HTTPRequest, HTTPResponder) -> Void = { request, responder in
        let text = request.endpoints.map { "\($0.listenerLabel ?? "primary") \($0.localPort)" } ?? "none"
        responder.respond(.text(text))
    }

    private static func configuration(_ labels: String...) -> HTTPServerConfiguration {
        var configuration = HTTPServerConfiguration(eventLoopCount: 2)
        configuration.additionalListeners = labels.map { .init(label: $0) }
        return configuration
    }

    @Test("Each listener gets its own free port and labels its requests; the primary one labels none")
    func labelsRequests() throws {
        let server = try startServer(Self.configuration("api", "auth"), handler: Self.labelHandler)
        defer { server.stop() }
        let api = try #require(server.port(ofListener: "api"))
        let auth = try #require(server.port(ofListener: "auth"))
        #expect(Set([server.port, api, auth]).count == 3)
        #expect(server.port(ofListener: "nope") == nil)
        for (port, expected) in [(server.port, "primary"), (api, "api"), (auth, "auth")] {
            let client = try RawClient(port: port)
            for _ in 0..<2 {  // every request of a kept-alive connection
                #expect(try client.roundTrip("GET / HTTP/1.1\r\nHost: x\r\n\r\n").text == "\(expected) \(port)")
            }
        }
    }

    @Test("Stop closes every listener")
    func stopClosesAll() throws {
        let server = try startServer(Self.configuration("api"), handler: Self.labelHandler)
        let api = try #require(server.port(ofListener: "api"))
        server.stop()
        #expect(throws: (any Error).self) { try RawClient(port: api) }
        #expect(throws: (any Error).self) { try RawClient(port: server.port) }
        #expect(server.port(ofListener: "api") == api)
    }

    @Test("A listener that cannot bind fails the start, names itself, and leaves no socket open")
    func bindFailureClosesTheRest() throws {
        // A port free a moment ago, for the listener that binds before the failing one.
        let probe = try startServer()
        let freed = probe.port
        probe.stop()
        let holder = try startServer()
        defer { holder.stop() }
        var configuration = HTTPServerConfiguration()
        configuration.additionalListeners = [.init(label: "api", port: freed), .init(label: "busy", port: holder.port)]
        let server = HTTPServer(configuration: configuration, handler: Self.labelHandler)
        let error = #expect(throws: ServerError.self) { try server.start() }
        #expect(error?.kind == .addressInUse)
        #expect(error?.message == "cannot listen on 127.0.0.1:\(holder.port) (listener 'busy'): address already in use")
        #expect(!server.isRunning)
        server.stop()
        // The "api" socket bound before the failure was closed: the same port can be listened on again.
        var again = HTTPServerConfiguration()
        again.additionalListeners = [.init(label: "api", port: freed)]
        let second = try startServer(again, handler: Self.labelHandler)
        defer { second.stop() }
        #expect(second.port(ofListener: "api") == freed)
    }

    @Test("Empty or repeated labels are refused before anything is bound")
    func badLabels() throws {
        for labels in [["a", "a"], [""]] {
            var configuration = HTTPServerConfiguration()
            configuration.additionalListeners = labels.map { .init(label: $0) }
            let server = HTTPServer(configuration: configuration, handler: Self.labelHandler)
            let error = #expect(throws: ServerError.self) { try server.start() }
            #expect(error?.kind == .invalidAddress)
            #expect(error?.message.contains("label") == true)
        }
    }
}
