import StubModel

/// Makes a value a schema accepts, the same for the same seed: the schema's own `example`, `examples`,
/// `default`, `const` or `enum` when it has one, else a value of its type (formats `date-time`, `date`,
/// `uuid`, `email`, `uri`, `hostname`, `ipv4`, `ipv6`, `byte`; bounds, lengths and item counts kept).
///
/// Recursive schemas stop: past ``maxDepth`` only required properties are made, and an array is empty if it may be.
struct OpenAPIValueGenerator {
    static let maxDepth = 6
    static let maxNodes = 10_000

    let document: OpenAPIDocument
    private var random: SplitMix64
    private var nodes = 0

    init(document: OpenAPIDocument, seed: UInt64) {
        self.document = document
        random = SplitMix64(seed: seed)
    }

    mutating func value(at pointer: String) -> JSONValue {
        guard let schema = document.validator.node(at: pointer) else { return .null }
        return value(for: schema, depth: 0)
    }

    mutating func value(for schema: JSONValue, depth: Int) -> JSONValue {
        nodes += 1
        guard nodes < Self.maxNodes, depth < Self.maxDepth * 4, let schema = document.follow(schema) else {
            return .null
        }
        if let example = schema["example"] { return example }
        if case .array(let examples)? = schema["examples"], let first = examples.first { return first }
        if let value = schema["default"] ?? schema["const"] { return value }
        if case .array(let options)? = schema["enum"], !options.isEmpty {
            return options[Int(random.next() % UInt64(options.count))]
        }
        if case .array(let parts)? = schema["allOf"] {
            var merged: [(key: String, value: JSONValue)] = []
            var other: JSONValue?
            for part in parts {
                let made = value(for: part, depth: depth + 1)
                if case .object(let members) = made {
                    for member in members where !merged.contains(where: { $0.key == member.key }) {
                        merged.append(member)
                    }
                } else {
                    other = made
                }
            }
            if merged.isEmpty, let other { return other }
            if case .object(let own) = objectValue(schema, depth: depth) {
                for member in own where !merged.contains(where: { $0.key == member.key }) { merged.append(member) }
            }
            return .object(merged)
        }
        for key in ["oneOf", "anyOf"] {
            if case .array(let choices)? = schema[key], let first = choices.first {
                return value(for: first, depth: depth + 1)
            }
        }
        let types = OpenAPIDocument.types(of: schema)
        let type = types.first { $0 != "null" } ?? types.first
        switch type {
        case "object"?: return objectValue(schema, depth: depth)
        case "array"?:
            let minimum = schema["minItems"]?.doubleValue.map { Int($0) } ?? (depth >= Self.maxDepth ? 0 : 1)
            let count = min(max(minimum, 0), schema["maxItems"]?.doubleValue.map { Int($0) } ?? Int.max, 3)
            guard let items = schema["items"] else { return .array([]) }
            return .array((0..<count).map { _ in value(for: items, depth: depth + 1) })
        case "string"?: return .string(string(schema))
        case "integer"?: return .number(String(integer(schema)))
        case "number"?: return .number(number(schema))
        case "boolean"?: return .bool(random.next() & 1 == 1)
        case "null"?: return .null
        case .some, nil:
            if schema["properties"] != nil { return objectValue(schema, depth: depth) }
            if schema["items"] != nil { return .array([value(for: schema["items"]!, depth: depth + 1)]) }
            return .string("string")
        }
    }

    private mutating func objectValue(_ schema: JSONValue, depth: Int) -> JSONValue {
        guard case .object(let properties)? = schema["properties"] else { return .object([]) }
        var required: Set<String> = []
        if case .array(let names)? = schema["required"] { required = Set(names.compactMap(\.stringValue)) }
        var members: [(key: String, value: JSONValue)] = []
        for (name, property) in properties where depth < Self.maxDepth || required.contains(name) {
            // Properties only a server writes are left out of requests, and kept in responses.
            members.append((name, value(for: property, depth: depth + 1)))
        }
        return .object(members)
    }

    private mutating func string(_ schema: JSONValue) -> String {
        let n = random.next()
        var text: String
        switch schema["format"]?.stringValue {
        case "date-time"?:
            text = "2024-\(two(n % 12 + 1))-\(two(n / 12 % 28 + 1))T\(two(n / 7 % 24)):\(two(n / 3 % 60)):00Z"
        case "date"?: text = "2024-\(two(n % 12 + 1))-\(two(n / 12 % 28 + 1))"
        case "time"?: text = "\(two(n % 24)):\(two(n / 24 % 60)):00"
        case "uuid"?: text = uuid(n, random.next())
        case "email"?: text = "user\(n % 10_000)@example.com"
        case "uri"?, "url"?, "uri-reference"?: text = "https://example.com/items/\(n % 10_000)"
        case "hostname"?: text = "host\(n % 100).example.com"
        case "ipv4"?: text = "192.0.2.\(n % 254 + 1)"
        case "ipv6"?: text = "2001:db8::\(String(n % 0xFFFF, radix: 16))"
        case "byte"?: text = "c3R1YnNlcnZlcg=="
        case "password"?: text = "secret\(n % 1000)"
        case .some, nil: text = Self.words[Int(n % UInt64(Self.words.count))]
        }
        if let minimum = schema["minLength"]?.doubleValue.map({ Int($0) }), text.count < minimum {
            text += String(repeating: "x", count: minimum - text.count)
        }
        if let maximum = schema["maxLength"]?.doubleValue.map({ Int($0) }), text.count > maximum {
            text = String(text.prefix(maximum))
        }
        return text
    }

    private static let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]

    private func two(_ n: UInt64) -> String { n < 10 ? "0\(n)" : "\(n)" }

    private func uuid(_ a: UInt64, _ b: UInt64) -> String {
        let hex = (String(a, radix: 16).leftPadded(16) + String(b, radix: 16).leftPadded(16)).map(String.init)
        var chars = hex
        chars[12] = "4"
        chars[16] = ["8", "9", "a", "b"][Int(b % 4)]
        let s = chars.joined()
        let i = s.startIndex
        func part(_ from: Int, _ to: Int) -> Substring { s[s.index(i, offsetBy: from)..<s.index(i, offsetBy: to)] }
        return "\(part(0, 8))-\(part(8, 12))-\(part(12, 16))-\(part(16, 20))-\(part(20, 32))"
    }

    private mutating func integer(_ schema: JSONValue) -> Int {
        var low = schema["minimum"]?.doubleValue.map { Int($0.rounded(.up)) } ?? 1
        var high = schema["maximum"]?.doubleValue.map { Int($0.rounded(.down)) } ?? max(low, 0) + 1000
        if schema["exclusiveMinimum"] == .bool(true) { low += 1 }
        if let bound = schema["exclusiveMinimum"]?.doubleValue { low = Int(bound.rounded(.down)) + 1 }
        if schema["exclusiveMaximum"] == .bool(true) { high -= 1 }
        if let bound = schema["exclusiveMaximum"]?.doubleValue { high = Int(bound.rounded(.up)) - 1 }
        guard high > low else { return low }
        var value = low + Int(random.next() % UInt64(min(high - low + 1, 1 << 40)))
        if let step = schema["multipleOf"]?.doubleValue, step >= 1 {
            let s = Int(step)
            value = ((value + s - 1) / s) * s
            if value > high { value -= s }
        }
        return value
    }

    private mutating func number(_ schema: JSONValue) -> String {
        if schema["multipleOf"] != nil { return String(integer(schema)) }
        let whole = integer(schema)
        let high = schema["maximum"]?.doubleValue
        if let high, Double(whole) + 0.5 > high { return String(whole) }
        return "\(whole).5"
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// A small, fast generator with a seed (Vigna's SplitMix64): the same seed gives the same values on every platform.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// FNV-1a of `text`: a stable seed per operation (Swift's `Hasher` differs per process).
    static func hash(_ text: String, seed: UInt64) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ seed
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
