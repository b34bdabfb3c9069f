/// The tokens of a YAML character stream, after PyYAML's scanner: indentation becomes block start and end tokens,
/// and a simple key (`key: value`) gets its key token inserted once its `:` is found. It reads UTF-8 bytes followed
/// by zero bytes, and keeps no recursion: nesting lives in arrays bounded by the depth limit.
struct YAMLToken {
    enum Kind: UInt8 {
        case streamEnd, directive, documentStart, documentEnd
        case blockSequenceStart, blockMappingStart, blockEnd
        case flowSequenceStart, flowSequenceEnd, flowMappingStart, flowMappingEnd
        case blockEntry, flowEntry, key, value
        case alias, anchor, tag, scalar
    }

    enum Style: UInt8 { case plain, singleQuoted, doubleQuoted, literal, folded }

    var kind: Kind
    /// The byte offset where the token starts.
    var start: Int
    var value: String = ""
    var style: Style = .plain

    var name: String {
        switch kind {
        case .streamEnd: "the end of the stream"
        case .directive: "a directive"
        case .documentStart: "'---'"
        case .documentEnd: "'...'"
        case .blockSequenceStart: "a block sequence"
        case .blockMappingStart: "a block mapping"
        case .blockEnd: "the end of a block collection"
        case .flowSequenceStart: "'['"
        case .flowSequenceEnd: "']'"
        case .flowMappingStart: "'{'"
        case .flowMappingEnd: "'}'"
        case .blockEntry: "'-'"
        case .flowEntry: "','"
        case .key: "a mapping key"
        case .value: "':'"
        case .alias: "an alias"
        case .anchor: "an anchor"
        case .tag: "a tag"
        case .scalar: "a scalar"
        }
    }
}

private let space: UInt8 = 0x20
private let tab: UInt8 = 0x09
private let lf: UInt8 = 0x0A
private let cr: UInt8 = 0x0D

@inline(__always) private func isBreak(_ c: UInt8) -> Bool { c == lf || c == cr }
@inline(__always) private func isBlankOrEnd(_ c: UInt8) -> Bool {
    c == space || c == tab || c == lf || c == cr || c == 0
}
@inline(__always) private func isQuote(_ c: UInt8) -> Bool { c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") }
@inline(__always) private func isFlowIndicator(_ c: UInt8) -> Bool {
    c == UInt8(ascii: ",") || c == UInt8(ascii: "[") || c == UInt8(ascii: "]") || c == UInt8(ascii: "{")
        || c == UInt8(ascii: "}")
}

struct YAMLScanner {
    private struct SimpleKey {
        var tokenNumber: Int
        var required: Bool
        var index: Int
        var line: Int
    }

    let bytes: UnsafePointer<UInt8>
    let count: Int
    let maxDepth: Int
    private var index = 0
    private var line = 0
    private var lineStart = 0
    private var flowLevel = 0
    private var tokens: [YAMLToken] = []
    private var head = 0
    private var tokensTaken = 0
    private var done = false
    private var indent = -1
    private var indents: [Int] = []
    private var allowSimpleKey = true
    /// The possible simple key of each flow level (0 is the block context).
    private var possibleKeys: [SimpleKey?] = [nil] { didSet { nextKeyKnown = false } }
    /// The smallest token number of ``possibleKeys``, when ``nextKeyKnown``: asked for several times per token.
    private var nextKey: Int?
    private var nextKeyKnown = true
    private var scratch: [UInt8] = []

    init(bytes: UnsafePointer<UInt8>, count: Int, maxDepth: Int) {
        self.bytes = bytes
        self.count = count
        self.maxDepth = maxDepth
        if count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            index = 3
            lineStart = 3
        }
    }

    @inline(__always) private func peek(_ offset: Int = 0) -> UInt8 { bytes[index + offset] }
    @inline(__always) private var column: Int { index - lineStart }
    @inline(__always) private var atEnd: Bool { index >= count }

    // MARK: The token queue

    mutating func peekToken() throws(YAMLFailure) -> YAMLToken {
        while try needMoreTokens() { try fetchMoreTokens() }
        return tokens[head]
    }

    mutating func peekKind() throws(YAMLFailure) -> YAMLToken.Kind { try peekToken().kind }

    @discardableResult
    mutating func nextToken() throws(YAMLFailure) -> YAMLToken {
        while try needMoreTokens() { try fetchMoreTokens() }
        let token = tokens[head]
        head += 1
        tokensTaken += 1
        if head == tokens.count {
            tokens.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 4096 && head * 2 >= tokens.count {
            // Tokens held back for a possible simple key (a flow collection that may be a key) keep the queue from
            // emptying: drop the consumed ones now and then.
            tokens.removeFirst(head)
            head = 0
        }
        return token
    }

    private mutating func needMoreTokens() throws(YAMLFailure) -> Bool {
        if done { return false }
        if head == tokens.count { return true }
        // Only a key that may start at the next token holds it back; making keys stale never adds one.
        guard nextPossibleSimpleKey() == tokensTaken else { return false }
        try staleSimpleKeys()
        return nextPossibleSimpleKey() == tokensTaken
    }

    private mutating func nextPossibleSimpleKey() -> Int? {
        if nextKeyKnown { return nextKey }
        var smallest: Int?
        for key in possibleKeys {
            if let key, smallest == nil || key.tokenNumber < smallest! { smallest = key.tokenNumber }
        }
        nextKey = smallest
        nextKeyKnown = true
        return smallest
    }

    private mutating func append(_ kind: YAMLToken.Kind, at start: Int) {
        tokens.append(YAMLToken(kind: kind, start: start))
    }

    // MARK: Fetching

    private mutating func fetchMoreTokens() throws(YAMLFailure) {
        try scanToNextToken()
        try staleSimpleKeys()
        unwindIndent(column)
        if atEnd { return try fetchStreamEnd() }
        let c = peek()
        switch c {
        case UInt8(ascii: "%") where column == 0:
            try fetchDirective()
        case UInt8(ascii: "-") where column == 0 && isDocumentMarker(UInt8(ascii: "-")):
            try fetchDocumentIndicator(.documentStart)
        case UInt8(ascii: ".") where column == 0 && isDocumentMarker(UInt8(ascii: ".")):
            try fetchDocumentIndicator(.documentEnd)
        case UInt8(ascii: "["): try fetchFlowCollectionStart(.flowSequenceStart)
        case UInt8(ascii: "{"): try fetchFlowCollectionStart(.flowMappingStart)
        case UInt8(ascii: "]"): try fetchFlowCollectionEnd(.flowSequenceEnd)
        case UInt8(ascii: "}"): try fetchFlowCollectionEnd(.flowMappingEnd)
        case UInt8(ascii: ","):
            allowSimpleKey = true
            try removePossibleSimpleKey()
            append(.flowEntry, at: index)
            index += 1
        case UInt8(ascii: "-") where isBlankOrEnd(peek(1)): try fetchBlockEntry()
        case UInt8(ascii: "?") where isBlankOrEnd(peek(1)): try fetchKey()
        case UInt8(ascii: ":") where flowLevel > 0 || isBlankOrEnd(peek(1)): try fetchValue()
        case UInt8(ascii: "*"): try fetchAnchor(.alias)
        case UInt8(ascii: "&"): try fetchAnchor(.anchor)
        case UInt8(ascii: "!"): try fetchTag()
        case UInt8(ascii: "|") where flowLevel == 0: try fetchBlockScalar(folded: false)
        case UInt8(ascii: ">") where flowLevel == 0: try fetchBlockScalar(folded: true)
        case UInt8(ascii: "'"): try fetchQuoted(double: false)
        case UInt8(ascii: "\""): try fetchQuoted(double: true)
        default:
            if canStartPlain(c) { return try fetchPlain() }
            throw YAMLFailure("found character \(describe(at: index)) that cannot start any token", at: index)
        }
    }

    private func describe(at offset: Int) -> String {
        let c = bytes[offset]
        if c == tab { return "'\\t'" }
        if c < 0x20 || c == 0x7F { return "U+\(String(c, radix: 16, uppercase: true))" }
        var end = offset + 1
        while end < count && bytes[end] & 0xC0 == 0x80 { end += 1 }
        return "'" + String(decoding: UnsafeBufferPointer(start: bytes + offset, count: end - offset), as: UTF8.self)
            + "'"
    }

    private func canStartPlain(_ c: UInt8) -> Bool {
        switch c {
        case 0, space, tab, lf, cr, UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"),
            UInt8(ascii: "}"), UInt8(ascii: "#"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"),
            UInt8(ascii: "|"), UInt8(ascii: ">"), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "%"),
            UInt8(ascii: "@"), UInt8(ascii: "`"):
            return false
        case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"):
            let next = peek(1)
            return !isBlankOrEnd(next) && !(flowLevel > 0 && isFlowIndicator(next))
        default:
            return true
        }
    }

    private func isDocumentMarker(_ c: UInt8) -> Bool {
        peek(1) == c && peek(2) == c && isBlankOrEnd(peek(3)) && index + 3 <= count
    }

    /// Skips spaces, comments and line breaks; a tab in the indentation of a block line is an error.
    private mutating func scanToNextToken() throws(YAMLFailure) {
        while true {
            while peek() == space { index += 1 }
            if peek() == tab {
                var next = index
                while bytes[next] == space || bytes[next] == tab { next += 1 }
                let after = bytes[next]
                if flowLevel == 0 && after != UInt8(ascii: "#") && !isBreak(after) && next < count
                    && isIndentation(upTo: index)
                {
                    throw YAMLFailure("found a tab character used as indentation", at: index)
                }
                index = next
            }
            if peek() == UInt8(ascii: "#") {
                while !isBreak(peek()) && !atEnd { index += 1 }
            }
            if scanLineBreak() {
                if flowLevel == 0 { allowSimpleKey = true }
            } else {
                return
            }
        }
    }

    private func isIndentation(upTo end: Int) -> Bool {
        var offset = lineStart
        while offset < end {
            if bytes[offset] != space { return false }
            offset += 1
        }
        return true
    }

    @inline(__always) private mutating func scanLineBreak() -> Bool {
        let c = peek()
        if c == lf {
            index += 1
        } else if c == cr {
            index += peek(1) == lf ? 2 : 1
        } else {
            return false
        }
        line += 1
        lineStart = index
        return true
    }

    // MARK: Simple keys and indentation

    private mutating func staleSimpleKeys() throws(YAMLFailure) {
        if nextPossibleSimpleKey() == nil { return }
        for level in possibleKeys.indices {
            guard let key = possibleKeys[level] else { continue }
            // A key is on one line and, unless quoted (one token, as JSON's keys are), at most 1024 bytes long.
            if key.line != line || (index - key.index > 1024 && !isQuote(bytes[key.index])) {
                if key.required { throw YAMLFailure("could not find expected ':' after this key", at: key.index) }
                possibleKeys[level] = nil
            }
        }
    }

    private mutating func savePossibleSimpleKey() throws(YAMLFailure) {
        guard allowSimpleKey else { return }
        let required = flowLevel == 0 && indent == column
        try removePossibleSimpleKey()
        possibleKeys[flowLevel] = SimpleKey(
            tokenNumber: tokensTaken + tokens.count - head, required: required, index: index, line: line)
    }

    private mutating func removePossibleSimpleKey() throws(YAMLFailure) {
        if let key = possibleKeys[flowLevel], key.required {
            throw YAMLFailure("could not find expected ':' after this key", at: key.index)
        }
        possibleKeys[flowLevel] = nil
    }

    private mutating func unwindIndent(_ column: Int) {
        if flowLevel > 0 { return }
        while indent > column {
            append(.blockEnd, at: index)
            indent = indents.removeLast()
        }
    }

    private mutating func addIndent(_ column: Int, at offset: Int) throws(YAMLFailure) -> Bool {
        guard indent < column else { return false }
        indents.append(indent)
        indent = column
        try checkDepth(at: offset)
        return true
    }

    private func checkDepth(at offset: Int) throws(YAMLFailure) {
        if indents.count + flowLevel > maxDepth {
            throw YAMLFailure("collections nested deeper than \(maxDepth) levels (maxDepth)", at: offset)
        }
    }

    // MARK: Indicators

    private mutating func fetchStreamEnd() throws(YAMLFailure) {
        unwindIndent(-1)
        try removePossibleSimpleKey()
        allowSimpleKey = false
        append(.streamEnd, at: index)
        done = true
    }

    private mutating func fetchDirective() throws(YAMLFailure) {
        unwindIndent(-1)
        try removePossibleSimpleKey()
        allowSimpleKey = false
        let start = index
        while !isBreak(peek()) && !atEnd { index += 1 }
        append(.directive, at: start)
    }

    private mutating func fetchDocumentIndicator(_ kind: YAMLToken.Kind) throws(YAMLFailure) {
        unwindIndent(-1)
        try removePossibleSimpleKey()
        allowSimpleKey = false
        append(kind, at: index)
        index += 3
    }

    private mutating func fetchFlowCollectionStart(_ kind: YAMLToken.Kind) throws(YAMLFailure) {
        try savePossibleSimpleKey()
        flowLevel += 1
        try checkDepth(at: index)
        if possibleKeys.count <= flowLevel { possibleKeys.append(nil) }
        possibleKeys[flowLevel] = nil
        allowSimpleKey = true
        append(kind, at: index)
        index += 1
    }

    private mutating func fetchFlowCollectionEnd(_ kind: YAMLToken.Kind) throws(YAMLFailure) {
        guard flowLevel > 0 else {
            throw YAMLFailure("found \(describe(at: index)) outside a flow collection", at: index)
        }
        try removePossibleSimpleKey()
        flowLevel -= 1
        possibleKeys.removeLast()
        allowSimpleKey = false
        append(kind, at: index)
        index += 1
    }

    private mutating func fetchBlockEntry() throws(YAMLFailure) {
        if flowLevel == 0 {
            guard allowSimpleKey else { throw YAMLFailure("sequence entries are not allowed here", at: index) }
            if try addIndent(column, at: index) { append(.blockSequenceStart, at: index) }
        } else {
            throw YAMLFailure("a block sequence entry ('- ') inside a flow collection", at: index)
        }
        allowSimpleKey = true
        try removePossibleSimpleKey()
        append(.blockEntry, at: index)
        index += 1
    }

    private mutating func fetchKey() throws(YAMLFailure) {
        if flowLevel == 0 {
            guard allowSimpleKey else { throw YAMLFailure("mapping keys are not allowed here", at: index) }
            if try addIndent(column, at: index) { append(.blockMappingStart, at: index) }
        }
        allowSimpleKey = flowLevel == 0
        try removePossibleSimpleKey()
        append(.key, at: index)
        index += 1
    }

    private mutating func fetchValue() throws(YAMLFailure) {
        if let key = possibleKeys[flowLevel] {
            possibleKeys[flowLevel] = nil
            let position = head + key.tokenNumber - tokensTaken
            tokens.insert(YAMLToken(kind: .key, start: key.index), at: position)
            if flowLevel == 0 {
                let keyColumn = key.index - lineStart
                if try addIndent(keyColumn, at: key.index) {
                    tokens.insert(YAMLToken(kind: .blockMappingStart, start: key.index), at: position)
                }
            }
            allowSimpleKey = false
        } else {
            if flowLevel == 0 {
                guard allowSimpleKey else { throw YAMLFailure("mapping values are not allowed here", at: index) }
                if try addIndent(column, at: index) { append(.blockMappingStart, at: index) }
            }
            allowSimpleKey = flowLevel == 0
            try removePossibleSimpleKey()
        }
        append(.value, at: index)
        index += 1
    }

    private mutating func fetchAnchor(_ kind: YAMLToken.Kind) throws(YAMLFailure) {
        try savePossibleSimpleKey()
        allowSimpleKey = false
        let start = index
        index += 1
        let nameStart = index
        while true {
            let c = peek()
            if isBlankOrEnd(c) || isFlowIndicator(c) || (c == UInt8(ascii: ":") && isBlankOrEnd(peek(1))) { break }
            index += 1
        }
        guard index > nameStart else {
            throw YAMLFailure(
                kind == .alias ? "expected an alias name after '*'" : "expected an anchor name after '&'", at: index)
        }
        var token = YAMLToken(kind: kind, start: start)
        token.value = text(nameStart, index)
        tokens.append(token)
    }

    private mutating func fetchTag() throws(YAMLFailure) {
        try savePossibleSimpleKey()
        allowSimpleKey = false
        let start = index
        if peek(1) == UInt8(ascii: "<") {
            index += 2
            while peek() != UInt8(ascii: ">") {
                if isBlankOrEnd(peek()) { throw YAMLFailure("expected '>' to end a verbatim tag", at: index) }
                index += 1
            }
            index += 1
        } else {
            while !isBlankOrEnd(peek()) && !(flowLevel > 0 && isFlowIndicator(peek())) { index += 1 }
        }
        var token = YAMLToken(kind: .tag, start: start)
        token.value = text(start, index)
        tokens.append(token)
    }

    private func text(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: bytes + start, count: end - start), as: UTF8.self)
    }

    private mutating func appendBytes(_ start: Int, _ end: Int) {
        scratch.append(contentsOf: UnsafeBufferPointer(start: bytes + start, count: end - start))
    }

    private func scratchText() -> String { String(decoding: scratch, as: UTF8.self) }

    // MARK: Block scalars

    private mutating func fetchBlockScalar(folded: Bool) throws(YAMLFailure) {
        allowSimpleKey = true
        try removePossibleSimpleKey()
        let start = index
        index += 1
        var chomping = 0  // -1 strip, 0 clip, +1 keep
        var increment = 0
        for _ in 0..<2 {
            let c = peek()
            if (c == UInt8(ascii: "+") || c == UInt8(ascii: "-")) && chomping == 0 {
                chomping = c == UInt8(ascii: "+") ? 1 : -1
                index += 1
            } else if c >= UInt8(ascii: "1") && c <= UInt8(ascii: "9") && increment == 0 {
                increment = Int(c - UInt8(ascii: "0"))
                index += 1
            } else if c == UInt8(ascii: "0") {
                throw YAMLFailure("a block scalar's indentation indicator must be 1 to 9, not 0", at: index)
            }
        }
        while peek() == space || peek() == tab { index += 1 }
        if peek() == UInt8(ascii: "#") && (bytes[index - 1] == space || bytes[index - 1] == tab) {
            while !isBreak(peek()) && !atEnd { index += 1 }
        }
        guard isBreak(peek()) || atEnd else {
            throw YAMLFailure(
                "expected a comment or a line break after a block scalar indicator, found \(describe(at: index))",
                at: index)
        }
        _ = scanLineBreak()
        let minIndent = max(indent + 1, 1)
        var blockIndent: Int
        var breaks = 0
        if increment == 0 {
            var maxIndent = 0
            while true {
                if peek() == space {
                    index += 1
                    if column > maxIndent { maxIndent = column }
                } else if scanLineBreak() {
                    breaks += 1
                } else {
                    break
                }
            }
            blockIndent = max(minIndent, maxIndent)
        } else {
            blockIndent = minIndent + increment - 1
            breaks = scanBlockBreaks(blockIndent)
        }
        scratch.removeAll(keepingCapacity: true)
        var lineBreak = false
        while column == blockIndent && !atEnd {
            for _ in 0..<breaks { scratch.append(lf) }
            let leadingNonSpace = peek() != space && peek() != tab
            let lineContent = index
            while !isBreak(peek()) && !atEnd { index += 1 }
            appendBytes(lineContent, index)
            lineBreak = scanLineBreak()
            breaks = scanBlockBreaks(blockIndent)
            guard column == blockIndent && !atEnd && lineBreak else { break }
            if folded && leadingNonSpace && peek() != space && peek() != tab {
                if breaks == 0 { scratch.append(space) }
            } else {
                scratch.append(lf)
            }
        }
        if chomping != -1 && lineBreak { scratch.append(lf) }
        if chomping == 1 { for _ in 0..<breaks { scratch.append(lf) } }
        var token = YAMLToken(kind: .scalar, start: start)
        token.value = scratchText()
        token.style = folded ? .folded : .literal
        tokens.append(token)
    }

    private mutating func scanBlockBreaks(_ blockIndent: Int) -> Int {
        var breaks = 0
        while column < blockIndent && peek() == space { index += 1 }
        while scanLineBreak() {
            breaks += 1
            while column < blockIndent && peek() == space { index += 1 }
        }
        return breaks
    }

    // MARK: Quoted scalars

    private mutating func fetchQuoted(double: Bool) throws(YAMLFailure) {
        try savePossibleSimpleKey()
        allowSimpleKey = false
        let start = index
        let quote = peek()
        index += 1
        scratch.removeAll(keepingCapacity: true)
        while true {
            let c = peek()
            if c == quote {
                if !double && peek(1) == quote {
                    scratch.append(quote)
                    index += 2
                    continue
                }
                index += 1
                break
            }
            if atEnd { throw YAMLFailure("found the end of the stream inside a quoted scalar", at: index) }
            if double && c == UInt8(ascii: "\\") {
                if isBreak(peek(1)) {
                    index += 1
                    _ = scanLineBreak()
                    try foldQuotedBreaks(emitSpace: false)
                } else {
                    try scanEscape()
                }
                continue
            }
            if c == space || c == tab {
                var next = index
                while bytes[next] == space || bytes[next] == tab { next += 1 }
                if isBreak(bytes[next]) {
                    index = next
                } else {
                    appendBytes(index, next)
                    index = next
                }
                continue
            }
            if isBreak(c) {
                _ = scanLineBreak()
                try foldQuotedBreaks(emitSpace: true)
                continue
            }
            var next = index + 1
            while true {
                let d = bytes[next]
                if d == quote || d == space || d == tab || isBreak(d) || d == UInt8(ascii: "\\") || d == 0 { break }
                next += 1
            }
            appendBytes(index, next)
            index = next
        }
        var token = YAMLToken(kind: .scalar, start: start)
        token.value = scratchText()
        token.style = double ? .doubleQuoted : .singleQuoted
        tokens.append(token)
    }

    /// After a line break inside a quoted scalar: empty lines become line feeds, a single break a space.
    private mutating func foldQuotedBreaks(emitSpace: Bool) throws(YAMLFailure) {
        var breaks = 0
        while true {
            if column == 0
                && (isDocumentMarker(UInt8(ascii: "-")) && peek() == UInt8(ascii: "-")
                    || isDocumentMarker(UInt8(ascii: ".")) && peek() == UInt8(ascii: "."))
            {
                throw YAMLFailure("found a document marker inside a quoted scalar", at: index)
            }
            while peek() == space || peek() == tab { index += 1 }
            if scanLineBreak() { breaks += 1 } else { break }
        }
        if breaks == 0 {
            if emitSpace { scratch.append(space) }
        } else {
            for _ in 0..<breaks { scratch.append(lf) }
        }
    }

    private mutating func scanEscape() throws(YAMLFailure) {
        let escapeStart = index
        let c = peek(1)
        index += 2
        var digits = 0
        switch c {
        case UInt8(ascii: "0"): scratch.append(0)
        case UInt8(ascii: "a"): scratch.append(7)
        case UInt8(ascii: "b"): scratch.append(8)
        case UInt8(ascii: "t"), tab: scratch.append(9)
        case UInt8(ascii: "n"): scratch.append(10)
        case UInt8(ascii: "v"): scratch.append(11)
        case UInt8(ascii: "f"): scratch.append(12)
        case UInt8(ascii: "r"): scratch.append(13)
        case UInt8(ascii: "e"): scratch.append(27)
        case space, UInt8(ascii: "\""), UInt8(ascii: "/"), UInt8(ascii: "\\"): scratch.append(c)
        case UInt8(ascii: "N"): appendScalar(0x85)
        case UInt8(ascii: "_"): appendScalar(0xA0)
        case UInt8(ascii: "L"): appendScalar(0x2028)
        case UInt8(ascii: "P"): appendScalar(0x2029)
        case UInt8(ascii: "x"): digits = 2
        case UInt8(ascii: "u"): digits = 4
        case UInt8(ascii: "U"): digits = 8
        default:
            throw YAMLFailure(
                "unknown escape sequence \\\(describe(at: escapeStart + 1).dropFirst().dropLast())", at: escapeStart)
        }
        guard digits > 0 else { return }
        var value = try hexValue(digits: digits, escapeStart: escapeStart)
        if digits == 4 && value >= 0xD800 && value <= 0xDBFF && peek() == UInt8(ascii: "\\")
            && peek(1) == UInt8(ascii: "u")
        {
            // A UTF-16 surrogate pair, as JSON writes characters beyond the BMP.
            let saved = index
            index += 2
            let low = try hexValue(digits: 4, escapeStart: saved)
            if low >= 0xDC00 && low <= 0xDFFF {
                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            } else {
                index = saved
            }
        }
        guard value < 0xD800 || (value > 0xDFFF && value <= 0x10FFFF) else {
            throw YAMLFailure(
                "escape sequence \(text(escapeStart, index)) is not a Unicode scalar value", at: escapeStart)
        }
        appendScalar(UInt32(value))
    }

    private mutating func hexValue(digits: Int, escapeStart: Int) throws(YAMLFailure) -> Int {
        var value = 0
        for _ in 0..<digits {
            let c = peek()
            let digit: Int
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = Int(c - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = Int(c - UInt8(ascii: "A")) + 10
            default:
                throw YAMLFailure(
                    "expected \(digits) hexadecimal digits in escape sequence \(text(escapeStart, escapeStart + 2))",
                    at: index)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func appendScalar(_ value: UInt32) {
        guard let scalar = Unicode.Scalar(value) else { return }
        scratch.append(contentsOf: UTF8.encode(scalar)!)
    }

    // MARK: Plain scalars

    private mutating func fetchPlain() throws(YAMLFailure) {
        try savePossibleSimpleKey()
        allowSimpleKey = false
        let start = index
        let minIndent = indent + 1
        scratch.removeAll(keepingCapacity: true)
        var pendingSpacesStart = -1
        var pendingSpacesEnd = -1
        var pendingBreaks = -1  // -1: no break pending; 0: one break (a space); n: n empty lines
        var firstChunkEnd = -1
        var multiChunk = false
        while true {
            if peek() == UInt8(ascii: "#") { break }
            let chunkStart = index
            while true {
                let c = peek()
                if isBlankOrEnd(c) { break }
                if c == UInt8(ascii: ":") {
                    let next = peek(1)
                    if isBlankOrEnd(next) || (flowLevel > 0 && isFlowIndicator(next)) { break }
                } else if flowLevel > 0 && isFlowIndicator(c) {
                    break
                }
                index += 1
            }
            if index == chunkStart { break }
            allowSimpleKey = false
            if firstChunkEnd < 0 {
                firstChunkEnd = index
            } else {
                if !multiChunk {
                    multiChunk = true
                    appendBytes(start, firstChunkEnd)
                }
                if pendingBreaks > 0 {
                    for _ in 0..<pendingBreaks { scratch.append(lf) }
                } else if pendingBreaks == 0 {
                    scratch.append(space)
                } else {
                    appendBytes(pendingSpacesStart, pendingSpacesEnd)
                }
                appendBytes(chunkStart, index)
            }
            // The whitespace after the chunk: kept if more of the scalar follows on the line, folded across lines.
            pendingSpacesStart = index
            while peek() == space || peek() == tab { index += 1 }
            pendingSpacesEnd = index
            pendingBreaks = -1
            if isBreak(peek()) {
                _ = scanLineBreak()
                allowSimpleKey = true
                if atDocumentMarker() { break }
                var breaks = 0
                while true {
                    while peek() == space { index += 1 }
                    if peek() == tab && column >= minIndent {
                        while peek() == space || peek() == tab { index += 1 }
                    }
                    if scanLineBreak() {
                        breaks += 1
                        if atDocumentMarker() { break }
                    } else {
                        break
                    }
                }
                pendingBreaks = breaks
                if atDocumentMarker() { break }
            } else if pendingSpacesEnd == pendingSpacesStart {
                break
            }
            if peek() == UInt8(ascii: "#") || (flowLevel == 0 && column < minIndent) || atEnd { break }
        }
        var token = YAMLToken(kind: .scalar, start: start)
        token.value = multiChunk ? scratchText() : text(start, firstChunkEnd)
        tokens.append(token)
    }

    private func atDocumentMarker() -> Bool {
        column == 0
            && ((peek() == UInt8(ascii: "-") && isDocumentMarker(UInt8(ascii: "-")))
                || (peek() == UInt8(ascii: ".") && isDocumentMarker(UInt8(ascii: "."))))
    }
}
