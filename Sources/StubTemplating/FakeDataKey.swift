/// A kind of fake value of the `fake` helper (and of the WireMock faker extension's `random`), named as
/// Datafaker names it: `Category.method`, case-sensitive (`Name.firstName`). The snake-case spelling of
/// Datafaker's expressions (`Name.first_name`) names the same key.
package enum FakeDataKey: String, CaseIterable, Sendable {
    case nameFirstName = "Name.firstName"
    case nameLastName = "Name.lastName"
    case nameFullName = "Name.fullName"
    case nameName = "Name.name"
    case nameNameWithMiddle = "Name.nameWithMiddle"
    case namePrefix = "Name.prefix"
    case nameUsername = "Name.username"
    case internetEmailAddress = "Internet.emailAddress"
    case internetSafeEmailAddress = "Internet.safeEmailAddress"
    case internetUUID = "Internet.uuid"
    case internetURL = "Internet.url"
    case internetDomainName = "Internet.domainName"
    case internetIPv4Address = "Internet.ipV4Address"
    case internetSlug = "Internet.slug"
    case addressStreetAddress = "Address.streetAddress"
    case addressStreetName = "Address.streetName"
    case addressBuildingNumber = "Address.buildingNumber"
    case addressCity = "Address.city"
    case addressState = "Address.state"
    case addressStateAbbr = "Address.stateAbbr"
    case addressZipCode = "Address.zipCode"
    case addressCountry = "Address.country"
    case addressCountryCode = "Address.countryCode"
    case addressFullAddress = "Address.fullAddress"
    case phoneNumber = "PhoneNumber.phoneNumber"
    case phoneCellPhone = "PhoneNumber.cellPhone"
    case companyName = "Company.name"
    case companyIndustry = "Company.industry"
    case loremWord = "Lorem.word"
    case loremSentence = "Lorem.sentence"
    case loremParagraph = "Lorem.paragraph"
    case numberDigit = "Number.digit"
    case numberRandomDigit = "Number.randomDigit"
    case numberRandomNumber = "Number.randomNumber"
    case dateBirthday = "Date.birthday"

    /// The key `name` spells: `Name.firstName`, or its snake-case form `Name.first_name`; `nil` if unknown.
    init?(name: String) {
        if let key = FakeDataKey(rawValue: name) {
            self = key
            return
        }
        guard name.contains("_"), let dot = name.firstIndex(of: "."), name.utf8.count <= 100 else { return nil }
        var method = ""
        var upperNext = false
        for character in name[name.index(after: dot)...] {
            if character == "_" {
                upperNext = true
            } else {
                method += upperNext ? character.uppercased() : String(character)
                upperNext = false
            }
        }
        guard let key = FakeDataKey(rawValue: "\(name[..<dot]).\(method)") else { return nil }
        self = key
    }

    /// The categories, in the order of the keys: `Name, Internet, Address, …`.
    static let categories: [String] = {
        var found: [String] = []
        for key in allCases {
            let category = String(key.rawValue.prefix { $0 != "." })
            if !found.contains(category) { found.append(category) }
        }
        return found
    }()

    /// What a message about an unknown key says: the key (at most 100 characters) and the known categories.
    package static func unknownMessage(_ name: String) -> String {
        let shown = name.count > 100 ? "\(name.prefix(100))…" : name
        return "unknown fake data key '\(shown)'; expected Category.method (case-sensitive) in one of "
            + categories.joined(separator: ", ")
    }
}
