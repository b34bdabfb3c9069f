import StubHTTP
import Testing

@testable import StubKit
@testable import StubTemplating

/// toJson, formatJson, jsonMerge, jsonRemove, jsonArrayAdd: WireMock 3's ToJsonHelperTest,
/// FormatJsonHelperTest, JsonMergeHelperTest, JsonRemoveHelperTest and JsonArrayAddHelperTest
/// expectations (triple braces: WireMock's tests render without HTML escaping).
@Suite("Response templates: WireMock 3's JSON helpers")
struct TemplateJSONEditHelperTests {
    static let compact = #"{"foo":true,"bar":{"baz":false}}"#
    static let pretty = "{\n  \"foo\" : true,\n  \"bar\" : {\n    \"baz\" : false\n  }\n}"
    static let people = #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"}]"#

    static let rows: [TemplateRow] = [
        // toJson
        TemplateRow(
            "{{{toJson (array 1 2 3)}}}|{{{toJson null}}}|{{{toJson 'null'}}}|{{toJson true}}|{{toJson 123}}",
            "[ 1, 2, 3 ]||\"null\"|true|123"),
        TemplateRow(
            "{{{toJson request.headers}}}",
            "{\n  \"Host\" : \"127.0.0.1:36465\",\n  \"Authorization\" : \"whatever\",\n  \"Content-Type\" : \"text/plain\"\n}",
            headers: [("Authorization", "whatever"), ("Content-Type", "text/plain")]),
        // formatJson
        TemplateRow("{{#formatJson}} \(compact) {{/formatJson}}", pretty),
        TemplateRow("{{#formatJson format='pretty'}} \(compact) {{/formatJson}}", pretty),
        TemplateRow("{{#formatJson format='compact'}} \(pretty) {{/formatJson}}", compact),
        TemplateRow(
            "{{~#assign 'someJson'~}} \(pretty) {{/assign}}{{{formatJson someJson format='compact'}}}", compact),
        TemplateRow(
            "{{#formatJson format='foo'}} \(compact) {{/formatJson}}",
            "[ERROR: formatJson: format [foo] should be one of [pretty, compact]]"),
        TemplateRow(
            "{{#formatJson format=\"compact\"}} {\"foo\":true,} {{/formatJson}}",
            "[ERROR: There was an error parsing the json. Please make sure the json is valid]"),
        TemplateRow(
            "{{#formatJson}}{{/formatJson}}|{{formatJson}}|{{formatJson nullVariable}}|{{#formatJson}}    {{/formatJson}}",
            [String](
                repeating:
                    "[ERROR: formatJson should take a block of JSON to format or a single parameter of type String]",
                count: 4
            ).joined(separator: "|")),
        TemplateRow(
            "{{#formatJson format=1}} \(pretty) {{/formatJson}}",
            "[ERROR: formatJson: format [1] of type [java.lang.Integer should be a Format or a String and one of [pretty, compact]]]"
        ),
        // jsonMerge
        TemplateRow(
            #"{{{jsonMerge '{"id":456,"name":"bob"}' '{"roles":["admin","user"],"dob":"2024-06-18"}'}}}"#,
            #"{"id":456,"name":"bob","roles":["admin","user"],"dob":"2024-06-18"}"#),
        TemplateRow(
            #"{{{jsonMerge '{ "id": 456, "name": "bob", "roles": [ "viewer" ] }' '{ "roles": [ "admin", "user" ], "dob": "2024-06-18" }'}}}|{{{jsonMerge '{}' '{ "a": 1 }'}}}|{{{jsonMerge '{ "id": 456, "data": { "field": "value" } }' '{ "data": [ 123, true ] }'}}}"#,
            #"{"id":456,"name":"bob","roles":["admin","user"],"dob":"2024-06-18"}|{"a":1}|{"id":456,"data":[123,true]}"#
        ),
        TemplateRow(
            #"{{#assign 'base'}}{"id":456,"name":"bob","roles":["viewer"]}{{/assign}}{{#jsonMerge base}}{"data":[123, true]}{{/jsonMerge}}"#,
            #"{"id":456,"name":"bob","roles":["viewer"],"data":[123,true]}"#),
        TemplateRow(
            #"{{{jsonMerge '{"d":{"n":{"v":"old","a":[true],"o":"x"},"s":456}}' '{"d":{"n":{"v":"new","a":["i"],"f":"y"},"m":{"b":true}}}'}}}"#,
            #"{"d":{"n":{"v":"new","a":["i"],"o":"x","f":"y"},"s":456,"m":{"b":true}}}"#),
        TemplateRow(
            #"{{{jsonMerge '{"s1":0.1,"s2":5,"o":{"t":"gone"},"d":{"n1":"gone","n2":"here"}}' '{"s2":null,"o":null,"d":{"n1":null}}' removeNulls=true}}}"#,
            #"{"s1":0.1,"d":{"n2":"here"}}"#),
        TemplateRow(
            #"{{{jsonMerge 123 '{}'}}}|{{{jsonMerge 'invalid json' '{}'}}}|{{{jsonMerge '' '{}'}}}|{{{jsonMerge '[1]' '{}'}}}|{{{jsonMerge '{}' true}}}|{{{jsonMerge '{}' '[ { "id": 456 }'}}}|{{{jsonMerge '{}' '"name"'}}}"#,
            #"[ERROR: Base JSON parameter must be a string]|[ERROR: Base JSON is not valid JSON ('invalid json')]|[ERROR: Base JSON is not valid JSON ('')]|[ERROR: Base JSON is not a JSON object ('[1]')]|[ERROR: JSON to merge must be a string]|[ERROR: JSON to merge is not valid JSON ('[ { "id": 456 }')]|[ERROR: JSON to merge is not a JSON object ('"name"')]"#
        ),
        // jsonRemove
        TemplateRow(
            #"{{{jsonRemove '{"id":456,"name":"bob"}' '$.name'}}}|{{{jsonRemove '[{"id":456,"name":"bob"},{"id":123,"name":"alice"},{"id":321,"name":"sam"}]' '$.[?(@.id == 123)]'}}}"#,
            #"{"id":456}|[{"id":456,"name":"bob"},{"id":321,"name":"sam"}]"#),
        TemplateRow(
            #"{{{jsonRemove '[{"id":456,"name":"bob"},{"id":123,"name":"alice"},{"id":123,"name":"sam"}]' '$[?(@.id == 123)]'}}}|{{{jsonRemove '[{"id":456,"name":"bob"},{"id":123,"name":"alice"}]' '$.[?(@.id == 123)].name'}}}"#,
            #"[{"id":456,"name":"bob"}]|[{"id":456,"name":"bob"},{"id":123}]"#),
        TemplateRow(
            #"{{{jsonRemove '[{"id":1,"name":"bob","roles":["admin","user"]},{"id":2,"name":"alice","roles":["admin","user"]}]' '$.[?(@.name == "alice")].roles[?(@ == "admin")]'}}}"#,
            #"[{"id":1,"name":"bob","roles":["admin","user"]},{"id":2,"name":"alice","roles":["user"]}]"#),
        TemplateRow(
            #"{{{jsonRemove '\#(people)' '$.[?(@.id == 321)]'}}}|{{{jsonRemove '\#(people)' '$.name'}}}|{{{jsonRemove '{"id":456}' '$.name'}}}|{{{jsonRemove 'true' '$.name'}}}|{{{jsonRemove 'null' '$.name'}}}|{{{jsonRemove '123' '$.name'}}}"#,
            #"\#(people)|\#(people)|{"id":456}|true|null|123"#),
        TemplateRow(
            #"{{{jsonRemove 'invalid json' '$.name'}}}|{{{jsonRemove ' ' '$.name'}}}|{{{jsonRemove true '$.name'}}}|{{{jsonRemove '{"id":1}' '$name'}}}|{{{jsonRemove '{"id":1}' ''}}}|{{{jsonRemove '{"id":1}' 123}}}"#,
            #"[ERROR: Input JSON string is not valid JSON ('invalid json')]|[ERROR: Input JSON string is not valid JSON (' ')]|[ERROR: Input JSON must be a string]|[ERROR: JSONPath parameter is not a valid JSONPath expression ('$name')]|[ERROR: JSONPath parameter is not a valid JSONPath expression ('')]|[ERROR: JSONPath parameter must be a string]"#
        ),
        TemplateRow(
            #"{{{jsonRemove '{"id":1}' '$'}}}|{{{jsonRemove '{"id":1}'}}}|{{{jsonRemove '{"id":1}' '$.id' '$.id'}}}"#,
            "[ERROR: Delete operation cannot be applied to JSONPath expression ('$')]|[ERROR: A single JSONPath expression parameter must be supplied]|[ERROR: A single JSONPath expression parameter must be supplied]"
        ),
        // jsonArrayAdd
        TemplateRow(
            #"{{{jsonArrayAdd '\#(people)' '{"id":321,"name":"sam"}'}}}|{{{jsonArrayAdd '[]' '"name"'}}}|{{{jsonArrayAdd '[]' 'null'}}}|{{{jsonArrayAdd '[1]' '[2,3]'}}}"#,
            #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"},{"id":321,"name":"sam"}]|["name"]|[null]|[1,[2,3]]"#),
        TemplateRow(
            #"{{{jsonArrayAdd '[1]' '[2,3]' flatten=true}}}|{{{jsonArrayAdd '[]' '[]' flatten=true}}}|{{{jsonArrayAdd '[]' '[null]' flatten=true}}}"#,
            "[1,2,3]|[]|[null]"),
        TemplateRow(
            #"{{{jsonArrayAdd '[1,2,3,4]' '5' flatten=false maxItems=3}}}|{{{jsonArrayAdd '[1,2]' '[3,4]' flatten=true maxItems=3}}}|{{{jsonArrayAdd '[1]' '2' maxItems=0}}}"#,
            "[3,4,5]|[2,3,4]|[]"),
        TemplateRow(
            #"{{#assign 'a'}}\#(people){{/assign}}{{#jsonArrayAdd a flatten=true}}[{"id":321,"name":"sam"}]{{/jsonArrayAdd}}"#,
            #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"},{"id":321,"name":"sam"}]"#),
        TemplateRow(
            #"{{{jsonArrayAdd '{"expired":false,"users":[{"id":456}]}' '{"id":321}' jsonPath='$.users'}}}|{{{jsonArrayAdd '[{"id":456,"names":["bob","jason"]},{"id":123,"names":["alice"]}]' '"sam"' jsonPath='$[0].names'}}}"#,
            #"{"expired":false,"users":[{"id":456},{"id":321}]}|[{"id":456,"names":["bob","jason","sam"]},{"id":123,"names":["alice"]}]"#
        ),
        TemplateRow(
            #"{{{jsonArrayAdd 1 '2'}}}|{{{jsonArrayAdd '[ 1' '2'}}}|{{{jsonArrayAdd '{"a":1}' '2'}}}|{{{jsonArrayAdd '[]' 2}}}|{{{jsonArrayAdd '[]' 'nope'}}}|{{{jsonArrayAdd '[]' '2' maxItems='3'}}}|{{{jsonArrayAdd '[]' '2' maxItems=-1}}}|{{{jsonArrayAdd '[]' '2' flatten='true'}}}"#,
            #"[ERROR: Base JSON must be a string]|[ERROR: Base JSON is not valid JSON ('[ 1')]|[ERROR: Target JSON is not a JSON array ('{"a":1}')]|[ERROR: Item-to-add JSON must be a string]|[ERROR: Item-to-add JSON is not valid JSON ('nope')]|[ERROR: maxItems option must be an integer]|[ERROR: maxItems option integer must be positive]|[ERROR: flatten option must be a boolean]"#
        ),
        TemplateRow(
            #"{{{jsonArrayAdd '{"id":"a string","n":null}' '1' jsonPath='$.id'}}}|{{{jsonArrayAdd '{"n":null}' '1' jsonPath='$.n'}}}|{{{jsonArrayAdd '[{"id":4}]' '1' jsonPath='$[0].doesNotExist.myArray'}}}|{{{jsonArrayAdd '[]' '1' jsonPath=1}}}|{{{jsonArrayAdd '[]' '1' jsonPath='$$'}}}"#,
            #"[ERROR: Target JSON is not a JSON array (root: '{"id":"a string","n":null}', jsonPath: '$.id')]|[ERROR: Target JSON is not a JSON array (root: '{"n":null}', jsonPath: '$.n')]|[ERROR: Target JSON is not a JSON array (root: '[{"id":4}]', jsonPath: '$[0].doesNotExist.myArray')]|[ERROR: jsonPath option must be a string]|[ERROR: jsonPath option is not valid JSONPath expression ('$$')]"#
        )
    ]

    @Test("the JSON helpers answer as in WireMock 3's tests", arguments: rows)
    func renders(_ row: TemplateRow) throws {
        let rendered = try row.render()
        #expect(rendered == row.expected)
    }

    @Test("The JSON helpers fail the response past the JSON size limit rather than parse without bound")
    func sizeLimit() throws {
        var limits = TemplateLimits()
        limits.maxJSONBytes = 64
        let big = "[" + Array(repeating: "1", count: 100).joined(separator: ",") + "]"
        for helper in ["jsonArrayAdd '\(big)' '2'", "jsonRemove '\(big)' '$[0]'", "formatJson '\(big)'"] {
            #expect(
                try renderingFailure("{{{\(helper)}}}", limits: limits)?.contains("(201 bytes) is over the limit")
                    == true)
        }
    }
}
