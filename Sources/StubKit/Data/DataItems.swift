import StubHTTP

/// The items of one data collection: in the order they were added, indexed by id, each kept with its compact
/// JSON (what a `GET` sends and what counts against ``DataCollection/maxBytes``).
///
/// A value type: the collection's lock guards one, and a change is all or nothing (a refused write leaves it
/// as it was). Reading one item, adding one and removing one cost the same however many there are; a page of
/// the list costs its offset and limit, not the collection's size.
struct DataItems: Sendable {
    /// One stored item.
    struct Slot: Sendable {
        /// The id as a URL carries it (``DataCollection/idKey(_:)``).
        var key: String
        var item: JSONValue
        /// The item as compact JSON.
        var bytes: [UInt8]
    }

    let collection: DataCollection
    /// In insertion order; `nil` where an item was removed (compacted once they are many).
    private var slots: [Slot?] = []
    /// Position in ``slots`` by id.
    private var positions: [String: Int] = [:]
    /// The bytes of every item's compact JSON.
    private(set) var byteCount = 0
    private var ids: DataIDMaker

    /// - Parameter items: items already checked (objects with distinct ids), e.g. the collection's seed.
    init(_ collection: DataCollection, items: [JSONValue]) {
        self.collection = collection
        ids = DataIDMaker(strategy: collection.ids)
        for item in items {
            guard let key = DataCollection.idKey(item[collection.idField]), positions[key] == nil else { continue }
            append(Slot(key: key, item: item, bytes: item.serializedBytes()))
        }
    }

    var count: Int { positions.count }

    /// The item with id `key`.
    func slot(_ key: String) -> Slot? { positions[key].flatMap { slots[$0] } }

    /// Every item, in order.
    var all: [Slot] { slots.compactMap { $0 } }

    /// At most `limit` items after the first `offset`, in order.
    func page(offset: Int, limit: Int) -> [Slot] {
        var page: [Slot] = []
        var skipped = 0
        for slot in slots {
            guard let slot else { continue }
            if skipped < offset {
                skipped += 1
                continue
            }
            guard page.count < limit else { break }
            page.append(slot)
        }
        return page
    }

    /// Adds `item`, with an id made for it if it has none.
    /// - Returns: the item as stored.
    /// - Throws: ``DataFailure`` 409 when its id is taken, 507 past the bounds, 400 for an id that is neither a
    ///   string nor an integer.
    mutating func insert(_ item: JSONValue) throws(DataFailure) -> Slot {
        var item = item
        if item[collection.idField] == nil {
            var made: JSONValue
            repeat { made = ids.next() } while positions[DataCollection.idKey(made) ?? ""] != nil
            item = DataCollection.setting(collection.idField, to: made, in: item)
        }
        guard let key = DataCollection.idKey(item[collection.idField]) else {
            throw .badID(collection.idField)
        }
        guard positions[key] == nil else { throw .duplicate(collection.name, key) }
        let slot = Slot(key: key, item: item, bytes: item.serializedBytes())
        guard count < collection.maxItems else { throw .full(collection, reason: "\(collection.maxItems) items") }
        guard byteCount + slot.bytes.count <= collection.maxBytes else {
            throw .full(collection, reason: "\(collection.maxBytes) bytes")
        }
        append(slot)
        return slot
    }

    /// Replaces the item with id `key` by `item` (its id set to `key` if it has none).
    /// - Throws: ``DataFailure`` 404 when there is no such item, 400 when `item` has another id, 507 past
    ///   ``DataCollection/maxBytes``.
    mutating func replace(_ key: String, with item: JSONValue) throws(DataFailure) -> Slot {
        guard let position = positions[key], let old = slots[position] else {
            throw .noItem(collection.name, key)
        }
        var item = item
        if let id = item[collection.idField] {
            guard DataCollection.idKey(id) == key else { throw .idChanged(collection.idField, key) }
        } else {
            item = DataCollection.setting(
                collection.idField, to: old.item[collection.idField] ?? .string(key), in: item)
        }
        let slot = Slot(key: key, item: item, bytes: item.serializedBytes())
        guard byteCount - old.bytes.count + slot.bytes.count <= collection.maxBytes else {
            throw .full(collection, reason: "\(collection.maxBytes) bytes")
        }
        byteCount += slot.bytes.count - old.bytes.count
        slots[position] = slot
        return slot
    }

    /// Removes the item with id `key`; `false` if there is none.
    mutating func remove(_ key: String) -> Bool {
        guard let position = positions.removeValue(forKey: key), let old = slots[position] else { return false }
        slots[position] = nil
        byteCount -= old.bytes.count
        // Removed slots are dropped once they outnumber the items: a list never walks more than twice its length.
        if slots.count - positions.count > positions.count + 64 { compact() }
        return true
    }

    /// The items as a JSON array, from their stored bytes.
    static func jsonArray(_ slots: [Slot]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "[")]
        out.reserveCapacity(slots.reduce(2) { $0 + $1.bytes.count + 1 })
        for (index, slot) in slots.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out += slot.bytes
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    private mutating func append(_ slot: Slot) {
        ids.saw(slot.key)
        positions[slot.key] = slots.count
        slots.append(slot)
        byteCount += slot.bytes.count
    }

    private mutating func compact() {
        slots = slots.filter { $0 != nil }
        for (position, slot) in slots.enumerated() {
            if let slot { positions[slot.key] = position }
        }
    }
}
