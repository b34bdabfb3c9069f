/// A fixed-capacity buffer that keeps the newest elements: appending to a full buffer drops the oldest.
struct RingBuffer<Element> {
    let capacity: Int
    private var storage: [Element] = []
    /// Index of the oldest element once the buffer is full.
    private var head = 0
    /// How many elements were dropped to make room.
    private(set) var droppedCount = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    mutating func append(_ element: Element) {
        if storage.count < capacity {
            storage.append(element)
        } else {
            storage[head] = element
            head = (head + 1) % capacity
            droppedCount += 1
        }
    }

    /// The elements, oldest first.
    var elements: [Element] { Array(storage[head...] + storage[..<head]) }

    mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        head = 0
        droppedCount = 0
    }
}

extension RingBuffer: Sendable where Element: Sendable {}
