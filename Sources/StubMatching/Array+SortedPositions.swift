/// Ascending lists of positions or ranks, as the route tables keep them.
extension Array where Element == Int {
    /// How many elements are below `value`; the list is ascending.
    @inline(__always)
    func countBelow(_ value: Int) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Whether the ascending list holds `value`, by binary search.
    @inline(__always)
    func sortedContains(_ value: Int) -> Bool {
        let at = countBelow(value)
        return at < count && self[at] == value
    }

    /// The elements of this list and of `other`, both ascending, in one ascending list.
    func merging(_ other: [Int]) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(count + other.count)
        var i = 0, j = 0
        while i < count || j < other.count {
            if j == other.count || (i < count && self[i] < other[j]) {
                result.append(self[i])
                i += 1
            } else {
                result.append(other[j])
                j += 1
            }
        }
        return result
    }
}
