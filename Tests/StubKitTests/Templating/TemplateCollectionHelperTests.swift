import StubHTTP
import Testing

@testable import StubKit
@testable import StubTemplating

/// Expected outputs are WireMock 2.35.1's (rendered by the jar with `response-template`).
@Suite("Response templates: collection, random and form helpers")
struct TemplateCollectionHelperTests {
    static let form = "a=1&b=x&b=y&c=h%20i+j&d&e=&q=r=s"

    static let rows: [TemplateRow] = [
        TemplateRow(
            "{{range 1 5}}|{{#each (range 3 5)}}[{{this}}]{{/each}}|{{size (range 0 9)}}|{{range 2 2}}|{{range -1 1}}|{{range '2' '4'}}",
            "[1, 2, 3, 4, 5]|[3][4][5]|10|[2]|[-1, 0, 1]|[2, 3, 4]"),
        TemplateRow(
            "{{range 1}}", "[ERROR: The range helper requires both lower and upper bounds as integer parameters]"),
        TemplateRow(
            "{{array 1 'two' 3.5}}|{{array}}|{{#each (array 'a' 'b')}}{{@index}}{{this}}{{/each}}|{{size (array 1 2)}}|{{array 'x'}}|{{array request.query.nope}}",
            "[1, two, 3.5]|[]|0a1b|2|[x]|[]"),
        TemplateRow(
            "{{join (array 'a' 'b') ','}}|{{join (range 1 3) '-'}}|{{contains (array 'a' 'b') 'b'}}|{{pickRandom (range 7 7)}}",
            "a,b|1-2-3|true|7"),
        TemplateRow("{{pickRandom 'a'}}|{{pickRandom (array 'z')}}|{{pickRandom 5}}", "a|z|5"),
        TemplateRow("{{randomInt lower=5 upper=6}}|{{randomInt lower='3' upper='4'}}", "5|3"),
        TemplateRow(
            "{{#assign 'v'}}  x y  {{/assign}}[{{v}}]|{{#each (array 1 2)}}{{v}}{{/each}}|{{#assign 'n'}}3{{/assign}}{{math n '+' 1}}|{{assign 'w' 'x'}}[{{w}}]",
            "[x y]|x yx y|4|[]"),
        TemplateRow(
            "{{formData request.body 'f'}}{{f.a}}|{{f.b}}|{{f.b.[1]}}|{{f.c}}|{{size f.b}}|{{f.d}}|{{f.e}}|{{f.q}}|{{f}}|{{#each f}}{{@key}}:{{this}};{{/each}}",
            "1|x|y|h%20i+j|2|||r|{a&#x3D;1, b&#x3D;x, c&#x3D;h%20i+j, q&#x3D;r}|a:1;b:x;c:h%20i+j;q:r;",
            method: "POST", body: form),
        TemplateRow(
            "{{formData request.body 'g' urlDecode=true}}{{g.c}}|{{g.a}}|{{lookup (formData request.body) 'a'}}|{{formData request.body}}|{{size (formData request.body)}}",
            "h i j|1|1|{a&#x3D;1, b&#x3D;x, c&#x3D;h%20i+j}|3", method: "POST", body: "a=1&b=x&b=y&c=h%20i+j")
    ]

    @Test("Collection, random and form helpers answer as in WireMock", arguments: rows)
    func renders(_ row: TemplateRow) throws {
        let rendered = try row.render()
        #expect(rendered == row.expected)
    }

    @Test("randomInt stays in [lower, upper), randomDecimal in [lower, upper)")
    func randomBounds() throws {
        let template = try Template("{{randomInt lower=-3 upper=4}} {{randomDecimal lower=1.5 upper=2.5}}")
        for seed in UInt64(0)..<200 {
            let parts = template.render(for: HTTPRequest(method: .get, target: "/"), now: 0, seed: seed)
                .split(separator: " ")
            let integer = try #require(Int(parts[0])), decimal = try #require(Double(parts[1]))
            #expect((-3..<4).contains(integer))
            #expect(decimal >= 1.5 && decimal < 2.5)
        }
    }

    /// WireMock 3's ResponseTemplateTransformerTest: `count=3` gives three distinct items (`\d \d \d size=3`),
    /// `count=8` of five gives all five.
    @Test("pickRandom count= picks that many distinct items, at most all of them")
    func pickRandomCount() throws {
        let three = try Template(
            "{{val (pickRandom (array 1 2 3 4 5) count=3) assign='result'}}{{result.0}} {{result.1}} {{result.2}} size={{size result}}"
        )
        let all = try Template("{{val (pickRandom (array 1 2 3 4 5) count=8) assign='result'}}{{size result}}")
        for seed in UInt64(0)..<100 {
            let request = HTTPRequest(method: .get, target: "/")
            let rendered = three.render(for: request, now: 0, seed: seed)
            #expect(rendered.hasSuffix(" size=3"))
            let picked = rendered.dropLast(" size=3".count).split(separator: " ").compactMap { Int($0) }
            #expect(picked.count == 3 && Set(picked).count == 3 && picked.allSatisfy { (1...5).contains($0) })
            #expect(all.render(for: request, now: 0, seed: seed) == "5")
        }
    }

    @Test("hostname is the machine's name, never empty")
    func hostname() throws {
        #expect(!(try Template("{{hostname}}").render(for: HTTPRequest(method: .get, target: "/")).isEmpty))
    }

    @Test("Bounds Java throws on, and ranges past the limit, fail the response naming the helper")
    func failures() throws {
        for (template, reason) in [
            ("{{randomInt lower=5 upper=5}}", "randomInt: bound must be greater than origin (lower 5, upper 5)"),
            ("{{range 5 3}}", "range: IllegalArgumentException: -1"),
            ("{{range 0 100000}}", "range: 0 to 100000 is more than 100000 numbers")
        ] {
            #expect(try renderingFailure(template) == reason)
        }
    }
}
