/// Why an ``HTTPServer`` could not start, or could not change its availability.
///
/// ```swift
/// do { try server.start() } catch { print(error) } // cannot listen on 127.0.0.1:8080: address already in use
/// ```
public struct ServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of start failure.
    public enum Kind: Sendable, Hashable {
        /// Another socket already listens on the address.
        case addressInUse
        /// The host cannot be resolved or is not a local address, or the port is out of range.
        case invalidAddress
        /// ``HTTPServer/start()`` was called twice.
        case alreadyStarted
        /// The server is not running (not started, or stopping): its availability cannot change.
        case notRunning
        /// No listener has the label given.
        case unknownListener
        /// HTTPS was asked for (``HTTPServerConfiguration/tls``) and cannot be served: the TLS library cannot be
        /// loaded (Linux: `libssl.so.3`), or the credentials are not a certificate and its key.
        case tlsUnavailable
        /// A system call failed with this `errno`.
        case system(errno: Int32)
    }

    /// What went wrong.
    public let kind: Kind
    /// The full message, naming the address.
    public let message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
