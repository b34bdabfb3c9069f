import StubMatching

/// The parsed form of a template: text and `{{…}}` tags, built once and evaluated per request.
indirect enum TemplateNode: Sendable {
    /// Literal text, copied as is.
    case text([UInt8])
    /// `{{expression}}` (HTML-escaped) or `{{{expression}}}` (raw).
    case output(TemplateExpression, escaped: Bool)
    /// `{{#name …}}body{{else}}inverse{{/name}}`.
    case block(TemplateBlock)
}

/// A block section: `#if`, `#unless`, `#each`, `#with`, or a helper used as a block (`#eq`, `#trim`).
struct TemplateBlock: Sendable {
    let helper: TemplateHelper
    let call: TemplateCall
    let body: [TemplateNode]
    /// After `{{else}}` (or what an `{{else if …}}` chain became).
    let inverse: [TemplateNode]
}

/// Something that yields a value: a literal, a path into the model, or a helper call.
indirect enum TemplateExpression: Sendable {
    case literal(TemplateLiteral)
    case path(TemplatePath)
    case call(TemplateHelper, TemplateCall)
    /// A helper no WireMock core has (a custom extension's): loads, and fails the
    /// response with a 500 naming it, as WireMock answers.
    case unknownHelper(String)
}

/// A helper's arguments, with what could be prepared at load time (a literal JSONPath, a date format).
struct TemplateCall: Sendable {
    var arguments: [TemplateExpression] = []
    var hash: [(name: String, value: TemplateExpression)] = []
    var prepared: PreparedArgument = .none
    /// `{{#each items as |item index|}}`: names for the element and its index (or key) inside the block.
    var blockParameters: [String] = []

    func option(_ name: String) -> TemplateExpression? { hash.first { $0.name == name }?.value }
}

/// Work done once when the template loads, so evaluation does not repeat it.
enum PreparedArgument: Sendable {
    case none
    case jsonPath(JSONPathExpression)
    case date(DateOptions)
    /// A literal pattern of `matches` / `regexExtract` (`nil`: it does not compile, which shows at render).
    indirect case regex(TemplateRegex?)
    /// The literal key of `fake` / `random`.
    case fakeKey(FakeDataKey)
}

/// A literal in a tag: `'text'`, `"text"`, `42`, `1.5`, `true`, `false`, `null`.
enum TemplateLiteral: Sendable, Hashable {
    case string(String)
    case integer(Int)
    case double(Double)
    case bool(Bool)
    case null
}

/// `request.query.name`, `this`, `@index`, `../x`, `[X-Header]` segments.
struct TemplatePath: Sendable, Hashable {
    /// `@index`, `@key`, `@first`, `@last`.
    var isData = false
    /// How many `../` precede it.
    var parents = 0
    /// Starts at the current context (`this`, `./`), so no lookup in outer contexts.
    var isExplicitThis = false
    var segments: [String] = []
}
