/// A first-in, first-out buffer of at most `capacity` elements: appending to a full buffer drops the
/// oldest, and the oldest can be removed early (to stay within a byte budget).
///
/// Appending and removing are amortized O(1) whatever the count: the storage is a circular buffer that
/// grows by doubling (up to `capacity`) and is never rebuilt on an append that finds room. A journal of
/// 10,000 entries makes request 10,000 cost what request 1 did. ``storageGrowths`` counts the times the
/// storage was reallocated, so a test can prove it (about log₂(capacity), not one per append).
struct RingBuffer<Element> {
    let capacity: Int
    /// Slots: `count` elements from `head`, wrapping; the others are `nil`.
    private var storage: ContiguousArray<Element?> = []
    /// Index of the oldest element.
    private var head = 0
    /// How many elements are kept.
    private(set) var count = 0
    /// How many elements were dropped to make room (by ``append(_:)`` or ``removeFirst()``).
    private(set) var droppedCount = 0
    /// How many times the storage was reallocated to grow: O(log `capacity`) over the buffer's life.
    private(set) var storageGrowths = 0

    /// The smallest storage allocated, so that small journals do not grow one slot at a time.
    private static var initialSlots: Int { 16 }

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Appends `element`, dropping the oldest if the buffer is full; returns the dropped one.
    @discardableResult
    mutating func append(_ element: Element) -> Element? {
        let dropped = count == capacity ? removeFirst() : nil
        if count == storage.count { grow() }
        storage[slot(count)] = element
        count += 1
        return dropped
    }

    /// Removes and returns the oldest element, counting it as dropped.
    @discardableResult
    mutating func removeFirst() -> Element? {
        guard count > 0 else { return nil }
        // Moved out, not copied then cleared: a copy retains every reference the element holds.
        var element: Element?
        swap(&element, &storage[head])
        head = head + 1 == storage.count ? 0 : head + 1
        count -= 1
        droppedCount += 1
        return element
    }

    /// The elements, oldest first (a copy: O(count); for listings, never per request).
    var elements: [Element] {
        var result: [Element] = []
        result.reserveCapacity(count)
        forEach { result.append($0) }
        return result
    }

    /// The newest `maxLength` elements (or all), oldest first.
    func suffix(_ maxLength: Int) -> [Element] {
        var result: [Element] = []
        result.reserveCapacity(min(maxLength, count))
        for offset in max(0, count - maxLength)..<count {
            if let element = storage[slot(offset)] { result.append(element) }
        }
        return result
    }

    /// Calls `body` on each element, oldest first, without copying the buffer.
    func forEach(_ body: (Element) throws -> Void) rethrows {
        for offset in 0..<count {
            if let element = storage[slot(offset)] { try body(element) }
        }
    }

    /// The newest element.
    var last: Element? { count == 0 ? nil : storage[slot(count - 1)] }

    /// Removes the elements that satisfy `predicate`; returns how many. The dropped count is kept.
    @discardableResult
    mutating func removeAll(where predicate: (Element) -> Bool) -> Int {
        var kept = ContiguousArray<Element?>()
        kept.reserveCapacity(storage.count)
        forEach { if !predicate($0) { kept.append($0) } }
        let removed = count - kept.count
        guard removed > 0 else { return 0 }
        count = kept.count
        kept.append(contentsOf: repeatElement(nil, count: storage.count - kept.count))
        storage = kept
        head = 0
        return removed
    }

    mutating func removeAll() {
        storage = []
        head = 0
        count = 0
        droppedCount = 0
    }

    /// The storage index of the element `offset` places after the oldest.
    private func slot(_ offset: Int) -> Int {
        let index = head + offset
        return index < storage.count ? index : index - storage.count
    }

    /// Doubles the storage (at most to `capacity`), oldest first from index 0.
    private mutating func grow() {
        let size = min(capacity, max(Self.initialSlots, storage.count * 2))
        var grown = ContiguousArray<Element?>()
        grown.reserveCapacity(size)
        for offset in 0..<count { grown.append(storage[slot(offset)]) }
        grown.append(contentsOf: repeatElement(nil, count: size - count))
        storage = grown
        head = 0
        storageGrowths += 1
    }
}

extension RingBuffer: Sendable where Element: Sendable {}
