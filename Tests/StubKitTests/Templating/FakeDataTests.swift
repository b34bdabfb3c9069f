import Foundation
import StubHTTP
import StubTestSupport
import Testing

@testable import StubKit
@testable import StubTemplating

/// `{{fake 'Name.firstName'}}` and the WireMock faker extension's `{{random 'Name.firstName'}}`. The keys
/// are the extension's (its docs/reference.md lists Datafaker's `Category.method` names); the values are
/// stubserver's own, so only their shape is checked here.
@Suite("Response templates: fake data")
struct FakeDataTests {
    static let request = HTTPRequest(method: .get, target: "/")

    private static func render(_ text: String, fakeSeed: UInt64? = nil) throws -> String {
        try Template(text).render(for: request, now: 0, fakeSeed: fakeSeed)
    }

    private static func isDigits(_ text: String, count: ClosedRange<Int>) -> Bool {
        count.contains(text.count) && text.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Whether `value` has the shape of `key`'s values.
    private static func plausible(_ key: FakeDataKey, _ value: String) -> Bool {
        let words = value.split(separator: " ").map(String.init)
        switch key {
        case .nameFirstName: return FakeData.firstNames.contains(value)
        case .nameLastName: return FakeData.lastNames.contains(value)
        case .nameFullName, .nameName: return words.count == 2 && FakeData.lastNames.contains(words[1])
        case .nameNameWithMiddle: return words.count == 3 && FakeData.firstNames.contains(words[1])
        case .namePrefix: return FakeData.prefixes.contains(value)
        case .nameUsername: return value.contains(".") && value == value.lowercased() && !value.contains(" ")
        case .internetEmailAddress, .internetSafeEmailAddress:
            let parts = value.split(separator: "@")
            return parts.count == 2 && parts[1].contains(".") && !value.contains(" ")
                && (key == .internetEmailAddress || parts[1].hasPrefix("example."))
        case .internetUUID: return UUID(uuidString: value) != nil && value == value.lowercased()
        case .internetURL: return URL(string: value)?.host?.hasPrefix("www.") == true && value.hasPrefix("https://")
        case .internetDomainName: return value.split(separator: ".").count == 2
        case .internetIPv4Address:
            let parts = value.split(separator: ".").compactMap { Int($0) }
            return parts.count == 4 && parts.allSatisfy { (1...254).contains($0) }
        case .internetSlug: return value.contains("_") && !value.contains(" ")
        case .addressStreetAddress:
            return isDigits(words[0], count: 1...5) && FakeData.streetSuffixes.contains(words.last ?? "")
        case .addressStreetName: return words.count == 2 && FakeData.streetSuffixes.contains(words[1])
        case .addressBuildingNumber: return isDigits(value, count: 2...4)
        case .addressCity: return FakeData.cityNames.contains(words.last ?? "")
        case .addressState: return FakeData.states.contains { $0.name == value }
        case .addressStateAbbr: return FakeData.states.contains { $0.abbreviation == value }
        case .addressZipCode: return isDigits(value, count: 5...5)
        case .addressCountry: return FakeData.countries.contains { $0.name == value }
        case .addressCountryCode: return value.count == 2 && value == value.uppercased()
        case .addressFullAddress:
            return value.split(separator: ",").count == 3 && isDigits(String(words.last ?? ""), count: 5...5)
        case .phoneNumber: return value.count == 14 && value.hasPrefix("(") && value.contains(") ")
        case .phoneCellPhone: return value.count == 12 && value.split(separator: "-").count == 3
        case .companyName: return !value.isEmpty && value.first?.isUppercase == true
        case .companyIndustry: return FakeData.industries.contains(value)
        case .loremWord: return FakeData.loremWords.contains(value)
        case .loremSentence: return (3...9).contains(words.count) && value.hasSuffix(".")
        case .loremParagraph: return (3...6).contains(value.split(separator: ".").count)
        case .numberDigit, .numberRandomDigit: return isDigits(value, count: 1...1)
        case .numberRandomNumber: return isDigits(value, count: 1...10) && !value.hasPrefix("0")
        case .dateBirthday:
            let parts = value.split(separator: "-").compactMap { Int($0) }
            return value.count == 10 && parts.count == 3 && (1960...2005).contains(parts[0])
                && (1...12).contains(parts[1]) && (1...28).contains(parts[2])
        }
    }

    @Test("every key makes a value of its shape, seeded or not", arguments: FakeDataKey.allCases)
    func everyKey(_ key: FakeDataKey) throws {
        for seed in [nil, 1, 42, 0xDEAD_BEEF] as [UInt64?] {
            for helper in ["fake", "random"] {
                let value = try Self.render("{{{\(helper) '\(key.rawValue)'}}}", fakeSeed: seed)
                #expect(Self.plausible(key, value), "\(key.rawValue) gave '\(value)'")
            }
        }
    }

    @Test("the faker extension's random form and Datafaker's snake-case keys name the same values")
    func randomForm() throws {
        let text = "{{fake 'Name.firstName'}}|{{random 'Name.lastName'}}|{{random 'Address.zip_code'}}"
        let values = try Self.render(text, fakeSeed: 7).split(separator: "|").map(String.init)
        #expect(values.count == 3)
        #expect(FakeData.firstNames.contains(values[0]))
        #expect(FakeData.lastNames.contains(values[1]))
        #expect(Self.isDigits(values[2], count: 5...5))
    }

    @Test("seed= gives the same value every time, whatever the render's seed (the extension's 0.2 option)")
    func seedOption() throws {
        let text = "{{random 'Internet.uuid' seed=1234}}"
        let values = try Set([nil, 1, 2].map { try Self.render(text, fakeSeed: $0) })
        #expect(values.count == 1)
        #expect(try Self.render("{{random 'Internet.uuid' seed=1235}}") != values.first)
        #expect(try Self.render("{{random 'Name.firstName' locale='en-US'}}").isEmpty == false)
    }

    @Test("each helper of a render has its own place: two uuids of one render differ, and the render repeats")
    func positions() throws {
        let text = "{{fake 'Internet.uuid'}} {{fake 'Internet.uuid'}}"
        let first = try Self.render(text, fakeSeed: 99)
        let parts = first.split(separator: " ")
        #expect(parts.count == 2 && parts[0] != parts[1])
        #expect(try Self.render(text, fakeSeed: 99) == first)
        #expect(try Self.render(text, fakeSeed: 100) != first)
        #expect(try Self.render(text) != Self.render(text), "unseeded values come from the system generator")
    }

    @Test("an e-mail address and a user name are made from the name made last in the render")
    func emailFromName() throws {
        for seed in [nil, 3, 4] as [UInt64?] {
            let text =
                "{{fake 'Name.firstName'}} {{fake 'Name.lastName'}} {{fake 'Internet.emailAddress'}} "
                + "{{fake 'Name.username'}} {{#each (range 1 3)}}{{fake 'Name.fullName'}} {{fake 'Internet.safeEmailAddress'}} {{/each}}"
            let words = try Self.render(text, fakeSeed: seed).split(separator: " ").map(String.init)
            let person = "\(words[0]).\(words[1])".lowercased()
            #expect(words[2].hasPrefix(person) && words[3].hasPrefix(person), "\(words)")
            for item in 0..<3 {
                let base = 4 + item * 3
                let itemPerson = "\(words[base]).\(words[base + 1])".lowercased()
                #expect(
                    words[base + 2].hasPrefix(itemPerson + "@") || words[base + 2].hasPrefix(itemPerson), "\(words)")
            }
        }
    }

    @Test("a bad call is a load error naming what was expected")
    func loadErrors() {
        let rows = [
            ("{{upper (fake)}}", "fake expects one key such as 'Name.firstName', found 0 arguments"),
            ("{{random 'Name.firstName' 'x'}}", "random expects one key such as 'Name.firstName', found 2 arguments"),
            ("{{fake 'Name.firstName' size=3}}", "fake takes seed= and locale= options, found size=")
        ]
        for (text, message) in rows {
            #expect(throws: TemplateError.self) { try Template(text) }
            do {
                _ = try Template(text)
            } catch {
                #expect(error.message == message)
            }
        }
    }

    @Test("a bare {{fake}} or {{random}} is still a value: a field of that name, as before these helpers")
    func bareName() throws {
        let template = try Template(
            "{{#each (parseJson '[{\"fake\": \"yes\", \"random\": 4}]')}}{{fake}} {{random}}{{/each}}")
        #expect(template.render(for: Self.request) == "yes 4")
        #expect(try Self.render("[{{random}}]") == "[]")
    }

    @Test("a key computed at render that names no fake data answers 500 naming it")
    func computedKey() throws {
        let template = try ResponseTemplate(
            ResponseDefinition(body: .text("{{fake request.query.key}}")), stubID: "id-1", stubName: nil)
        let rendered = try template.render(
            HTTPRequest(method: .get, target: "/t?key=Name.nickName"), pathParameters: [:],
            serverOrigin: "http://localhost", limits: TemplateLimits()
        ).get()
        #expect(rendered.response.status.code == 500)
        #expect(
            String(decoding: rendered.response.body, as: UTF8.self)
                == "stubserver: stub id-1: fake: unknown fake data key 'Name.nickName'; expected Category.method "
                + "(case-sensitive) in one of Name, Internet, Address, PhoneNumber, Company, Lorem, Number, Date\n")
        let good = try template.render(
            HTTPRequest(method: .get, target: "/t?key=Name.firstName"), pathParameters: [:],
            serverOrigin: "http://localhost", limits: TemplateLimits()
        ).get()
        #expect(FakeData.firstNames.contains(String(decoding: good.response.body, as: UTF8.self)))
    }

    @Test("an unknown literal key loads with a warning naming file, field, key and categories; the stub answers 500")
    func unknownKey() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("fake-stubs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        try Data(
            #"{"request": {"urlPath": "/t"}, "response": {"transformers": ["response-template"], "body": "{{random 'Name.firstname'}}"}}"#
                .utf8
        ).write(to: root.appendingPathComponent("mappings/t.json"))
        let loaded = try StubsDirectory.load(root, displayRoot: "Stubs")
        #expect(
            loaded.warnings == [
                "warning: response.body: unknown fake data key 'Name.firstname'; expected Category.method "
                    + "(case-sensitive) in one of Name, Internet, Address, PhoneNumber, Company, Lorem, Number, Date; "
                    + "a response that uses it answers 500 naming it (used by Stubs/mappings/t.json)"
            ])
        let mapping = try #require(loaded.mappings.first)
        let rendered = try ResponseTemplate(mapping.response, stubID: "id-2", stubName: nil).render(
            HTTPRequest(method: .get, target: "/t"), pathParameters: [:], serverOrigin: "http://localhost",
            limits: TemplateLimits()
        ).get()
        #expect(rendered.response.status.code == 500)
        #expect(String(decoding: rendered.response.body, as: UTF8.self).contains("'Name.firstname'"))
    }
}
