import StubModel

/// Builds the ``JSONValue`` of the parser's events, with its open collections in an array (no recursion): anchors,
/// aliases within ``YAMLLimits/maxAliasExpansion``, merge keys, tags, duplicate keys and the depth limit.
struct YAMLComposer {
    private struct Anchored {
        var value: JSONValue
        var nodes: Int
        /// The source text, for a scalar used as a mapping key.
        var keyText: String?
    }

    private struct Frame {
        var isMapping: Bool
        var anchor: String?
        var start: Int
        var items: [JSONValue] = []
        var entries: [(key: String, value: JSONValue)] = []
        var keys: Set<String>?
        var expectingKey = true
        var pendingKey = ""
        var pendingMerge = false
        var merges: [[(key: String, value: JSONValue)]] = []
        var nodes = 1

        init(isMapping: Bool, anchor: String?, start: Int) {
            self.isMapping = isMapping
            self.anchor = anchor
            self.start = start
        }
    }

    private var parser: YAMLParser
    private let limits: YAMLLimits
    private var stack: [Frame] = []
    private var anchors: [String: Anchored] = [:]
    private var aliasNodes = 0
    private var root: JSONValue?

    init(bytes: UnsafePointer<UInt8>, count: Int, limits: YAMLLimits) {
        parser = YAMLParser(scanner: YAMLScanner(bytes: bytes, count: count, maxDepth: limits.maxDepth))
        self.limits = limits
    }

    mutating func composeDocument() throws(YAMLFailure) -> JSONValue {
        while true {
            switch try parser.next() {
            case .streamEnd: return root ?? .null
            case .documentStart, .documentEnd: break
            case let .alias(name, at):
                guard let anchored = anchors[name] else {
                    throw YAMLFailure("alias *\(name) names no anchor defined before it", at: at)
                }
                aliasNodes += anchored.nodes
                if aliasNodes > limits.maxAliasExpansion {
                    throw YAMLFailure(
                        "alias *\(name) takes the nodes produced via aliases past \(limits.maxAliasExpansion) "
                            + "(maxAliasExpansion)", at: at)
                }
                try add(anchored.value, nodes: anchored.nodes, at: at, keyText: anchored.keyText, isMergeKey: false)
            case let .scalar(text, properties, plain, at):
                let expectingKey = stack.last.map { $0.isMapping && $0.expectingKey } ?? false
                let value: JSONValue
                var isMergeKey = false
                if expectingKey {
                    // A key keeps its source text (`200:` is "200"); its tag must still be one we know.
                    if let tag = properties.tag { _ = try Self.tagName(tag, at: properties.tagStart) }
                    value = .string(text)
                    isMergeKey = text == "<<" && (plain || properties.tag.map(Self.isMergeTag) == true)
                } else {
                    value = try Self.resolve(text, plain: plain, properties: properties, at: at)
                }
                if let anchor = properties.anchor {
                    anchors[anchor] = Anchored(
                        value: expectingKey
                            ? try Self.resolve(text, plain: plain, properties: properties, at: at) : value,
                        nodes: 1, keyText: text)
                }
                try add(value, nodes: 1, at: at, keyText: text, isMergeKey: isMergeKey)
            case let .sequenceStart(properties, at):
                try open(isMapping: false, properties, at: at)
            case let .mappingStart(properties, at):
                try open(isMapping: true, properties, at: at)
            case .sequenceEnd, .mappingEnd:
                let frame = stack.removeLast()
                let value: JSONValue
                if frame.isMapping {
                    value = .object(frame.merges.isEmpty ? frame.entries : Self.merged(frame))
                } else {
                    value = .array(frame.items)
                }
                if let anchor = frame.anchor { anchors[anchor] = Anchored(value: value, nodes: frame.nodes) }
                try add(value, nodes: frame.nodes, at: frame.start, keyText: nil, isMergeKey: false)
            }
        }
    }

    private mutating func open(isMapping: Bool, _ properties: YAMLNodeProperties, at: Int) throws(YAMLFailure) {
        if let top = stack.last, top.isMapping, top.expectingKey {
            throw YAMLFailure("a mapping key must be a scalar, not a \(isMapping ? "mapping" : "sequence")", at: at)
        }
        if let tag = properties.tag {
            let name = try Self.tagName(tag, at: properties.tagStart)
            guard name == (isMapping ? "map" : "seq") else {
                throw YAMLFailure("tag \(tag) on a \(isMapping ? "mapping" : "sequence")", at: properties.tagStart)
            }
        }
        if stack.count >= limits.maxDepth {
            throw YAMLFailure("collections nested deeper than \(limits.maxDepth) levels (maxDepth)", at: at)
        }
        stack.append(Frame(isMapping: isMapping, anchor: properties.anchor, start: at))
    }

    private mutating func add(
        _ value: JSONValue, nodes: Int, at: Int, keyText: String?, isMergeKey: Bool
    ) throws(YAMLFailure) {
        guard !stack.isEmpty else {
            root = value
            return
        }
        let top = stack.count - 1
        stack[top].nodes += nodes
        if !stack[top].isMapping {
            stack[top].items.append(value)
            return
        }
        if stack[top].expectingKey {
            guard let keyText else { throw YAMLFailure("a mapping key must be a scalar", at: at) }
            stack[top].expectingKey = false
            if isMergeKey {
                stack[top].pendingMerge = true
                return
            }
            if stack[top].keys == nil {
                if stack[top].entries.contains(where: { $0.key == keyText }) {
                    throw YAMLFailure("duplicate key \"\(keyText)\"", at: at)
                }
                if stack[top].entries.count >= 16 { stack[top].keys = Set(stack[top].entries.map(\.key)) }
            }
            if stack[top].keys != nil && stack[top].keys!.insert(keyText).inserted == false {
                throw YAMLFailure("duplicate key \"\(keyText)\"", at: at)
            }
            stack[top].pendingKey = keyText
            return
        }
        stack[top].expectingKey = true
        if stack[top].pendingMerge {
            stack[top].pendingMerge = false
            switch value {
            case let .object(entries):
                stack[top].merges.append(entries)
                return
            case let .array(items):
                var sources: [[(key: String, value: JSONValue)]] = []
                for item in items {
                    guard case let .object(entries) = item else {
                        throw YAMLFailure("a merge key (<<) takes a mapping or a sequence of mappings", at: at)
                    }
                    sources.append(entries)
                }
                stack[top].merges.append(contentsOf: sources)
                return
            case .null, .bool, .number, .string:
                throw YAMLFailure("a merge key (<<) takes a mapping or a sequence of mappings", at: at)
            }
        }
        stack[top].entries.append((stack[top].pendingKey, value))
    }

    /// A mapping's own entries over its merged ones: the first merged mapping wins among them, as YAML's merge key
    /// type says; merged keys come first, as ruamel.yaml and PyYAML order them.
    private static func merged(_ frame: Frame) -> [(key: String, value: JSONValue)] {
        var result: [(key: String, value: JSONValue)] = []
        var positions: [String: Int] = [:]
        for source in frame.merges {
            for (key, value) in source where positions[key] == nil {
                positions[key] = result.count
                result.append((key, value))
            }
        }
        for (key, value) in frame.entries {
            if let position = positions[key] {
                result[position].value = value
            } else {
                positions[key] = result.count
                result.append((key, value))
            }
        }
        return result
    }

    // MARK: Tags and the core schema

    private static func isMergeTag(_ tag: String) -> Bool {
        tag == "!!merge" || tag == "!<tag:yaml.org,2002:merge>"
    }

    /// The name of a tag of the YAML core schema (`str`, `int`, …), or an error naming the tag.
    private static func tagName(_ tag: String, at: Int) throws(YAMLFailure) -> String {
        var name: Substring?
        if tag == "!" {
            name = "str"
        } else if tag.hasPrefix("!!") {
            name = tag.dropFirst(2)
        } else if tag.hasPrefix("!<tag:yaml.org,2002:") && tag.hasSuffix(">") {
            name = tag.dropFirst(20).dropLast()
        }
        if let name, ["str", "int", "float", "bool", "null", "map", "seq", "merge"].contains(name) {
            return String(name)
        }
        throw YAMLFailure("unsupported tag \(tag): only !!str, !!int, !!float, !!bool, !!null, !!map and !!seq", at: at)
    }

    static func resolve(
        _ text: String, plain: Bool, properties: YAMLNodeProperties, at: Int
    ) throws(YAMLFailure) -> JSONValue {
        guard let tag = properties.tag else {
            guard plain else { return .string(text) }
            switch YAMLSchema.resolve(text) {
            case .null: return .null
            case let .bool(value): return .bool(value)
            case let .number(value): return .number(value)
            case .string: return .string(text)
            case .notJSON: throw YAMLFailure("\(text) has no JSON value", at: at)
            }
        }
        let name = try tagName(tag, at: properties.tagStart)
        let resolved = YAMLSchema.resolve(text)
        switch name {
        case "str":
            return .string(text)
        case "null":
            if case .null = resolved { return .null }
        case "bool":
            if case let .bool(value) = resolved { return .bool(value) }
        case "int":
            if case let .number(value) = resolved, YAMLSchema.isInteger(text) { return .number(value) }
        case "float":
            if case let .number(value) = resolved { return .number(value) }
            if case .notJSON = resolved { throw YAMLFailure("\(text) has no JSON value", at: at) }
        default:
            throw YAMLFailure("tag \(tag) on a scalar", at: properties.tagStart)
        }
        throw YAMLFailure("\"\(text)\" is not a valid \(tag) value", at: at)
    }
}

/// The YAML 1.2 core schema's resolution of plain scalars, numbers written as JSON number text.
enum YAMLSchema {
    enum Resolved: Equatable {
        case null, bool(Bool), number(String), string, notJSON
    }

    static func resolve(_ text: String) -> Resolved {
        let utf8 = text.utf8
        guard let first = utf8.first else { return .null }
        switch first {
        case UInt8(ascii: "~"):
            return utf8.count == 1 ? .null : .string
        case UInt8(ascii: "n"), UInt8(ascii: "N"):
            return text == "null" || text == "Null" || text == "NULL" ? .null : .string
        case UInt8(ascii: "t"), UInt8(ascii: "T"):
            return text == "true" || text == "True" || text == "TRUE" ? .bool(true) : .string
        case UInt8(ascii: "f"), UInt8(ascii: "F"):
            return text == "false" || text == "False" || text == "FALSE" ? .bool(false) : .string
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
            return number(Array(utf8))
        default:
            return .string
        }
    }

    static func isInteger(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        if bytes.count > 2 && bytes[0] == UInt8(ascii: "0")
            && (bytes[1] == UInt8(ascii: "o") || bytes[1] == UInt8(ascii: "x"))
        {
            return true
        }
        return !bytes.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }

    private static func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

    private static func number(_ b: [UInt8]) -> Resolved {
        // 0o17 and 0x1F: unsigned, converted to decimal digits.
        if b.count > 2 && b[0] == UInt8(ascii: "0") && (b[1] == UInt8(ascii: "o") || b[1] == UInt8(ascii: "x")) {
            let radix = b[1] == UInt8(ascii: "o") ? 8 : 16
            var digits: [UInt8] = []  // little-endian base 10
            for c in b[2...] {
                guard let digit = Int(String(UnicodeScalar(c)), radix: radix) else { return .string }
                var carry = digit
                for i in digits.indices {
                    let v = Int(digits[i]) * radix + carry
                    digits[i] = UInt8(v % 10)
                    carry = v / 10
                }
                while carry > 0 {
                    digits.append(UInt8(carry % 10))
                    carry /= 10
                }
            }
            if digits.isEmpty { return .number("0") }
            return .number(String(decoding: digits.reversed().map { $0 + UInt8(ascii: "0") }, as: UTF8.self))
        }
        var i = 0
        var negative = false
        if b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") {
            negative = b[i] == UInt8(ascii: "-")
            i += 1
        }
        let rest = String(decoding: b[i...], as: UTF8.self)
        if rest == ".inf" || rest == ".Inf" || rest == ".INF" { return .notJSON }
        if i == 0 && (rest == ".nan" || rest == ".NaN" || rest == ".NAN") { return .notJSON }
        let intStart = i
        while i < b.count && isDigit(b[i]) { i += 1 }
        let intDigits = b[intStart..<i]
        var fraction: ArraySlice<UInt8>?
        if i < b.count && b[i] == UInt8(ascii: ".") {
            i += 1
            let fractionStart = i
            while i < b.count && isDigit(b[i]) { i += 1 }
            fraction = b[fractionStart..<i]
        }
        if intDigits.isEmpty && (fraction?.isEmpty ?? true) { return .string }
        var exponent: ArraySlice<UInt8>?
        if i < b.count && (b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E")) {
            let exponentStart = i
            i += 1
            if i < b.count && (b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+")) { i += 1 }
            let digitsStart = i
            while i < b.count && isDigit(b[i]) { i += 1 }
            if i == digitsStart { return .string }
            exponent = b[exponentStart..<i]
        }
        if i != b.count { return .string }
        var out: [UInt8] = []
        out.reserveCapacity(b.count + 2)
        if negative { out.append(UInt8(ascii: "-")) }
        let significant = intDigits.drop { $0 == UInt8(ascii: "0") }
        if significant.isEmpty { out.append(UInt8(ascii: "0")) } else { out.append(contentsOf: significant) }
        if let fraction {
            out.append(UInt8(ascii: "."))
            if fraction.isEmpty { out.append(UInt8(ascii: "0")) } else { out.append(contentsOf: fraction) }
        }
        if let exponent { out.append(contentsOf: exponent) }
        return .number(String(decoding: out, as: UTF8.self))
    }
}
