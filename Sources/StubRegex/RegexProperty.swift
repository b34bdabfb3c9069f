/// A Unicode or Java property a class can name: `\p{Lu}`, `\p{IsAlphabetic}`, `\p{javaLowerCase}`.
/// ASCII-only classes (`\d`, `\w`, `\p{Alpha}`) are plain ranges instead (see ``RegexPredefined``).
///
/// Properties come from the Swift standard library's own Unicode tables (no ICU), which may be a newer
/// Unicode version than the JVM's: scalars assigned since then can differ.
package enum RegexProperty: Sendable {
    /// General categories, as a bit mask over ``RegexProperty/categoryBit(_:)``.
    case categories(UInt32)
    case alphabetic
    case lowercase
    case uppercase
    case ideographic
    /// Unicode `White_Space`.
    case whiteSpace
    /// `Character.isWhitespace`: separators other than no-break spaces, and `\t\n\u000B\f\r\u001C-\u001F`.
    case javaWhitespace
    /// Java's `\p{IsWord}`: alphabetic, marks, decimal digits, connector punctuation, join controls.
    case word
    case noncharacter

    package func contains(_ c: UInt32) -> Bool {
        guard let scalar = Unicode.Scalar(c) else {
            // Unpaired surrogates never occur in a Swift string; only a category mask could name them.
            if case let .categories(mask) = self { return mask & Self.surrogateBit != 0 }
            return false
        }
        let properties = scalar.properties
        switch self {
        case let .categories(mask): return mask & Self.categoryBit(properties.generalCategory) != 0
        case .alphabetic: return properties.isAlphabetic
        case .lowercase: return properties.isLowercase
        case .uppercase: return properties.isUppercase
        case .ideographic: return properties.isIdeographic
        case .whiteSpace: return properties.isWhitespace
        case .javaWhitespace:
            if c == 0xA0 || c == 0x2007 || c == 0x202F { return false }
            if (0x09...0x0D).contains(c) || (0x1C...0x1F).contains(c) { return true }
            return Self.categoryBit(properties.generalCategory) & Self.separatorMask != 0
        case .word:
            if properties.isAlphabetic || properties.isJoinControl { return true }
            return Self.categoryBit(properties.generalCategory) & Self.wordCategoryMask != 0
        case .noncharacter: return properties.isNoncharacterCodePoint
        }
    }

    package static let surrogateBit: UInt32 = 1 << 27
    package static let separatorMask = mask("Z")
    package static let wordCategoryMask = mask("Mn") | mask("Mc") | mask("Me") | mask("Nd") | mask("Pc")

    package static func categoryBit(_ category: Unicode.GeneralCategory) -> UInt32 {
        let index: UInt32 =
            switch category {
            case .uppercaseLetter: 0
            case .lowercaseLetter: 1
            case .titlecaseLetter: 2
            case .modifierLetter: 3
            case .otherLetter: 4
            case .nonspacingMark: 5
            case .spacingMark: 6
            case .enclosingMark: 7
            case .decimalNumber: 8
            case .letterNumber: 9
            case .otherNumber: 10
            case .connectorPunctuation: 11
            case .dashPunctuation: 12
            case .openPunctuation: 13
            case .closePunctuation: 14
            case .initialPunctuation: 15
            case .finalPunctuation: 16
            case .otherPunctuation: 17
            case .mathSymbol: 18
            case .currencySymbol: 19
            case .modifierSymbol: 20
            case .otherSymbol: 21
            case .spaceSeparator: 22
            case .lineSeparator: 23
            case .paragraphSeparator: 24
            case .control: 25
            case .format: 26
            case .surrogate: 27
            case .privateUse: 28
            case .unassigned: 29
            @unknown default: 29
            }
        return 1 << index
    }

    /// Two-letter category names in bit order.
    private static let categoryNames = [
        "Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No", "Pc", "Pd",
        "Ps", "Pe", "Pi", "Pf", "Po", "Sm", "Sc", "Sk", "So", "Zs", "Zl", "Zp", "Cc",
        "Cf", "Cs", "Co", "Cn"
    ]

    /// The mask of a general category name: `Lu`, or a one-letter group (`L`), or Java's `LC` (cased
    /// letters) and `LD` (letters and digits); 0 if unknown.
    package static func mask(_ name: String) -> UInt32 {
        switch name {
        case "LC": return mask("Lu") | mask("Ll") | mask("Lt")
        case "LD": return mask("L") | mask("Nd")
        default: break
        }
        var result: UInt32 = 0
        for (i, category) in categoryNames.enumerated()
        where category == name || (name.count == 1 && category.hasPrefix(name)) {
            result |= 1 << UInt32(i)
        }
        return result
    }
}
