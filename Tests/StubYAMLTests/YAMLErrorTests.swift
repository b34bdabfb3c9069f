import StubModel
import StubTestSupport
import Testing

@testable import StubYAML

/// Refusals: each with the line and column of the offending character and its exact message; and the limits, which
/// end hostile input quickly with an error, never a hang, a huge allocation or a stack overflow.
struct YAMLErrorTests {
    private func error(_ text: String, limits: YAMLLimits = .default) -> YAMLError? {
        do throws(YAMLError) {
            _ = try YAML.parse(text, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "each refusal names the line and column of the offending character",
        arguments: [
            ("a:\n\tb: 1", 2, 1, "found a tab character used as indentation"),
            ("a: 1\nb:\n  c: 2\n\td: 3", 4, 1, "found a tab character used as indentation"),
            ("---\na: 1\n---\nb: 2", 3, 1, "a stream with more than one document: a second document starts here"),
            ("a: 1\n...\nb: 2", 3, 1, "a stream with more than one document: a second document starts here"),
            ("a: 1\na: 2", 2, 1, "duplicate key \"a\""),
            ("{a: 1, b: 2, a: 3}", 1, 14, "duplicate key \"a\""),
            ("x:\n  - 1\n  y: 2", 3, 3, "expected a '- ' sequence entry, found a mapping key"),
            ("a: \"unterminated", 1, 17, "found the end of the stream inside a quoted scalar"),
            (#"a: "\q""#, 1, 5, "unknown escape sequence \\q"),
            (#"a: "\u12""#, 1, 9, "expected 4 hexadecimal digits in escape sequence \\u"),
            (#"a: "\ud800""#, 1, 5, "escape sequence \\ud800 is not a Unicode scalar value"),
            ("a: !foo bar", 1, 4, "unsupported tag !foo: only !!str, !!int, !!float, !!bool, !!null, !!map and !!seq"),
            (
                "é: !!binary aGk=", 1, 4,
                "unsupported tag !!binary: only !!str, !!int, !!float, !!bool, !!null, !!map and !!seq"
            ),
            ("a: !!int abc", 1, 10, "\"abc\" is not a valid !!int value"),
            ("a: !!int 1.5", 1, 10, "\"1.5\" is not a valid !!int value"),
            ("a: !!map x", 1, 4, "tag !!map on a scalar"),
            ("a: !!seq {b: 1}", 1, 4, "tag !!seq on a mapping"),
            ("a: .inf", 1, 4, ".inf has no JSON value"),
            ("b: [-.INF]", 1, 5, "-.INF has no JSON value"),
            ("c: .NaN", 1, 4, ".NaN has no JSON value"),
            ("key: value: other", 1, 11, "mapping values are not allowed here"),
            ("a: [1, 2", 1, 9, "expected ',' or ']' in a flow sequence, found the end of the stream"),
            ("a: {b: 1\n", 2, 1, "expected ',' or '}' in a flow mapping, found the end of the stream"),
            ("a: ]", 1, 4, "found ']' outside a flow collection"),
            ("[a, b]: c", 1, 1, "a mapping key must be a scalar, not a sequence"),
            ("? - a\n: b", 1, 3, "a mapping key must be a scalar, not a sequence"),
            ("? {a: 1}\n: b", 1, 3, "a mapping key must be a scalar, not a mapping"),
            ("a: &m {b: 1}\n? *m\n: c", 2, 3, "a mapping key must be a scalar"),
            ("a: *nothing", 1, 4, "alias *nothing names no anchor defined before it"),
            ("a: 1\nb\nc: 2", 2, 1, "could not find expected ':' after this key"),
            ("a: |0\n  x", 1, 5, "a block scalar's indentation indicator must be 1 to 9, not 0"),
            ("a: |x", 1, 5, "expected a comment or a line break after a block scalar indicator, found 'x'"),
            ("x: &a 1\ny:\n  <<: *a", 3, 7, "a merge key (<<) takes a mapping or a sequence of mappings"),
            ("- a\nb: 1", 2, 1, "expected a '- ' sequence entry, found a mapping key"),
            ("a: 'x\n--- \ny'", 2, 1, "found a document marker inside a quoted scalar"),
            ("%YAML 1.2\na: 1", 2, 1, "expected '---' after directives, found a block mapping"),
            ("a: @x", 1, 4, "found character '@' that cannot start any token"),
            ("- [a, - b]", 1, 7, "a block sequence entry ('- ') inside a flow collection"),
            ("\"a\":1", 1, 4, "expected the end of the document, found a scalar"),
            ("a: &x &y 1\n", 1, 7, "a node with two anchors")
        ])
    func refusal(_ text: String, line: Int, column: Int, message: String) {
        #expect(error(text) == YAMLError(line: line, column: column, message: message), "\(text)")
    }

    @Test("the description is 'line L, column C: message'")
    func description() {
        #expect(error("a: 1\na: 2")?.description == "line 2, column 1: duplicate key \"a\"")
    }

    @Test("a billion laughs ends with an error naming the alias that goes past maxAliasExpansion")
    func billionLaughs() {
        var text = "a: &a [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n"
        let names = "abcdefghij".map(String.init)
        for level in 1..<names.count {
            let previous = names[level - 1]
            text +=
                "\(names[level]): &\(names[level]) ["
                + Array(repeating: "*\(previous)", count: 9).joined(separator: ", ")
                + "]\n"
        }
        let failure = error(text)
        // b to f's aliases produce 672,588 nodes; g's first *f (597,871 more) passes a million.
        #expect(failure?.message == "alias *f takes the nodes produced via aliases past 1000000 (maxAliasExpansion)")
        #expect(failure?.line == 7)
        #expect(failure?.column == 8)
        var tight = YAMLLimits()
        tight.maxAliasExpansion = 20
        #expect(error("a: &a [1, 2, 3]\nb: [*a, *a, *a, *a, *a, *a]", limits: tight)?.column == 25)
    }

    @Test("nesting deeper than maxDepth is an error, not a stack overflow, on a 512 KiB stack")
    func deepNesting() {
        let outcome: [String] = SmallStackThread.run { () -> [String] in
            let flow = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
            let flowMappings = String(repeating: "{a: ", count: 10_000) + "1" + String(repeating: "}", count: 10_000)
            let compact = String(repeating: "- ", count: 10_000) + "x"
            var block = ""
            for level in 0..<300 { block += String(repeating: " ", count: level) + "a:\n" }
            let atLimit = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
            return [flow, flowMappings, compact, block, atLimit].map { (text: String) -> String in
                do {
                    _ = try YAML.parse(text)
                    return "parsed"
                } catch {
                    return "\(error)"
                }
            }
        }
        #expect(
            outcome == [
                "line 1, column 257: collections nested deeper than 256 levels (maxDepth)",
                "line 1, column 1025: collections nested deeper than 256 levels (maxDepth)",
                "line 1, column 513: collections nested deeper than 256 levels (maxDepth)",
                "line 257, column 257: collections nested deeper than 256 levels (maxDepth)",
                "parsed"
            ])
    }

    @Test("text longer than maxBytes is refused before reading")
    func maxBytes() {
        var limits = YAMLLimits()
        limits.maxBytes = 10
        #expect(
            error("a: 12345678901", limits: limits)
                == YAMLError(line: 1, column: 1, message: "the document is 14 bytes, more than 10 (maxBytes)"))
        #expect((try? YAML.parse("a: 1234567", limits: limits)) == .object([("a", .number("1234567"))]))
    }

    @Test("columns count characters, not bytes")
    func columnsInCharacters() {
        #expect(error("clé: \"日本\\q\"")?.column == 9)
    }
}
