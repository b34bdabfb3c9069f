import StubMatching
import StubXML

/// Renders parsed nodes against one request: no locks, no waiting; request fields are computed on first
/// use, and output goes into one ``TemplateOutput`` (in memory, or spilled to a file off the event loops).
/// Every step and output byte is charged to ``budget``: once a limit is reached, rendering stops and
/// produces nothing more.
struct TemplateEvaluator {
    /// One level of context: `this`, and the `@` data of an `#each` iteration.
    struct Frame {
        var this: TemplateValue
        var index: Int?
        var key: String?
        var count = 0
        /// Block parameters (`as |item index|`) visible from here in, looked up before `this`.
        var names: [(name: String, value: TemplateValue)] = []
    }

    let model: TemplateRequestModel
    let nowMilliseconds: Int64
    var frames: [Frame]
    var random: TemplateRandom
    var budget: TemplateBudget
    /// `jsonPath` results over the request body, by path, for this render.
    var jsonPathCache: [JSONPathExpression: TemplateValue] = [:]
    /// The request body parsed as XML by `xPath` / `soapXPath`, for this render.
    var bodyXML: StubXML.XMLDocument?
    /// Why the response cannot be rendered (a `jsonPath` built from the request past the parser's limits),
    /// or `nil`. The first reason is kept; the response is then a 500 that gives it.
    var failure: String?
    /// Variables set by `regexExtract … 'name'` (and `assign`): looked up after the context.
    var variables: [String: TemplateValue] = [:]
    /// The seed of this render's fake data (``FakeDataSeed``), or `nil` for ``random``'s values.
    var fakeSeed: UInt64?
    /// How many fake values this render has made: the next one's position.
    var fakeCalls: UInt64 = 0
    /// The names `fake` made last in this render, for the e-mail addresses and user names after them.
    var fakePerson = FakePerson()
    /// The server's data store, for `data`; `nil` outside a server (or when no store is wired).
    let data: (any TemplateDataSource)?

    init(
        model: TemplateRequestModel, nowMilliseconds: Int64, random: TemplateRandom, limits: TemplateLimits,
        data: (any TemplateDataSource)? = nil
    ) {
        self.model = model
        self.data = data
        self.nowMilliseconds = nowMilliseconds
        self.random = random
        budget = TemplateBudget(limits)
        frames = [Frame(this: .root(model))]
    }

    mutating func render(_ nodes: [TemplateNode], into out: inout TemplateOutput) {
        for node in nodes {
            guard budget.spend(steps: 1) else { return }
            switch node {
            case let .text(bytes):
                guard budget.produce(bytes: bytes.count) else { return }
                out.bytes.append(contentsOf: bytes)
                out.spillIfLarge()
            case let .output(expression, escaped):
                let text = evaluate(expression).text
                // Counted before it is appended: escaping may grow the text up to six times.
                let count = escaped ? TemplateEscaping.htmlEscapedCount(text) : text.utf8.count
                guard budget.produce(bytes: count) else { return }
                if escaped {
                    TemplateEscaping.appendHTMLEscaped(text, to: &out.bytes)
                } else {
                    out.bytes.append(contentsOf: text.utf8)
                }
                out.spillIfLarge()
            case let .block(block):
                renderBlock(block, into: &out)
            }
        }
    }

    private mutating func renderBlock(_ block: TemplateBlock, into out: inout TemplateOutput) {
        switch block.helper {
        case .core(.each):
            renderEachBlock(block, into: &out)
        case .core(.with):
            renderWith(block, into: &out)
        case .core(let helper) where helper.isCondition:
            let condition: Bool
            if helper == .if || helper == .unless {
                let first = block.call.arguments.first.map { evaluate($0).isTruthy } ?? false
                condition = helper == .if ? first : !first
            } else {
                condition = call(block.helper, block.call).isTruthy
            }
            render(condition ? block.body : block.inverse, into: &out)
        case .core, .string, .number, .collection, .date, .json, .jsonEdit, .fake, .xPath, .system, .data:
            renderHelperBlock(block, into: &out)
        }
    }

    /// `{{#each list as |item index|}}`: apart from `renderBlock`, so the frames of the block recursion stay small.
    @inline(never)
    private mutating func renderEachBlock(_ block: TemplateBlock, into out: inout TemplateOutput) {
        let subject = block.call.arguments.first.map { evaluate($0) } ?? .missing
        // A JSON array (e.g. from `jsonPath`) is walked in place: a copy of a long one as elements
        // would cost more memory than the array.
        if case let .json(.array(items)) = subject {
            return renderEach(block, count: items.count, into: &out) { (nil, .json(items[$0])) }
        }
        guard let elements = subject.elements else { return render(block.inverse, into: &out) }
        renderEach(block, count: elements.count, into: &out) { elements[$0] }
    }

    /// `{{#with x as |name|}}`: apart from `renderBlock`, so the frames of the block recursion stay small.
    @inline(never)
    private mutating func renderWith(_ block: TemplateBlock, into out: inout TemplateOutput) {
        let subject = block.call.arguments.first.map { evaluate($0) } ?? .missing
        guard subject.isTruthy else { return render(block.inverse, into: &out) }
        frames.append(Self.frame(subject, named: block.call.blockParameters.first))
        render(block.body, into: &out)
        frames.removeLast()
    }

    /// One `#each` iteration's frame: `this`, the `@` data and the block parameters.
    @inline(never)
    private static func eachFrame(_ value: TemplateValue, index: Int, key: String?, count: Int, names: [String])
        -> Frame
    {
        var frame = Frame(this: value, index: index, key: key ?? String(index), count: count)
        if let name = names.first { frame.names.append((name, value)) }
        if names.count > 1 { frame.names.append((names[1], key.map { .string($0) } ?? .integer(index))) }
        return frame
    }

    @inline(never)
    private static func frame(_ subject: TemplateValue, named name: String?) -> Frame {
        var frame = Frame(this: subject)
        if let name { frame.names = [(name, subject)] }
        return frame
    }

    /// `assign`, `arrayJoin`, `contains` / `matches`, and a value helper as a block (`{{#trim}}…{{/trim}}`:
    /// its input is the rendered body; the result is not escaped, as Handlebars.java). Apart from
    /// `renderBlock`, so the frames of the block recursion stay small.
    @inline(never)
    private mutating func renderHelperBlock(_ block: TemplateBlock, into out: inout TemplateOutput) {
        switch block.helper {
        case .collection(.assign):
            renderAssign(block)
        case .json(.arrayJoin):
            renderArrayJoin(block, into: &out)
        case .string(.contains), .string(.matches):
            // WireMock's: the body when it matches, else nothing (no `{{else}}`).
            if call(block.helper, block.call).isTruthy { render(block.body, into: &out) }
        case .core, .string, .number, .collection, .date, .json, .jsonEdit, .fake, .xPath, .system, .data:
            var inner = TemplateOutput()
            render(block.body, into: &inner)
            guard budget.exceeded == nil else { return }
            let result = call(block.helper, block.call, input: .string(String(decoding: inner.bytes, as: UTF8.self)))
                .text
            guard budget.produce(bytes: result.utf8.count) else { return }
            out.bytes.append(contentsOf: result.utf8)
            out.spillIfLarge()
        }
    }

    /// `block`'s body once per element (its inverse when there are none). Walking the elements costs
    /// one step each, so a loop over a long list is charged even when its body is empty.
    private mutating func renderEach(
        _ block: TemplateBlock, count: Int, into out: inout TemplateOutput,
        _ element: (Int) -> (key: String?, value: TemplateValue)
    ) {
        guard count > 0 else { return render(block.inverse, into: &out) }
        guard budget.spend(steps: count) else { return }
        for index in 0..<count {
            guard budget.spend(steps: 1) else { return }
            let (key, value) = element(index)
            frames.append(
                Self.eachFrame(value, index: index, key: key, count: count, names: block.call.blockParameters))
            render(block.body, into: &out)
            frames.removeLast()
        }
    }

    mutating func evaluate(_ expression: TemplateExpression) -> TemplateValue {
        switch expression {
        case let .literal(literal):
            switch literal {
            case let .string(text): return .string(text)
            case let .integer(value): return .integer(value)
            case let .double(value): return .double(value)
            case let .bool(value): return .bool(value)
            case .null: return .missing
            }
        case let .path(path):
            return resolve(path)
        case let .call(helper, arguments):
            return call(helper, arguments)
        case let .unknownHelper(name):
            return unknownHelper(name)
        }
    }

    /// Looks a path up: `this`-relative paths in the current context; others in the current context,
    /// then the enclosing ones (as Handlebars.java), so `request` works inside `#each`.
    func resolve(_ path: TemplatePath) -> TemplateValue {
        let depth = max(0, frames.count - 1 - path.parents)
        if path.isData {
            guard let name = path.segments.first else { return .missing }
            let frame = frames[depth]
            let value: TemplateValue
            switch name {
            case "index": value = frame.index.map(TemplateValue.integer) ?? .missing
            case "key": value = frame.key.map(TemplateValue.string) ?? .missing
            case "first": value = frame.index.map { .bool($0 == 0) } ?? .missing
            case "last": value = frame.index.map { .bool($0 == frame.count - 1) } ?? .missing
            case "root": value = frames[0].this
            default: value = .missing
            }
            return path.segments.dropFirst().reduce(value) { $0.member($1) }
        }
        guard let first = path.segments.first else { return frames[depth].this }
        if path.isExplicitThis || path.parents > 0 {
            return path.segments.reduce(frames[depth].this) { $0.member($1) }
        }
        for level in stride(from: depth, through: 0, by: -1) {
            if let named = frames[level].names.first(where: { $0.name == first }) {
                return path.segments.dropFirst().reduce(named.value) { $0.member($1) }
            }
            let found = frames[level].this.member(first)
            if case .missing = found { continue }
            return path.segments.dropFirst().reduce(found) { $0.member($1) }
        }
        guard let variable = variables[first] else { return .missing }
        return path.segments.dropFirst().reduce(variable) { $0.member($1) }
    }

    /// A helper stubserver does not know: the response fails naming it. Apart from `evaluate`, which
    /// nested sub-expressions recurse through.
    @inline(never)
    private mutating func unknownHelper(_ name: String) -> TemplateValue {
        fail("could not find helper: '\(name)' (stubserver implements WireMock's core helpers only)")
    }

    /// Handlebars.java's assign: the body, rendered and trimmed, becomes the variable. Apart from
    /// `renderBlock`, so the frames of the block recursion stay small.
    @inline(never)
    private mutating func renderAssign(_ block: TemplateBlock) {
        var inner = TemplateOutput()
        render(block.body, into: &inner)
        guard budget.exceeded == nil, let name = block.call.arguments.first.map({ evaluate($0).text }) else { return }
        assign(name, .string(TemplateEscaping.javaTrim(String(decoding: inner.bytes, as: UTF8.self))))
    }

    /// Sets variable `name`; past ``maxVariables`` names the response fails.
    mutating func assign(_ name: String, _ value: TemplateValue) {
        guard variables[name] != nil || variables.count < Self.maxVariables else {
            if failure == nil { failure = "more than \(Self.maxVariables) template variables" }
            return
        }
        variables[name] = value
    }

    /// The most variables one render may set.
    static let maxVariables = 1024
}
