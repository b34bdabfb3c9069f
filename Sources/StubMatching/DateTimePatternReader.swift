/// Compiles a `DateTimeFormatter` pattern into ``DateTimePattern/Piece``s with Java's rules for letter counts.
struct DateTimePatternReader {
    private let characters: [Character]
    private var index = 0
    private var depth = 0

    init(_ characters: [Character]) { self.characters = characters }

    /// Java's pattern letters; the ones outside ``DateTimePattern/Piece`` are ``DateTimePattern/Failure/unsupported(_:)``.
    private static let javaLetters = Set("GuyDMLdQqYwWEecFahKkHmsSAnNVvzOXxZpg")

    mutating func pieces(closing: Bool) throws(DateTimePattern.Failure) -> [DateTimePattern.Piece] {
        var pieces: [DateTimePattern.Piece] = []
        while index < characters.count {
            let c = characters[index]
            switch c {
            case "'": pieces.append(.literal(try quoted()))
            case "[":
                index += 1
                depth += 1
                guard depth <= 8 else { throw .invalid("optional sections nest more than 8 deep") }
                pieces.append(.optional(try self.pieces(closing: true)))
                depth -= 1
            case "]":
                guard closing else { throw .invalid("pattern includes reserved character: ']'") }
                index += 1
                return pieces
            case "{", "}", "#":
                throw .invalid("pattern includes reserved character: '\(c)'")
            default:
                if c.isASCII, c.isLetter {
                    var count = 1
                    while index + count < characters.count, characters[index + count] == c { count += 1 }
                    index += count
                    pieces.append(try field(c, count: count))
                } else {
                    index += 1
                    if case .literal(let text) = pieces.last {
                        pieces[pieces.count - 1] = .literal(text + String(c))
                    } else {
                        pieces.append(.literal(String(c)))
                    }
                }
            }
        }
        // Java closes an open optional section at the end of the pattern.
        return pieces
    }

    /// `'text'`, with `''` for a quote.
    private mutating func quoted() throws(DateTimePattern.Failure) -> String {
        index += 1
        if index < characters.count, characters[index] == "'" {
            index += 1
            return "'"
        }
        var text = ""
        while index < characters.count {
            if characters[index] == "'" {
                if index + 1 < characters.count, characters[index + 1] == "'" {
                    text.append("'")
                    index += 2
                    continue
                }
                index += 1
                return text
            }
            text.append(characters[index])
            index += 1
        }
        throw .invalid("pattern ends within text in quotes")
    }

    private func field(_ letter: Character, count: Int) throws(DateTimePattern.Failure) -> DateTimePattern.Piece {
        func tooMany() -> DateTimePattern.Failure { .invalid("too many pattern letters: \(letter)") }
        func number(_ field: DateTimePattern.Field) throws(DateTimePattern.Failure) -> DateTimePattern.Piece {
            switch count {
            case 1: return .number(field, minimum: 1, maximum: 19)
            case 2: return .number(field, minimum: 2, maximum: 2)
            default: throw tooMany()
            }
        }
        switch letter {
        case "y", "u":
            switch count {
            case 1: return .number(.year, minimum: 1, maximum: 19)
            case 2: return .number(.year, minimum: 2, maximum: 2, reducedBase: 2000)
            default: return .number(.year, minimum: count, maximum: 19)
            }
        case "M", "L":
            switch count {
            case 1, 2: return try number(.month)
            case 3, 4: return .text(.month, full: count == 4)
            case 5: throw .unsupported(letter)
            default: throw tooMany()
            }
        case "d": return try number(.day)
        case "H": return try number(.hour24)
        case "k": return try number(.clockHour24)
        case "K": return try number(.hour12)
        case "h": return try number(.clockHour12)
        case "m": return try number(.minute)
        case "s": return try number(.second)
        case "S":
            guard count <= 9 else { throw tooMany() }
            return .fraction(digits: count)
        case "E":
            switch count {
            case 1...4: return .text(.weekday, full: count == 4)
            case 5: throw .unsupported(letter)
            default: throw tooMany()
            }
        case "a":
            guard count == 1 else { throw tooMany() }
            return .text(.amPm, full: false)
        case "X", "x":
            let zulu = letter == "X"
            switch count {
            case 1: return .offset(.hoursMinutesOptional, zulu: zulu)
            case 2: return .offset(.hoursMinutes, zulu: zulu)
            case 3: return .offset(.hoursColonMinutes, zulu: zulu)
            case 4, 5: throw .unsupported(letter)
            default: throw tooMany()
            }
        case "Z":
            switch count {
            case 1...3: return .offset(.hoursMinutes, zulu: false)
            case 4: return .localizedOffset
            case 5: return .offset(.hoursColonMinutes, zulu: true)
            default: throw tooMany()
            }
        case "z":
            guard count <= 4 else { throw tooMany() }
            return .zoneName
        default:
            guard Self.javaLetters.contains(letter) else { throw .invalid("unknown pattern letter: \(letter)") }
            throw .unsupported(letter)
        }
    }
}
