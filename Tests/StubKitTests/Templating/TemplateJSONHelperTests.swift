import Testing

@testable import StubKit

/// parseJson: WireMock 2.35.1's output (the jar). val, arrayJoin, arrayAdd, arrayRemove: WireMock 3's
/// ResponseTemplateTransformerTest expectations.
@Suite("Response templates: parseJson and WireMock 3's value and array helpers")
struct TemplateJSONHelperTests {
    static let rows: [TemplateRow] = [
        TemplateRow(
            #"{{parseJson '{"a":1,"b":[1,2.5,"x"],"c":{"d":true}}' 'v'}}{{v.a}}|{{v.b}}|{{v.b.[1]}}|{{v.c}}|{{v.c.d}}|{{size v.b}}|{{#each v.b}}{{this}};{{/each}}"#,
            "1|[1, 2.5, x]|2.5|{d&#x3D;true}|true|3|1;2.5;x;"),
        TemplateRow(
            #"{{parseJson '{"a":1,"b":[1,2],"n":null}'}}|{{parseJson '[1,2]'}}|{{parseJson '{}'}}|{{parseJson ''}}"#,
            "{a&#x3D;1, b&#x3D;[1, 2], n&#x3D;null}|[1, 2]|{}|{}"),
        TemplateRow(
            #"{{#parseJson 'w'}}{"k":"v"}{{/parseJson}}{{w.k}}|{{lookup (parseJson '{"k":"z"}') 'k'}}"#, "v|z"),
        // val
        TemplateRow(
            "{{val request.query.nonexist or='123'}}|{{val request.query.nonexist default='123'}}|{{val 'exists'}}|{{val null}}|{{val 'exists' or='123'}}|{{val (array 1 2 3) default='123'}}",
            "123|123|exists||exists|[1, 2, 3]"),
        TemplateRow(
            "{{val 'value for myVar' assign='myVar'}}{{myVar}}|{{val null or='other' assign='v2'}}{{v2}}|{{val 12 assign='v3'}}{{v3}}|{{val (array 1 2 3) assign='v4'}}{{v4}}|{{arrayJoin '*' v4}}",
            "value for myVar|other|12|[1, 2, 3]|1*2*3"),
        TemplateRow(
            #"{{val (parseJson '{"level":1}') assign='one'}}{{one.level}}"#, "1"),
        // arrayAdd, arrayRemove
        TemplateRow(
            "{{arrayAdd (array 1 'three') 2 position=1}}|{{arrayAdd (array 1 'three') 2 position='start'}}|{{arrayAdd (array 1 'three') 2 position='end'}}|{{arrayAdd (array 1 'three') 2}}",
            "[1, 2, three]|[2, 1, three]|[1, three, 2]|[1, three, 2]"),
        TemplateRow(
            "{{arrayAdd (array 1 'three') 2 position=-2}}|{{arrayAdd (array 1 'three') 2 position=3}}|{{arrayAdd (array 1 'three') position=1}}",
            "[ERROR: position must be greater than or equal to 0 and less than or equal to the size of the list]|[ERROR: position must be greater than or equal to 0 and less than or equal to the size of the list]|[ERROR: Missing required parameter: additional value to add to list]"
        ),
        TemplateRow(
            "{{arrayRemove (array 1 2 'three') position=1}}|{{arrayRemove (array 1 2 'three') position='start'}}|{{arrayRemove (array 1 2 'three') position='end'}}|{{arrayRemove (array 1 2 'three') }}|{{arrayRemove (array 1 'three') position=3}}",
            "[1, three]|[2, three]|[1, 2]|[1, 2]|[ERROR: position must be greater than or equal to 0 and less than or equal to the size of the list]"
        ),
        // arrayJoin
        TemplateRow(
            "{{arrayJoin ',' 1 2 3}}|{{arrayJoin ',' (array )}}|{{arrayJoin (array 'One' 'Two' 'Three')}}|{{arrayJoin ','}}|{{arrayJoin ',' 1 2 3  prefix='p..' suffix='..s'}}",
            "1,2,3||[ERROR: Separator parameter must be a String]|[ERROR: The parameter must be list]|p..1,2,3..s"),
        TemplateRow(
            "{{arrayJoin ' ' (array 'WireMock' 'Rocks')}}|{{arrayJoin \" - * - \" (array 'One' 'Two' 'Three')}}|{{arrayJoin (pickRandom ':') (array 'One' 'Two')}}",
            "WireMock Rocks|One - * - Two - * - Three|One:Two"),
        TemplateRow("[{{#arrayJoin ',' (array 'a' 'b')}}<{{this}}>{{/arrayJoin}}]", "[<a>,<b>]")
    ]

    @Test("parseJson, val and the array helpers answer as in WireMock", arguments: rows)
    func renders(_ row: TemplateRow) throws {
        let rendered = try row.render()
        #expect(rendered == row.expected)
    }
}
