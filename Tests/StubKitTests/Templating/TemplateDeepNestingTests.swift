import StubHTTP
import StubTestSupport
import Testing

@testable import StubKit
@testable import StubTemplating

/// Parsing, rendering and releasing a template recurse per level of blocks and `(sub expressions)`; a stub
/// posted to the admin API or read from a file is parsed on a thread with a 512 KiB stack on a Mac, and a
/// stack overflow takes the whole server down. These run on such a thread, in the debug build `swift test` makes.
@Suite("Deeply nested templates on a 512 KiB stack")
struct TemplateDeepNestingTests {
    /// `{{#if true}}` … `levels` deep … `x` … `{{/if}}`.
    static func blocks(_ levels: Int, inner: String = "x") -> String {
        String(repeating: "{{#if true}}", count: levels) + inner + String(repeating: "{{/if}}", count: levels)
    }

    /// `{{#if false}}a{{else if false}}a` … `branches` `{{else if}}`s … `{{else}}x{{/if}}`.
    static func elseIfChain(_ branches: Int) -> String {
        "{{#if false}}a" + String(repeating: "{{else if false}}a", count: branches) + "{{else}}x{{/if}}"
    }

    /// `{{upper (upper (… 'x' …))}}` with `levels` sub-expressions.
    static func subexpressions(_ levels: Int) -> String {
        "{{upper " + String(repeating: "(upper ", count: levels) + "'x'" + String(repeating: ")", count: levels) + "}}"
    }

    /// Parses and renders `text` on a 512 KiB stack (or `stackSize`): the rendered text, or the error's description.
    static func outcome(_ text: String, stackSize: Int = SmallStackThread.darwinDefaultStackSize) -> String {
        SmallStackThread.run(stackSize: stackSize) {
            do throws(TemplateError) {
                let template = try Template(text)
                return "rendered: " + template.render(for: HTTPRequest(method: .get, target: "/"))
            } catch {
                return error.description
            }
        }
    }

    /// Half of a Mac's stack: what a template at the limits may use, leaving the rest to whoever parses it
    /// (the admin API's request handling, a stub file's JSON).
    static let halfStack = SmallStackThread.darwinDefaultStackSize / 2

    @Test("Blocks or sub-expressions at their limit parse and render in half a Mac's stack; both at once in all of it")
    func atTheLimits() {
        let blocks = TemplateParser.maxBlockDepth, expressions = TemplateParser.maxExpressionDepth
        #expect(Self.outcome(Self.blocks(blocks), stackSize: Self.halfStack) == "rendered: x")
        #expect(Self.outcome(Self.elseIfChain(blocks - 1), stackSize: Self.halfStack) == "rendered: x")
        #expect(Self.outcome(Self.subexpressions(expressions), stackSize: Self.halfStack) == "rendered: X")
        // The deepest a template can be, on a whole 512 KiB stack: sub-expressions as deep as they may be in
        // the innermost block's tag and body.
        let innermost =
            "{{#if " + String(repeating: "(not ", count: expressions) + "true"
            + String(repeating: ")", count: expressions)
            + "}}" + Self.subexpressions(expressions) + "{{/if}}"
        #expect(Self.outcome(Self.blocks(blocks - 1, inner: innermost)) == "rendered: X")
    }

    @Test(
        "Nesting past the limits is a syntax error at the tag that goes too deep, not a crash",
        arguments: [
            (
                blocks(TemplateParser.maxBlockDepth + 1),
                "1:385: blocks nested deeper than 32 (each {{else if …}} counts as one more level)"
            ),
            (blocks(1000), "1:385: blocks nested deeper than 32 (each {{else if …}} counts as one more level)"),
            (blocks(100_000), "1:385: blocks nested deeper than 32 (each {{else if …}} counts as one more level)"),
            (
                "{{#if false}}\n" + String(repeating: "{{else if false}}\n", count: 1000) + "{{/if}}",
                "33:1: blocks nested deeper than 32 (each {{else if …}} counts as one more level)"
            ),
            (
                String(repeating: "{{^x}}", count: 1000),
                "1:193: blocks nested deeper than 32 (each {{else if …}} counts as one more level)"
            ),
            (subexpressions(TemplateParser.maxExpressionDepth + 1), "1:233: sub-expressions nested deeper than 32"),
            (subexpressions(2000), "1:233: sub-expressions nested deeper than 32"),
            (subexpressions(100_000), "1:233: sub-expressions nested deeper than 32")
        ])
    func hostile(_ row: (template: String, expected: String)) {
        #expect(Self.outcome(row.template) == row.expected)
    }
}
