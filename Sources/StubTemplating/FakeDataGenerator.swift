/// Makes fake values from ``FakeData``'s lists with a ``TemplateRandom``: the same generator state gives
/// the same value. The shapes follow Datafaker's `en-US` ones (`(555) 234-5678`, `1234 Maple Street`).
/// E-mail addresses and user names are made from ``person``, the name made last in the render, if any.
struct FakeDataGenerator {
    var random: TemplateRandom
    var person = FakePerson()

    /// One value of `key`.
    mutating func value(_ key: FakeDataKey) -> String {
        switch key {
        case .nameFirstName: return newFirstName()
        case .nameLastName: return newLastName()
        case .nameFullName, .nameName: return "\(newFirstName()) \(newLastName())"
        case .nameNameWithMiddle:
            let first = newFirstName()
            return "\(first) \(pick(FakeData.firstNames)) \(newLastName())"
        case .namePrefix: return pick(FakeData.prefixes)
        case .nameUsername: return localPart()
        case .internetEmailAddress: return "\(localPart())@\(domainName())"
        case .internetSafeEmailAddress: return "\(localPart())@\(pick(FakeData.safeEmailDomains))"
        case .internetUUID: return random.uuid()
        case .internetURL: return "https://www.\(domainName())/\(slug())"
        case .internetDomainName: return domainName()
        case .internetIPv4Address: return (0..<4).map { _ in String(integer(in: 1...254)) }.joined(separator: ".")
        case .internetSlug: return slug()
        case .addressStreetAddress: return "\(buildingNumber()) \(streetName())"
        case .addressStreetName: return streetName()
        case .addressBuildingNumber: return buildingNumber()
        case .addressCity: return city()
        case .addressState: return pick(FakeData.states).name
        case .addressStateAbbr: return pick(FakeData.states).abbreviation
        case .addressZipCode: return digits(5)
        case .addressCountry: return pick(FakeData.countries).name
        case .addressCountryCode: return pick(FakeData.countries).code
        case .addressFullAddress:
            return "\(buildingNumber()) \(streetName()), \(city()), \(pick(FakeData.states).abbreviation) \(digits(5))"
        case .phoneNumber: return "(\(exchange())) \(exchange())-\(digits(4))"
        case .phoneCellPhone: return "\(exchange())-\(exchange())-\(digits(4))"
        case .companyName: return companyName()
        case .companyIndustry: return pick(FakeData.industries)
        case .loremWord: return pick(FakeData.loremWords)
        case .loremSentence: return sentence()
        case .loremParagraph: return (0..<integer(in: 3...6)).map { _ in sentence() }.joined(separator: " ")
        case .numberDigit, .numberRandomDigit: return String(integer(in: 0...9))
        case .numberRandomNumber: return String(integer(in: 1...9)) + digits(integer(in: 0...9))
        case .dateBirthday:
            let year = integer(in: 1960...2005), month = integer(in: 1...12), day = integer(in: 1...28)
            return "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
        }
    }

    private mutating func integer(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(random.next() % UInt64(range.count))
    }

    private mutating func pick<T>(_ list: [T]) -> T { list[integer(in: 0...(list.count - 1))] }

    private mutating func digits(_ count: Int) -> String {
        String((0..<count).map { _ in Character(String(integer(in: 0...9))) })
    }

    private mutating func newFirstName() -> String {
        let name = pick(FakeData.firstNames)
        person.firstName = name
        return name
    }

    private mutating func newLastName() -> String {
        let name = pick(FakeData.lastNames)
        person.lastName = name
        return name
    }

    /// `firstname.lastname`, lower case, sometimes with a number: the user name and the e-mail's local part,
    /// from ``person``'s names where the render made them.
    private mutating func localPart() -> String {
        let first = person.firstName ?? pick(FakeData.firstNames)
        let last = person.lastName ?? pick(FakeData.lastNames)
        let name = "\(first).\(last)".lowercased()
        return integer(in: 0...3) == 0 ? name + String(integer(in: 1...99)) : name
    }

    private mutating func domainName() -> String {
        "\(pick(FakeData.domainWords)).\(pick(FakeData.domainSuffixes))"
    }

    private mutating func slug() -> String {
        "\(pick(FakeData.loremWords))_\(pick(FakeData.loremWords))"
    }

    private mutating func buildingNumber() -> String { String(integer(in: 1...9)) + digits(integer(in: 1...3)) }

    private mutating func streetName() -> String {
        "\(pick(FakeData.streetNames)) \(pick(FakeData.streetSuffixes))"
    }

    private mutating func city() -> String {
        let name = pick(FakeData.cityNames)
        return integer(in: 0...2) == 0 ? "\(pick(FakeData.cityPrefixes)) \(name)" : name
    }

    /// A North American area code or exchange: three digits, the first 2-9.
    private mutating func exchange() -> String { String(integer(in: 2...9)) + digits(2) }

    private mutating func companyName() -> String {
        switch integer(in: 0...2) {
        case 0: return "\(pick(FakeData.lastNames)) \(pick(FakeData.companySuffixes))"
        case 1: return "\(pick(FakeData.lastNames))-\(pick(FakeData.lastNames))"
        default:
            return "\(pick(FakeData.lastNames)), \(pick(FakeData.lastNames)) and \(pick(FakeData.lastNames))"
        }
    }

    /// Three to nine lorem words, the first capitalized, ending with a period.
    private mutating func sentence() -> String {
        var words = (0..<integer(in: 3...9)).map { _ in pick(FakeData.loremWords) }
        words[0] = words[0].prefix(1).uppercased() + words[0].dropFirst()
        return words.joined(separator: " ") + "."
    }
}

/// The names made last in one render: an e-mail address made after `{{fake 'Name.fullName'}}` is that
/// person's. Two short strings per render, whatever its length.
struct FakePerson {
    var firstName: String?
    var lastName: String?
}

/// How a seeded render derives its generators: SplitMix64's finalizer over the inputs, so nearby inputs
/// (render 1, render 2) give unrelated streams.
enum FakeDataSeed {
    static func mix(_ values: UInt64...) -> UInt64 {
        var state: UInt64 = 0x6A09_E667_F3BC_C909
        for value in values {
            state = (state ^ value) &+ 0x9E37_79B9_7F4A_7C15
            state = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
            state = (state ^ (state >> 27)) &* 0x94D0_49BB_1331_11EB
            state ^= state >> 31
        }
        return state
    }

    /// FNV-1a of `text`: a stub id as a number, the same in every run.
    static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
