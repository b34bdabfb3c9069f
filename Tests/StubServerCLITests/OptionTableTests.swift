import Testing

@testable import StubServerCLI

/// The serving options are declared once (`ServeOption.all`): what the parser accepts, what it suggests
/// for a misspelling and what the usage shows come from that table, so they cannot drift apart (the
/// suggestions once missed `--max-connections`).
@Suite("The option table")
struct OptionTableTests {
    @Test("Every spelling is unique and parses; every option is in the usage text")
    func everyOptionParsesAndIsDocumented() {
        #expect(Set(ServeOption.allNames).count == ServeOption.allNames.count)
        for option in ServeOption.all {
            #expect(usageText.contains("  " + option.label), "\(option.label) is not in the usage")
            for name in option.names {
                let arguments = option.value == nil ? [name] : [name, "x"]
                do {
                    _ = try CommandParser.parse(arguments)
                } catch {
                    // A bad value is fine here; an unknown option is not.
                    #expect(!error.message.hasPrefix("unknown option"), "\(name): \(error.message)")
                }
            }
        }
    }

    @Test("A misspelling of any option suggests that option")
    func everyOptionIsSuggested() {
        for name in ServeOption.allNames where name.hasPrefix("--") && name.count > 6 {
            let misspelt = String(name.dropLast())
            #expect(throws: CLIError("unknown option '\(misspelt)'; did you mean '\(name)'?")) {
                try CommandParser.parse([misspelt])
            }
        }
    }
}
