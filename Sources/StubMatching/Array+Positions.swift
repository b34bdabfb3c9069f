/// Removing a few elements by position, as the store and the route tables do when stubs are removed.
extension Array {
    /// The elements but those at `positions` (ascending, distinct, in bounds).
    package func removing(_ positions: [Int]) -> [Element] {
        var result: [Element] = []
        result.reserveCapacity(count - positions.count)
        var start = 0
        for position in positions {
            result.append(contentsOf: self[start..<position])
            start = position + 1
        }
        result.append(contentsOf: self[start...])
        return result
    }

    /// Removes the elements at `positions` (ascending, distinct, in bounds) in place, the others keeping
    /// their order: the elements are moved, not copied, and none is compared.
    package mutating func remove(at positions: [Int]) {
        guard let first = positions.first else { return }
        var kept = first, next = 0
        for index in first..<count {
            if next < positions.count, positions[next] == index {
                next += 1
            } else {
                swapAt(kept, index)
                kept += 1
            }
        }
        removeLast(count - kept)
    }
}
