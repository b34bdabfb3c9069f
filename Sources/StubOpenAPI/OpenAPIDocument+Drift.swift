import StubMatching
import StubModel

/// What a contract check found of one stub: it answers a request the document does not define, or answers what
/// the operation never would (a status it does not list, a body its schema does not allow).
public struct OpenAPIDrift: Sendable, Hashable, CustomStringConvertible {
    /// How the stub is named in reports: its file, else its name and pattern.
    public let stub: String
    public let message: String

    public var description: String { "\(stub): \(message)" }
}

/// What a contract check made of a set of stubs: the drift found, and how many stubs could not be checked.
public struct OpenAPIDriftReport: Sendable {
    /// Stubs that do not fit the document.
    public var drift: [OpenAPIDrift] = []
    /// Stubs checked and found to fit.
    public var fitting = 0
    /// Stubs that were not checked, with why (a URL regex, any URL, a proxy).
    public var unchecked: [OpenAPIDrift] = []
}

extension OpenAPIDocument {
    /// Checks hand-written stubs against the document: each stub's method and path must be an operation's, its
    /// status one of that operation's responses, and its body (JSON, not a template) valid against that
    /// response's schema. Stubs made from an OpenAPI document are left out.
    public func drift(of stubs: [StubMapping]) -> OpenAPIDriftReport {
        var report = OpenAPIDriftReport()
        for stub in stubs where stub.metadata?["openapi"] == nil {
            let name = stub.source ?? stub.displayName
            func unchecked(_ why: String) { report.unchecked.append(OpenAPIDrift(stub: name, message: why)) }
            guard let path = Self.path(of: stub.request.url) ?? samplePath(for: stub.request) else {
                unchecked("not checked: its URL is any URL, or a regular expression no operation's path fits")
                continue
            }
            let methods: [String]
            switch stub.request.method {
            case .exactly(let method): methods = [method.uppercased()]
            case .any: methods = Array(Set(operations.map(\.method))).sorted()
            }
            var routed: [OpenAPIOperation] = []
            for method in methods {
                if let found = self.operation(method: method, path: path) { routed.append(found.operation) }
            }
            guard let operation = routed.first else {
                let shown = methods.count == 1 ? methods[0] : "any method on"
                let known = router.methods(for: path)
                let detail =
                    known.isEmpty ? "no operation has this path" : "the path has \(known.joined(separator: ", ")) only"
                report.drift.append(
                    OpenAPIDrift(stub: name, message: "\(shown) \(path) is not in \(file) (\(detail))"))
                continue
            }
            let response = stub.response
            if response.proxy != nil || response.fault != nil {
                unchecked("not checked: it forwards or fails instead of answering")
                continue
            }
            let status = response.status
            let exact = operation.responses.first { $0.status != "default" && $0.covers(status) }
            guard let declared = exact ?? operation.responses.first(where: { $0.status == "default" }) else {
                let listed = operation.responses.map { $0.status }.joined(separator: ", ")
                report.drift.append(
                    OpenAPIDrift(
                        stub: name,
                        message: "answers \(response.status), which operation \(operation.id) does not list "
                            + "(it lists \(listed.isEmpty ? "no response" : listed))"))
                continue
            }
            if Self.isTemplate(response) {
                unchecked("its status fits \(operation.id); its body is not checked: it is a template")
                continue
            }
            let problems = bodyProblems(response, declared, operation)
            if problems.isEmpty {
                report.fitting += 1
            } else {
                report.drift += problems.map { OpenAPIDrift(stub: name, message: $0) }
            }
        }
        return report
    }

    private static func isTemplate(_ response: ResponseDefinition) -> Bool {
        if response.transformers.contains("response-template") { return true }
        switch response.body {
        case .text(let text): return text.contains("{{")
        case .file(_, let bytes): return bytes.firstRange(of: Array("{{".utf8)) != nil
        case .json, .bytes, .none: return false
        }
    }

    /// What is wrong with the stub's body for `declared`: nothing when it has no JSON body to check.
    private func bodyProblems(
        _ response: ResponseDefinition, _ declared: OpenAPIOperation.Response, _ operation: OpenAPIOperation
    ) -> [String] {
        let instance: JSONValue
        switch response.body {
        case .json(let value):
            instance = value
        case .text(let text):
            guard let value = try? JSONParser.parse(text) else { return [] }
            instance = value
        case .file(_, let bytes):
            guard let value = try? JSONParser.parse(bytes) else { return [] }
            instance = value
        case .bytes, .none:
            return []
        }
        let type = response.headers.first(name: "Content-Type")
        let media =
            type.flatMap { type in declared.content.first { OpenAPIMediaTypes.covers($0.type, type) } }
            ?? declared.content.first(where: \.isJSON)
        guard let media else {
            if let type, !declared.content.isEmpty {
                return [
                    "answers Content-Type \(type), which \(operation.id) \(declared.status) does not list "
                        + "(it lists \(declared.content.map(\.type).joined(separator: ", ")))"
                ]
            }
            return []
        }
        guard let schemaPointer = media.schemaPointer else { return [] }
        let violations = validator.violations(of: instance, against: schemaPointer, at: "/body", limit: 4)
        return violations.map {
            "its body does not fit \(operation.id) \(declared.status) \(media.type): \($0.path): \($0.message)"
        }
    }

    /// For a stub whose URL is a regular expression: the first operation path (with sample values for its
    /// parameters: the parameter's example, `1` for numbers, `a` otherwise) the expression matches, so the stub is
    /// checked against an operation it really answers. `nil` when it matches none.
    private func samplePath(for request: RequestPattern) -> String? {
        let pattern: String
        switch request.url {
        case .urlPattern(let text)?, .urlPathPattern(let text)?: pattern = text
        case .url?, .urlPath?, .urlPathTemplate?, nil: return nil
        }
        guard let regex = CompiledRegex.compiled(pattern) else { return nil }
        for operation in operations {
            if case .exactly(let method) = request.method, method.uppercased() != operation.method { continue }
            var path = operation.path
            for parameter in operation.parameters where parameter.location == .path {
                let schema = parameter.schemaPointer.flatMap { schemaNode($0) }
                let sample: String
                if case .string(let example)? = schema?["example"] {
                    sample = example
                } else if let types = schema.map(Self.types), types.contains("integer") || types.contains("number") {
                    sample = "1"
                } else {
                    sample = "a"
                }
                path = path.replacing("{\(parameter.name)}", with: sample)
            }
            if regex.matchesWhole(path) { return path }
        }
        return nil
    }

    /// The path a stub's URL matcher names, if it names one (a template keeps its `{name}` segments).
    private static func path(of url: URLMatcher?) -> String? {
        switch url {
        case .url(let text)?: return String(text.prefix { $0 != "?" })
        case .urlPath(let path)?, .urlPathTemplate(let path)?: return path
        case .urlPattern?, .urlPathPattern?, nil: return nil
        }
    }
}

extension OpenAPIDocument {
    /// The examples of request bodies and responses that do not fit their own schema, each named by where it is
    /// (`listPets 200 application/json example "two": /0/id: expected integer, found string`). A stub made from
    /// such an example answers what the document itself forbids.
    public var exampleProblems: [String] {
        var problems: [String] = []
        for operation in operations {
            var media: [(String, OpenAPIOperation.MediaType)] = []
            if let body = operation.requestBody { media += body.content.map { ("request body", $0) } }
            for response in operation.responses { media += response.content.map { (response.status, $0) } }
            for (place, type) in media {
                guard let schema = type.schemaPointer else { continue }
                var examples = type.examples.map { ("example \(Quoting.quote($0.name))", $0.value) }
                if let example = type.example { examples.insert(("example", example), at: 0) }
                for (name, value) in examples {
                    for violation in validator.violations(of: value, against: schema, at: "", limit: 4) {
                        let at = violation.path.isEmpty ? "/" : violation.path
                        problems.append(
                            "\(operation.id) \(place) \(type.type) \(name): \(at): \(violation.message)")
                    }
                }
            }
        }
        return problems
    }
}
