/// Parses Handlebars template text into ``TemplateNode``s, the subset WireMock's response templating
/// uses: `{{path}}`, `{{{raw}}}`, `{{& raw}}`, helpers with arguments, hash options and `(sub
/// expressions)`, blocks with `{{else}}` / `{{else if …}}` / `{{^}}`, `{{^inverted}}`, comments
/// `{{! …}}` / `{{!-- … --}}` and `~` whitespace control. As Handlebars.java (WireMock 2.35.1), a
/// block tag alone on a line keeps its line break (no "standalone" stripping) and `\{{` is not an escape.
struct TemplateParser {
    let bytes: [UInt8]
    var position = 0
    /// Set by `~}}`: the next text loses its leading whitespace.
    var stripsNextLeadingSpace = false
    /// Blocks open around `position` (each `{{else if …}}` branch opens one more): parsing, rendering and
    /// releasing a template recurse per level, so the depth is bounded by ``maxBlockDepth``.
    var blockDepth = 0
    /// `(sub expressions)` open around `position`, bounded by ``maxExpressionDepth``.
    var expressionDepth = 0
    /// Helpers called that stubserver does not know, in order of first use: the template loads, and a
    /// response that reaches one fails naming it.
    var unknownHelpers: [String] = []
    /// Whether a `fake` / `random` call was read, and its literal keys that name no ``FakeDataKey``.
    var usesFakeData = false
    var unknownFakeDataKeys: [String] = []
    /// The deepest nesting of blocks a template may have. Stubs are read, and templates rendered, on threads
    /// with 512 KiB stacks (a Mac's default); Handlebars.java has no limit and overflows its stack instead.
    static let maxBlockDepth = 32
    /// The deepest nesting of `(sub expressions)` inside one tag.
    static let maxExpressionDepth = 32

    init(_ text: String) { bytes = Array(text.utf8) }

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// How a body ended.
    enum Terminator {
        case end
        /// `{{else}}` (nil) or `{{else helper …}}`; at the tag's offset. Boxed (`indirect`): a call is large, and this
        /// value is copied in every frame of the block recursion.
        indirect case otherwise(chained: (TemplateHelper, TemplateCall)?, at: Int)
        /// `{{/name}}` at the tag's offset.
        case close(String, at: Int)
    }

    mutating func parseTemplate() throws(TemplateError) -> [TemplateNode] {
        let (nodes, end) = try parseBody()
        switch end {
        case .end: return nodes
        case let .otherwise(_, at): throw error(at, "{{else}} outside a block")
        case let .close(name, at): throw error(at, "{{/\(name)}} closes no open block")
        }
    }

    /// Text and tags up to the end, an `{{else}}` or a closing tag.
    mutating func parseBody() throws(TemplateError) -> ([TemplateNode], Terminator) {
        var nodes: [TemplateNode] = []
        while position < bytes.count {
            let start = position
            guard let open = findOpen(from: position) else {
                appendText(bytes[start...], to: &nodes)
                position = bytes.count
                break
            }
            appendText(bytes[start..<open], to: &nodes)
            position = open + 2
            if peek() == UInt8(ascii: "~") {
                position += 1
                trimTrailingSpace(&nodes)
            }
            // Blocks recurse into `parseBody`; they are read apart from the other tags so that each level
            // of nesting costs only these small frames on the stack.
            if let block = try parseBlockTag(at: open) {
                nodes.append(.block(block))
            } else if let terminator = try parseTag(at: open, into: &nodes) {
                return (nodes, terminator)
            }
        }
        return (nodes, .end)
    }

    /// `{{#name …}}` or `{{^name}}` and the block they open; nil for any other tag.
    private mutating func parseBlockTag(at open: Int) throws(TemplateError) -> TemplateBlock? {
        switch peek() {
        case UInt8(ascii: "#"):
            position += 1
            return try parseBlock(at: open)
        case UInt8(ascii: "^"):
            return try parseInvertedBlock(at: open)
        default:
            return nil
        }
    }

    /// `{{^name}}…{{/name}}`, at the `^`; nil for `{{^}}` (an else, for `parseTag`).
    private mutating func parseInvertedBlock(at open: Int) throws(TemplateError) -> TemplateBlock? {
        let mark = position
        position += 1
        skipSpaces()
        if atClose() {
            position = mark
            return nil
        }
        let nameStart = position
        let condition = try parseParameter()
        let name = String(decoding: bytes[nameStart..<position], as: UTF8.self)
        try closeTag()
        return try parseBlockBody(.core(.unless), TemplateCall(arguments: [condition]), name: name, at: open)
    }

    /// One tag after `{{` (and `~`) other than a block's opening; returns a terminator for `else` and closing tags.
    private mutating func parseTag(at open: Int, into nodes: inout [TemplateNode]) throws(TemplateError) -> Terminator?
    {
        switch peek() {
        case UInt8(ascii: "!"):
            try skipComment(at: open)
        case UInt8(ascii: "{"):
            position += 1
            let expression = try parseStatement(at: open)
            skipSpaces()
            guard peek() == UInt8(ascii: "}") else { throw error(position, "expected '}}}' to close '{{{'") }
            position += 1
            try closeTag()
            nodes.append(.output(expression, escaped: false))
        case UInt8(ascii: "&"):
            position += 1
            let expression = try parseStatement(at: open)
            try closeTag()
            nodes.append(.output(expression, escaped: false))
        case UInt8(ascii: "^"):
            // `{{^}}` (`parseBlockTag` reads `{{^name}}`).
            position += 1
            try closeTag()
            return .otherwise(chained: nil, at: open)
        case UInt8(ascii: "/"):
            position += 1
            skipSpaces()
            let nameStart = position
            while let byte = peek(), !Self.isSpace(byte), byte != UInt8(ascii: "}"), byte != UInt8(ascii: "~") {
                position += 1
            }
            guard position > nameStart else { throw error(nameStart, "expected the name of the block to close") }
            let name = String(decoding: bytes[nameStart..<position], as: UTF8.self)
            try closeTag()
            return .close(name, at: open)
        case UInt8(ascii: ">"):
            throw error(open, "partials ({{> name}}) are not supported")
        default:
            let mark = position
            skipSpaces()
            if (try? parseIdentifier()) == "else" {
                skipSpaces()
                if atClose() {
                    try closeTag()
                    return .otherwise(chained: nil, at: open)
                }
                let name = try parseIdentifier()
                guard let helper = TemplateHelper(rawValue: name) else { throw error(open, "unknown helper '\(name)'") }
                let call = try parseCall(helper, at: open, until: nil)
                try closeTag()
                return .otherwise(chained: (helper, call), at: open)
            }
            position = mark
            let expression = try parseStatement(at: open)
            try closeTag()
            nodes.append(.output(expression, escaped: true))
        }
        return nil
    }

    /// `{{#name args}}…{{/name}}`, after the `#`.
    private mutating func parseBlock(at open: Int) throws(TemplateError) -> TemplateBlock {
        skipSpaces()
        let namePosition = position
        let name = try parseIdentifier()
        guard let helper = TemplateHelper(rawValue: name) else {
            return try parseUnknownBlock(name, namePosition: namePosition, at: open)
        }
        let call = try parseCall(helper, at: open, until: nil)
        try closeTag()
        return try parseBlockBody(helper, call, name: name, at: open)
    }

    /// `{{#custom …}}…{{/custom}}` for a helper stubserver does not know: read as an `array` block (its
    /// arguments unchecked) whose only argument fails the response. Apart from `parseBlock`, so the
    /// frames of the block recursion stay small.
    @inline(never)
    private mutating func parseUnknownBlock(_ name: String, namePosition: Int, at open: Int) throws(TemplateError)
        -> TemplateBlock
    {
        guard Self.isHelperName(name) else { throw error(namePosition, "unknown block helper '\(name)'") }
        noteUnknownHelper(name)
        var call = try parseCall(.collection(.array), at: open, until: nil)
        call.arguments = [.unknownHelper(name)]
        try closeTag()
        return try parseBlockBody(.collection(.array), call, name: name, at: open)
    }

    /// The body and inverse of a block whose opening tag has been read.
    private mutating func parseBlockBody(
        _ helper: TemplateHelper, _ call: TemplateCall, name: String,
        at open: Int
    ) throws(TemplateError) -> TemplateBlock {
        blockDepth += 1
        defer { blockDepth -= 1 }
        if blockDepth > Self.maxBlockDepth { throw tooDeep(at: open) }
        let (body, end) = try parseBody()
        let inverse: [TemplateNode]
        switch end {
        case .end:
            throw neverClosed(name, at: open)
        case let .close(closing, at):
            try checkClosing(closing, at: at, of: name, openedAt: open)
            inverse = []
        case let .otherwise(chained?, at):
            // `{{else if x}}…{{/if}}`: the rest is a nested block sharing this block's closing tag.
            inverse = [.block(try parseBlockBody(chained.0, chained.1, name: name, at: at))]
        case .otherwise(nil, _):
            let (rest, last) = try parseBody()
            guard case let .close(closing, at) = last else { throw neverClosed(name, at: open) }
            try checkClosing(closing, at: at, of: name, openedAt: open)
            inverse = rest
        }
        return TemplateBlock(helper: helper, call: call, body: body, inverse: inverse)
    }

    // The errors of `parseBlockBody`, apart so that its frame (one per level of nesting) stays small.

    private func tooDeep(at open: Int) -> TemplateError {
        error(open, "blocks nested deeper than \(Self.maxBlockDepth) (each {{else if …}} counts as one more level)")
    }

    private func neverClosed(_ name: String, at open: Int) -> TemplateError {
        error(open, "{{#\(name)}} is never closed (expected {{/\(name)}})")
    }

    private func checkClosing(_ closing: String, at: Int, of name: String, openedAt open: Int) throws(TemplateError) {
        guard closing == name else {
            throw error(at, "{{/\(closing)}} does not close {{#\(name)}} opened at \(location(open))")
        }
    }

    /// `}}` or `~}}`.
    mutating func closeTag() throws(TemplateError) {
        skipSpaces()
        if peek() == UInt8(ascii: "~") {
            position += 1
            stripsNextLeadingSpace = true
        }
        guard peek() == UInt8(ascii: "}"), peek(1) == UInt8(ascii: "}") else {
            throw error(
                position, position >= bytes.count ? "unexpected end of template, expected '}}'" : "expected '}}'")
        }
        position += 2
    }

    func atClose() -> Bool {
        (peek() == UInt8(ascii: "}") && peek(1) == UInt8(ascii: "}"))
            || (peek() == UInt8(ascii: "~") && peek(1) == UInt8(ascii: "}"))
    }

    private mutating func skipComment(at open: Int) throws(TemplateError) {
        let long = peek(1) == UInt8(ascii: "-") && peek(2) == UInt8(ascii: "-")
        let terminator = Array((long ? "--}}" : "}}").utf8)
        var i = position
        while i + terminator.count <= bytes.count {
            if bytes[i..<(i + terminator.count)].elementsEqual(terminator) {
                if i > 0, bytes[i - 1] == UInt8(ascii: "~") { stripsNextLeadingSpace = true }
                position = i + terminator.count
                return
            }
            i += 1
        }
        throw error(open, "comment is never closed (expected '\(String(decoding: terminator, as: UTF8.self))')")
    }

    private func findOpen(from start: Int) -> Int? {
        var i = start
        while i + 1 < bytes.count {
            if bytes[i] == UInt8(ascii: "{"), bytes[i + 1] == UInt8(ascii: "{") { return i }
            i += 1
        }
        return nil
    }

    private mutating func appendText(_ text: ArraySlice<UInt8>, to nodes: inout [TemplateNode]) {
        var text = text
        if stripsNextLeadingSpace {
            while let first = text.first, Self.isSpace(first) { text.removeFirst() }
            stripsNextLeadingSpace = false
        }
        if !text.isEmpty { nodes.append(.text(Array(text))) }
    }

    private func trimTrailingSpace(_ nodes: inout [TemplateNode]) {
        guard case var .text(text)? = nodes.last else { return }
        while let last = text.last, Self.isSpace(last) { text.removeLast() }
        nodes.removeLast()
        if !text.isEmpty { nodes.append(.text(text)) }
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    func peek(_ offset: Int = 0) -> UInt8? {
        position + offset < bytes.count ? bytes[position + offset] : nil
    }

    mutating func skipSpaces() {
        while let byte = peek(), Self.isSpace(byte) { position += 1 }
    }

    /// `line:column` of a byte offset (columns count characters).
    func location(_ offset: Int) -> String {
        let (line, column) = lineAndColumn(offset)
        return "\(line):\(column)"
    }

    func lineAndColumn(_ offset: Int) -> (Int, Int) {
        var line = 1, lineStart = 0
        for i in 0..<min(offset, bytes.count) where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        let column = String(decoding: bytes[lineStart..<min(offset, bytes.count)], as: UTF8.self).count + 1
        return (line, column)
    }

    func error(_ offset: Int, _ message: String) -> TemplateError {
        let (line, column) = lineAndColumn(offset)
        return TemplateError(line: line, column: column, message: message)
    }
}
