import Testing

@testable import StubServerCLI

@Suite("--shutdown-grace")
struct ShutdownGraceOptionTests {
    @Test("Seconds, whole or fractional, in both forms; 5 s by default")
    func parsesSeconds() throws {
        #expect(Options().shutdownGrace == .seconds(5))
        var expected = Options()
        expected.shutdownGrace = .milliseconds(500)
        #expect(try CommandParser.parse(["--shutdown-grace", "0.5"]) == .serve(expected))
        expected.shutdownGrace = .seconds(30)
        #expect(try CommandParser.parse(["--shutdown-grace=30"]) == .serve(expected))
        expected.shutdownGrace = .zero
        #expect(try CommandParser.parse(["--shutdown-grace", "0"]) == .serve(expected))
    }

    @Test(
        "A value that is not a number of seconds from 0 to 3600 is a usage error",
        arguments: ["soon", "-1", "3601", "nan", "inf"])
    func rejects(value: String) {
        #expect(throws: CLIError("--shutdown-grace expects seconds from 0 to 3600 (e.g. 5 or 0.5), got '\(value)'")) {
            try CommandParser.parse(["--shutdown-grace", value])
        }
    }
}
