import Testing

@testable import StubServerCLI

@Suite("Command-line parsing: --faker-seed")
struct FakerSeedOptionTests {
    @Test("--faker-seed sets the seed of templates' fake data; without it there is none")
    func seed() throws {
        var expected = Options()
        expected.fakeDataSeed = 42
        #expect(try CommandParser.parse(["--faker-seed", "42"]) == .serve(expected))
        #expect(try CommandParser.parse(["--faker-seed=42"]) == .serve(expected))
        expected.fakeDataSeed = UInt64.max
        #expect(try CommandParser.parse(["--faker-seed", "18446744073709551615"]) == .serve(expected))
        #expect(Options().fakeDataSeed == nil)
        #expect(usageText.contains("--faker-seed N"))
    }

    @Test(
        "A seed that is not a whole number is a usage error naming the option",
        arguments: ["many", "-1", "4.2", "", "18446744073709551616"])
    func notANumber(_ text: String) {
        #expect(
            throws: CLIError(
                "--faker-seed expects a whole number from 0 to 18446744073709551615, e.g. 42, got '\(text)'")
        ) {
            try CommandParser.parse(["--faker-seed", text])
        }
    }

    @Test("STUBSERVER_OPTIONS can carry it, as every option")
    func environment() throws {
        let arguments = try OptionsEnvironment.arguments([], environment: ["STUBSERVER_OPTIONS": "--faker-seed 7"])
        var expected = Options()
        expected.fakeDataSeed = 7
        #expect(try CommandParser.parse(arguments) == .serve(expected))
    }
}
