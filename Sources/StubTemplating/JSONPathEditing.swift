import StubMatching
import StubModel

/// Changes a JSON document at the places a JSONPath selects, as Jayway's `DocumentContext.delete` and
/// `read` do for WireMock 3's `jsonRemove` and `jsonArrayAdd` helpers.
enum JSONPathEditing {
    /// Why an edit could not be made.
    enum Failure: Error, Equatable {
        /// The path selects the root, or ends in `.length()`: nothing there can be deleted.
        case notDeletable
        /// Evaluating the path's filters took more than its work budget.
        case tooMuchWork
    }

    /// `document` without the values `path` selects, and how many were removed. Filters are evaluated
    /// against the document as it was before any removal.
    static func deleting(_ path: JSONPathExpression, from document: JSONValue, budget: Int)
        throws(Failure) -> (JSONValue, removed: Int)
    {
        guard let last = path.steps.last, last != .length else { throw .notDeletable }
        let work = JSONPathWork(limit: budget)
        var removed = 0
        let result = delete(path.steps[...], in: document, root: document, work: work, removed: &removed)
        if work.exhausted { throw .tooMuchWork }
        return (result, removed)
    }

    private static func delete(
        _ steps: ArraySlice<JSONPathExpression.Step>, in value: JSONValue, root: JSONValue, work: JSONPathWork,
        removed: inout Int
    ) -> JSONValue {
        guard let step = steps.first, !work.exhausted else { return value }
        work.spend(1)
        let rest = steps.dropFirst()
        if case let .deepScan(inner) = step {
            // The inner step at this value, then the same deep scan under each of its children.
            var current = delete([inner] + rest, in: value, root: root, work: work, removed: &removed)
            current = mapChildren(current) { delete(steps, in: $0, root: root, work: work, removed: &removed) }
            return current
        }
        switch value {
        case let .array(items):
            let chosen = selected(step, count: items.count) { $0.test(items[$1], root: root, work: work) }
            if rest.isEmpty {
                removed += chosen.count
                return .array(items.enumerated().filter { !chosen.contains($0.offset) }.map(\.element))
            }
            var copy = items
            for index in chosen.sorted() {
                copy[index] = delete(rest, in: items[index], root: root, work: work, removed: &removed)
            }
            return .array(copy)
        case let .object(members):
            let chosen: Set<Int>
            switch step {
            case let .member(name): chosen = Set(members.indices.filter { members[$0].key == name })
            case let .members(names): chosen = Set(members.indices.filter { names.contains(members[$0].key) })
            case .wildcard: chosen = Set(members.indices)
            case let .filter(predicate):
                // A filter over an object tests the object itself.
                guard predicate.test(value, root: root, work: work) else { return value }
                return rest.isEmpty ? value : delete(rest, in: value, root: root, work: work, removed: &removed)
            case .index, .indexes, .slice, .deepScan, .length: chosen = []
            }
            if rest.isEmpty {
                removed += chosen.count
                return .object(members.enumerated().filter { !chosen.contains($0.offset) }.map(\.element))
            }
            var copy = members
            for index in chosen.sorted() {
                copy[index].value = delete(rest, in: members[index].value, root: root, work: work, removed: &removed)
            }
            return .object(copy)
        case .null, .bool, .number, .string:
            return value
        }
    }

    /// The indexes of an array of `count` items that `step` selects.
    private static func selected(
        _ step: JSONPathExpression.Step, count: Int, test: (JSONPathFilter, Int) -> Bool
    ) -> Set<Int> {
        func resolve(_ index: Int) -> Int? {
            let resolved = index < 0 ? count + index : index
            return (0..<count).contains(resolved) ? resolved : nil
        }
        switch step {
        case let .index(index): return Set([resolve(index)].compactMap { $0 })
        case let .indexes(list): return Set(list.compactMap(resolve))
        case let .slice(start, end):
            func clamp(_ i: Int) -> Int { i < 0 ? max(0, count + i) : min(count, i) }
            let lower = clamp(start ?? 0), upper = clamp(end ?? count)
            return lower < upper ? Set(lower..<upper) : []
        case .wildcard: return Set(0..<count)
        case let .filter(predicate):
            return Set((0..<count).filter { test(predicate, $0) })
        case .member, .members, .deepScan, .length: return []
        }
    }

    private static func mapChildren(_ value: JSONValue, _ transform: (JSONValue) -> JSONValue) -> JSONValue {
        switch value {
        case let .array(items): .array(items.map(transform))
        case let .object(members): .object(members.map { ($0.key, transform($0.value)) })
        case .null, .bool, .number, .string: value
        }
    }

    /// Where a definite path (names and indexes only) leads: the keys and indexes from the root, or `nil`
    /// if the path is not definite or a step is missing.
    enum Location: Equatable {
        case key(String)
        case index(Int)
    }

    static func locate(_ path: JSONPathExpression, in document: JSONValue) -> [Location]? {
        var locations: [Location] = []
        var current = document
        for step in path.steps {
            switch (step, current) {
            case let (.member(name), .object(members)):
                guard let member = members.first(where: { $0.key == name }) else { return nil }
                locations.append(.key(name))
                current = member.value
            case let (.index(index), .array(items)):
                let resolved = index < 0 ? items.count + index : index
                guard items.indices.contains(resolved) else { return nil }
                locations.append(.index(resolved))
                current = items[resolved]
            case (.member, _), (.members, _), (.index, _), (.indexes, _), (.slice, _), (.wildcard, _), (.deepScan, _),
                (.filter, _), (.length, _):
                return nil
            }
        }
        return locations
    }

    /// The value at `locations` in `document`.
    static func value(at locations: ArraySlice<Location>, in document: JSONValue) -> JSONValue? {
        guard let first = locations.first else { return document }
        switch (first, document) {
        case let (.key(name), .object(members)):
            return members.first { $0.key == name }.flatMap { value(at: locations.dropFirst(), in: $0.value) }
        case let (.index(index), .array(items)) where items.indices.contains(index):
            return value(at: locations.dropFirst(), in: items[index])
        case (.key, _), (.index, _):
            return nil
        }
    }

    /// `document` with the value at `locations` replaced by `transform` of it.
    static func replacing(
        at locations: ArraySlice<Location>, in document: JSONValue, _ transform: (JSONValue) -> JSONValue
    ) -> JSONValue {
        guard let first = locations.first else { return transform(document) }
        switch (first, document) {
        case let (.key(name), .object(members)):
            return .object(
                members.map {
                    $0.key == name ? ($0.key, replacing(at: locations.dropFirst(), in: $0.value, transform)) : $0
                })
        case let (.index(index), .array(items)) where items.indices.contains(index):
            var copy = items
            copy[index] = replacing(at: locations.dropFirst(), in: items[index], transform)
            return .array(copy)
        case (.key, _), (.index, _):
            return document
        }
    }
}
