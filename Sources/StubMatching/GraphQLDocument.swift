/// A parsed GraphQL executable document: its operations and fragment definitions, in source order.
struct GraphQLDocument: Equatable {
    var operations: [Operation] = []
    var fragments: [Fragment] = []

    /// `query`, `mutation` or `subscription` (the `{ … }` shorthand is a `query`).
    struct Operation: Equatable {
        var kind: String
        var name: String?
        var variables: [VariableDefinition]
        var directives: [Directive]
        var selections: [Selection]
    }

    struct VariableDefinition: Equatable {
        var name: String
        /// The type as written, without ignored characters: `[ID!]!`.
        var type: String
        var defaultValue: Value?
        var directives: [Directive]
    }

    struct Fragment: Equatable {
        var name: String
        var typeCondition: String
        var directives: [Directive]
        var selections: [Selection]
    }

    struct Argument: Equatable {
        var name: String
        var value: Value
    }

    struct Directive: Equatable {
        var name: String
        var arguments: [Argument]
    }

    struct Field: Equatable {
        var alias: String?
        var name: String
        var arguments: [Argument]
        var directives: [Directive]
        var selections: [Selection]
    }

    indirect enum Selection: Equatable {
        case field(Field)
        case fragmentSpread(name: String, directives: [Directive])
        case inlineFragment(typeCondition: String?, directives: [Directive], selections: [Selection])
    }

    indirect enum Value: Equatable {
        case variable(String)
        case int(String)
        case float(String)
        case string(String)
        case boolean(Bool)
        case null
        case enumValue(String)
        case list([Value])
        case object([Argument])
    }
}
