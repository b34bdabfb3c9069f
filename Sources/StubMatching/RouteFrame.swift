/// How a set of stubs differs from the one before it, when the store knows: what lets a new route table
/// and snapshot reuse the previous one's parts by position, without looking stubs up by id or comparing them.
package enum StubEdit: Sendable, Equatable {
    /// Stubs appended after all the previous ones.
    case appended
    /// The previous stubs at these positions (ascending, distinct) removed; the others keep their order.
    case removed([Int])
    /// The previous stubs at these positions (ascending, distinct) replaced in place.
    case replaced([Int])

    /// Whether `count` stubs can follow `previous` stubs by this edit: a check, so that a wrong edit makes a
    /// full build rather than a table that answers for stubs it does not hold.
    package func fits(previous: Int, count: Int) -> Bool {
        switch self {
        case .appended: return count >= previous
        case let .removed(positions):
            return Self.valid(positions, below: previous) && count == previous - positions.count
        case let .replaced(positions): return Self.valid(positions, below: previous) && count == previous
        }
    }

    private static func valid(_ positions: [Int], below count: Int) -> Bool {
        positions.indices.allSatisfy { i in
            positions[i] >= 0 && positions[i] < count && (i == 0 || positions[i - 1] < positions[i])
        }
    }
}

/// Where the stubs a ``RouteIndex`` holds are in the current table. Indexes hold positions: the mapping
/// indexes of the last full build, then one more per stub appended. A stub removed since leaves a gap,
/// and one replaced since is only in the table's side index of replacements: the indexes built before
/// are shared as they are, and a candidate's position becomes a mapping index only once its gate passed.
struct RouteFrame: Sendable {
    /// Positions of removed stubs, ascending.
    private(set) var removed: [Int] = []
    /// Positions of replaced stubs (not removed since), ascending: the indexes before the replacement
    /// hold their old version.
    private(set) var replaced: [Int] = []
    /// The positions handed out: the stub count plus ``removed``'s.
    private(set) var count: Int

    /// A frame where every position is its mapping index.
    init(count: Int) {
        self.count = count
    }

    /// Whether every position is its mapping index: no stub was removed or replaced since the full build.
    var isIdentity: Bool { removed.isEmpty && replaced.isEmpty }

    /// The mapping index of the stub at `position`, or nil when it was removed or, when `skippingReplaced`,
    /// replaced (an index built before the replacement holds its old version).
    @inline(__always)
    func index(of position: Int, skippingReplaced: Bool) -> Int? {
        if skippingReplaced, !replaced.isEmpty, replaced.sortedContains(position) { return nil }
        if removed.isEmpty { return position }
        let before = removed.countBelow(position)
        if before < removed.count, removed[before] == position { return nil }
        return position - before
    }

    /// The position of the stub at mapping `index`: the index-th position not removed.
    func position(of index: Int) -> Int {
        var position = index
        for gap in removed {
            guard gap <= position else { break }
            position += 1
        }
        return position
    }

    /// Hands out positions for `count` stubs appended.
    mutating func append(_ count: Int) {
        self.count += count
    }

    /// Marks the stubs at mapping indexes `indexes` (ascending) removed.
    mutating func remove(indexes: [Int]) {
        let positions = indexes.map(position(of:))
        removed = removed.merging(positions)
        replaced.removeAll { positions.sortedContains($0) }
    }

    /// Marks the stubs at mapping indexes `indexes` (ascending) replaced; returns their positions.
    @discardableResult
    mutating func replace(indexes: [Int]) -> [Int] {
        let positions = indexes.map(position(of:))
        replaced = replaced.merging(positions.filter { !replaced.sortedContains($0) })
        return positions
    }
}
