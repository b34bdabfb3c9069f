/// Java's predefined classes (ASCII unless `UNICODE_CHARACTER_CLASS`, which this engine does not offer)
/// and the names `\p{…}` accepts.
package enum RegexPredefined {
    package static let digit: RegexCharSet = .ranges([0x30...0x39])
    package static let word: RegexCharSet = .ranges([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
    package static let space: RegexCharSet = .ranges([0x09...0x0D, 0x20...0x20])
    /// `\h`.
    package static let horizontalSpace: RegexCharSet = .ranges([
        0x09...0x09, 0x20...0x20, 0xA0...0xA0, 0x1680...0x1680,
        0x180E...0x180E, 0x2000...0x200A, 0x202F...0x202F,
        0x205F...0x205F, 0x3000...0x3000
    ])
    /// `\v` (Java 8+: vertical whitespace, not U+000B alone).
    package static let verticalSpace: RegexCharSet = .ranges([0x0A...0x0D, 0x85...0x85, 0x2028...0x2029])

    /// The set for `\d \D \w \W \s \S \h \H \v \V`, or `nil` if `letter` is none of them.
    package static func escapeClass(_ letter: Unicode.Scalar) -> RegexCharSet? {
        switch letter {
        case "d": digit
        case "D": .negated(digit)
        case "w": word
        case "W": .negated(word)
        case "s": space
        case "S": .negated(space)
        case "h": horizontalSpace
        case "H": .negated(horizontalSpace)
        case "v": verticalSpace
        case "V": .negated(verticalSpace)
        default: nil
        }
    }

    /// POSIX classes as Java defines them (US-ASCII only).
    private static let posix: [String: [ClosedRange<UInt32>]] = {
        let lower: [ClosedRange<UInt32>] = [0x61...0x7A], upper: [ClosedRange<UInt32>] = [0x41...0x5A]
        let digit: [ClosedRange<UInt32>] = [0x30...0x39]
        let punct: [ClosedRange<UInt32>] = [0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E]
        return [
            "Lower": lower, "Upper": upper, "ASCII": [0x00...0x7F], "Alpha": lower + upper, "Digit": digit,
            "Alnum": lower + upper + digit, "Punct": punct, "Graph": [0x21...0x7E], "Print": [0x20...0x7E],
            "Blank": [0x09...0x09, 0x20...0x20], "Cntrl": [0x00...0x1F, 0x7F...0x7F],
            "XDigit": [0x30...0x39, 0x41...0x46, 0x61...0x66], "Space": [0x09...0x0D, 0x20...0x20],
            "L1": [0x00...0xFF], "all": [0x00...0x10FFFF]
        ]
    }()

    /// Names that `(?i)` widens to both cases (Java 16+): `(?i)\p{Lower}` matches `A`.
    private static let caseSensitiveNames: Set<String> = [
        "Lower", "Upper", "Lu", "Ll", "Lt", "javaLowerCase",
        "javaUpperCase", "javaTitleCase", "IsLowercase",
        "IsUppercase", "IsTitlecase"
    ]

    /// The set `\p{name}` stands for, as Java resolves it; `nil` if Java would not know the name, or a
    /// message when Java knows it and this engine does not (scripts, blocks).
    package static func property(named name: String, caseInsensitive: Bool) -> Result<
        RegexCharSet, UnsupportedProperty
    >? {
        guard let set = resolve(name) else {
            if name.hasPrefix("In") || name.hasPrefix("block=") || name.hasPrefix("blk=") {
                return .failure(UnsupportedProperty(reason: "Unicode blocks (\\p{\(name)}) are not supported"))
            }
            if name.hasPrefix("Is") || name.hasPrefix("script=") || name.hasPrefix("sc=") {
                return .failure(
                    UnsupportedProperty(
                        reason:
                            "Unicode scripts and properties such as \\p{\(name)} are not supported; use \\p{L} or a character range"
                    ))
            }
            return nil
        }
        if caseInsensitive, caseSensitiveNames.contains(name) { return .success(.caseFolded(set, unicode: true)) }
        return .success(set)
    }

    package struct UnsupportedProperty: Error {
        let reason: String
    }

    private static func resolve(_ name: String) -> RegexCharSet? {
        if let value = name.split(separator: "=", maxSplits: 1).dropFirst().first {
            let key = name.prefix { $0 != "=" }
            guard key == "general_category" || key == "gc" else { return nil }
            return category(String(value))
        }
        if name.hasPrefix("Is") {
            let rest = String(name.dropFirst(2))
            return binaryProperty(rest) ?? category(rest) ?? javaProperty(rest)
        }
        return category(name) ?? javaProperty(name)
    }

    private static func category(_ name: String) -> RegexCharSet? {
        let mask = RegexProperty.mask(name)
        return mask == 0 ? nil : .property(.categories(mask))
    }

    /// `Character.is…` predicates and POSIX names (case-sensitive, as in Java).
    private static func javaProperty(_ name: String) -> RegexCharSet? {
        if let ranges = posix[name] { return .ranges(ranges) }
        switch name {
        case "javaLowerCase": return .property(.lowercase)
        case "javaUpperCase": return .property(.uppercase)
        case "javaTitleCase": return category("Lt")
        case "javaAlphabetic": return .property(.alphabetic)
        case "javaIdeographic": return .property(.ideographic)
        case "javaDigit": return category("Nd")
        case "javaLetter": return category("L")
        case "javaLetterOrDigit": return category("LD")
        case "javaDefined": return .negated(.property(.categories(RegexProperty.mask("Cn"))))
        case "javaSpaceChar": return category("Z")
        case "javaWhitespace": return .property(.javaWhitespace)
        case "javaISOControl": return .ranges([0x00...0x1F, 0x7F...0x9F])
        default: return nil
        }
    }

    /// Unicode binary properties after `Is` (case-insensitive, `_` and spaces ignored, as in Java).
    private static func binaryProperty(_ name: String) -> RegexCharSet? {
        let key = String(name.uppercased().filter { $0 != "_" && $0 != " " && $0 != "-" })
        switch key {
        case "ALPHABETIC": return .property(.alphabetic)
        case "LETTER": return category("L")
        case "LOWERCASE": return .property(.lowercase)
        case "UPPERCASE": return .property(.uppercase)
        case "TITLECASE": return category("Lt")
        case "IDEOGRAPHIC": return .property(.ideographic)
        case "PUNCTUATION": return category("P")
        case "CONTROL": return category("Cc")
        case "WHITESPACE": return .property(.whiteSpace)
        case "DIGIT": return category("Nd")
        case "HEXDIGIT":
            return .union([
                category("Nd") ?? .ranges([]), .ranges([0x41...0x46, 0x61...0x66, 0xFF21...0xFF26, 0xFF41...0xFF46])
            ])
        case "ASSIGNED": return .negated(.property(.categories(RegexProperty.mask("Cn"))))
        case "NONCHARACTERCODEPOINT": return .property(.noncharacter)
        case "JOINCONTROL": return .ranges([0x200C...0x200D])
        case "ALNUM": return .union([.property(.alphabetic), category("Nd") ?? .ranges([])])
        case "WORD": return .property(.word)
        case "BLANK": return .union([category("Zs") ?? .ranges([]), .ranges([0x09...0x09])])
        default: return nil
        }
    }
}
