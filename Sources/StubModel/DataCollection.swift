/// A collection of the server's data store: JSON items behind a small REST API at ``basePath``.
///
/// `GET basePath` lists the items, `POST basePath` adds one, `GET`, `PUT`, `PATCH` and `DELETE`
/// `basePath/{id}` read, replace, merge-patch and remove one. Declared in a file of the stubs directory's
/// `collections/` folder, with `POST /__admin/stubserver/data`, or in Swift:
///
/// ```swift
/// try server.addDataCollection(DataCollection(name: "todos", basePath: "/api/todos", seed: [
///     ["id": 1, "title": "Buy milk", "done": false]
/// ]))
/// ```
///
/// A stub matching the same request wins when its priority is ``priority`` or better (a lower or equal
/// number), so a test can still make one call fail.
public struct DataCollection: Sendable, Hashable {
    /// How ``DataCollection`` makes the id of an item posted without one.
    public enum IDStrategy: String, Sendable, Hashable, CaseIterable {
        /// 1, 2, 3…: one more than the largest integer id in the collection.
        case integer
        /// A random UUID, lowercase.
        case uuid
    }

    /// The default ``maxItems``.
    public static let defaultMaxItems = 10_000
    /// The default ``maxBytes``: 8 MiB of items as compact JSON.
    public static let defaultMaxBytes = 8 << 20
    /// The default ``priority``: WireMock's default stub priority, so a stub without one still wins.
    public static let defaultPriority = 5

    /// The collection's name: letters, digits, `-` and `_` (`todos`).
    public var name: String
    /// Where its endpoints are (`/api/todos`): starts with `/`, no trailing `/`, no query.
    public var basePath: String
    /// The member of each item holding its id (`id`).
    public var idField: String
    /// How ids of items posted without one are made.
    public var ids: IDStrategy
    /// The items a new server starts with, and what a reset goes back to. Each is a JSON object.
    public var seed: [JSONValue]
    /// A JSON Schema every item must fit (posted, replaced or patched), or `nil` for any object.
    public var schema: JSONValue?
    /// Stubs matching the same request with this priority or a better one (a lower number) answer instead.
    public var priority: Int
    /// The most items the collection holds: a write past it is refused with 507.
    public var maxItems: Int
    /// The most bytes its items take as compact JSON: a write past it is refused with 507.
    public var maxBytes: Int
    /// The file it was declared in, for messages; `nil` when declared at run time.
    public var source: String?

    public init(
        name: String, basePath: String, idField: String = "id", ids: IDStrategy = .integer, seed: [JSONValue] = [],
        schema: JSONValue? = nil, priority: Int = DataCollection.defaultPriority,
        maxItems: Int = DataCollection.defaultMaxItems, maxBytes: Int = DataCollection.defaultMaxBytes,
        source: String? = nil
    ) {
        self.name = name
        self.basePath = basePath
        self.idField = idField
        self.ids = ids
        self.seed = seed
        self.schema = schema
        self.priority = priority
        self.maxItems = maxItems
        self.maxBytes = maxBytes
        self.source = source
    }

    /// The declaration as JSON, in the form a collection file and `POST /__admin/stubserver/data` take.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("name", .string(name)), ("basePath", .string(basePath)), ("idField", .string(idField)),
            ("ids", .string(ids.rawValue)), ("seed", .array(seed))
        ]
        if let schema { members.append(("schema", schema)) }
        members += [
            ("priority", .number(String(priority))), ("maxItems", .number(String(maxItems))),
            ("maxBytes", .number(String(maxBytes)))
        ]
        return .object(members)
    }
}
