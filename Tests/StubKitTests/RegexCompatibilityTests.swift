import Foundation
import Testing

@testable import StubKit
@testable import StubMatching

/// Every regular expression the demo stubs (`Stubs/`), the examples and the tests use answers as it did
/// under `NSRegularExpression` (ICU, wrapped as `\A(?:…)\z` with dot-matches-all), the engine stubserver
/// used before its own: same compile verdict, same answer on every probe value.
struct RegexCompatibilityTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Patterns named in stub JSON (`"urlPattern": "…"`) and in the Swift DSL (`urlPattern("…")`).
    static func patterns() throws -> Set<String> {
        let json = try NSRegularExpression(
            pattern: #""(?:urlPattern|urlPathPattern|matches|doesNotMatch)"\s*:\s*"((?:[^"\\]|\\.)*)""#)
        let swift = try NSRegularExpression(
            pattern: #"(?:urlPattern|urlPathPattern|matches|doesNotMatch)[:(]\s*"((?:[^"\\]|\\.)*)""#)
        var found: Set<String> = []
        for folder in ["Stubs", "Tests", "Examples"] {
            guard
                let files = FileManager.default.enumerator(
                    at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            else { continue }
            for case let file as URL in files where ["json", "swift"].contains(file.pathExtension) {
                guard file.lastPathComponent != "java-regex-expected.json",
                    let text = try? String(contentsOf: file, encoding: .utf8)
                else { continue }
                for regex in [json, swift] {
                    for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                        guard let range = Range(match.range(at: 1), in: text) else { continue }
                        // The same unescaping for both: JSON's escapes are Swift's for what patterns hold.
                        let quoted = "\"" + text[range] + "\""
                        if let data = quoted.data(using: .utf8),
                            let value = try? JSONDecoder().decode(String.self, from: data)
                        {
                            found.insert(value)
                        }
                    }
                }
            }
        }
        return found
    }

    /// Paths and values the tests send, and near misses of them.
    static let probes: [String] = {
        var values = [
            "", "/", "x", "y", "1", "one", "GET", "POST", "a", "ab", "aaa", "h", "hello", "/hello", "/a", "/a/", "/a/1",
            "/a/12x", "/a/b", "/api/", "/api/v1/x", "/orders", "/orders/1", "/orders/2", "/file-b", "/users", "/user/x",
            "/users/", "/users/12", "/users/abc", "/users/ABC", "/users/ghost", "/users/nobody-1", "/users/a b",
            "/users/a.b", "/users/x", "/users/12/x", "/users?x=1", "/users/.json?tab=1", "/users/a?tab=x",
            "/avatars/u/12", "/avatars/u/", "/search?q=", "/search?q=abc", "/searchq=1", "/ur", "/ur/abc", "/ur/1",
            "/u2/x", "/x/1", "/orgs/y", "/users/x|/orgs/y", "application/json", "application/", "text/plain",
            "token abc", "token ", "abc123", "deadbeef", "12", "1a", "a\nb", "/aaaa", "/aaaa!", "/ab/c", "é", "😀"
        ]
        values += values.map { $0 + "/" } + values.map { $0.uppercased() }
        return values
    }()

    @Test("Each pattern in Stubs/, Examples/ and the tests answers as it did under NSRegularExpression")
    func sameAsBefore() throws {
        let patterns = try Self.patterns()
        #expect(patterns.count >= 40)
        var differences: [String] = []
        for pattern in patterns.sorted() {
            let compiled = CompiledRegex(pattern)
            let old = try? NSRegularExpression(
                pattern: "\\A(?:" + pattern + ")\\z", options: [.dotMatchesLineSeparators])
            guard let old else {
                if compiled.compileError == nil {
                    differences.append("\(pattern.debugDescription): ICU refused it, now it compiles")
                }
                continue
            }
            guard compiled.compileError == nil else {
                differences.append("\(pattern.debugDescription): compiled before, now \(compiled.compileError ?? "")")
                continue
            }
            for value in Self.probes where pattern != "/(a+)+$" || value.count < 20 {
                let before = old.firstMatch(in: value, range: NSRange(location: 0, length: value.utf16.count)) != nil
                if compiled.wholeMatch(value) != before {
                    differences.append(
                        "\(pattern.debugDescription) on \(value.debugDescription): before \(before), now \(String(describing: compiled.wholeMatch(value)))"
                    )
                }
            }
        }
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }
}
