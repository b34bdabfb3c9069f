import StubModel

/// WireMock 2.35.1's `parseJson` and WireMock 3's `val`, `arrayJoin`, `arrayAdd` and `arrayRemove`.
extension TemplateEvaluator {
    @inline(never)
    mutating func jsonHelper(_ helper: JSONHelper, _ arguments: [TemplateValue], _ call: TemplateCall)
        -> TemplateValue
    {
        func option(_ name: String) -> TemplateValue? { call.option(name).map { evaluate($0) } }
        let subject = arguments.first ?? .missing
        switch helper {
        case .parseJson:
            if case .missing = subject { return .map([]) }
            let parsed = parseJSON(subject.text)
            guard arguments.count > 1 else { return parsed }
            assign(arguments[1].text, parsed)
            return .missing
        case .val:
            var value = subject
            if case .missing = value { value = option("or") ?? option("default") ?? .missing }
            guard let name = option("assign") else { return value }
            assign(name.text, value)
            return .missing
        case .arrayJoin:
            guard case let .string(separator) = subject else {
                return .string("[ERROR: Separator parameter must be a String]")
            }
            let rest = Array(arguments.dropFirst())
            guard let first = rest.first, !first.isMissing else {
                return .string("[ERROR: The parameter must be list]")
            }
            let items = first.isList ? first.elements?.map(\.value) ?? [] : rest
            guard !items.isEmpty else { return .string("") }
            guard budget.spend(steps: items.count) else { return .missing }
            let prefix = option("prefix")?.text ?? "", suffix = option("suffix")?.text ?? ""
            return .string(prefix + items.map(\.text).joined(separator: separator) + suffix)
        case .arrayAdd, .arrayRemove:
            if case .missing = subject { return .list([]) }
            var items = subject.elements?.map(\.value) ?? []
            guard budget.spend(steps: items.count) else { return .missing }
            let position: Int?
            switch option("position").map({ $0.text.lowercased() }) ?? "end" {
            case "start": position = 0
            case "end": position = nil
            case let text:
                guard let number = Int(text) else {
                    return .string("[ERROR: position must be 'start', 'end' or an integer]")
                }
                position = number
            }
            if let position, position < 0 || position > items.count {
                return .string(
                    "[ERROR: position must be greater than or equal to 0 and less than or equal to the size of the list]"
                )
            }
            if helper == .arrayAdd {
                guard arguments.count > 1 else {
                    return .string("[ERROR: Missing required parameter: additional value to add to list]")
                }
                items.insert(arguments[1], at: position ?? items.count)
            } else {
                // Java's List.remove: past the end (or on an empty list) it throws.
                let index = position ?? items.count - 1
                guard items.indices.contains(index) else {
                    return fail("arrayRemove: Index \(index) out of bounds for length \(items.count)")
                }
                items.remove(at: index)
            }
            return .list(items)
        }
    }

    /// `{{#arrayJoin ',' list}}…{{/arrayJoin}}`: the body once per item (as `this`), separated.
    @inline(never)
    mutating func renderArrayJoin(_ block: TemplateBlock, into out: inout TemplateOutput) {
        let arguments = block.call.arguments.map { evaluate($0) }
        guard arguments.count > 1, case let .string(separator) = arguments[0] else {
            _ = fail("arrayJoin: a separator and a list are required")
            return
        }
        let items = arguments[1].isList ? arguments[1].elements?.map(\.value) ?? [] : Array(arguments.dropFirst())
        guard !items.isEmpty, budget.spend(steps: items.count) else { return }
        let prefix = block.call.option("prefix").map { evaluate($0).text } ?? ""
        let suffix = block.call.option("suffix").map { evaluate($0).text } ?? ""
        guard budget.produce(bytes: prefix.utf8.count) else { return }
        out.bytes.append(contentsOf: prefix.utf8)
        for (index, item) in items.enumerated() {
            if index > 0 {
                guard budget.produce(bytes: separator.utf8.count) else { return }
                out.bytes.append(contentsOf: separator.utf8)
            }
            frames.append(Frame(this: item, index: index, key: String(index), count: items.count))
            render(block.body, into: &out)
            frames.removeLast()
        }
        guard budget.produce(bytes: suffix.utf8.count) else { return }
        out.bytes.append(contentsOf: suffix.utf8)
        out.spillIfLarge()
    }

    /// `text` read as JSON into maps and lists (rendered as Java's `{a=1, b=[1, 2]}`); `{}` or blank
    /// text is an empty map; text that is not JSON fails the response, as in WireMock.
    private mutating func parseJSON(_ text: String) -> TemplateValue {
        let bytes = Array(text.utf8)
        guard budget.spend(steps: bytes.count / 256) else { return .missing }
        guard bytes.count <= budget.limits.maxJSONBytes else {
            return fail("parseJson: the value (\(bytes.count) bytes) is over the limit of JSON parsed per request")
        }
        if bytes.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return .map([]) }
        guard let json = try? JSONParser.parse(bytes) else { return fail("parseJson: Error parsing JSON") }
        var count = 0
        let value = Self.javaValue(json, count: &count)
        guard budget.spend(steps: count) else { return .missing }
        return value
    }

    /// Jackson's reading into `Map` / `List` / scalars: objects become maps, arrays lists, `null` missing.
    static func javaValue(_ json: JSONValue, count: inout Int) -> TemplateValue {
        count += 1
        switch json {
        case .null: return .missing
        case let .bool(value): return .bool(value)
        case .string, .number: return .json(json)
        case let .array(items): return .list(items.map { javaValue($0, count: &count) })
        case let .object(members): return .map(members.map { ($0.key, javaValue($0.value, count: &count)) })
        }
    }
}

extension TemplateValue {
    var isMissing: Bool {
        if case .missing = self { return true }
        return false
    }

    /// The text Java's `toString` gives inside a collection: `null` for a missing value.
    var javaText: String { isMissing ? "null" : text }
}

/// WireMock 2.35.1's `parseJson`; WireMock 3's `val`, `arrayJoin`, `arrayAdd` and `arrayRemove`.
enum JSONHelper: String, Sendable, CaseIterable, TemplateHelperFamily {
    case parseJson, val, arrayJoin, arrayAdd, arrayRemove

    /// How many arguments the helper takes inline; used as a block, the body is the first one.
    var argumentCounts: ClosedRange<Int> {
        switch self {
        case .parseJson: 1...2
        case .val, .arrayRemove: 1...1
        case .arrayAdd: 2...2
        case .arrayJoin: 2...Int.max
        }
    }
}
