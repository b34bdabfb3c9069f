import Foundation
import StubModel
import StubTestSupport
import Testing

@testable import StubYAML

/// StubYAML against a real YAML 1.2 parser, ruamel.yaml (`typ='safe', pure=True`, its default YAML 1.2), on every
/// file of `Tests/Fixtures/yaml`: the OpenAPI Initiative's example documents and our own files of each construct.
/// Values are compared as JSON: numbers by value, objects by their keys (ruamel's non-string keys, such as `200`,
/// through `str()`). The fixtures stay inside what both read alike: no `.inf`/`.nan` (no JSON value here), no
/// `1_000`, `0b1`, `+0x1F` or dates, which ruamel resolves beyond the core schema, no booleans as keys (`str(True)`).
/// Skipped, saying so, without a Python that has ruamel.yaml (`pip install ruamel.yaml`; `.ci/run` installs it).
@Suite("YAML agreement with ruamel.yaml")
struct YAMLAgreementTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/yaml")

    /// The environment variable naming a Python interpreter with ruamel.yaml (else `python3`, if it has it).
    static let environmentVariable = "STUBSERVER_PYTHON_RUAMEL"

    static let interpreter: String? = {
        let named = ProcessInfo.processInfo.environment[environmentVariable].map { [$0] } ?? []
        return (named + ["python3"]).first { python in
            let outcome = try? ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/env"), [python, "-c", "import ruamel.yaml"], timeout: .seconds(60))
            return outcome?.succeeded ?? false
        }
    }()

    static let script = """
        import json, sys
        from ruamel.yaml import YAML
        def norm(v):
            if isinstance(v, dict): return {str(k): norm(x) for k, x in v.items()}
            if isinstance(v, list): return [norm(x) for x in v]
            return v
        out = {}
        for path in sys.argv[1:]:
            try:
                with open(path, encoding='utf-8') as f:
                    out[path] = {'value': norm(YAML(typ='safe', pure=True).load(f))}
            except Exception as e:
                out[path] = {'error': type(e).__name__ + ': ' + str(e)}
        print(json.dumps(out))
        """

    static func fixtures() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { ["yaml", "yml", "json"].contains($0.pathExtension) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test("the fixtures include the OpenAPI 3.0 and 3.1 examples and read without error here")
    func fixturesRead() throws {
        let files = try Self.fixtures()
        let names = Set(files.map(\.lastPathComponent))
        #expect(
            names.isSuperset(of: [
                "oai-v3.0-petstore-expanded.yaml", "oai-v3.0-uspto.yaml", "oai-v3.1-webhook-example.yaml"
            ]))
        for file in files {
            let value = try YAML.parse(String(decoding: try Data(contentsOf: file), as: UTF8.self))
            #expect(value != .null, "\(file.lastPathComponent)")
        }
    }

    @Test(
        "every fixture reads as ruamel.yaml reads it",
        .enabled(
            if: Self.interpreter != nil,
            "no Python with ruamel.yaml: set STUBSERVER_PYTHON_RUAMEL to one (pip install ruamel.yaml)"))
    func agreement() throws {
        let files = try Self.fixtures()
        let interpreter = try #require(Self.interpreter)
        let outcome = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), [interpreter, "-c", Self.script] + files.map(\.path),
            timeout: .seconds(300))
        #expect(outcome.succeeded, "python: \(outcome.standardError)")
        let theirs = try YAML.parse(outcome.standardOutput)
        for file in files {
            let result = try #require(theirs[file.path], "ruamel.yaml said nothing of \(file.lastPathComponent)")
            guard let expected = result["value"] else {
                Issue.record("ruamel.yaml refused \(file.lastPathComponent): \(result["error"] ?? .null)")
                continue
            }
            let ours = try YAML.parse(String(decoding: try Data(contentsOf: file), as: UTF8.self))
            var differences: [String] = []
            Self.compare(ours, expected, path: "$", into: &differences)
            #expect(differences.isEmpty, "\(file.lastPathComponent): \(differences.prefix(5).joined(separator: "; "))")
        }
    }

    @Test("the comparison sees a difference of value, of key and of type, and not of key order or number spelling")
    func comparison() {
        var differences: [String] = []
        Self.compare(
            .object([("a", .number("1.0")), ("b", "x")]), .object([("b", "x"), ("a", .number("1"))]), path: "$",
            into: &differences)
        #expect(differences.isEmpty)
        Self.compare(.object([("a", .number("1"))]), .object([("a", .number("2"))]), path: "$", into: &differences)
        Self.compare(
            .object([("a", .number("1"))]), .object([("a", .number("1")), ("c", .null)]), path: "$", into: &differences)
        Self.compare(["1"], [.number("1")], path: "$", into: &differences)
        #expect(differences == ["$.a: 1 ≠ 2", "$: keys [\"a\"] ≠ [\"a\", \"c\"]", "$[0]: \"1\" ≠ 1"])
    }

    /// Records where `ours` and `theirs` differ as JSON values: numbers by value, objects regardless of key order.
    static func compare(_ ours: JSONValue, _ theirs: JSONValue, path: String, into differences: inout [String]) {
        switch (ours, theirs) {
        case let (.number(a), .number(b)):
            if Double(a) != Double(b) { differences.append("\(path): \(a) ≠ \(b)") }
        case let (.array(a), .array(b)):
            guard a.count == b.count else {
                differences.append("\(path): \(a.count) items ≠ \(b.count)")
                return
            }
            for (index, (x, y)) in zip(a, b).enumerated() {
                compare(x, y, path: "\(path)[\(index)]", into: &differences)
            }
        case let (.object(a), .object(b)):
            let keys = a.map(\.key)
            guard Set(keys) == Set(b.map(\.key)), keys.count == b.count else {
                differences.append("\(path): keys \(keys.sorted()) ≠ \(b.map(\.key).sorted())")
                return
            }
            for (key, value) in a {
                compare(value, theirs[key] ?? .null, path: "\(path).\(key)", into: &differences)
            }
        default:
            if ours != theirs { differences.append("\(path): \(ours) ≠ \(theirs)") }
        }
    }
}
