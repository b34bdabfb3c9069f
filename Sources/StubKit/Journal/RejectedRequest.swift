import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A request the server could not parse and answered with a 4xx or 5xx before closing the connection.
public struct RejectedRequest: Sendable, Hashable, CustomStringConvertible {
    /// When it was rejected.
    public let receivedAt: Date
    /// The client's address, e.g. `127.0.0.1:52044`.
    public let remoteAddress: String
    /// The status sent, e.g. 400 or 431.
    public let status: Int
    /// Why, e.g. `header line has no colon`.
    public let reason: String

    /// `rejected a request from 127.0.0.1:52044 with 400 Bad Request: header line has no colon`
    public var description: String {
        "rejected a request from \(remoteAddress) with \(status) \(StubHTTPStatus.standardReasonPhrase(for: status)): \(reason)"
    }
}
