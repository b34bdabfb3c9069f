import Testing

@testable import StubKit

@Suite("Response templates: syntax errors name the line and column")
struct TemplateSyntaxErrorTests {
    // Errors about a tag point at the tag (`{{`); errors about a helper's arguments at the helper's name.
    static let rows: [(template: String, expected: String)] = [
        ("line1\n  {{#if x}}\n", "2:3: {{#if}} is never closed (expected {{/if}})"),  // WM: found <EOF>, expected {{/
        // WM: found 'each', expected 'if'
        ("{{#if x}}x{{/each}}", "1:11: {{/each}} does not close {{#if}} opened at 1:1"),
        ("a {{request.path", "1:17: unexpected end of template, expected '}}'"),
        ("{{{request.body}}", "1:17: expected '}}'"),
        ("x {{/if}}", "1:3: {{/if}} closes no open block"),
        ("{{else}}", "1:1: {{else}} outside a block"),
        ("{{! never closed", "1:1: comment is never closed (expected '}}')"),
        ("{{#frobnicate}}{{/nope}}", "1:16: {{/nope}} does not close {{#frobnicate}} opened at 1:1"),
        ("{{> partial}}", "1:1: partials ({{> name}}) are not supported"),
        (
            "{{jsonPath request.body '$.a['}}",
            "1:3: invalid JSONPath \"$.a[\" at offset 4: expected an index, a quoted name, '*' or '?('"
        ),
        (
            "{{jsonPath request.body}}",
            "1:3: jsonPath expects a JSON value and a path: {{jsonPath request.body '$.name'}}"
        ),
        // WM: at request time
        ("é\n\t{{now format='not a format Q'}}", "2:4: now: illegal pattern character 'n' in format 'not a format Q'"),
        (
            "{{now offset='3 fortnights'}}",
            "1:3: now: offset unit 'fortnights' is not one of seconds, minutes, hours, days, weeks, months, years"
        ),
        ("{{now timezone='Not/AZone'}}", "1:3: now: unknown time zone 'Not/AZone'"),  // WM: at request time
        (
            "{{randomValue type='WORDS'}}",
            "1:3: randomValue: unknown type 'WORDS'; expected one of ALPHANUMERIC, ALPHABETIC, NUMERIC, HEXADECIMAL, UUID, ALPHANUMERIC_AND_SYMBOLS"
        ),
        ("{{eq 'a'}}", "1:3: eq expects two arguments"),
        ("{{request.path 'x'}}", "1:3: unknown helper 'request.path'"),
        ("{{upper 'x' 'y'}}", "1:3: upper expects one argument"),
        ("{{lookup request.query a=1 'b'}}", "1:28: arguments must come before name=value options"),
        ("{{eq 'a' 'b}}", "1:10: string is never closed"),
        ("{{#each (jsonPath request.body '$.a'}}{{/each}}", "1:37: expected a name, found '}'"),
        ("{{request.headers.[X-A}}", "1:19: '[' is never closed"),
        (
            "{{#each request.query as |a b c|}}{{/each}}",
            "1:23: expected one or two block parameters, as |item| or |item index|"
        ),
        ("{{#each request.query as |a}}{{/each}}", "1:28: expected '|' to end the block parameters"),
        ("{{#each request.query as |a| x}}{{/each}}", "1:30: block parameters (as |name|) must come last in the tag")
    ]

    @Test("A bad template is rejected with its position", arguments: rows)
    func rejects(_ row: (template: String, expected: String)) {
        #expect(throws: TemplateError.self) { try Template(row.template) }
        do {
            _ = try Template(row.template)
        } catch {
            #expect(error.description == row.expected)
        }
    }
}
