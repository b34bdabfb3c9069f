/// `{{fake 'Name.firstName'}}` and the WireMock faker extension's `{{random 'Name.firstName'}}`: one fake
/// value of a ``FakeDataKey``. A literal key is checked when the template loads (an unknown one is a
/// warning); a key computed at render, or an unknown literal one, answers 500 naming it.
/// stubserver's fake data (``FakeDataKey``), and the same under the WireMock faker extension's name.
enum FakeHelper: String, Sendable, CaseIterable {
    case fake, random

    /// The hash options of `fake` / `random`: the faker extension's `seed=` and `locale=`.
    static let fakeDataOptions = ["seed", "locale"]

    func prepare(_ call: TemplateCall, at start: Int, parser: TemplateParser) throws(TemplateError)
        -> PreparedArgument
    {
        guard call.arguments.count == 1 else {
            throw parser.error(
                start,
                "\(rawValue) expects one key such as 'Name.firstName', found \(call.arguments.count) arguments")
        }
        if let option = call.hash.first(where: { !Self.fakeDataOptions.contains($0.name) }) {
            throw parser.error(start, "\(rawValue) takes seed= and locale= options, found \(option.name)=")
        }
        guard case let .literal(.string(name)) = call.arguments[0], let key = FakeDataKey(name: name) else {
            return .none
        }
        return .fakeKey(key)
    }
}

extension TemplateParser {
    /// The most unknown fake data keys one template reports.
    static let maxUnknownFakeDataKeys = 16

    /// Notes a `fake` / `random` call, and its literal key when it names no ``FakeDataKey``.
    mutating func noteFakeDataCall(_ call: TemplateCall) {
        usesFakeData = true
        guard case .none = call.prepared, case let .literal(.string(name))? = call.arguments.first,
            !unknownFakeDataKeys.contains(name), unknownFakeDataKeys.count < Self.maxUnknownFakeDataKeys
        else { return }
        unknownFakeDataKeys.append(name)
    }
}

extension TemplateEvaluator {
    /// One fake value. Its generator: from `seed=` (the same value every time, as the faker extension),
    /// else from the render's seed and the value's position in the render, else ``random``. Apart from
    /// `call`, so that its frame, on the recursion of nested sub-expressions, stays small.
    @inline(never)
    mutating func fake(_ helper: FakeHelper, _ arguments: [TemplateValue], _ call: TemplateCall)
        -> TemplateValue
    {
        let key: FakeDataKey
        if case let .fakeKey(prepared) = call.prepared {
            key = prepared
        } else {
            let name = arguments.last?.text ?? ""
            guard let found = FakeDataKey(name: name) else {
                return fail("\(helper.rawValue): \(FakeDataKey.unknownMessage(name))")
            }
            key = found
        }
        let position = fakeCalls
        fakeCalls &+= 1
        if let option = call.option("seed") {
            let value = evaluate(option)
            let seed: Int
            switch value {
            case let .integer(number): seed = number
            case .missing, .string, .double, .bool, .json, .values, .list, .date, .map, .xml, .root, .request, .path,
                .fields, .body:
                guard let number = Int(value.text) else {
                    return fail("\(helper.rawValue): seed= expects an integer, found '\(value.text.prefix(100))'")
                }
                seed = number
            }
            // The same value every time: not from, nor changing, the render's person.
            var generator = FakeDataGenerator(
                random: TemplateRandom(seed: FakeDataSeed.mix(UInt64(bitPattern: Int64(seed)))))
            return .string(generator.value(key))
        }
        var generator = FakeDataGenerator(
            random: fakeSeed.map { TemplateRandom(seed: FakeDataSeed.mix($0, position)) } ?? random,
            person: fakePerson)
        let value = generator.value(key)
        if fakeSeed == nil { random = generator.random }
        fakePerson = generator.person
        return .string(value)
    }
}
