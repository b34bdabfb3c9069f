import StubKit

/// A ``StubServerClient`` call that failed: the server could not be reached, or it refused the call.
public struct StubServerClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// No HTTP answer (connection refused, timeout, …).
        case unreachable
        /// The server answered with an error status (see ``status``).
        case rejected
        /// The answer was not what the admin API sends (not JSON, missing fields).
        case unexpectedAnswer
    }

    public let kind: Kind
    /// The call, e.g. `POST /__admin/mappings`.
    public let call: String
    /// The HTTP status for ``Kind/rejected``; 0 otherwise.
    public let status: Int
    /// The reason: the server's error `detail`, or the transport error.
    public let detail: String

    /// `POST /__admin/mappings → 422: response.status: expected an integer, found "200"`
    public var description: String {
        switch kind {
        case .unreachable: "\(call): the stub server cannot be reached: \(detail)"
        case .rejected: "\(call) → \(status): \(detail)"
        case .unexpectedAnswer: "\(call): unexpected answer: \(detail)"
        }
    }
}
