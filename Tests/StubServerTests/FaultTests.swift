import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `fault`: each broken response is seen by real clients (curl, URLSession) as the failure it names,
/// from the Swift DSL and from mapping JSON alike; the server keeps serving afterwards.
@Suite("Faults")
struct FaultTests {
    /// (fault, curl's exit code, curl's message, URLSession's error codes). FoundationNetworking on Linux
    /// is built on libcurl and maps curl's errors (observed); Apple's URLSession has its own parser, so
    /// there any of the "broken response" codes is accepted.
    static let cases: [(ResponseFault, Int32, String, Set<URLError.Code>)] = [
        (.connectionReset, 56, "Connection reset by peer", [.networkConnectionLost]),
        (.emptyResponse, 52, "Empty reply from server", platform([.badServerResponse])),
        (.malformedResponseChunk, 56, "chunk", platform([.unknown])),
        (.randomDataThenClose, 1, "HTTP/0.9", platform([.unsupportedURL]))
    ]

    private static func platform(_ linux: Set<URLError.Code>) -> Set<URLError.Code> {
        #if os(Linux)
            return linux
        #else
            return [.networkConnectionLost, .badServerResponse, .cannotParseResponse, .unknown, .zeroByteResource]
        #endif
    }

    @Test("curl fails with the fault's exit code; the server keeps serving", arguments: cases)
    func curlSeesFault(_ fault: ResponseFault, _ code: Int32, _ message: String, _: Set<URLError.Code>) async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            let stubLine = #line + 1
            server.stub(.get("/dsl"), .fault(fault))
            try server.stub(mappingJSON: #"{"request": {"url": "/file"}, "response": {"fault": "\#(fault.rawValue)"}}"#)
            server.stub(.get("/hello"), .text("hello"))
            for path in ["/dsl", "/file"] {
                let result = try await Curl.exitCode(server.baseURL.absoluteString + path)
                #expect(result.code == code, "\(fault) \(path): \(result.stderr)")
                #expect(result.stderr.contains(message), "\(fault) \(path): \(result.stderr)")
            }
            #expect(try await HTTP.get(server, "/hello").text == "hello")
            #expect(server.requests.map(\.request.path) == ["/dsl", "/file", "/hello"])
            // The journal says which fault was sent, in-process, in the admin API's serve events (as WireMock:
            // "response": {"status": 200, "fault": "…"}) and through a client reading them back.
            #expect(server.requests.map(\.fault) == [fault, fault, nil])
            #expect(
                server.requests[0].description
                    == "GET /dsl → 200, fault \(fault.rawValue) (GET /dsl (FaultTests.swift:\(stubLine)))")
            let remote = try await StubServerClient(baseURL: server.baseURL).requests
            #expect(remote.map(\.fault) == [fault, fault, nil])
            let events = try await HTTP.get(server, "/__admin/requests").text
            #expect(
                events.range(of: #""fault"\s*:\s*"\#(fault.rawValue)""#, options: .regularExpression) != nil,
                "\(events.prefix(600))")
        }
    }

    @Test("URLSession reports a network error for each fault", arguments: cases)
    func urlSessionSeesFault(_ fault: ResponseFault, _: Int32, _: String, _ codes: Set<URLError.Code>) async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            server.stub(.get("/broken"), .fault(fault))
            do {
                let response = try await HTTP.get(server, "/broken")
                Issue.record("\(fault): expected an error, got \(response.status) \(response.text)")
            } catch let error as URLError {
                #expect(codes.contains(error.code), "\(fault): \(error.code.rawValue) \(error)")
            }
        }
    }

    @Test("A reset is a TCP reset on the wire (ECONNRESET), not a clean close")
    func resetIsRST() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            server.stub(.get("/reset"), .fault(.connectionReset))
            server.stub(.get("/empty"), .fault(.emptyResponse))
            let port = server.port
            let received = try await offPool {
                let reset = try TimedClient(port: port)
                try reset.sendGet("/reset")
                return reset.readToEnd()
            }
            #expect(received.bytes.isEmpty)
            #expect(received.errorNumber == TimedClient.connectionReset)
            let closed = try await offPool {
                let empty = try TimedClient(port: port)
                try empty.sendGet("/empty")
                return empty.readToEnd()
            }
            #expect(closed.bytes.isEmpty)
            #expect(closed.errorNumber == nil)
        }
    }
}
