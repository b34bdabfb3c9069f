/// A binary min-heap of timers ordered by deadline, then by insertion order, whose timers can be moved
/// and cancelled.
///
/// Each timer lives in a slot; ``insert(_:at:)`` returns a ``Handle`` to it, through which its owner moves
/// it (``reschedule(_:to:)``) or removes it (``remove(_:)``) in O(log n). So the heap holds only live
/// timers: an owner that re-arms in place or cancels on close leaves nothing behind. The heap itself
/// moves plain (deadline, sequence, slot) triples; payloads stay in their slots and are never copied
/// while sifting.
struct TimerHeap<Payload> {
    /// A timer in this heap. It stays valid until the timer is popped or removed; after that it names
    /// nothing (a later timer reusing the slot gets a different generation).
    struct Handle: Hashable, Sendable {
        fileprivate let slot: Int32
        fileprivate let generation: UInt32
    }

    private struct Node {
        var deadline: Instant
        var sequence: UInt64
        var slot: Int32

        @inline(__always)
        func fires(before other: Node) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : sequence < other.sequence
        }
    }

    private struct Slot {
        var payload: Payload?
        /// The node's index in `nodes`, or -1 when the slot is free.
        var position: Int
        var generation: UInt32
    }

    private var nodes: [Node] = []
    private var slots: [Slot] = []
    private var freeSlots: [Int32] = []
    private var nextSequence: UInt64 = 0

    var isEmpty: Bool { nodes.isEmpty }
    /// The number of pending timers.
    var count: Int { nodes.count }

    /// The earliest deadline, if any.
    var nextDeadline: Instant? { nodes.isEmpty ? nil : nodes[0].deadline }

    /// Adds a timer and returns its handle.
    @discardableResult
    mutating func insert(_ payload: Payload, at deadline: Instant) -> Handle {
        let slot: Int32
        if let reused = freeSlots.popLast() {
            slot = reused
            slots[Int(slot)].payload = payload
            slots[Int(slot)].position = nodes.count
        } else {
            slot = Int32(slots.count)
            slots.append(Slot(payload: payload, position: nodes.count, generation: 0))
        }
        nodes.append(Node(deadline: deadline, sequence: nextSequence, slot: slot))
        nextSequence &+= 1
        siftUp(nodes.count - 1)
        return Handle(slot: slot, generation: slots[Int(slot)].generation)
    }

    /// The deadline of the timer `handle` names, or `nil` when it already fired or was removed.
    func deadline(of handle: Handle) -> Instant? {
        guard let position = position(of: handle) else { return nil }
        return nodes[position].deadline
    }

    /// Moves a pending timer to `deadline`. Returns `false` when `handle` names no pending timer.
    @discardableResult
    mutating func reschedule(_ handle: Handle, to deadline: Instant) -> Bool {
        guard let position = position(of: handle) else { return false }
        let earlier = deadline < nodes[position].deadline
        nodes[position].deadline = deadline
        nodes[position].sequence = nextSequence
        nextSequence &+= 1
        if earlier { siftUp(position) } else { siftDown(position) }
        return true
    }

    /// Cancels a pending timer and returns its payload; `nil` when `handle` names no pending timer.
    @discardableResult
    mutating func remove(_ handle: Handle) -> Payload? {
        guard let position = position(of: handle) else { return nil }
        return removeNode(at: position)
    }

    /// Removes and returns the earliest timer if its deadline is at or before `now`.
    mutating func popExpired(now: Instant) -> Payload? {
        guard !nodes.isEmpty, nodes[0].deadline <= now else { return nil }
        return removeNode(at: 0)
    }

    /// Drops every timer. Handles given out before must not be used again.
    mutating func removeAll() {
        nodes.removeAll()
        slots.removeAll()
        freeSlots.removeAll()
    }

    // MARK: - Internals

    private func position(of handle: Handle) -> Int? {
        let index = Int(handle.slot)
        guard index >= 0, index < slots.count else { return nil }
        let slot = slots[index]
        guard slot.generation == handle.generation, slot.position >= 0 else { return nil }
        return slot.position
    }

    private mutating func removeNode(at position: Int) -> Payload? {
        let slot = Int(nodes[position].slot)
        let payload = slots[slot].payload
        slots[slot].payload = nil
        slots[slot].position = -1
        slots[slot].generation &+= 1
        freeSlots.append(Int32(slot))
        let last = nodes.removeLast()
        if position < nodes.count {
            nodes[position] = last
            slots[Int(last.slot)].position = position
            siftDown(position)
            siftUp(position)
        }
        return payload
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard nodes[child].fires(before: nodes[parent]) else { break }
            swapNodes(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        let count = nodes.count
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < count, nodes[left].fires(before: nodes[smallest]) { smallest = left }
            if right < count, nodes[right].fires(before: nodes[smallest]) { smallest = right }
            if smallest == parent { return }
            swapNodes(parent, smallest)
            parent = smallest
        }
    }

    @inline(__always)
    private mutating func swapNodes(_ a: Int, _ b: Int) {
        nodes.swapAt(a, b)
        slots[Int(nodes[a].slot)].position = a
        slots[Int(nodes[b].slot)].position = b
    }
}
