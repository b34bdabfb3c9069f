/// The query of a collection's `GET`: filters, sort order and page.
///
/// - `field=value` keeps the items whose `field` (a dotted path into nested objects: `owner.login`) equals
///   `value`: a string as is, a number by value (`1` and `1.0`), `true`, `false`, `null`; an array member when one
///   of its elements does. The same field twice keeps either value.
/// - `sort=field` (ascending) or `sort=-field` (descending), several comma-separated; `order=desc` reverses an
///   ascending field. Numbers sort by value, strings by code point; items without the field come last.
/// - `limit` and `offset`, or `page` (from 1) and `per_page` (default 20).
struct DataQuery: Sendable {
    /// Field path and accepted values.
    private(set) var filters: [(path: [String], values: [String])] = []
    private(set) var sort: [(path: [String], descending: Bool)] = []
    private(set) var offset = 0
    private(set) var limit = Int.max

    static let reserved: Set<String> = ["sort", "order", "limit", "offset", "page", "per_page"]

    init(_ items: [(name: String, value: String)]) throws(DataFailure) {
        func count(_ name: String, atLeast minimum: Int) throws(DataFailure) -> Int? {
            guard let text = items.last(where: { $0.name == name })?.value else { return nil }
            guard let number = Int(text), number >= minimum else {
                throw .badQuery(name, text, "expected an integer of at least \(minimum)")
            }
            return number
        }
        let page = try count("page", atLeast: 1)
        let perPage = try count("per_page", atLeast: 0)
        let limit = try count("limit", atLeast: 0)
        let offset = try count("offset", atLeast: 0)
        if page != nil || perPage != nil {
            guard limit == nil, offset == nil else {
                throw .badQuery("page", String(page ?? 1), "give page and per_page, or limit and offset, not both")
            }
            let size = perPage ?? 20
            self.limit = size
            let (start, overflow) = ((page ?? 1) - 1).multipliedReportingOverflow(by: size)
            self.offset = overflow ? Int.max : start
        } else {
            self.limit = limit ?? Int.max
            self.offset = offset ?? 0
        }
        let descending: Bool
        switch items.last(where: { $0.name == "order" })?.value {
        case nil, "asc"?: descending = false
        case "desc"?: descending = true
        case let other?: throw .badQuery("order", other, "expected asc or desc")
        }
        if let fields = items.last(where: { $0.name == "sort" })?.value {
            for field in fields.split(separator: ",") where !field.isEmpty {
                let reversed = field.hasPrefix("-")
                let path = (reversed ? field.dropFirst() : field).split(separator: ".").map(String.init)
                guard !path.isEmpty else { throw .badQuery("sort", fields, "expected field names") }
                sort.append((path, reversed != descending))
            }
        }
        for (name, value) in items where !Self.reserved.contains(name) && !name.isEmpty {
            let path = name.split(separator: ".").map(String.init)
            if let index = filters.firstIndex(where: { $0.path == path }) {
                filters[index].values.append(value)
            } else {
                filters.append((path, [value]))
            }
        }
    }

    /// Whether `item` passes every filter.
    func accepts(_ item: JSONValue) -> Bool {
        filters.allSatisfy { filter in
            guard let value = Self.value(at: filter.path, in: item) else { return false }
            return filter.values.contains { Self.matches(value, $0) }
        }
    }

    /// `slots` in the sort order (stable: equal items keep their order). Items without the field, or with `null`
    /// there, come last either way.
    func sorted(_ slots: [DataItems.Slot]) -> [DataItems.Slot] {
        guard !sort.isEmpty else { return slots }
        let keyed = slots.enumerated().map { position, slot in
            (position, slot, sort.map { Self.sortValue(at: $0.path, in: slot.item) })
        }
        return keyed.sorted { a, b in
            for (index, field) in sort.enumerated() {
                let (left, right) = (a.2[index], b.2[index])
                let order = Self.compare(left, right)
                guard order != 0 else { continue }
                if left == nil || right == nil { return order < 0 }
                return field.descending ? order > 0 : order < 0
            }
            return a.0 < b.0
        }.map(\.1)
    }

    /// The value sorted by: `nil` for a missing field or `null`.
    private static func sortValue(at path: [String], in item: JSONValue) -> JSONValue? {
        guard let value = value(at: path, in: item) else { return nil }
        if case .null = value { return nil }
        return value
    }

    static func value(at path: [String], in item: JSONValue) -> JSONValue? {
        var current = item
        for name in path {
            guard let next = current[name] else { return nil }
            current = next
        }
        return current
    }

    static func matches(_ value: JSONValue, _ text: String) -> Bool {
        switch value {
        case .string(let string): string == text
        case .number(let number): number == text || (Double(number).map { $0 == Double(text) } ?? false)
        case .bool(let flag): (flag ? "true" : "false") == text
        case .null: text == "null"
        case .array(let elements): elements.contains { matches($0, text) }
        case .object: false
        }
    }

    /// -1, 0 or 1; a missing value after any other, numbers before strings before the rest.
    static func compare(_ a: JSONValue?, _ b: JSONValue?) -> Int {
        switch (a, b) {
        case (nil, nil): return 0
        case (nil, _): return 1
        case (_, nil): return -1
        case let (.number(x)?, .number(y)?):
            let (left, right) = (Double(x) ?? 0, Double(y) ?? 0)
            return left < right ? -1 : left > right ? 1 : 0
        case let (.string(x)?, .string(y)?):
            return x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars)
                ? -1 : y.unicodeScalars.lexicographicallyPrecedes(x.unicodeScalars) ? 1 : 0
        case let (.bool(x)?, .bool(y)?):
            return x == y ? 0 : (x ? 1 : -1)
        case let (x?, y?):
            return rank(x) < rank(y) ? -1 : rank(x) > rank(y) ? 1 : 0
        }
    }

    private static func rank(_ value: JSONValue) -> Int {
        switch value {
        case .number: 0
        case .string: 1
        case .bool: 2
        case .null: 3
        case .array: 4
        case .object: 5
        }
    }
}
