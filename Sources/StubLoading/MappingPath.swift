import StubModel

/// A location inside a JSON document, written the way users read it: `mappings[2].response.status`,
/// `request.headers["X Api Key"]`. The empty path is the whole document.
struct MappingPath: Sendable, Hashable, CustomStringConvertible {
    private(set) var text: String

    static let root = MappingPath(text: "")

    /// The path of member `key` of the object at this path.
    func key(_ key: String) -> MappingPath {
        let plain =
            !key.isEmpty
            && key.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default:
                    false
                }
            }
        if !plain { return MappingPath(text: text + "[" + JSONValue.string(key).serialized() + "]") }
        return MappingPath(text: text.isEmpty ? key : text + "." + key)
    }

    /// The path of element `index` of the array at this path.
    func index(_ index: Int) -> MappingPath { MappingPath(text: text + "[\(index)]") }

    var description: String { text }

    /// The path without array indices, for grouping warnings (`mappings[2].request` → `mappings.request`).
    var withoutIndices: String {
        var result = ""
        var inIndex = false
        for character in text {
            if character == "[", !inIndex { inIndex = true; continue }
            if inIndex { if character == "]" { inIndex = false }; continue }
            result.append(character)
        }
        return result
    }
}

extension JSONValue {
    /// How a value is described in "found …" messages: strings quoted (shortened), numbers and
    /// literals as written, containers by kind.
    package var foundDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let text): return text
        case .string(let text):
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return JSONValue.string(shown).serialized()
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
