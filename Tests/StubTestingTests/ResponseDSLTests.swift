import Foundation
import StubServerTestSupport
import StubTesting
import Testing

/// The response DSL as a user writes it: one chainable style, in any order, with `Duration` delays
/// and WireMock's names as aliases. Checked on the wire.
@Suite("The response DSL", .stubServer())
struct ResponseDSLTests {
    @Test("Body, status, header and delay chain in any order")
    func chainsInAnyOrder() async throws {
        let server = try #require(StubServer.current)
        server.stub(.post("/repos"), .json(["id": 1]).status(201).header("Location", "/repos/1"))
        server.stub(.get("/teapot"), .status(418).statusMessage("I'm a teapot").text("short and stout"))
        server.stub(.get("/cookies"), .ok.header("Set-Cookie", ["a=1", "b=2"]).headers(["X-A": "1", "X-B": "2"]))

        let created = try await HTTP.send(server, "POST", "/repos")
        #expect(created.status == 201)
        #expect(created.header("Location") == "/repos/1")
        #expect(created.header("Content-Type") == "application/json")
        #expect(created.text == #"{"id":1}"#)
        let teapot = try await HTTP.get(server, "/teapot")
        #expect(teapot.status == 418)
        #expect(teapot.text == "short and stout")
        let cookies = try await HTTP.get(server, "/cookies")
        #expect(cookies.header("X-B") == "2")
    }

    @Test("WireMock's names are aliases of the Swift-style ones")
    func wireMockAliases() {
        let swift: ResponseDefinition = .ok.status(201).statusMessage("Made").header("X", "y")
            .headers(["Z": "1"]).text("t").delay(.milliseconds(300))
        let wireMock: ResponseDefinition = .ok.withStatus(201).withStatusMessage("Made").withHeader("X", "y")
            .withHeaders(["Z": "1"]).withBody("t").withFixedDelay(300)
        #expect(swift == wireMock)
        #expect(ResponseDefinition.ok.withJsonBody(["a": 1]) == .json(["a": 1]))
        #expect(ResponseDefinition.ok.withBodyFile("a.json") == .file("a.json"))
    }

    @Test("Every modifier can also start a response, from an empty 200 OK")
    func leadingModifiers() async throws {
        let ok = ResponseDefinition.ok
        let rows: [(leading: ResponseDefinition, chained: ResponseDefinition)] = [
            (.withStatus(201), .status(201)),
            (.statusMessage("Fine"), ok.statusMessage("Fine")),
            (.withStatusMessage("Fine"), ok.statusMessage("Fine")),
            (.header("X", "y"), ok.header("X", "y")),
            (.withHeader("X", "y"), ok.header("X", "y")),
            (.header("Set-Cookie", ["a=1", "b=2"]), ok.header("Set-Cookie", ["a=1", "b=2"])),
            (.withHeader("Set-Cookie", ["a=1", "b=2"]), ok.header("Set-Cookie", ["a=1", "b=2"])),
            (.headers(["X": "1"]), ok.headers(["X": "1"])),
            (.withHeaders(["X": "1"]), ok.headers(["X": "1"])),
            (.delay(.seconds(1)), ok.delay(.seconds(1))),
            (.withFixedDelay(300), ok.delay(.milliseconds(300))),
            (.withBody("t"), .text("t")),
            (.withJsonBody(["a": 1]), .json(["a": 1])),
            (.withBodyFile("a.json"), .file("a.json")),
            (.withDelay(milliseconds: 250), ok.delay(.milliseconds(250))),
            (.withDelay(uniform: 10...20), ok.withDelay(uniform: 10...20)),
            (.withDelay(lognormalMedian: 80, sigma: 0.4), ok.withDelay(lognormalMedian: 80, sigma: 0.4)),
            (
                .withDelayDistribution(.uniform(lower: 1, upper: 2)),
                ok.withDelayDistribution(.uniform(lower: 1, upper: 2))
            ),
            (
                .withChunkedDribble(chunks: 3, totalMilliseconds: 300),
                ok.withChunkedDribble(chunks: 3, totalMilliseconds: 300)
            ),
            (.withBandwidth(bytesPerSecond: 1_000), ok.withBandwidth(bytesPerSecond: 1_000)),
            (.withFault(.connectionReset), .fault(.connectionReset)),
            // Chained after a leading modifier, the instance members apply (headers keep the order they were set).
            (
                .header("X", "y").status(201).delay(.seconds(2)).json(["id": 1]),
                ok.header("X", "y").json(["id": 1]).delay(.seconds(2)).status(201)
            ),
            (
                .delay(.milliseconds(5)).withStatus(202).withHeader("X", "y"),
                .status(202).header("X", "y").delay(.milliseconds(5))
            )
        ]
        for row in rows { #expect(row.leading == row.chained) }
        #expect(ResponseDefinition.delay(.seconds(1)).fixedDelayMilliseconds == 1_000)

        let server = try #require(StubServer.current)
        server.stub(.post("/created"), .withStatus(201))
        server.stub(.get("/tagged"), .header("X-Tag", "v1"))
        #expect(try await HTTP.send(server, "POST", "/created").status == 201)
        let tagged = try await HTTP.get(server, "/tagged")
        #expect(tagged.status == 200)
        #expect(tagged.header("X-Tag") == "v1")
        #expect(tagged.text == "")
    }

    @Test(
        "A Duration delay is stored in whole milliseconds, rounded up",
        arguments: [
            (Duration.seconds(2), 2_000), (.milliseconds(300), 300), (.microseconds(1), 1),
            (.milliseconds(1) + .nanoseconds(1), 2), (.zero, 0), (.seconds(-1), 0)
        ])
    func durations(duration: Duration, milliseconds: Int) {
        #expect(ResponseDefinition.ok.delay(duration).fixedDelayMilliseconds == milliseconds)
    }

    @Test("A delayed stub answers after its Duration")
    func delayOnTheWire() async throws {
        let server = try #require(StubServer.current)
        server.stub(.get("/slow"), .json(["ok": true]).delay(.milliseconds(200)))
        let clock = ContinuousClock()
        let started = clock.now
        let response = try await HTTP.get(server, "/slow")
        #expect(response.status == 200)
        #expect(clock.now - started >= .milliseconds(200))
    }
}
