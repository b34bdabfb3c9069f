import Foundation
import Testing

@testable import StubKit
@testable import StubMatching

/// `matchesJsonSchema`'s validator against the official JSON Schema Test Suite
/// (`Tests/Fixtures/JSONSchemaTestSuite`: the core keyword files of drafts 4, 7 and 2020-12, commit in `COMMIT`).
/// Groups that need what stubserver does not do (remote `$ref`, `$id`/`$anchor` resolution, `$dynamicRef`,
/// `$recursiveRef`, metaschema validation) are skipped and counted.
@Suite("JSON Schema Test Suite")
struct JSONSchemaSuiteTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/JSONSchemaTestSuite")

    /// Keywords of features stubserver does not implement.
    static let unsupportedKeywords: Set<String> = [
        "$id", "id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor",
        "unevaluatedItems", "unevaluatedProperties"
    ]

    /// Groups whose answer differs on purpose. Patterns use Java's syntax, as WireMock's validator (java.util.regex)
    /// does: ECMA-262's `\p{Letter}` is not a Java property name, so the schema is refused at load.
    static let knownDifferences: Set<String> = [
        "pattern with Unicode property escape requires unicode mode", "patternProperties with Unicode property escape"
    ]

    /// Whether `schema` uses one of them, or a `$ref` that is not a JSON pointer into the schema itself.
    static func needsUnsupported(_ schema: JSONValue) -> Bool {
        var pending = [schema]
        while let node = pending.popLast() {
            switch node {
            case .object(let members):
                for (key, value) in members {
                    if unsupportedKeywords.contains(key), key != "id" || value.stringValue != nil { return true }
                    if key == "$ref", let reference = value.stringValue, reference != "#", !reference.hasPrefix("#/") {
                        return true
                    }
                    pending.append(value)
                }
            case .array(let list): pending.append(contentsOf: list)
            default: break
            }
        }
        return false
    }

    @Test(
        "Every test of the suite's core keyword files gets the suite's answer",
        arguments: [("draft4", JSONSchema.Version.v4), ("draft7", .v7), ("draft2020-12", .v202012)])
    func suite(_ draft: String, _ version: JSONSchema.Version) throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.appendingPathComponent(draft).path)
            .filter { $0.hasSuffix(".json") }.sorted()
        var failures: [String] = []
        var passed = 0, skipped = 0
        for file in files {
            let text = try String(
                contentsOf: Self.folder.appendingPathComponent(draft).appendingPathComponent(file), encoding: .utf8)
            guard case .array(let groups) = try JSONParser.parse(text) else { continue }
            for group in groups {
                guard let schemaJSON = group["schema"], case .array(let tests)? = group["tests"] else { continue }
                let description = group["description"]?.stringValue ?? "?"
                if Self.needsUnsupported(schemaJSON) || Self.knownDifferences.contains(description) {
                    skipped += tests.count
                    continue
                }
                let schema: JSONSchema
                do {
                    schema = try JSONSchema(schemaJSON, version: version)
                } catch {
                    failures.append("\(file): \(description): \(error)")
                    continue
                }
                for test in tests {
                    guard let data = test["data"], case .bool(let valid)? = test["valid"] else { continue }
                    if schema.accepts(data) == valid {
                        passed += 1
                    } else {
                        failures.append(
                            "\(file): \(description) / \(test["description"]?.stringValue ?? "?"): expected \(valid ? "valid" : "invalid")"
                        )
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.joined(separator: "\n"))")
        #expect(passed > 300, "passed \(passed), skipped \(skipped)")
        print(
            "JSON Schema Test Suite \(draft): \(passed) passed, \(skipped) skipped (unsupported features), \(failures.count) failed"
        )
    }
}

@Suite("JSON Schema: messages and bounds")
struct JSONSchemaMessageTests {
    private func schema(_ text: String, _ version: JSONSchema.Version = .v202012) throws -> JSONSchema {
        try JSONSchema(try JSONParser.parse(text), version: version)
    }

    @Test("Violations name the JSON path, what was expected and what was found")
    func messages() throws {
        let user = try schema(
            #"{"type": "object", "required": ["login", "id"], "properties": {"login": {"type": "string", "minLength": 2}, "id": {"type": "integer"}, "tags": {"type": "array", "items": {"enum": ["a", "b"]}}}, "additionalProperties": false}"#
        )
        #expect(
            user.violations(of: try JSONParser.parse(#"{"login": "x", "tags": ["a", "c"], "extra": 1}"#)) == [
                #"$: missing required property "id""#, "$.login: shorter than 2 characters",
                #"$.tags[1]: expected one of ["a","b"], found "c""#, #"$: property "extra" is not allowed"#
            ])
        #expect(user.violations(of: .string("hello")) == ["$: expected object, found string"])
        #expect(user.accepts(try JSONParser.parse(#"{"login": "ada", "id": 1.0}"#)))
    }

    @Test("A bad schema is refused with the pointer of its keyword")
    func badSchemas() {
        for (text, expected) in [
            (
                ##"{"type": "text"}"##,
                ##"invalid JSON Schema at "#/type": expected one of null, boolean, object, array, number, integer, string, or a list of them"##
            ),
            (
                ##"{"properties": {"a": {"pattern": "[a-"}}}"##,
                ##"invalid JSON Schema at "#/properties/a/pattern": invalid regular expression"##
            ),
            (
                ##"{"$ref": "https://example.com/s.json"}"##,
                ##"invalid JSON Schema at "#/$ref": only references into this schema are supported"##
            ),
            (##"{"minLength": -1}"##, ##"invalid JSON Schema at "#/minLength": expected a non-negative integer"##),
            (##"[1]"##, ##"invalid JSON Schema at "#": a schema must be an object or a boolean"##)
        ] {
            #expect(throws: JSONSchemaError.self) { try schema(text) }
            do {
                _ = try schema(text)
            } catch let error as JSONSchemaError {
                #expect(error.description.hasPrefix(expected), "\(error.description)")
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test("A schema that refers to itself forever is cut off at the depth bound, never a crash")
    func recursion() throws {
        #expect(!(try schema(##"{"$ref": "#"}"##)).accepts(.number("1")))
        let tree = try schema(##"{"type": "object", "properties": {"child": {"$ref": "#"}}}"##)
        var value = JSONValue.object([])
        for _ in 0..<10 { value = .object([("child", value)]) }
        #expect(tree.accepts(value))
        for _ in 0..<100 { value = .object([("child", value)]) }
        #expect(!tree.accepts(value))
    }
}
