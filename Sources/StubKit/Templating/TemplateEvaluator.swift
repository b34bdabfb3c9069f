/// Renders parsed nodes against one request. Runs on the event loop: no I/O, no locks, no waiting;
/// request fields are computed on first use, and output goes into one growing byte buffer.
struct TemplateEvaluator {
    /// One level of context: `this`, and the `@` data of an `#each` iteration.
    struct Frame {
        var this: TemplateValue
        var index: Int?
        var key: String?
        var count = 0
    }

    let model: TemplateRequestModel
    let nowMilliseconds: Int64
    var frames: [Frame]
    var random: TemplateRandom
    /// Why the response cannot be rendered (a `jsonPath` built from the request past the parser's limits),
    /// or `nil`. The first reason is kept; the response is then a 500 that gives it.
    var failure: String?

    init(model: TemplateRequestModel, nowMilliseconds: Int64, random: TemplateRandom) {
        self.model = model
        self.nowMilliseconds = nowMilliseconds
        self.random = random
        frames = [Frame(this: .root(model))]
    }

    mutating func render(_ nodes: [TemplateNode], into out: inout [UInt8]) {
        for node in nodes {
            switch node {
            case let .text(bytes):
                out.append(contentsOf: bytes)
            case let .output(expression, escaped):
                let text = evaluate(expression).text
                if escaped { TemplateEscaping.appendHTMLEscaped(text, to: &out) } else { out.append(contentsOf: text.utf8) }
            case let .block(block):
                renderBlock(block, into: &out)
            }
        }
    }

    private mutating func renderBlock(_ block: TemplateBlock, into out: inout [UInt8]) {
        switch block.helper {
        case .each:
            let subject = block.call.arguments.first.map { evaluate($0) } ?? .missing
            guard let elements = subject.elements, !elements.isEmpty else { return render(block.inverse, into: &out) }
            for (index, element) in elements.enumerated() {
                frames.append(Frame(this: element.value, index: index, key: element.key ?? String(index), count: elements.count))
                render(block.body, into: &out)
                frames.removeLast()
            }
        case .with:
            let subject = block.call.arguments.first.map { evaluate($0) } ?? .missing
            guard subject.isTruthy else { return render(block.inverse, into: &out) }
            frames.append(Frame(this: subject))
            render(block.body, into: &out)
            frames.removeLast()
        case let helper where helper.isCondition:
            let condition: Bool
            switch helper {
            case .if: condition = block.call.arguments.first.map { evaluate($0).isTruthy } ?? false
            case .unless: condition = !(block.call.arguments.first.map { evaluate($0).isTruthy } ?? false)
            default: condition = call(helper, block.call).isTruthy
            }
            render(condition ? block.body : block.inverse, into: &out)
        default:
            // A value helper as a block (`{{#trim}}…{{/trim}}`): its input is the rendered body; the result
            // is not escaped (as Handlebars.java).
            var inner: [UInt8] = []
            render(block.body, into: &inner)
            out.append(contentsOf: call(block.helper, block.call, input: .string(String(decoding: inner, as: UTF8.self))).text.utf8)
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
            let found = frames[level].this.member(first)
            if case .missing = found { continue }
            return path.segments.dropFirst().reduce(found) { $0.member($1) }
        }
        return .missing
    }
}
