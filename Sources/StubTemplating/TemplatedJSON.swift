import StubModel

/// A `jsonBody` whose string values may be templates. Parts without `{{` are serialized once; a
/// templated string is rendered, then written as a JSON string (escaped), so the body stays valid
/// JSON whatever the request holds. Object keys are not templated.
indirect enum TemplatedJSON: Sendable {
    /// Compact JSON bytes of a subtree with no template.
    case fixed([UInt8])
    case string(Template)
    case array([TemplatedJSON])
    case object([(key: [UInt8], value: TemplatedJSON)])

    init(_ value: JSONValue, at path: [String]) throws(ResponseTemplate.Failure) {
        guard Self.hasTemplate(value) else {
            self = .fixed(value.serializedBytes(.compact))
            return
        }
        switch value {
        case let .string(text):
            do { self = .string(try Template(text)) } catch {
                throw ResponseTemplate.Failure(field: path, bodyFile: nil, error: error)
            }
        case let .array(items):
            var parts: [TemplatedJSON] = []
            for (index, item) in items.enumerated() { parts.append(try TemplatedJSON(item, at: path + ["[\(index)]"])) }
            self = .array(parts)
        case let .object(members):
            var parts: [(key: [UInt8], value: TemplatedJSON)] = []
            for member in members {
                parts.append(
                    (
                        JSONValue.string(member.key).serializedBytes(.compact),
                        try TemplatedJSON(member.value, at: path + [member.key])
                    ))
            }
            self = .object(parts)
        case .null, .bool, .number:
            self = .fixed(value.serializedBytes(.compact))
        }
    }

    /// Its templates, in document order.
    var templates: [Template] {
        var found: [Template] = []
        func walk(_ node: TemplatedJSON) {
            switch node {
            case .fixed: break
            case let .string(template): found.append(template)
            case let .array(items): items.forEach(walk)
            case let .object(members): members.forEach { walk($0.value) }
            }
        }
        walk(self)
        return found
    }

    /// The helpers its templates call that stubserver does not implement, each once.
    var unknownHelpers: [String] {
        var found: [String] = []
        func walk(_ node: TemplatedJSON) {
            switch node {
            case .fixed: break
            case let .string(template): found += template.unknownHelpers.filter { !found.contains($0) }
            case let .array(items): items.forEach(walk)
            case let .object(members): members.forEach { walk($0.value) }
            }
        }
        walk(self)
        return found
    }

    private static func hasTemplate(_ value: JSONValue) -> Bool {
        switch value {
        case let .string(text): Template.hasTags(text.utf8)
        case let .array(items): items.contains(where: hasTemplate)
        case let .object(members): members.contains { hasTemplate($0.value) }
        case .null, .bool, .number: false
        }
    }

    /// The length of `text` as a JSON string literal (``JSONValue/writeString(_:into:)``), quotes included.
    static func escapedCount(_ text: String) -> Int {
        var count = 2
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x0A, 0x0D, 0x09, 0x08, 0x0C: count += 2
            case 0x00..<0x20, 0x7F: count += 6
            default: count += 1
            }
        }
        return count
    }

    func render(in context: inout TemplateContext, into out: inout TemplateOutput) {
        guard context.exceeded == nil else { return }
        switch self {
        case let .fixed(bytes):
            out.bytes.append(contentsOf: bytes)
        case let .string(template):
            var text = TemplateOutput()
            template.render(in: &context, into: &text)
            let string = String(decoding: text.bytes, as: UTF8.self)
            // Escaping may grow the text up to six times: counted before it is built.
            guard context.evaluator.budget.produce(bytes: Self.escapedCount(string) - text.bytes.count) else { return }
            JSONValue.writeString(string, into: &out.bytes)
            out.spillIfLarge()
        case let .array(items):
            out.bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.bytes.append(UInt8(ascii: ",")) }
                item.render(in: &context, into: &out)
                out.spillIfLarge()
            }
            out.bytes.append(UInt8(ascii: "]"))
        case let .object(members):
            out.bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.bytes.append(UInt8(ascii: ",")) }
                out.bytes.append(contentsOf: member.key)
                out.bytes.append(UInt8(ascii: ":"))
                member.value.render(in: &context, into: &out)
                out.spillIfLarge()
            }
            out.bytes.append(UInt8(ascii: "}"))
        }
    }
}
