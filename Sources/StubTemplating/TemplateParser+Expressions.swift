/// Expressions inside a tag: paths, literals, helper calls, hash options and sub-expressions.
extension TemplateParser {
    /// The content of a `{{…}}` output tag: a helper call (`now format='yyyy'`) or a single value.
    mutating func parseStatement(at open: Int) throws(TemplateError) -> TemplateExpression {
        skipSpaces()
        let start = position
        let first = try parseParameter()
        skipSpaces()
        let hasArguments = peek() != nil && !atClose() && peek() != UInt8(ascii: "}")
        if case let .path(path) = first, !path.isData, !path.isExplicitThis, path.parents == 0,
            path.segments.count == 1,
            let helper = TemplateHelper(rawValue: path.segments[0]),
            hasArguments || !helper.isValueWhenBare
        {
            // A bare `{{fake}}` / `{{random}}` / `{{data}}` stays a value, as before these helpers (a field of that
            // name).
            return .call(helper, try parseCall(helper, at: start, until: nil))
        }
        if hasArguments {
            if case let .path(path) = first {
                return try parseUnknownCall(path, at: start, until: nil)
            }
            throw error(position, "expected '}}'")
        }
        return first
    }

    /// Arguments and `name=value` options up to `}}` (or `)` for a sub-expression); prepares literal
    /// JSONPaths and date options.
    mutating func parseCall(_ helper: TemplateHelper, at start: Int, until closer: UInt8?) throws(TemplateError)
        -> TemplateCall
    {
        var call = TemplateCall()
        while true {
            skipSpaces()
            if let closer, peek() == closer { break }
            if closer == nil, atClose() || peek() == UInt8(ascii: "}") { break }
            guard peek() != nil else { throw error(position, "unexpected end of template") }
            let mark = position
            if closer == nil, let names = try parseBlockParameters() {
                call.blockParameters = names
                skipSpaces()
                guard atClose() || peek() == UInt8(ascii: "}") else {
                    throw error(position, "block parameters (as |name|) must come last in the tag")
                }
                break
            }
            position = mark
            if let name = try? parseIdentifier(), peek() == UInt8(ascii: "=") {
                position += 1
                call.hash.append((name, try parseArgument()))
            } else {
                position = mark
                guard call.hash.isEmpty else { throw error(position, "arguments must come before name=value options") }
                call.arguments.append(try parseArgument())
            }
        }
        call.prepared = try helper.prepare(call, at: start, parser: self)
        if helper.isFakeData { noteFakeDataCall(call) }
        return call
    }

    /// `as |item index|` at the end of a block's opening tag; `nil` (position unchanged) if not there.
    private mutating func parseBlockParameters() throws(TemplateError) -> [String]? {
        let mark = position
        guard (try? parseIdentifier()) == "as", peek().map(Self.isSpace) == true else {
            position = mark
            return nil
        }
        skipSpaces()
        guard peek() == UInt8(ascii: "|") else {
            position = mark
            return nil
        }
        position += 1
        var names: [String] = []
        while true {
            skipSpaces()
            if peek() == UInt8(ascii: "|") { break }
            guard let byte = peek(), byte != UInt8(ascii: "}") else {
                throw error(position, "expected '|' to end the block parameters")
            }
            names.append(try parseIdentifier())
        }
        position += 1
        guard (1...2).contains(names.count) else {
            throw error(mark, "expected one or two block parameters, as |item| or |item index|")
        }
        return names
    }

    /// One argument: a literal, a path or a `(sub expression)`.
    mutating func parseParameter() throws(TemplateError) -> TemplateExpression {
        skipSpaces()
        guard let byte = peek() else { throw error(position, "unexpected end of template") }
        switch byte {
        case UInt8(ascii: "("):
            return try parseSubexpression()
        case UInt8(ascii: "'"), UInt8(ascii: "\""):
            return .literal(.string(try parseString(quote: byte)))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            if let number = parseNumber() { return .literal(number) }
        default:
            break
        }
        let path = try parsePath()
        if !path.isData, !path.isExplicitThis, path.parents == 0, path.segments.count == 1 {
            switch path.segments[0] {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null", "undefined": return .literal(.null)
            default: break
            }
        }
        return .path(path)
    }

    /// `(helper args…)`, at the `(`. Sub-expressions recurse through `parseCall`, so their depth is bounded
    /// (``maxExpressionDepth``), and this is apart from `parseParameter` to keep each level's frame small.
    private mutating func parseSubexpression() throws(TemplateError) -> TemplateExpression {
        let start = position
        expressionDepth += 1
        defer { expressionDepth -= 1 }
        if expressionDepth > Self.maxExpressionDepth {
            throw error(start, "sub-expressions nested deeper than \(Self.maxExpressionDepth)")
        }
        position += 1
        skipSpaces()
        let name = try parseIdentifier()
        guard let helper = TemplateHelper(rawValue: name) else {
            let expression = try parseUnknownCall(
                TemplatePath(segments: [name]), at: start, until: UInt8(ascii: ")"), nameAt: start + 1)
            position += 1
            return expression
        }
        let call = try parseCall(helper, at: start, until: UInt8(ascii: ")"))
        position += 1
        return .call(helper, call)
    }

    /// A call of a helper stubserver does not know: its arguments are read (as `array`'s, unchecked) and
    /// never evaluated. Apart from the recursive parsers, so their frames stay small.
    @inline(never)
    private mutating func parseUnknownCall(
        _ path: TemplatePath, at start: Int, until closer: UInt8?, nameAt: Int? = nil
    ) throws(TemplateError) -> TemplateExpression {
        let name = path.segments.joined(separator: ".")
        guard !path.isData, !path.isExplicitThis, path.parents == 0, path.segments.count == 1, Self.isHelperName(name)
        else { throw error(nameAt ?? start, "unknown helper '\(name)'") }
        noteUnknownHelper(name)
        _ = try parseCall(.collection(.array), at: start, until: closer)
        return .unknownHelper(name)
    }

    mutating func noteUnknownHelper(_ name: String) {
        if !unknownHelpers.contains(name) { unknownHelpers.append(name) }
    }

    /// Whether `name` could be a helper: a Java identifier (letters, digits, `_`, `$`, `-`), not a path
    /// such as `request.path` or `this`.
    static func isHelperName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first), name != "this", name != "else" else {
            return false
        }
        return name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || "_$-".unicodeScalars.contains($0)
        }
    }

    /// An argument or option value: a sub-expression without passing through `parseParameter`'s frame.
    private mutating func parseArgument() throws(TemplateError) -> TemplateExpression {
        skipSpaces()
        return peek() == UInt8(ascii: "(") ? try parseSubexpression() : try parseParameter()
    }

    private mutating func parseString(quote: UInt8) throws(TemplateError) -> String {
        let start = position
        position += 1
        var out: [UInt8] = []
        while let byte = peek() {
            position += 1
            if byte == quote { return String(decoding: out, as: UTF8.self) }
            if byte == UInt8(ascii: "\\"), peek() == quote {
                out.append(quote)
                position += 1
                continue
            }
            out.append(byte)
        }
        throw error(start, "string is never closed")
    }

    private mutating func parseNumber() -> TemplateLiteral? {
        var end = position
        if bytes[end] == UInt8(ascii: "-") { end += 1 }
        let digitsStart = end
        while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
        guard end > digitsStart else { return nil }
        var isDouble = false
        if end + 1 < bytes.count, bytes[end] == UInt8(ascii: "."),
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end + 1])
        {
            isDouble = true
            end += 1
            while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
        }
        // `12abc` is a path segment, not a number.
        if end < bytes.count, Self.isIdentifierByte(bytes[end]) { return nil }
        let text = String(decoding: bytes[position..<end], as: UTF8.self)
        let literal: TemplateLiteral? = isDouble ? Double(text).map { .double($0) } : Int(text).map { .integer($0) }
        if literal != nil { position = end }
        return literal
    }

    /// `a.b.[c d].0`, `this`, `./a`, `../a`, `@index`.
    private mutating func parsePath() throws(TemplateError) -> TemplatePath {
        var path = TemplatePath()
        if peek() == UInt8(ascii: "@") {
            path.isData = true
            position += 1
        }
        while peek() == UInt8(ascii: "."), peek(1) == UInt8(ascii: "."), peek(2) == UInt8(ascii: "/") {
            path.parents += 1
            position += 3
        }
        if peek() == UInt8(ascii: "."), peek(1) == UInt8(ascii: "/") {
            path.isExplicitThis = true
            position += 2
        } else if peek() == UInt8(ascii: "."),
            peek(1).map({ !Self.isIdentifierByte($0) && $0 != UInt8(ascii: ".") }) ?? true
        {
            path.isExplicitThis = true
            position += 1
            return path
        }
        while true {
            let segment = try parseSegment()
            if segment == "this", path.segments.isEmpty, !path.isData {
                path.isExplicitThis = true
            } else {
                path.segments.append(segment)
            }
            guard peek() == UInt8(ascii: ".") || peek() == UInt8(ascii: "/"),
                let next = peek(1), Self.isIdentifierByte(next) || next == UInt8(ascii: "[")
            else { break }
            position += 1
        }
        return path
    }

    private mutating func parseSegment() throws(TemplateError) -> String {
        guard peek() == UInt8(ascii: "[") else { return try parseIdentifier() }
        let start = position
        position += 1
        while let byte = peek(), byte != UInt8(ascii: "]") { position += 1 }
        guard peek() == UInt8(ascii: "]") else { throw error(start, "'[' is never closed") }
        position += 1
        return String(decoding: bytes[(start + 1)..<(position - 1)], as: UTF8.self)
    }

    mutating func parseIdentifier() throws(TemplateError) -> String {
        let start = position
        while let byte = peek(), Self.isIdentifierByte(byte) { position += 1 }
        guard position > start else {
            let found = peek().map { "'\(String(decoding: [$0], as: UTF8.self))'" } ?? "the end of the template"
            throw error(start, "expected a name, found \(found)")
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// Handlebars' ID: anything but whitespace and `!"#%&'()*+,./;<=>@[\]^`{|}~`.
    static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x00...0x20, 0x21...0x23, 0x25...0x2C, 0x2E, 0x2F, 0x3B...0x3E, 0x40, 0x5B...0x5E, 0x60, 0x7B...0x7E: false
        default: true
        }
    }
}
