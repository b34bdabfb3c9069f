import StubHTTP
import StubModel

extension OpenAPIDocument {
    /// The priority of stubs made from a document: after every stub of the default priority (5) and the usual
    /// catch-alls, so stubs from files and from Swift answer first.
    public static let stubPriority = 100

    /// One stub per operation answering its first success response, and one per other response and named
    /// example, chosen with the `Prefer` request header (Prism's convention): `Prefer: code=404`,
    /// `Prefer: example=empty`, or both.
    ///
    /// The body is the media type's `example`, else its first `examples` entry, else the schema's own example,
    /// else a value made from the schema (the same for the same `seed`). JSON media types are preferred.
    /// Each stub is named after the `operationId` (`listPets`, `listPets (code=404)`), carries
    /// `metadata.openapi` (file, operation), and answers at `priority`.
    public func stubs(seed: UInt64 = 0, priority: Int = OpenAPIDocument.stubPriority) -> [StubMapping] {
        var stubs: [StubMapping] = []
        for operation in operations {
            let success = operation.successResponse
            var generator = OpenAPIValueGenerator(document: self, seed: SplitMix64.hash(operation.id, seed: seed))
            for response in operation.responses {
                let isSuccess = success.map { $0.status == response.status } ?? false
                let code = response.status == "default" ? nil : "code=\(response.code)"
                let media = response.preferredContent
                if isSuccess {
                    stubs.append(
                        stub(operation, response, media, body: body(media, &generator), prefer: [], priority: priority))
                }
                if let code, !isSuccess {
                    stubs.append(
                        stub(
                            operation, response, media, body: body(media, &generator), prefer: [code],
                            priority: priority - 1))
                }
                for (name, value) in media?.examples ?? [] {
                    // A named example of the success response needs no code; another response's needs both.
                    let prefer = isSuccess ? ["example=\(name)"] : [code ?? "code=\(response.code)", "example=\(name)"]
                    stubs.append(
                        stub(
                            operation, response, media, body: value, prefer: prefer,
                            priority: priority - prefer.count))
                }
            }
            if success == nil {
                // No success response: the operation still answers, with an empty 200.
                stubs.append(
                    stub(
                        operation, OpenAPIOperation.Response(status: "200", content: []), nil, body: nil, prefer: [],
                        priority: priority))
            }
        }
        return stubs
    }

    private func body(_ media: OpenAPIOperation.MediaType?, _ generator: inout OpenAPIValueGenerator) -> JSONValue? {
        guard let media else { return nil }
        if let example = media.example ?? media.examples.first?.value { return example }
        guard let pointer = media.schemaPointer else { return nil }
        return generator.value(at: pointer)
    }

    private func stub(
        _ operation: OpenAPIOperation, _ response: OpenAPIOperation.Response, _ media: OpenAPIOperation.MediaType?,
        body: JSONValue?, prefer: [String], priority: Int
    ) -> StubMapping {
        var request = RequestPattern(
            method: .exactly(operation.method),
            url: operation.path.contains("{") ? .urlPathTemplate(operation.path) : .urlPath(operation.path))
        for token in prefer {
            // `Prefer: code=404, example=empty`: each token anywhere in the field, as a whole token.
            let escaped = token.replacing("\\", with: "\\\\").replacing(".", with: "\\.")
            request.headers.append(
                NamedMatcher("Prefer", .single(.matches("(?:.*[\\s,;])?\(escaped)(?:[\\s,;].*)?"))))
        }
        var headers: [(String, String)] = []
        var responseBody: ResponseDefinition.Body = .none
        if let media, let body {
            let type = media.type.contains("*") ? "application/json" : media.type
            headers.append(("Content-Type", type))
            if media.isJSON {
                responseBody = .json(body)
            } else if case .string(let text) = body {
                responseBody = .text(text)
            } else {
                responseBody = .text(body.serialized())
            }
        }
        let name = prefer.isEmpty ? operation.id : "\(operation.id) (\(prefer.joined(separator: ", ")))"
        let key = "\(file) \(operation.id) \(response.status) \(prefer.joined(separator: ","))"
        var random = SplitMix64(seed: SplitMix64.hash(key, seed: 0))
        return StubMapping(
            id: Self.uuid(random.next(), random.next()), name: name, priority: priority, request: request,
            response: ResponseDefinition(status: response.code, headers: StubHTTPHeaders(headers), body: responseBody),
            metadata: .object([
                (
                    "openapi",
                    .object([
                        ("file", .string(file)), ("operationId", .string(operation.id)),
                        ("response", .string(response.status))
                    ])
                )
            ]))
    }

    /// A version-4-shaped UUID from two random words, so a document's stubs keep their ids from run to run.
    static func uuid(_ a: UInt64, _ b: UInt64) -> String {
        func hex(_ value: UInt64, _ digits: Int) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        let high = (a & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        let low = (b & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let h = hex(high, 16), l = hex(low, 16)
        return "\(h.prefix(8))-\(h.dropFirst(8).prefix(4))-\(h.suffix(4))-\(l.prefix(4))-\(l.suffix(12))"
    }
}
