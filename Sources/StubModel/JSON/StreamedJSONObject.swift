/// A JSON object pretty-printed as the admin API sends it (``AdminResponse/json(_:status:)``, final newline
/// included) whose one big array member is serialized an element at a time: the same bytes as the whole
/// object, without ever holding them all. Built from a snapshot (value types), so every pass over it
/// gives the same bytes.
///
/// ```swift
/// let document = StreamedJSONObject(arrayKey: "requests", count: entries.count, after: [("meta", meta)]) { index in
///     entries[index].requestJSON
/// }
/// document.byteCount()   // what the Content-Length says; JSONObjectBodySource(document) then sends it
/// ```
package struct StreamedJSONObject: Sendable {
    /// Members before the array.
    let before: [(key: String, value: JSONValue)]
    let arrayKey: String
    /// How many elements the array has.
    package let count: Int
    /// Members after the array.
    let after: [(key: String, value: JSONValue)]
    /// Element `index` (0..<count).
    let element: @Sendable (Int) -> JSONValue

    package init(
        before: [(key: String, value: JSONValue)] = [], arrayKey: String, count: Int,
        after: [(key: String, value: JSONValue)] = [], element: @escaping @Sendable (Int) -> JSONValue
    ) {
        self.before = before
        self.arrayKey = arrayKey
        self.count = count
        self.after = after
        self.element = element
    }

    /// `{`, the members before the array, and the array's key and opening bracket.
    package func head() -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        for member in before { Self.appendMember(member, into: &out, first: out.count == 1) }
        if !before.isEmpty { out.append(UInt8(ascii: ",")) }
        JSONValue.newline(&out, 1)
        JSONValue.writeString(arrayKey, into: &out)
        out.append(contentsOf: count == 0 ? Array(": []".utf8) : Array(": [".utf8))
        return out
    }

    /// Element `index` with what precedes it (a comma after the first, a newline, the indentation).
    package func appendElement(_ index: Int, into out: inout [UInt8]) {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        JSONValue.newline(&out, 2)
        element(index).write(into: &out, indent: 2)
    }

    /// The closing bracket, the members after the array, `}` and the final newline.
    package func tail() -> [UInt8] {
        var out: [UInt8] = []
        if count > 0 {
            JSONValue.newline(&out, 1)
            out.append(UInt8(ascii: "]"))
        }
        for member in after { Self.appendMember(member, into: &out, first: false) }
        JSONValue.newline(&out, 0)
        out.append(contentsOf: Array("}\n".utf8))
        return out
    }

    /// The length of the whole document, serializing each element once into a reused scratch buffer.
    package func byteCount() -> Int {
        var total = head().count + tail().count
        var scratch: [UInt8] = []
        for index in 0..<count {
            scratch.removeAll(keepingCapacity: scratch.capacity <= 1 << 20)
            appendElement(index, into: &scratch)
            total += scratch.count
        }
        return total
    }

    /// The whole document at once, for callers that want a complete body (small listings, tests).
    package func bytes() -> [UInt8] {
        var out = head()
        for index in 0..<count { appendElement(index, into: &out) }
        out.append(contentsOf: tail())
        return out
    }

    private static func appendMember(_ member: (key: String, value: JSONValue), into out: inout [UInt8], first: Bool) {
        if !first { out.append(UInt8(ascii: ",")) }
        JSONValue.newline(&out, 1)
        JSONValue.writeString(member.key, into: &out)
        out.append(contentsOf: Array(": ".utf8))
        member.value.write(into: &out, indent: 1)
    }
}
