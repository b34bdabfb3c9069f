import StubHTTP
import StubOpenAPI

/// What a request that breaks its OpenAPI operation gets (``StubServer/Configuration/openAPIValidation``).
public enum OpenAPIValidation: String, Sendable, Hashable, CaseIterable {
    /// A `400` with an `application/problem+json` body naming each violation by JSON pointer; no stub answers.
    case reject
    /// One log line naming each violation; the request is then answered as if it fitted.
    case log
    /// Requests are not checked.
    case off
}

/// A request an OpenAPI document does not allow: it breaks its operation, or no operation has its method and
/// path (``StubServer/openAPIFindings``).
public struct OpenAPIFinding: Sendable, Hashable, CustomStringConvertible {
    /// `POST /pets?limit=x`.
    public let request: String
    /// The document's file.
    public let document: String
    /// The operation the request is for; `nil` when the document has none for its method and path.
    public let operationID: String?
    /// What is wrong: the violations, or one at `""` saying the operation is not in the document.
    public let violations: [OpenAPIViolation]

    public var description: String {
        let head = "\(request) (\(operationID.map { "operation \($0) of " } ?? "")\(document))"
        return ([head] + violations.map { "  \($0)" }).joined(separator: "\n")
    }
}

/// The OpenAPI documents a server checks requests against: those of its configuration for its life, those
/// added in Swift (``StubServer/stub(openAPI:seed:)-(OpenAPIDocument,_)``) until a reset. Keeps the newest ``findingLimit``
/// findings for the test helpers.
final class OpenAPIContracts: Sendable {
    static let findingLimit = 256

    private struct State {
        var documents: [OpenAPIDocument]
        var findings: [OpenAPIFinding] = []
        /// Findings dropped to keep ``findingLimit``.
        var dropped = 0
    }

    let mode: OpenAPIValidation
    private let configured: [OpenAPIDocument]
    private let state: LockedValue<State>
    /// Whether any document is loaded: read without the lock by every request.
    private let active: LockedValue<Bool>

    init(_ documents: [OpenAPIDocument], mode: OpenAPIValidation) {
        self.mode = mode
        configured = documents
        state = LockedValue(State(documents: documents))
        active = LockedValue(!documents.isEmpty && mode != .off)
    }

    var isActive: Bool { active.withLock { $0 } }

    func add(_ document: OpenAPIDocument) {
        state.withLock { $0.documents.append(document) }
        active.withLock { $0 = mode != .off }
    }

    /// Back to the configuration's documents, with no findings.
    func reset() {
        state.withLock { $0 = State(documents: configured) }
        active.withLock { $0 = !configured.isEmpty && mode != .off }
    }

    /// Checks `request` against the first document defining its method and path; keeps what breaks.
    /// Returns the violations when the request is its operation's but breaks it.
    func check(_ request: HTTPRequest) -> (OpenAPIDocument, OpenAPIFinding)? {
        let documents = state.withLock { $0.documents }
        var undefined: (OpenAPIDocument, [String])?
        for document in documents {
            switch document.check(request) {
            case .valid: return nil
            case .invalid(let operation, let violations):
                let finding = OpenAPIFinding(
                    request: Self.summary(request), document: document.file, operationID: operation.id,
                    violations: violations)
                keep(finding)
                return (document, finding)
            case .undefined(let methods):
                if undefined == nil { undefined = (document, methods) }
            }
        }
        if let (document, methods) = undefined {
            let message =
                methods.isEmpty
                ? "the document has no path \(Quoting.quote(String(request.rawPath)))"
                : "the path has no \(request.method.rawValue) operation (it has \(methods.joined(separator: ", ")))"
            keep(
                OpenAPIFinding(
                    request: Self.summary(request), document: document.file, operationID: nil,
                    violations: [OpenAPIViolation(pointer: "", message: message)]))
        }
        return nil
    }

    private func keep(_ finding: OpenAPIFinding) {
        state.withLock { state in
            if state.findings.count >= Self.findingLimit {
                state.findings.removeFirst(Self.findingLimit / 2)
                state.dropped += Self.findingLimit / 2
            }
            state.findings.append(finding)
        }
    }

    /// The findings kept, oldest first, and how many older ones were dropped.
    var findings: (kept: [OpenAPIFinding], dropped: Int) { state.withLock { ($0.findings, $0.dropped) } }

    static func summary(_ request: HTTPRequest) -> String {
        "\(request.method.rawValue) \(Quoting.truncate(request.target, limit: 200))"
    }

    /// The `400` a request that breaks `finding`'s operation gets: RFC 9457 problem details.
    static func problem(_ finding: OpenAPIFinding, document: OpenAPIDocument) -> HTTPResponse {
        let count = finding.violations.count
        let body = JSONValue.object([
            ("type", .string("urn:stubserver:problem:openapi-validation")),
            ("title", .string("The request does not fit the OpenAPI document")),
            ("status", .number("400")),
            (
                "detail",
                .string(
                    "\(finding.request): \(count) \(count == 1 ? "violation" : "violations") of operation "
                        + "\(finding.operationID ?? "?") in \(document.file)")
            ),
            ("operationId", finding.operationID.map(JSONValue.string) ?? .null),
            ("document", .string(document.file)),
            (
                "violations",
                .array(
                    finding.violations.map {
                        .object([("pointer", .string($0.pointer)), ("message", .string($0.message))])
                    })
            )
        ])
        return HTTPResponse(
            status: HTTPStatus(code: 400), headers: ["Content-Type": "application/problem+json"],
            body: body.serializedBytes(.pretty) + [0x0A])
    }
}
