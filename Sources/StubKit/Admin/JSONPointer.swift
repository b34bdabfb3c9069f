#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// RFC 6901 JSON pointers, as WireMock's errors give the field at fault (`/response/status`).
enum JSONPointer {
    /// The pointer for a mapping path as ``StubsLoadError/jsonPath`` writes it:
    /// `response.status` → `/response/status`, `mappings[2].request` → `/mappings/2/request`,
    /// `request.headers["X Api/Key"]` → `/request/headers/X Api~1Key`; the empty path → `/`.
    static func from(mappingPath path: String) -> String {
        let tokens = segments(of: path)
        guard !tokens.isEmpty else { return "/" }
        return tokens.map { "/" + escape($0) }.joined()
    }

    /// The reference tokens of a mapping path: keys split at `.`, `[N]` indices, and `["…"]` keys
    /// (JSON string literals, unescaped here).
    static func segments(of path: String) -> [String] {
        var result: [String] = []
        var current = ""
        var characters = Substring(path)
        while let character = characters.first {
            switch character {
            case ".":
                if !current.isEmpty { result.append(current) }
                current = ""
                characters = characters.dropFirst()
            case "[":
                if !current.isEmpty { result.append(current) }
                current = ""
                characters = characters.dropFirst()
                let (token, rest) = bracketed(characters)
                result.append(token)
                characters = rest
            default:
                current.append(character)
                characters = characters.dropFirst()
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// The token inside `[…]` (the text after `[`) and what follows the closing `]`.
    private static func bracketed(_ text: Substring) -> (token: String, rest: Substring) {
        guard text.first == "\"" else {
            let end = text.firstIndex(of: "]") ?? text.endIndex
            return (String(text[..<end]), end < text.endIndex ? text[text.index(after: end)...] : "")
        }
        // A JSON string literal: find its closing quote, skipping escaped characters.
        var index = text.index(after: text.startIndex)
        while index < text.endIndex, text[index] != "\"" {
            if text[index] == "\\" { index = text.index(after: index) }
            if index < text.endIndex { index = text.index(after: index) }
        }
        guard index < text.endIndex else { return (String(text), "") }
        let literal = text[...index]
        let token = (try? JSONParser.parse(String(literal)))?.stringValue ?? String(literal.dropFirst().dropLast())
        var rest = text[text.index(after: index)...]
        if rest.first == "]" { rest = rest.dropFirst() }
        return (token, rest)
    }

    private static func escape(_ token: String) -> String {
        token.replacing("~", with: "~0").replacing("/", with: "~1")
    }
}
