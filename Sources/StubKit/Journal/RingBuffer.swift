/// A first-in, first-out buffer of at most `capacity` elements: appending to a full buffer drops the
/// oldest, and the oldest can be removed early (to stay within a byte budget).
struct RingBuffer<Element> {
    let capacity: Int
    private var storage: [Element?] = []
    /// Index of the oldest element.
    private var head = 0
    /// How many elements are kept.
    private(set) var count = 0
    /// How many elements were dropped to make room (by ``append(_:)`` or ``removeFirst()``).
    private(set) var droppedCount = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Appends `element`, dropping the oldest if the buffer is full; returns the dropped one.
    @discardableResult
    mutating func append(_ element: Element) -> Element? {
        let dropped = count == capacity ? removeFirst() : nil
        if count == storage.count {
            // The storage is full but below capacity: grow it, oldest first.
            storage = Array(storage[head...] + storage[..<head])
            head = 0
            storage.append(element)
        } else {
            storage[(head + count) % storage.count] = element
        }
        count += 1
        return dropped
    }

    /// Removes and returns the oldest element, counting it as dropped.
    @discardableResult
    mutating func removeFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head]
        storage[head] = nil
        head = (head + 1) % storage.count
        count -= 1
        droppedCount += 1
        return element
    }

    /// The elements, oldest first.
    var elements: [Element] {
        guard count > 0 else { return [] }
        return (0..<count).compactMap { storage[(head + $0) % storage.count] }
    }

    /// Removes the elements that satisfy `predicate`; returns how many. The dropped count is kept.
    @discardableResult
    mutating func removeAll(where predicate: (Element) -> Bool) -> Int {
        let kept = elements.filter { !predicate($0) }
        let removed = count - kept.count
        guard removed > 0 else { return 0 }
        storage = kept.map(Optional.some)
        head = 0
        count = kept.count
        return removed
    }

    mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        head = 0
        count = 0
        droppedCount = 0
    }
}

extension RingBuffer: Sendable where Element: Sendable {}
