/// A binary min-heap of timers ordered by deadline, then by insertion order.
/// Cancellation is lazy: owners ignore a timer that no longer matters.
struct TimerHeap<Payload> {
    struct Entry {
        var deadline: Instant
        var sequence: UInt64
        var payload: Payload

        func fires(before other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : sequence < other.sequence
        }
    }

    private var entries: [Entry] = []
    private var nextSequence: UInt64 = 0

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    /// The earliest deadline, if any.
    var nextDeadline: Instant? { entries.first?.deadline }

    mutating func insert(_ payload: Payload, at deadline: Instant) {
        entries.append(Entry(deadline: deadline, sequence: nextSequence, payload: payload))
        nextSequence &+= 1
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].fires(before: entries[parent]) else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest timer if its deadline is at or before `now`.
    mutating func popExpired(now: Instant) -> Payload? {
        guard let first = entries.first, first.deadline <= now else { return nil }
        let last = entries.removeLast()
        if !entries.isEmpty {
            entries[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < entries.count, entries[left].fires(before: entries[smallest]) { smallest = left }
                if right < entries.count, entries[right].fires(before: entries[smallest]) { smallest = right }
                if smallest == parent { break }
                entries.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return first.payload
    }

    mutating func removeAll() { entries.removeAll() }
}
