import StubModel
import StubTestSupport
import Testing

@testable import StubYAML

/// Each construct of the YAML 1.2 core schema against the JSON value it reads as.
struct YAMLParserTests {
    private func parse(_ text: String) throws -> JSONValue { try YAML.parse(text) }

    @Test("block mappings and sequences, nested, with the parent's key at the sequence's indentation")
    func blockCollections() throws {
        let text = """
            name: pets
            tags:
            - a
            - b
            nested:
              deep:
                value: 1
              back: 2
            items:
              - id: 1
                kind: cat
              - id: 2
            out: x
            """
        let expected: JSONValue = .object([
            ("name", "pets"), ("tags", ["a", "b"]),
            ("nested", .object([("deep", .object([("value", .number("1"))])), ("back", .number("2"))])),
            ("items", [.object([("id", .number("1")), ("kind", "cat")]), .object([("id", .number("2"))])]),
            ("out", "x")
        ])
        #expect(try parse(text) == expected)
    }

    @Test("compact nested sequences and mappings inside items")
    func compactNesting() throws {
        #expect(
            try parse("- - a\n  - b\n- - - c\n- key: v\n  k2: w\n") == [
                ["a", "b"], [["c"]], .object([("key", "v"), ("k2", "w")])
            ])
        #expect(try parse("-   c: 3\n    d: 4\n") == [.object([("c", .number("3")), ("d", .number("4"))])])
    }

    @Test("empty values are null: a key without value, an empty item")
    func emptyValues() throws {
        #expect(try parse("a:\nb:\n  c:\n") == .object([("a", .null), ("b", .object([("c", .null)]))]))
        #expect(try parse("- a\n-\n- c\n") == ["a", .null, "c"])
        #expect(try parse("") == .null)
        #expect(try parse("# only a comment\n") == .null)
    }

    @Test("flow collections spanning lines, nested, with empty values and single pairs")
    func flowCollections() throws {
        #expect(try parse("{a: 1, b: [x, \"y\"]}") == .object([("a", .number("1")), ("b", ["x", "y"])]))
        #expect(
            try parse("list: [\n  one,\n  two,\n  {three: 3,\n   four: 4}\n]\n")
                == .object([("list", ["one", "two", .object([("three", .number("3")), ("four", .number("4"))])])]))
        #expect(try parse("{a, b: }") == .object([("a", .null), ("b", .null)]))
        #expect(try parse("[a: 1, b, ]") == [.object([("a", .number("1"))]), "b"])
        #expect(try parse("[]") == [])
        #expect(try parse("{}") == .object([]))
        #expect(try parse("[http://a.b/c, c:d]") == ["http://a.b/c", "c:d"])
    }

    @Test("JSON reads as YAML: adjacent ':' after quoted keys, escapes, surrogate pairs")
    func json() throws {
        let text = #"{"a":[1,2.5,-3e2,true,false,null,"x\u0041\ud83d\ude00"],"b":{"c":{}},"d":[]}"#
        #expect(
            try parse(text)
                == .object([
                    ("a", [.number("1"), .number("2.5"), .number("-3e2"), true, false, .null, "xA😀"]),
                    ("b", .object([("c", .object([]))])), ("d", [])
                ]))
    }

    @Test("a quoted key may be longer than 1024 bytes, as JSON's keys are; a plain one may not (found by fuzzing)")
    func longKeys() throws {
        let long = String(repeating: "é", count: 1500)
        #expect(
            try parse("{\"\(long)\": 1, \"b\": {'\(long)': [2]}}")
                == .object([
                    (long, .number("1")), ("b", .object([(long, .array([.number("2")]))]))
                ]))
        #expect(throws: YAMLError(line: 1, column: 1101, message: "mapping values are not allowed here")) {
            try parse(String(repeating: "k", count: 1100) + ": 1")
        }
    }

    @Test("plain scalars fold their lines; '#' after a space starts a comment; ': ' ends a key")
    func plainScalars() throws {
        #expect(
            try parse("a: this is\n  a multi line\n\n  scalar\nb: x")
                == .object([("a", "this is a multi line\nscalar"), ("b", "x")]))
        #expect(
            try parse("a: http://x.y/z?q=1#frag # comment\nb: a#b\nc: -1x")
                == .object([
                    ("a", "http://x.y/z?q=1#frag"), ("b", "a#b"), ("c", "-1x")
                ]))
        #expect(try parse("a: b\n  c\n") == .object([("a", "b c")]))
        #expect(
            try parse("multi: plain\n   continued # comment\nnext: 1")
                == .object([
                    ("multi", "plain continued"), ("next", .number("1"))
                ]))
        #expect(try parse("a: café 日本語") == .object([("a", "café 日本語")]))
    }

    @Test("single-quoted scalars: '' is a quote, lines fold")
    func singleQuoted() throws {
        #expect(try parse("a: 'it''s'") == .object([("a", "it's")]))
        #expect(try parse("a: 'multi\n  line\n\n  single'") == .object([("a", "multi line\nsingle")]))
        #expect(try parse("a: '12'") == .object([("a", "12")]))
    }

    @Test("double-quoted scalars: every escape, escaped line breaks, folding")
    func doubleQuoted() throws {
        #expect(
            try parse(#"a: "\/ \" \\ \0 \a \b \e \f \n \r \t \v \N \_ \L \P \ ""#)
                == .object([
                    ("a", "/ \" \\ \u{0} \u{7} \u{8} \u{1B} \u{C} \n \r \t \u{B} \u{85} \u{A0} \u{2028} \u{2029}  ")
                ]))
        #expect(try parse(#"a: "\x41\u00e9\U0001F600""#) == .object([("a", "Aé😀")]))
        #expect(try parse("a: \"one \\\n   two\"") == .object([("a", "one two")]))
        #expect(try parse("a: \"line1\n  line2\n\n  line3\"") == .object([("a", "line1 line2\nline3")]))
        #expect(try parse("a: \"x\\\n  \\ y\"") == .object([("a", "x y")]))
    }

    @Test("literal and folded block scalars with chomping and indentation indicators")
    func blockScalars() throws {
        let text = """
            lit: |
              a
               b
              c

            fold: >
              one
              two

              three
               indented
              four
            keep: |+
              x

            strip: |-
              y

            ind: |2
               z
            folded-strip: >-
              folded
              text
            empty: |
            last: end
            """
        #expect(
            try parse(text)
                == .object([
                    ("lit", "a\n b\nc\n"), ("fold", "one two\nthree\n indented\nfour\n"), ("keep", "x\n\n"),
                    ("strip", "y"),
                    ("ind", " z\n"), ("folded-strip", "folded text"), ("empty", ""), ("last", "end")
                ]))
        #expect(try parse("- |\n  in seq\n- >\n  folded\n  seq\n") == ["in seq\n", "folded seq\n"])
        #expect(
            try parse("a: |\n\n  first after blank\n  second\n") == .object([("a", "\nfirst after blank\nsecond\n")]))
        #expect(try parse("--- |\n  document literal\n") == "document literal\n")
        #expect(try parse("a: | # comment\n  x") == .object([("a", "x")]))
        #expect(try parse("? |-\n  block key\n: 3") == .object([("block key", .number("3"))]))
    }

    @Test("comments everywhere they are legal")
    func comments() throws {
        let text = "# head\na: 1 # trailing\n# between\nb:   # after a key\n  - 1 # x\n  # inside\n  - 2\n# tail"
        #expect(try parse(text) == .object([("a", .number("1")), ("b", [.number("1"), .number("2")])]))
    }

    @Test("document markers and directives: %YAML and %TAG are skipped, '---' and '...' delimit the one document")
    func markers() throws {
        #expect(
            try parse("%YAML 1.2\n%TAG !e! tag:example.com,2000:\n---\na: 1\n...\n") == .object([("a", .number("1"))]))
        #expect(try parse("---\na: 1\n") == .object([("a", .number("1"))]))
        #expect(try parse("a: 1\n...\n# done\n") == .object([("a", .number("1"))]))
        #expect(try parse("---\n") == .null)
        #expect(try parse("a: --- \nb: ...x") == .object([("a", "---"), ("b", "...x")]))
    }

    @Test("anchors and aliases, on keys, values and collections")
    func anchors() throws {
        #expect(
            try parse("a: &x {b: 1}\nc: *x")
                == .object([("a", .object([("b", .number("1"))])), ("c", .object([("b", .number("1"))]))]))
        #expect(try parse("- &a 1\n- *a\n- [*a, *a]") == [.number("1"), .number("1"), [.number("1"), .number("1")]])
        #expect(try parse("&k key: value\nother: *k") == .object([("key", "value"), ("other", "key")]))
        #expect(try parse("a: &n 200\n*n : x") == .object([("a", .number("200")), ("200", "x")]))
    }

    @Test("merge keys: one mapping, a sequence of them (the first wins), the mapping's own keys win")
    func mergeKeys() throws {
        let text = """
            base: &base {x: 1, y: 2}
            other: &other {y: 20, z: 30}
            one:
              <<: *base
              y: 3
            many:
              <<: [*base, *other]
              w: 0
            """
        #expect(try parse(text)["one"] == .object([("x", .number("1")), ("y", .number("3"))]))
        #expect(
            try parse(text)["many"]
                == .object([("x", .number("1")), ("y", .number("2")), ("z", .number("30")), ("w", .number("0"))]))
        #expect(try parse("a: {'<<': 1}") == .object([("a", .object([("<<", .number("1"))]))]))
    }

    @Test("the core schema's tags")
    func tags() throws {
        let text = """
            a: !!str 12
            b: !!int "0x1F"
            c: !!float 1
            d: !!bool "true"
            e: !!null ""
            f: !!map {a: 1}
            g: !!seq [1]
            h: !<tag:yaml.org,2002:str> true
            i: ! 12
            j: !!str
            """
        #expect(
            try parse(text)
                == .object([
                    ("a", "12"), ("b", .number("31")), ("c", .number("1")), ("d", true), ("e", .null),
                    ("f", .object([("a", .number("1"))])), ("g", [.number("1")]), ("h", "true"), ("i", "12"), ("j", "")
                ]))
    }

    @Test("explicit '? key' with a scalar key")
    func explicitKeys() throws {
        #expect(try parse("? a\n: 1\n? b\n") == .object([("a", .number("1")), ("b", .null)]))
        #expect(try parse("- ? a\n  : b\n") == [.object([("a", "b")])])
    }

    @Test("core schema resolution of plain scalars; quoted scalars stay strings")
    func coreSchema() throws {
        let numbers = try parse(
            "[1, +12, -7, 0o17, 0x1F, 0xff, 007, 0755, -0, 1.5, 1e3, 1E+3, -.5, .5, +1.5, 01.5, 1., 0.1e-5]")
        let expectedNumbers = [
            "1", "12", "-7", "15", "31", "255", "7", "755", "-0", "1.5", "1e3", "1E+3", "-0.5", "0.5", "1.5", "1.5",
            "1.0",
            "0.1e-5"
        ]
        #expect(numbers == .array(expectedNumbers.map { .number($0) }))
        #expect(try parse("0x123456789ABCDEF0123") == .number("5373003642731685151011"))
        #expect(try parse("[true, True, TRUE, false, False, FALSE]") == [true, true, true, false, false, false])
        #expect(try parse("[~, null, Null, NULL, ]") == [.null, .null, .null, .null])
        // YAML 1.1's booleans, octals, underscores and dates are strings in the 1.2 core schema.
        #expect(
            try parse("[on, yes, no, y, n, off, 1_000, 0b101, 0o8, 0xG, 12e, 2001-12-14, tRUE, nULL, '1', \"true\"]")
                == [
                    "on", "yes", "no", "y", "n", "off", "1_000", "0b101", "0o8", "0xG", "12e", "2001-12-14", "tRUE",
                    "nULL", "1", "true"
                ])
    }

    @Test("non-string keys keep their source text: 200, true, 1.5, null")
    func keysAsText() throws {
        #expect(
            try parse("200:\n  description: ok\n404: {description: missing}\ntrue: 1\n1.5: 2\nnull: 3\n0x1F: 4")
                == .object([
                    ("200", .object([("description", "ok")])), ("404", .object([("description", "missing")])),
                    ("true", .number("1")), ("1.5", .number("2")), ("null", .number("3")), ("0x1F", .number("4"))
                ]))
    }

    @Test("line breaks: CRLF and CR are line feeds; a byte order mark is skipped")
    func lineBreaks() throws {
        #expect(try parse("a: 1\r\nb: |\r\n  x\r\n  y\r\n") == .object([("a", .number("1")), ("b", "x\ny\n")]))
        #expect(try parse("\u{FEFF}a: 1\rb: 2") == .object([("a", .number("1")), ("b", .number("2"))]))
    }

    @Test("tabs are separators after the indentation and inside flow collections")
    func tabsAsSeparators() throws {
        #expect(try parse("a:\tb\t# comment\nc: [1,\t2]") == .object([("a", "b"), ("c", [.number("1"), .number("2")])]))
        #expect(try parse("{\n\t\"a\": [\n\t\t1\n\t]\n}") == .object([("a", [.number("1")])]))
        #expect(try parse("a: 1\n\t\n\t# comment\nb: 2") == .object([("a", .number("1")), ("b", .number("2"))]))
    }
}
