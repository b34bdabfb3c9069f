import StubModel

/// Why a GraphQL document has no normal form: a syntax error, or fragments that cannot be inlined.
package struct GraphQLNormalizationError: Error, Sendable, Hashable, CustomStringConvertible {
    var message: String
    package var description: String { message }
}

/// The canonical text of a GraphQL document, for comparing two documents that GraphQL treats alike.
///
/// - whitespace, commas and comments are gone, strings are printed as JSON strings of their value;
/// - fragment spreads are inlined as `... on Type { … }` and fragment definitions dropped;
/// - sibling selections, arguments, object fields and variable definitions are sorted, duplicate sibling
///   selections merged (GraphQL's field merging); directives keep their order;
/// - operations are sorted. The `{ … }` shorthand reads `query { … }`.
///
/// A cycle of fragments or an unknown fragment is an error; so is an inlined document of more than
/// ``maxNodes`` selections (nested fragments can grow a document exponentially).
package enum GraphQLNormalizer {
    /// The most selections an inlined document may have.
    static let maxNodes = 100_000
    /// The deepest nesting of selection sets with fragments inlined.
    static let maxDepth = 128

    /// The canonical text of `text`.
    package static func normalize(_ text: String) throws(GraphQLNormalizationError) -> String {
        let document: GraphQLDocument
        do {
            document = try GraphQLParser.parse(text)
        } catch {
            throw GraphQLNormalizationError(message: error.description)
        }
        return try normalize(document)
    }

    static func normalize(_ document: GraphQLDocument) throws(GraphQLNormalizationError) -> String {
        var fragments: [String: GraphQLDocument.Fragment] = [:]
        for fragment in document.fragments {
            guard fragments.updateValue(fragment, forKey: fragment.name) == nil else {
                throw GraphQLNormalizationError(message: "fragment '\(fragment.name)' is defined twice")
            }
        }
        var printer = Printer(fragments: fragments)
        var operations: [String] = []
        for operation in document.operations {
            operations.append(try printer.operation(operation))
        }
        return operations.sorted().joined(separator: " ")
    }

    private struct Printer {
        let fragments: [String: GraphQLDocument.Fragment]
        var nodes = 0
        var depth = 0
        /// The fragments being inlined, innermost last.
        var expanding: [String] = []

        mutating func operation(_ operation: GraphQLDocument.Operation) throws(GraphQLNormalizationError) -> String {
            var text = operation.kind
            if let name = operation.name { text += " " + name }
            if !operation.variables.isEmpty {
                let definitions = operation.variables.sorted { $0.name < $1.name }.map { definition in
                    "$\(definition.name): \(definition.type)"
                        + (definition.defaultValue.map { " = " + Self.value($0) } ?? "")
                        + Self.directives(definition.directives)
                }
                text += "(" + definitions.joined(separator: ", ") + ")"
            }
            text += Self.directives(operation.directives)
            return text + " " + (try selectionSet(operation.selections))
        }

        mutating func selectionSet(_ selections: [GraphQLDocument.Selection]) throws(GraphQLNormalizationError)
            -> String
        {
            depth += 1
            defer { depth -= 1 }
            guard depth <= GraphQLNormalizer.maxDepth else {
                throw GraphQLNormalizationError(
                    message: "selection sets nest more than \(GraphQLNormalizer.maxDepth) levels deep with fragments "
                        + "inlined")
            }
            var printed: Set<String> = []
            for selection in selections { printed.insert(try self.selection(selection)) }
            return "{ " + printed.sorted().joined(separator: " ") + " }"
        }

        mutating func selection(_ selection: GraphQLDocument.Selection) throws(GraphQLNormalizationError) -> String {
            nodes += 1
            guard nodes <= GraphQLNormalizer.maxNodes else {
                throw GraphQLNormalizationError(
                    message: "the document has more than \(GraphQLNormalizer.maxNodes) selections with its "
                        + "fragments inlined")
            }
            switch selection {
            case .field(let field):
                var text = field.alias.map { $0 + ": " } ?? ""
                text += field.name + Self.arguments(field.arguments) + Self.directives(field.directives)
                if !field.selections.isEmpty { text += " " + (try selectionSet(field.selections)) }
                return text
            case .inlineFragment(let typeCondition, let directives, let selections):
                return "..." + (typeCondition.map { " on " + $0 } ?? "") + Self.directives(directives) + " "
                    + (try selectionSet(selections))
            case .fragmentSpread(let name, let directives):
                guard let fragment = fragments[name] else {
                    throw GraphQLNormalizationError(message: "fragment '\(name)' is used but not defined")
                }
                guard !expanding.contains(name) else {
                    let cycle = (expanding.drop { $0 != name } + [name]).joined(separator: " -> ")
                    throw GraphQLNormalizationError(message: "fragments spread each other in a cycle: \(cycle)")
                }
                expanding.append(name)
                defer { expanding.removeLast() }
                return "... on " + fragment.typeCondition + Self.directives(directives + fragment.directives) + " "
                    + (try selectionSet(fragment.selections))
            }
        }

        static func arguments(_ arguments: [GraphQLDocument.Argument]) -> String {
            guard !arguments.isEmpty else { return "" }
            let sorted = arguments.sorted { $0.name < $1.name }
            return "(" + sorted.map { "\($0.name): " + value($0.value) }.joined(separator: ", ") + ")"
        }

        static func directives(_ directives: [GraphQLDocument.Directive]) -> String {
            directives.map { " @" + $0.name + arguments($0.arguments) }.joined()
        }

        static func value(_ value: GraphQLDocument.Value) -> String {
            switch value {
            case .variable(let name): "$" + name
            case .int(let text), .float(let text), .enumValue(let text): text
            case .string(let text): JSONValue.string(text).serialized()
            case .boolean(let flag): flag ? "true" : "false"
            case .null: "null"
            case .list(let items): "[" + items.map(Self.value).joined(separator: ", ") + "]"
            case .object(let fields):
                "{"
                    + fields.sorted { $0.name < $1.name }.map { "\($0.name): " + Self.value($0.value) }
                    .joined(separator: ", ") + "}"
            }
        }
    }
}
