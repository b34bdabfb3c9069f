import Foundation
import StubHTTP
import StubTestSupport
import Testing

@testable import StubKit

/// `Configuration.fakeDataSeed` (`--faker-seed`) over real sockets: a stub's values depend on the seed
/// and on how many times that stub has answered, not on requests to other stubs.
@Suite("Fake data: a seeded server repeats its values")
struct FakeDataSeedServerTests {
    private static func startServer(seed: UInt64?) throws -> StubServer {
        var configuration = StubServer.Configuration()
        configuration.logsUnmatchedRequests = false
        configuration.fakeDataSeed = seed
        let server = try StubServer(configuration: configuration)
        try server.start()
        for path in ["person", "other"] {
            _ = try server.stub(
                mappingJSON: """
                    {"id": "5d1f6a8e-0000-4000-8000-00000000000\(path == "person" ? 1 : 2)",
                     "request": {"urlPath": "/\(path)"},
                     "response": {"transformers": ["response-template"],
                                  "jsonBody": {"name": "{{fake 'Name.fullName'}}", "email": "{{random 'Internet.emailAddress'}}",
                                               "id": "{{fake 'Internet.uuid'}}", "city": "{{fake 'Address.city'}}"}}}
                    """)
        }
        return server
    }

    private static func get(_ server: StubServer, _ path: String) throws -> String {
        let response = try LoopbackClient.request(port: server.port, "GET", path)
        return String(decoding: response.body, as: UTF8.self)
    }

    @Test("the same seed gives the same values in two servers, however requests to other stubs interleave")
    func sameSeed() throws {
        let first = try Self.startServer(seed: 2026)
        defer { first.stop() }
        let second = try Self.startServer(seed: 2026)
        defer { second.stop() }
        var fromFirst: [String] = []
        var fromSecond: [String] = []
        for index in 0..<4 {
            fromFirst.append(try Self.get(first, "/person"))
            if index % 2 == 0 { _ = try Self.get(second, "/other") }
            _ = try Self.get(second, "/other")
            fromSecond.append(try Self.get(second, "/person"))
        }
        #expect(fromFirst == fromSecond)
        #expect(Set(fromFirst).count == 4, "each answer of the stub has its own values")
        #expect(fromFirst[0].contains("@") && fromFirst[0].contains("\"name\""))
    }

    @Test("another seed, or none, gives other values")
    func otherSeed() throws {
        let first = try Self.startServer(seed: 1)
        defer { first.stop() }
        let second = try Self.startServer(seed: 2)
        defer { second.stop() }
        let unseeded = try Self.startServer(seed: nil)
        defer { unseeded.stop() }
        let values = try [first, second, unseeded].map { try Self.get($0, "/person") }
        #expect(Set(values).count == 3)
    }
}
