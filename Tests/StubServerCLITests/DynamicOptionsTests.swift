import StubKit
import Testing

@testable import StubServerCLI

@Suite("Command-line options for delays and slow networks")
struct DynamicOptionsTests {
    @Test("--global-delay, --network and --bandwidth are read")
    func read() throws {
        var expected = Options()
        expected.globalDelayMilliseconds = 250
        expected.network = .threeG
        expected.bytesPerSecond = 20_000
        #expect(
            try CommandParser.parse(["--global-delay", "250", "--network", "3g", "--bandwidth", "20000"])
                == .serve(expected))
        #expect(
            try CommandParser.parse(["--global-delay=250", "--network=3G", "--bandwidth=20000"]) == .serve(expected))
    }

    @Test(
        "Bad values name the option and what it expects",
        arguments: [
            (["--global-delay", "-1"], "--global-delay expects milliseconds from 0 to 3600000, got '-1'"),
            (["--global-delay", "soon"], "--global-delay expects milliseconds from 0 to 3600000, got 'soon'"),
            (["--network", "5g"], "--network expects one of edge, 3g, lte, wifi, got '5g'"),
            (["--bandwidth", "0"], "--bandwidth expects bytes per second (a number above 0), got '0'"),
            (["--netwrok", "lte"], "unknown option '--netwrok'; did you mean '--network'?")
        ])
    func errors(arguments: [String], message: String) {
        #expect(throws: CLIError(message)) { try CommandParser.parse(arguments) }
    }

    @Test("The usage text lists the options")
    func usage() {
        for option in ["--global-delay MS", "--network NAME", "--bandwidth BYTES"] {
            #expect(usageText.contains(option))
        }
    }
}
