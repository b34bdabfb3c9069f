/// An ordered list of header fields with case-insensitive lookup.
///
/// Names keep their original spelling and order, and duplicates are kept, as they arrived on the
/// wire. Lookup ignores ASCII case, as RFC 9110 requires.
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "application/json"]
/// headers.add(name: "Set-Cookie", value: "a=1")
/// headers.add(name: "Set-Cookie", value: "b=2")
/// headers["set-cookie"]          // ["a=1", "b=2"]
/// headers.first(name: "content-type") // "application/json"
/// ```
public struct HTTPHeaders: Sendable, Hashable, ExpressibleByDictionaryLiteral, Sequence, CustomStringConvertible {
    /// One header field.
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    @usableFromInline var fields: [Field]

    /// Creates headers from `(name, value)` pairs, in order.
    public init(_ pairs: [(String, String)] = []) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The number of fields, counting duplicates.
    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// Appends a field, keeping any existing fields of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field named `name` (any case) and appends one with `value`.
    public mutating func replaceOrAdd(name: String, value: String) {
        remove(name: name)
        add(name: name, value: value)
    }

    /// Removes every field named `name` (any case).
    public mutating func remove(name: String) {
        fields.removeAll { Self.equalsIgnoringCase($0.name, name) }
    }

    /// All values of the fields named `name` (any case), in order.
    public subscript(name: String) -> [String] {
        var result: [String] = []
        for field in fields where Self.equalsIgnoringCase(field.name, name) {
            result.append(field.value)
        }
        return result
    }

    /// The value of the first field named `name` (any case).
    public func first(name: String) -> String? {
        fields.first { Self.equalsIgnoringCase($0.name, name) }?.value
    }

    /// Whether a field named `name` (any case) is present.
    public func contains(name: String) -> Bool {
        fields.contains { Self.equalsIgnoringCase($0.name, name) }
    }

    /// Whether any comma-separated element of the fields named `name` equals `token`, ignoring case.
    /// Used for list headers such as `Connection: keep-alive, Upgrade`.
    public func containsToken(_ token: String, in name: String) -> Bool {
        for field in fields where Self.equalsIgnoringCase(field.name, name) {
            // Every request asks (`Connection: keep-alive`): bytes, without splitting into an array.
            if let found = Self.asciiList(field.value, containsToken: token) {
                if found { return true }
                continue
            }
            for element in field.value.split(separator: ",") {
                if Self.equalsIgnoringCase(element.trimmingSpaces(), token) { return true }
            }
        }
        return false
    }

    /// Whether the comma-separated `list` has an element equal to `token` (ASCII case-insensitive,
    /// spaces and tabs around it ignored), read as bytes; `nil` when `list` is not ASCII or has a
    /// carriage return, where elements end at Characters, not bytes.
    private static func asciiList(_ list: String, containsToken token: String) -> Bool? {
        let result = list.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            var start = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x80, byte != UInt8(ascii: "\r") else { return nil }
                if byte == UInt8(ascii: ",") { start = index + 1; continue }
                guard index + 1 == bytes.count || bytes[index + 1] == UInt8(ascii: ",") else { continue }
                // `start...index` is one element.
                var lower = start, upper = index + 1
                while lower < upper, bytes[lower] == UInt8(ascii: " ") || bytes[lower] == UInt8(ascii: "\t") {
                    lower += 1
                }
                while upper > lower, bytes[upper - 1] == UInt8(ascii: " ") || bytes[upper - 1] == UInt8(ascii: "\t") {
                    upper -= 1
                }
                if equalsIgnoringCase(UnsafeBufferPointer(rebasing: bytes[lower..<upper]), token.utf8) { return true }
            }
            return false
        }
        return result ?? nil
    }

    /// ``equalsIgnoringCase(_:_:)`` on bytes.
    private static func equalsIgnoringCase(_ a: UnsafeBufferPointer<UInt8>, _ b: String.UTF8View) -> Bool {
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) where x != y {
            guard (x | 0x20) == (y | 0x20), (x | 0x20) >= UInt8(ascii: "a"), (x | 0x20) <= UInt8(ascii: "z") else {
                return false
            }
        }
        return true
    }

    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// ASCII case-insensitive comparison, without allocating.
    @inlinable
    public static func equalsIgnoringCase<A: StringProtocol, B: StringProtocol>(_ a: A, _ b: B) -> Bool {
        let a = a.utf8, b = b.utf8
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) where x != y {
            guard (x | 0x20) == (y | 0x20), (x | 0x20) >= UInt8(ascii: "a"), (x | 0x20) <= UInt8(ascii: "z") else {
                return false
            }
        }
        return true
    }
}

extension StringProtocol {
    /// The string without leading and trailing spaces and tabs.
    @usableFromInline func trimmingSpaces() -> Substring {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return s
    }
}
