/// stubserver's `data` helper: the server's data store (``TemplateDataSource``), read by collection.
/// `{{data 'todos' 'count'}}` is the number of items, `{{data 'todos' 'items'}}` the items as a JSON array
/// (compact; `#each`, `jsonPath` and `size` take it as a value), `{{data 'todos' 'item' request.path.id}}` one
/// item (as `jsonPath` gives an object), or nothing when there is no such item. No store, an unknown
/// collection or operation, or a missing argument writes `[ERROR: …]` text, as WireMock's helpers do.
extension TemplateEvaluator {
    @inline(never)
    mutating func dataHelper(_ arguments: [TemplateValue]) -> TemplateValue {
        guard arguments.count >= 2, !arguments[0].isMissing, !arguments[1].isMissing else {
            return .string("[ERROR: data expects a collection name and count, items or item with an id]")
        }
        let name = arguments[0].text, operation = arguments[1].text
        guard let known = DataOperation(rawValue: operation) else {
            return .string("[ERROR: Unknown data operation \(operation), expected count, items or item]")
        }
        if known == .item, arguments.count < 3 {
            return .string("[ERROR: data item expects the id of an item of \(name)]")
        }
        guard let data else {
            return .string("[ERROR: No data store to read the collection \(name) from]")
        }
        switch known {
        case .count:
            guard let items = data.templateItems(of: name) else { return Self.unknownCollection(name) }
            return .integer(items.count)
        case .items:
            guard let items = data.templateItems(of: name) else { return Self.unknownCollection(name) }
            // One step per item, as `jsonPath` is charged per value found; rendering counts its bytes.
            guard budget.spend(steps: items.count) else { return .missing }
            return .json(.array(items))
        case .item:
            let id = arguments[2].text
            if let item = data.templateItem(id, of: name) { return .json(item) }
            // Unknown item or unknown collection: only the collection is an error.
            return data.templateItems(of: name) == nil ? Self.unknownCollection(name) : .missing
        }
    }

    private static func unknownCollection(_ name: String) -> TemplateValue {
        .string("[ERROR: No data collection named \(name)]")
    }
}

/// What `data` reads of a collection: its second argument.
enum DataOperation: String, Sendable {
    case count, items, item
}

/// stubserver's data store helper.
enum DataHelper: String, Sendable, CaseIterable, TemplateHelperFamily {
    case data

    /// How many arguments the helper takes inline: a collection, an operation, and for `item` an id.
    var argumentCounts: ClosedRange<Int> {
        switch self {
        case .data: 2...3
        }
    }
}
