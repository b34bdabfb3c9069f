import StubHTTP

/// How many times a stub with fake data has answered: with ``StubServer/Configuration/fakeDataSeed``,
/// each answer's values come from (seed, stub id, this count), so requests to other stubs, in any order,
/// do not change them. One counter per stub: no state grows with requests.
final class FakeDataRenders: Sendable {
    private let stubHash: UInt64
    private let count = LockedValue<UInt64>(0)

    init(stubID: String) { stubHash = FakeDataSeed.hash(stubID) }

    /// The seed of the next answer's fake data.
    func nextSeed(_ base: UInt64) -> UInt64 {
        let render = count.withLock { count in
            defer { count &+= 1 }
            return count
        }
        return FakeDataSeed.mix(base, stubHash, render)
    }
}

extension ResponseTemplate {
    /// The seed of this request's fake data, when `base` is set and a template calls `fake` / `random`;
    /// counts the render. Taken once per request.
    package func nextFakeDataSeed(_ base: UInt64?) -> UInt64? {
        guard let base, let fakeDataRenders else { return nil }
        return fakeDataRenders.nextSeed(base)
    }

    /// The literal keys of `fake` / `random` that name no ``FakeDataKey``, by field, each once per field.
    package var unknownFakeDataKeys: [(field: String, key: String)] {
        var found: [(field: String, key: String)] = []
        for (field, template) in Self.fieldTemplates(headers: headers, body: body) {
            for key in template.unknownFakeDataKeys where !found.contains(where: { $0 == (field, key) }) {
                found.append((field, key))
            }
        }
        return found
    }

    /// Every template of a response, by the field it is in (`headers.X`, `body`, `jsonBody`, `bodyFileName`).
    static func fieldTemplates(headers: [(name: String, value: HeaderValue)], body: Body) -> [(
        field: String, template: Template
    )] {
        var found: [(field: String, template: Template)] = []
        for (name, value) in headers {
            if case let .template(template) = value { found.append(("headers.\(name)", template)) }
        }
        switch body {
        case .fixed: break
        case let .template(template): found.append(("body", template))
        case let .json(json): found += json.templates.map { ("jsonBody", $0) }
        case let .file(name, files):
            found.append(("bodyFileName", name))
            found += files.parsedTemplates.map { ("bodyFileName", $0) }
        }
        return found
    }
}
