import Foundation
import StubTestSupport
import Testing

@testable import StubServerCLI

/// The commands the CLI suggests can be pasted into a shell as printed: each word reads back as itself.
@Suite("Shell words")
struct ShellWordTests {
    static let words = [
        "Login=LoggedIn", "Cart=Has item", "it's", "a'b'c", "", "$HOME", "a;b", "tab\there", "new\nline", "*",
        "back\\slash", "\"quoted\"", "Cart=Größe", "-x", "a=b=c", "!", "~user", "#comment"
    ]

    @Test("Plain words stay as they are; others are single-quoted")
    func forms() {
        #expect(ShellWord.quoted("Login=LoggedIn") == "Login=LoggedIn")
        #expect(ShellWord.quoted("Cart=Has item") == "'Cart=Has item'")
        #expect(ShellWord.quoted("it's") == #"'it'\''s'"#)
        #expect(ShellWord.quoted("") == "''")
    }

    @Test("/bin/sh reads every quoted word back unchanged")
    func shellReadsThemBack() throws {
        let script = Self.words.map { "printf '%s\\0' " + ShellWord.quoted($0) }.joined(separator: "\n")
        let run = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script])
        #expect(run.succeeded, "\(run.standardError)")
        let read = run.standardOutput.split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(
            String.init)
        #expect(read == Self.words)
    }
}
