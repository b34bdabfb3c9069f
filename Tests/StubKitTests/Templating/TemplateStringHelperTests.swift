import StubHTTP
import Testing

@testable import StubKit
@testable import StubTemplating

/// Expected outputs are WireMock 2.35.1's (rendered by the jar with `response-template`).
@Suite("Response templates: string and number helpers")
struct TemplateStringHelperTests {
    static let rows: [TemplateRow] = [
        // capitalize, capitalizeFirst, abbreviate, substring, stripTags, replace
        TemplateRow(
            "{{capitalize 'hello world'}}|{{capitalize 'hELLO wORLD' fully=true}}|{{capitalizeFirst 'abc def'}}",
            "Hello World|Hello World|Abc def"),
        TemplateRow(
            "{{capitalize 'hELLO wORLD'}}|{{capitalizeFirst 'hELLO'}}|{{capitalize ''}}|{{capitalize 'a-b c_d'}}|{{capitalize 'élan vital'}}",
            "HELLO WORLD|HELLO||A-b C_d|Élan Vital"),
        TemplateRow(
            "{{abbreviate 'Truncates a string if it is longer' 10}}|{{abbreviate 'short' 10}}|{{abbreviate 'hello world' 8}}",
            "Truncat...|short|hello..."),
        TemplateRow("{{substring 'abcdef' 2}}|{{substring 'abcdef' 1 3}}|{{substring 'héllo' 1 2}}", "cdef|bc|é"),
        TemplateRow(
            "{{stripTags '<b>bold</b> text<br/>'}}|{{{stripTags '<b>x</b>'}}}|{{stripTags 'a < b > c'}}|{{stripTags 'a<b'}}",
            "bold text|x|a  c|a&lt;b"),
        TemplateRow(
            "{{replace 'a-b-c' '-' '+'}}|{{replace 'aaa' 'a' 'bb'}}|{{replace 'a.b.c' '.' '-'}}|{{replace 'abc' 'b' ''}}|{{replace 'abc' '' '-'}}",
            "a+b+c|bbbbbb|a-b-c|ac|-a-b-c-"),
        // join, defaultIfEmpty
        TemplateRow(
            "{{join 'a' 'b' 'c' ','}}|{{join 'a' 'b' ', ' prefix='[' suffix=']'}}|{{join request.query.nope 'x' ','}}",
            "a,b,c|[a, b]|"),
        TemplateRow(
            "{{defaultIfEmpty '' 'dflt'}}|{{defaultIfEmpty 'x' 'dflt'}}|{{defaultIfEmpty request.query.nope 'dflt'}}|{{defaultIfEmpty 0 'z'}}|{{defaultIfEmpty false 'z'}}",
            "dflt|x|dflt|z|z"),
        // contains, matches: inline and block (no {{else}}: nothing when it does not match)
        TemplateRow(
            "{{contains 'abcdef' 'cd'}}|{{contains 'abcdef' 'zz'}}|{{#contains 'abc' 'b'}}Y{{else}}N{{/contains}}|{{#contains 'abc' 'z'}}Y{{else}}N{{/contains}}|{{#matches 'abc' 'z'}}Y{{else}}N{{/matches}}",
            "true|false|Y||"),
        TemplateRow(
            "{{contains request.query.a '2'}}|{{contains request.query.nope 'x'}}|{{contains 'abc' ''}}|{{#contains 'abc' 'b'}}{{request.method}}{{/contains}}",
            "true|false|true|GET", target: "/x?a=1&a=2"),
        TemplateRow(
            "{{matches 'abc123' '[a-z]+[0-9]+'}}|{{matches 'abc' '[0-9]+'}}|{{#matches 'abc' 'a.c'}}Y{{else}}N{{/matches}}|{{matches '' ''}}",
            "true|false|Y|true"),
        TemplateRow("{{matches request.query.v 'a.b'}}", "false", target: "/x?v=a%0Ab"),
        // regexExtract: first match, default=, errors, groups into a variable
        TemplateRow(
            "{{regexExtract 'abc-123-def' '[0-9]+'}}|{{regexExtract 'abc' '[0-9]+'}}|{{regexExtract 'abc-123-def' '([a-z]+)-([0-9]+)' 'parts'}}{{parts.0}},{{parts.1}},{{parts.[1]}}",
            "123|[ERROR: Nothing matched [0-9]+]|abc,123,123"),
        TemplateRow(
            "{{regexExtract 'a1b22c333' '[a-z]([0-9]+)' 'g'}}{{g}}|{{g.[1]}}|{{size g}}|{{regexExtract 'x' '(x)' 'one'}}{{one}}",
            "1|22|3|x"),
        TemplateRow(
            "{{regexExtract 'abc' '[0-9]+' default='none'}}|{{regexExtract 'AbC' '(?i)b.'}}|{{regexExtract 'abc' '(['}}",
            "none|bC|[ERROR: Invalid regex string ([]"),
        // numberFormat
        TemplateRow(
            "{{numberFormat 123.456}}|{{numberFormat 1234567.891 'integer'}}|{{numberFormat 0.5 'percent'}}|{{numberFormat 12.3456 '#.##'}}",
            "123.456|1,234,568|50%|12.35"),
        TemplateRow(
            "{{numberFormat 3}}|{{numberFormat 1234.5}}|{{numberFormat 1234.5 'currency'}}|{{numberFormat 1234.5 'integer'}}|{{numberFormat 2.5 'integer'}}|{{numberFormat 3.5 'integer'}}|{{numberFormat 0.12345}}|{{numberFormat '12.5'}}",
            "3|1,234.5|¤1,234.50|1,234|2|4|0.123|"),
        TemplateRow(
            "{{numberFormat 1234.5678 '0.00'}}|{{numberFormat 1234.5678 '#,##0.0'}}|{{numberFormat 0.256 'percent'}}|{{numberFormat 1234567 'number'}}|{{numberFormat 1.5 '000.000'}}",
            "1234.57|1,234.6|26%|number1234567|001.500"),
        TemplateRow(
            "{{numberFormat 1234.5678 maximumFractionDigits=1}}|{{numberFormat 1.5 minimumFractionDigits=3}}|{{numberFormat 1234567 groupingUsed=false}}|{{numberFormat -0.0001}}|{{numberFormat 0.125 '0.00'}}|{{numberFormat 1000000 '#,##0'}}",
            "1,234.6|1.500|1234567|-0|0.12|1,000,000"),
        TemplateRow(
            "{{numberFormat 0.5 '#.##'}}|{{numberFormat 12 '0.#%'}}|{{numberFormat 1234.5 '$#,##0.00 USD'}}|{{numberFormat 99.995 '0.00'}}|{{numberFormat -2.5 'integer'}}",
            "0.5|1200%|$1,234.50 USD|100.00|-2"),
        // math
        TemplateRow(
            "{{math 1 '+' 2}}|{{math 5 '-' 7}}|{{math 3 '*' 4}}|{{math 10 '/' 4}}|{{math 10 '%' 4}}|{{math 1.5 '+' 2}}|{{math 10 '/' 5}}|{{math '7' '+' '3'}}",
            "3|-2|12|3|2|3.5|2|10"),
        TemplateRow(
            "{{math 1.5 '*' 2}}|{{math 0.1 '+' 0.2}}|{{math 7 '/' 2}}|{{math 7.0 '/' 2}}|{{math 1 '/' 3}}|{{math 5.5 '%' 2}}|{{math 2 'x' 3}}|{{math 1 '^' 2}}|{{math 'a' '+' 1}}",
            "3.0|0.3|4|3.5|0|1.5|6|[ERROR: ^ is not a valid mathematical operator]|1"),
        TemplateRow(
            "{{math 1.5 '+' 1.5}}|{{math -7 '/' 2}}|{{math -7 '%' 2}}|{{math 0.25 '/' 0.5}}|{{math 1 '-' 0.5}}|{{math 10 '*' 0.1}}",
            "3.0|-4|-1|0.5|0.5|1.0"),
        TemplateRow("{{math request.query.a '+' 1}}", "2", target: "/x?a=1&a=2"),
        // WireMock's MathsHelperTest
        TemplateRow(
            "{{math 5 '+'}}|{{math '0.25' '+' '0.34'}}|{{math 11 '%' 3}}",
            "[ERROR: All maths functions require two operands and an operator as parameters e.g. 3 &#x27;+&#x27; 2]|0.59|2"
        )
    ]

    @Test("String and number helpers answer as in WireMock", arguments: rows)
    func renders(_ row: TemplateRow) throws {
        let rendered = try row.render()
        #expect(rendered == row.expected)
    }

    @Test("What Java throws on fails the response, naming the helper")
    func failures() throws {
        for (template, reason) in [
            ("{{abbreviate 'abcdefgh' 3}}", "abbreviate: Minimum abbreviation width is 4"),
            ("{{substring 'abcdef' 4 10}}", "substring: begin 4, end 10, length 6"),
            ("{{math 3 '/' 0}}", "math: / by zero")
        ] {
            #expect(try renderingFailure(template) == reason)
        }
    }

    @Test("A wrong number of arguments is a load error that says what was expected")
    func arity() {
        #expect(throws: TemplateError.self) { try Template("{{replace 'a'}}") }
        #expect(throws: TemplateError.self) { try Template("{{substring 'a' 1 2 3}}") }
    }
}
