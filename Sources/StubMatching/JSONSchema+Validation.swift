import StubModel

extension JSONSchema {
    /// The ways `instance` breaks the schema, at most `limit` of them (`$.a[0]: expected string, found number`);
    /// empty when it is valid.
    package func violations(of instance: JSONValue, limit: Int = 8) -> [String] {
        var run = JSONSchemaValidation(schema: self, limit: limit)
        run.check(instance, against: root, at: "$", depth: 0)
        return run.found.map { "\($0.path): \($0.message)" }
    }

    /// The ways `instance` breaks the subschema at JSON pointer `schemaPointer` (one of the entries the schema
    /// was made with), at most `limit`, each at the JSON pointer of the offending value below `instancePointer`
    /// (`/body/items/0/name`), as OpenAPI validation reports them.
    package func violations(
        of instance: JSONValue, against schemaPointer: String, at instancePointer: String, limit: Int = 8
    ) -> [JSONSchemaViolation] {
        guard let node = entryNodes[schemaPointer] else {
            return [JSONSchemaViolation(path: instancePointer, message: "no schema at #\(schemaPointer)")]
        }
        return violations(of: instance, against: node, at: instancePointer, limit: limit)
    }

    /// ``violations(of:against:at:limit:)`` with the entry schema in hand (one of those the schema was made
    /// with), sparing the lookup by pointer on every request.
    package func violations(
        of instance: JSONValue, against node: JSONValue, at instancePointer: String, limit: Int = 8
    ) -> [JSONSchemaViolation] {
        var run = JSONSchemaValidation(schema: self, limit: limit, pointers: true)
        run.check(instance, against: node, at: instancePointer, depth: 0)
        return run.found
    }

    /// Whether `instance` is valid.
    func accepts(_ instance: JSONValue) -> Bool { violations(of: instance, limit: 1).isEmpty }

    /// How many keywords the schema has, for a distance: violations / keywords.
    var keywordCount: Int {
        var count = 0
        var pending = [root]
        while let node = pending.popLast() {
            switch node {
            case .object(let members):
                count += members.count
                pending.append(contentsOf: members.map(\.value))
            case .array(let list): pending.append(contentsOf: list)
            case .null, .bool, .number, .string: break
            }
        }
        return max(count, 1)
    }
}

/// One way a value breaks a schema: where (a JSONPath such as `$.a[0]`, or a JSON pointer such as `/a/0`) and what.
package struct JSONSchemaViolation: Sendable, Hashable, CustomStringConvertible {
    package let path: String
    package let message: String
    package var description: String { "\(path): \(message)" }
}

/// One validation: its step budget and what it found.
struct JSONSchemaValidation {
    let schema: JSONSchema
    let limit: Int
    /// Whether paths are JSON pointers (`/a/0`) rather than JSONPaths (`$.a[0]`).
    let pointers: Bool
    var steps = 0
    var found: [JSONSchemaViolation] = []

    init(schema: JSONSchema, limit: Int, pointers: Bool = false) {
        self.schema = schema
        self.limit = limit
        self.pointers = pointers
    }

    func childPath(_ path: String, _ name: String) -> String {
        pointers ? path + "/" + JSONSchema.escape(name) : Self.child(path, name)
    }

    func itemPath(_ path: String, _ index: Int) -> String { pointers ? "\(path)/\(index)" : "\(path)[\(index)]" }

    private var version: JSONSchema.Version { schema.version }
    var full: Bool { found.count >= limit }

    mutating func report(_ path: String, _ message: String) {
        if !full { found.append(JSONSchemaViolation(path: path, message: message)) }
    }

    /// Whether `instance` is valid against `node`, without reporting (for anyOf, oneOf, not, if, contains).
    mutating func valid(_ instance: JSONValue, against node: JSONValue, at path: String, depth: Int) -> Bool {
        var inner = JSONSchemaValidation(schema: schema, limit: 1, pointers: pointers)
        inner.steps = steps
        inner.check(instance, against: node, at: path, depth: depth)
        steps = inner.steps
        return inner.found.isEmpty
    }

    mutating func check(_ instance: JSONValue, against node: JSONValue, at path: String, depth: Int) {
        steps += 1
        guard steps <= JSONSchema.maxSteps, depth <= JSONSchema.maxDepth else {
            return report(path, "the schema took too long to check (nested or recursive past the limit)")
        }
        switch node {
        case .bool(let allowed):
            if !allowed { report(path, "no value is allowed here (the schema is false)") }
            return
        case .object(let keywords):
            // OpenAPI 3.0: `nullable: true` lets null through whatever the type says.
            if schema.openAPI30, instance == .null, node["nullable"] == .bool(true) { return }
            // Before 2019-09, $ref replaces the rest of its schema.
            if let reference = node["$ref"], case .string(let text) = reference,
                let target = schema.references[text] ?? JSONSchema.resolve(text, in: schema.root)
            {
                check(instance, against: target, at: path, depth: depth + 1)
                if version == .v4 || version == .v6 || version == .v7 { return }
            }
            for (key, value) in keywords where !full {
                checkKeyword(key, value, in: node, instance: instance, at: path, depth: depth)
            }
        case .null, .number, .string, .array:
            return
        }
    }

    private mutating func checkKeyword(
        _ key: String, _ value: JSONValue, in node: JSONValue, instance: JSONValue, at path: String, depth: Int
    ) {
        switch key {
        case "type":
            let names: [String]
            if case .array(let list) = value {
                names = list.compactMap(\.stringValue)
            } else {
                names = value.stringValue.map { [$0] } ?? []
            }
            if !names.contains(where: { Self.has(type: $0, instance) }) {
                report(path, "expected \(names.joined(separator: " or ")), found \(Self.typeName(instance))")
            }
        case "enum":
            guard case .array(let options) = value else { return }
            if !options.contains(where: { Self.equal($0, instance) }) {
                report(path, "expected one of \(value.serialized()), found \(instance.serialized())")
            }
        case "const":
            if !Self.equal(value, instance) {
                report(path, "expected \(value.serialized()), found \(instance.serialized())")
            }
        case "allOf", "anyOf", "oneOf":
            if key != "allOf", let chosen = discriminated(instance, by: node) {
                return check(instance, against: chosen, at: path, depth: depth + 1)
            }
            checkCombination(key, value, instance: instance, at: path, depth: depth)
        case "not":
            if valid(instance, against: value, at: path, depth: depth + 1) {
                report(path, "must not match the schema in 'not'")
            }
        case "if":
            let branch = valid(instance, against: value, at: path, depth: depth + 1) ? node["then"] : node["else"]
            if let branch { check(instance, against: branch, at: path, depth: depth + 1) }
        default:
            switch instance {
            case .string(let text): checkString(key, value, text, at: path)
            case .number(let text): checkNumber(key, value, node: node, text, at: path)
            case .array(let items): checkArray(key, value, node: node, items, at: path, depth: depth)
            case .object(let members): checkObject(key, value, node: node, members, at: path, depth: depth)
            case .null, .bool: return
            }
        }
    }

    /// OpenAPI's `discriminator`: the one schema of a `oneOf`/`anyOf` named by the object's property
    /// (through `mapping`, or `#/components/schemas/<value>`), checked in place of trying them all.
    private func discriminated(_ instance: JSONValue, by node: JSONValue) -> JSONValue? {
        guard let property = node["discriminator"]?["propertyName"]?.stringValue,
            let tag = instance[property]?.stringValue
        else { return nil }
        let reference = node["discriminator"]?["mapping"]?[tag]?.stringValue ?? "#/components/schemas/\(tag)"
        let target = reference.hasPrefix("#") ? reference : "#/components/schemas/\(reference)"
        return schema.resolved(target).map { _ in .object([("$ref", .string(target))]) }
    }

    private mutating func checkCombination(
        _ key: String, _ value: JSONValue, instance: JSONValue, at path: String, depth: Int
    ) {
        guard case .array(let schemas) = value else { return }
        if key == "allOf" {
            for sub in schemas where !full { check(instance, against: sub, at: path, depth: depth + 1) }
            return
        }
        var passed = 0
        for sub in schemas where valid(instance, against: sub, at: path, depth: depth + 1) {
            passed += 1
            if key == "anyOf" || passed > 1 { break }
        }
        if key == "anyOf", passed == 0 { report(path, "matches none of the schemas in 'anyOf'") }
        if key == "oneOf", passed != 1 {
            report(
                path, passed == 0 ? "matches none of the schemas in 'oneOf'" : "matches more than one schema in 'oneOf'"
            )
        }
    }

    private mutating func checkString(_ key: String, _ value: JSONValue, _ text: String, at path: String) {
        let length = text.unicodeScalars.count
        switch key {
        case "minLength":
            if let n = value.doubleValue, Double(length) < n { report(path, "shorter than \(Int(n)) characters") }
        case "maxLength":
            if let n = value.doubleValue, Double(length) > n { report(path, "longer than \(Int(n)) characters") }
        case "pattern":
            guard let pattern = value.stringValue, let regex = schema.regexes[pattern] else { return }
            if !regex.matchesWhole(text) { report(path, "does not match the pattern \(Quoting.quote(pattern))") }
        default: return
        }
    }

    private mutating func checkNumber(
        _ key: String, _ value: JSONValue, node: JSONValue, _ text: String, at path: String
    ) {
        guard let number = Double(text), let bound = value.doubleValue ?? (key.hasPrefix("exclusive") ? 0 : nil) else {
            return
        }
        switch key {
        case "minimum":
            let exclusive = node["exclusiveMinimum"] == .bool(true)
            if exclusive ? number <= bound : number < bound {
                report(path, "\(text) is less than \(exclusive ? "or equal to " : "")\(value.serialized())")
            }
        case "maximum":
            let exclusive = node["exclusiveMaximum"] == .bool(true)
            if exclusive ? number >= bound : number > bound {
                report(path, "\(text) is greater than \(exclusive ? "or equal to " : "")\(value.serialized())")
            }
        case "exclusiveMinimum":
            if value.doubleValue != nil, number <= bound {
                report(path, "\(text) is not greater than \(value.serialized())")
            }
        case "exclusiveMaximum":
            if value.doubleValue != nil, number >= bound {
                report(path, "\(text) is not less than \(value.serialized())")
            }
        case "multipleOf":
            let quotient = number / bound
            if !quotient.isFinite || abs(quotient - quotient.rounded()) > 1e-9 {
                report(path, "\(text) is not a multiple of \(value.serialized())")
            }
        default: return
        }
    }

    private mutating func checkArray(
        _ key: String, _ value: JSONValue, node: JSONValue, _ items: [JSONValue], at path: String, depth: Int
    ) {
        switch key {
        case "minItems":
            if let n = value.doubleValue, Double(items.count) < n { report(path, "fewer than \(Int(n)) items") }
        case "maxItems":
            if let n = value.doubleValue, Double(items.count) > n { report(path, "more than \(Int(n)) items") }
        case "uniqueItems":
            guard value == .bool(true) else { return }
            for i in items.indices where !full {
                steps += i
                if items[..<i].contains(where: { Self.equal($0, items[i]) }) {
                    return report(path, "items are not unique")
                }
            }
        case "prefixItems", "items":
            let prefix: [JSONValue]
            if key == "prefixItems", case .array(let list) = value {
                prefix = list
            } else if key == "items", case .array(let list) = value {
                prefix = list
            }  // a tuple, before 2020-12
            else {
                prefix = []
            }
            for (index, sub) in zip(items.indices, prefix) where !full {
                check(items[index], against: sub, at: itemPath(path, index), depth: depth + 1)
            }
            // `items` as one schema: the items after `prefixItems`, or all of them.
            if key == "items", case .array = value { return }
            if key == "items" {
                var start = 0
                if case .array(let prefixItems)? = node["prefixItems"] { start = prefixItems.count }
                for index in items.indices.dropFirst(start) where !full {
                    check(items[index], against: value, at: itemPath(path, index), depth: depth + 1)
                }
            }
        case "additionalItems":
            guard case .array(let tuple)? = node["items"] else { return }
            for index in items.indices.dropFirst(tuple.count) where !full {
                check(items[index], against: value, at: itemPath(path, index), depth: depth + 1)
            }
        case "contains":
            var count = 0
            for (index, element) in items.enumerated()
            where valid(element, against: value, at: itemPath(path, index), depth: depth + 1) {
                count += 1
            }
            let minimum = version == .v201909 || version == .v202012 ? node["minContains"]?.doubleValue ?? 1 : 1
            let maximum = version == .v201909 || version == .v202012 ? node["maxContains"]?.doubleValue : nil
            if Double(count) < minimum { report(path, "fewer than \(Int(minimum)) items match 'contains'") }
            if let maximum, Double(count) > maximum { report(path, "more than \(Int(maximum)) items match 'contains'") }
        default: return
        }
    }

    private mutating func checkObject(
        _ key: String, _ value: JSONValue, node: JSONValue, _ members: [(key: String, value: JSONValue)],
        at path: String,
        depth: Int
    ) {
        switch key {
        case "required":
            guard case .array(let names) = value else { return }
            for case .string(let name) in names where !members.contains(where: { $0.key == name }) {
                report(path, "missing required property \(Quoting.quote(name))")
            }
        case "minProperties":
            if let n = value.doubleValue, Double(members.count) < n { report(path, "fewer than \(Int(n)) properties") }
        case "maxProperties":
            if let n = value.doubleValue, Double(members.count) > n { report(path, "more than \(Int(n)) properties") }
        case "properties":
            guard case .object(let schemas) = value else { return }
            for (name, sub) in schemas where !full {
                if let member = members.first(where: { $0.key == name }) {
                    check(member.value, against: sub, at: childPath(path, name), depth: depth + 1)
                }
            }
        case "patternProperties":
            guard case .object(let schemas) = value else { return }
            for (pattern, sub) in schemas {
                guard let regex = schema.regexes[pattern] else { continue }
                for member in members where !full && regex.matchesWhole(member.key) {
                    check(member.value, against: sub, at: childPath(path, member.key), depth: depth + 1)
                }
            }
        case "additionalProperties":
            let named = Self.keys(node["properties"])
            let patterns = Self.keys(node["patternProperties"])
            for member in members where !full && !named.contains(member.key) {
                if patterns.contains(where: { schema.regexes[$0]?.matchesWhole(member.key) == true }) { continue }
                if value == .bool(false) {
                    report(path, "property \(Quoting.quote(member.key)) is not allowed")
                } else {
                    check(member.value, against: value, at: childPath(path, member.key), depth: depth + 1)
                }
            }
        case "propertyNames":
            for member in members where !full {
                check(.string(member.key), against: value, at: childPath(path, member.key), depth: depth + 1)
            }
        case "dependencies", "dependentRequired", "dependentSchemas":
            guard case .object(let rules) = value else { return }
            for (trigger, rule) in rules where members.contains(where: { $0.key == trigger }) && !full {
                if case .array(let names) = rule {
                    for case .string(let name) in names where !members.contains(where: { $0.key == name }) {
                        report(path, "property \(Quoting.quote(trigger)) requires \(Quoting.quote(name))")
                    }
                } else {
                    check(.object(members), against: rule, at: path, depth: depth + 1)
                }
            }
        default: return
        }
    }
}
