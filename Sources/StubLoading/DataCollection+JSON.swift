import StubMatching
import StubModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Data collections as JSON: a file of the stubs directory's `collections/` folder (one collection object, or
/// `{"collections": [...]}`) and the body of `POST /__admin/stubserver/data`.
///
/// ```json
/// {"name": "todos", "basePath": "/api/todos", "idField": "id", "ids": "integer",
///  "seed": [{"id": 1, "title": "Buy milk", "done": false}],
///  "schema": {"type": "object", "required": ["title"]}}
/// ```
///
/// `seedFile` names a JSON array under `__files/` instead of `seed`. Unknown fields are refused, never ignored:
/// a misspelt `maxItems` would lift a bound its author set.
extension DataCollection {
    /// The fields a declaration may have.
    static let fields = [
        "name", "basePath", "idField", "ids", "seed", "seedFile", "schema", "priority", "maxItems", "maxBytes"
    ]

    /// Reads a declaration.
    /// - Parameters:
    ///   - json: one collection object.
    ///   - file: the file it is read from (as displayed), for messages and ``source``.
    ///   - path: where the object is in the file (`collections[1]`; empty for the whole document).
    ///   - bodyFiles: where `seedFile` is read from; `nil` refuses `seedFile`.
    /// - Throws: ``StubsLoadError`` naming the file and field at fault.
    public init(json: JSONValue, file: String?, path: String = "", bodyFiles: BodyFiles?) throws(StubsLoadError) {
        func field(_ name: String) -> String { path.isEmpty ? name : path + "." + name }
        func fail(_ name: String, _ message: String) -> StubsLoadError {
            .invalidMapping(file, path: name.isEmpty ? path : field(name), message)
        }
        guard case .object(let members) = json else { throw fail("", "a data collection must be a JSON object") }
        for (key, _) in members where !Self.fields.contains(key) {
            let hint = FieldSuggestion.closest(to: key, among: Self.fields).map { "; did you mean '\($0)'?" } ?? ""
            throw fail(key, "unknown field '\(key)' in a data collection\(hint)")
        }
        func string(_ name: String) throws(StubsLoadError) -> String? {
            guard let value = json[name] else { return nil }
            guard case .string(let text) = value else { throw fail(name, "expected a string, found \(value)") }
            return text
        }
        func integer(_ name: String, atLeast minimum: Int) throws(StubsLoadError) -> Int? {
            guard let value = json[name] else { return nil }
            guard case .number(let text) = value, let number = Int(text) else {
                throw fail(name, "expected an integer, found \(value)")
            }
            guard number >= minimum else { throw fail(name, "must be at least \(minimum), found \(number)") }
            return number
        }
        guard let name = try string("name") else { throw fail("name", "missing: every data collection has a name") }
        guard !name.isEmpty, name.utf8.count <= 64,
            name.unicodeScalars.allSatisfy(Self.isNameScalar)
        else {
            throw fail("name", "\"\(name)\" is not a collection name: 1 to 64 letters, digits, '-' or '_'")
        }
        guard var basePath = try string("basePath") else {
            throw fail("basePath", "missing: where the collection's endpoints are, e.g. \"/api/\(name)\"")
        }
        while basePath.count > 1, basePath.hasSuffix("/") { basePath.removeLast() }
        guard basePath.hasPrefix("/"), basePath.count > 1, !basePath.contains("?"), !basePath.contains("#") else {
            throw fail(
                "basePath", "\"\(basePath)\" must be a path starting with '/', without a query, e.g. /api/\(name)")
        }
        guard basePath != "/__admin", !basePath.hasPrefix("/__admin/") else {
            throw fail("basePath", "\"\(basePath)\" is under /__admin, the admin API's")
        }
        let idField = try string("idField") ?? "id"
        guard !idField.isEmpty else { throw fail("idField", "must not be empty") }
        let ids: IDStrategy
        if let text = try string("ids") {
            guard let strategy = IDStrategy(rawValue: text) else {
                throw fail("ids", "\"\(text)\" is not a way to make ids: use \"integer\" or \"uuid\"")
            }
            ids = strategy
        } else {
            ids = .integer
        }
        let schema = json["schema"]
        var validator: JSONSchema?
        if let schema {
            do {
                validator = try JSONSchema(schema)
            } catch {
                throw fail("schema", error.description)
            }
        }
        var seed: [JSONValue] = []
        switch (json["seed"], try string("seedFile")) {
        case (.some, .some):
            throw fail("seedFile", "give either seed or seedFile, not both")
        case (.some(let value), nil):
            guard case .array(let items) = value else { throw fail("seed", "expected an array of objects") }
            seed = items
        case (nil, .some(let name)):
            guard let bodyFiles else { throw fail("seedFile", "there is no __files folder to read \"\(name)\" from") }
            let bytes: [UInt8]
            do {
                bytes = try bodyFiles.read(name)
            } catch {
                throw fail("seedFile", error.description)
            }
            let parsed: JSONValue
            do {
                parsed = try JSONParser.parse(bytes)
            } catch {
                throw fail("seedFile", "\(name) is not JSON: \(error)")
            }
            guard case .array(let items) = parsed else { throw fail("seedFile", "\(name) must hold a JSON array") }
            seed = items
        case (nil, nil):
            break
        }
        let maxItems = try integer("maxItems", atLeast: 1) ?? Self.defaultMaxItems
        let maxBytes = try integer("maxBytes", atLeast: 2) ?? Self.defaultMaxBytes
        self.init(
            name: name, basePath: basePath, idField: idField, ids: ids, seed: [], schema: schema,
            priority: try integer("priority", atLeast: Int.min) ?? Self.defaultPriority, maxItems: maxItems,
            maxBytes: maxBytes, source: file)
        self.seed = try checkedSeed(seed, validator: validator, fail: { fail("seed", $0) })
    }

    /// The seed with an id made for every item without one; refused when an item is not an object, two share
    /// an id, an item does not fit the schema, or the seed passes the bounds.
    private func checkedSeed(
        _ items: [JSONValue], validator: JSONSchema?, fail: (String) -> StubsLoadError
    ) throws(StubsLoadError) -> [JSONValue] {
        guard items.count <= maxItems else { throw fail("\(items.count) items, more than maxItems (\(maxItems))") }
        var seen: Set<String> = []
        var made = DataIDMaker(strategy: ids)
        for item in items { if let key = DataCollection.idKey(item[idField]) { made.saw(key) } }
        var checked: [JSONValue] = []
        var bytes = 0
        for (index, item) in items.enumerated() {
            guard case .object = item else { throw fail("[\(index)] is not a JSON object") }
            var item = item
            if item[idField] == nil { item = DataCollection.setting(idField, to: made.next(), in: item) }
            guard let key = DataCollection.idKey(item[idField]) else {
                throw fail("[\(index)].\(idField) must be a string or an integer")
            }
            guard seen.insert(key).inserted else { throw fail("[\(index)]: a second item with id \(key)") }
            if let validator, let violation = validator.violations(of: item).first {
                throw fail("[\(index)] does not fit the schema: \(violation)")
            }
            bytes += item.serializedBytes().count
            checked.append(item)
        }
        guard bytes <= maxBytes else { throw fail("\(bytes) bytes, more than maxBytes (\(maxBytes))") }
        return checked
    }

    private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_": true
        default: false
        }
    }

    /// An item's id as the text a URL carries (`42`, `a1b2`): a string as is, an integer as its digits; `nil` for
    /// a missing id or one of another kind.
    package static func idKey(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text)?: text
        case .number(let text)?: Int(text).map(String.init)
        case .null?, .bool?, .array?, .object?, nil: nil
        }
    }

    /// `object` with `member` set to `value`: replaced in place, or added first.
    package static func setting(_ member: String, to value: JSONValue, in object: JSONValue) -> JSONValue {
        guard case .object(var members) = object else { return object }
        if let index = members.firstIndex(where: { $0.key == member }) {
            members[index].value = value
        } else {
            members.insert((member, value), at: 0)
        }
        return .object(members)
    }
}

/// Makes the ids of items posted without one: integers one past the largest seen, or UUIDs.
package struct DataIDMaker: Sendable {
    let strategy: DataCollection.IDStrategy
    /// The largest integer id seen.
    private var largest = 0

    package init(strategy: DataCollection.IDStrategy) { self.strategy = strategy }

    /// Notes an id in use (`key` as ``DataCollection/idKey(_:)`` gives it).
    package mutating func saw(_ key: String) {
        if let number = Int(key), number > largest { largest = number }
    }

    /// The next id.
    package mutating func next() -> JSONValue {
        switch strategy {
        case .integer:
            largest += 1
            return .number(String(largest))
        case .uuid:
            return .string(UUID().uuidString.lowercased())
        }
    }
}
