import StubHTTP
import Testing

@testable import StubKit

@Suite("Response templates: helpers")
struct TemplateHelperTests {
    static let json = #"{"name":"A<b>","n":10,"f":1.50,"o":{"x":1,"y":"s"},"a":[1,"two"],"b":true,"nul":null}"#
    static let items = #"{"items":[{"id":7},{"id":8}]}"#

    static let rows: [TemplateRow] = [
        // jsonPath
        TemplateRow(
            "{{jsonPath request.body '$.name'}}|{{jsonPath request.body '$.n'}}|{{jsonPath request.body '$.f'}}|{{jsonPath request.body '$.o'}}|{{jsonPath request.body '$.a'}}|{{jsonPath request.body '$.missing'}}|{{jsonPath request.body '$.b'}}|{{jsonPath request.body '$.nul'}}",
            "A&lt;b&gt;|10|1.5|{\n  &quot;x&quot; : 1,\n  &quot;y&quot; : &quot;s&quot;\n}|[1,&quot;two&quot;]||true|",
            method: "POST", body: json),  // WM
        TemplateRow(
            "{{{jsonPath request.body '$.o'}}}|{{{jsonPath request.body '$.a'}}}",
            "{\n  \"x\" : 1,\n  \"y\" : \"s\"\n}|[1,\"two\"]",
            method: "POST", body: json),  // WM
        TemplateRow(
            "{{jsonPath request.body '$.items[0].id'}}|{{jsonPath request.body '$.items[*].id'}}|{{jsonPath request.body '$.items.length()'}}",
            "7|[7,8]|2", method: "POST", body: items),  // WM
        TemplateRow("{{jsonPath request.body '$.x'}}", "", method: "POST", body: "not json"),  // WM
        TemplateRow(
            "{{#each (jsonPath request.body '$.o')}}{{@key}}:{{this}},{{/each}}|{{size (jsonPath request.body '$.o')}}|{{jsonPath request.body '$.e'}}|{{jsonPath request.body '$.ea'}}|{{jsonPath request.body '$.z'}}|{{jsonPath request.body '$.big'}}",
            "x:1,y:[1,2],|2|{ }|[]|0|1.0E20", method: "POST",
            body: #"{"o":{"x":1,"y":[1,2]},"e":{},"ea":[],"z":0,"big":1e20}"#),  // WM
        TemplateRow(
            "{{jsonPath request.body '$.a.b'}}|{{#with (jsonPath request.body '$.a')}}{{b}}{{/with}}|{{jsonPath request.body '$.s'}}",
            "&lt;x&gt;|&lt;x&gt;|q&quot;uote", method: "POST", body: #"{"a":{"b":"<x>"},"s":"q\"uote"}"#),  // WM
        TemplateRow("{{jsonPath request.query.j '$.k'}}", "v", target: "/x?j=%7B%22k%22%3A%22v%22%7D"),
        // eq / neq / gt / gte / lt / lte
        TemplateRow(
            "{{neq 'a' 'b'}}|{{neq 'a' 'a'}}|{{gt 2 1}}|{{lt 2 1}}|{{gt '10' '9'}}|{{gt 'b' 'a'}}|{{gte 2 2}}|{{lte 1 2}}|{{eq 1 1}}|{{eq 'a' 'a'}}",
            "true|false|true|false|false|true|true|true|true|true"),  // WM
        TemplateRow("{{eq 1.5 1.5}}|{{gt 2.5 1}}", "true|true"),  // WM
        TemplateRow("{{#eq 'a' 'a'}}Y{{/eq}}|{{#neq 'a' 'a'}}Y{{else}}N{{/neq}}|{{#gt 3 2}}G{{/gt}}", "Y|N|G"),  // WM
        TemplateRow(
            "{{ne 'a' 'b'}}|{{eq '1' 1}}|{{eq request.query.n '1'}}|{{gt request.query.n 0}}|{{lt request.query.missing 1}}",
            "true|false|true|true|false", target: "/x?n=1"),  // differences from WireMock (README)
        // and / or / not, if / unless / else / else if
        TemplateRow(
            "{{and true false}}|{{and true 'x'}}|{{or false ''}}|{{or false 'x'}}|{{not true}}|{{not ''}}|{{not request.query.missing}}",
            "false|true|false|true|false|true|true"),  // WM
        TemplateRow(
            "{{#if request.query.a}}A{{else}}noA{{/if}}|{{#unless request.query.a}}U{{else}}noU{{/unless}}|{{#if request.query.b}}B{{/if}}|{{#if request.query.z}}Z{{else if request.query.a}}elseif{{/if}}",
            "A|noU||elseif", target: "/x?a=1"),  // WM
        TemplateRow(
            "{{#if (and request.query.a (not request.query.b))}}ok{{/if}}|{{#unless (or request.query.b request.query.c)}}none{{/unless}}",
            "ok|none", target: "/x?a=1"),  // WM
        TemplateRow(
            "{{#if 0}}zero{{else}}nozero{{/if}}|{{#if 'false'}}sfalse{{/if}}|{{#if false}}f{{/if}}|{{#if request.query.e}}E{{else}}noE{{/if}}",
            "nozero|sfalse||E", target: "/x?e="),  // WM
        TemplateRow("{{#if}}x{{/if}}", ""),
        TemplateRow("{{^request.query.a}}none{{/request.query.a}}|{{#if request.query.a}}A{{^}}B{{/if}}", "none|B"),
        // each, with, @index/@key/@first/@last, this, parent contexts
        TemplateRow(
            "{{#each request.query.a}}[{{@index}}:{{this}}]{{/each}}|{{#each (jsonPath request.body '$.items')}}{{@index}}={{this.id}}{{#if @first}}F{{/if}}{{#if @last}}L{{/if}};{{/each}}",
            "[0:1][1:2]|0=7F;1=8L;", target: "/x?a=1&a=2", method: "POST", body: items),  // WM
        TemplateRow("{{#each request.query.zz}}x{{else}}empty{{/each}}", "empty"),  // WM
        TemplateRow("X{{#with request.query}}{{a}}{{/with}}Y", "X1Y", target: "/x?a=1"),  // WM
        TemplateRow(
            "{{#each request.query.a}}{{@index}}{{request.method}}{{../request.method}};{{/each}}", "0GETGET;",
            target: "/x?a=1"),  // WM
        TemplateRow(
            // WM
            "{{#each request.query.a}}\n  - {{this}}\n{{/each}}\n", "\n  - 1\n\n  - 2\n\n", target: "/x?a=1&a=2"),
        TemplateRow("{{#if true}}\nA\n{{/if}}\nB", "\nA\n\nB"),  // WM: no standalone-line stripping
        // size, lookup
        TemplateRow(
            "{{size request.query.a}}|{{size 'hello'}}|{{size (jsonPath request.body '$.items')}}|{{size (jsonPath request.body '$')}}",
            "2|5|3|1", target: "/x?a=1&a=2", method: "POST", body: #"{"items":[1,2,3]}"#),  // WM
        TemplateRow(
            "{{size request.path}}|{{size request.pathSegments}}|{{size request.query.nope}}", "4|4|0",
            target: "/probe33/a/b/c"),  // WM (0: WM fails)
        TemplateRow(
            "{{lookup request.query 'a'}}|{{lookup request.headers 'X-A'}}|{{lookup request.path 1}}", "1|h|y",
            target: "/x/y?a=1", headers: [("X-A", "h")]),  // WM
        // WM
        TemplateRow("{{lookup request.query.a 1}}|{{lookup request.pathSegments 0}}", "2|x", target: "/x?a=1&a=2"),
        // trim, upper, lower
        TemplateRow(
            "{{trim '  a b  '}}|{{#trim}}  in  {{/trim}}|{{upper 'abc'}}|{{lower 'ABC'}}|{{upper request.query.a}}",
            "a b|in|ABC|abc|MIXED", target: "/x?a=mixed"),  // WM
        TemplateRow("{{lower 'ÀB'}}|{{upper 'straße'}}|{{trim '\t x \n'}}", "àb|STRASSE|x"),  // WM
        TemplateRow(
            "{{trim request.query.a}}|{{upper request.headers.missing}}|{{base64 request.query.missing}}|", "z|||",
            target: "/x?a=%20z%20"),  // "z": WireMock 500s on the missing ones
        // base64, urlEncode
        TemplateRow(
            "{{base64 'hello world'}}|{{base64 'aGVsbG8gd29ybGQ=' decode=true}}|{{base64 'a' padding=false}}|{{#base64}}block{{/base64}}",
            "aGVsbG8gd29ybGQ&#x3D;|hello world|YQ|YmxvY2s="),  // WM
        TemplateRow("{{base64 'é'}}|{{base64 'w6k=' decode=true}}|{{urlEncode '~!*()'}}", "w6k&#x3D;|é|%7E%21*%28%29"),
        // WM
        TemplateRow("{{urlEncode 'a b&c=d/é'}}|{{urlEncode 'a+b%20c' decode=true}}", "a+b%26c%3Dd%2F%C3%A9|a b c"),
        TemplateRow("{{urlEncode request.query.q}}", "a+b%2Bc", target: "/x?q=a%20b%2Bc"),  // WM
        // Syntax: comments, whitespace control, no backslash escape
        TemplateRow("{{!comment}}x{{!-- long }} comment --}}y", "xy"),  // WM
        TemplateRow("{{~request.method~}}  |  {{request.method}}", "GET|  GET"),  // WM
        TemplateRow("a  {{~! note ~}}  b", "ab"),
        TemplateRow("a\\{{b}}c", "a\\c"),  // WM
        TemplateRow("{ {x} }{{request.method}}}", "{ {x} }GET}")
    ]

    @Test("Helpers answer as in WireMock", arguments: rows)
    func renders(_ row: TemplateRow) throws {
        let rendered = try row.render()
        #expect(rendered == row.expected)
    }

    @Test("HTML escaping of {{double}} is Handlebars.java's: & < > \" ' ` = and nothing else")
    func escaping() throws {
        let everything = (0x20...0x7E).map { String(UnicodeScalar(UInt8($0))) }.joined() + "é\n"
        let request = HTTPRequest(method: .post, target: "/", body: Array(everything.utf8))
        var expected = everything
        for (character, entity) in [
            ("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\"", "&quot;"), ("'", "&#x27;"),
            ("`", "&#x60;"), ("=", "&#x3D;")
        ] {
            expected = expected.split(separator: Character(character), omittingEmptySubsequences: false).joined(
                separator: entity)
        }
        #expect(try Template("{{request.body}}").render(for: request) == expected)
        #expect(try Template("{{{request.body}}}").render(for: request) == everything)
    }
}
