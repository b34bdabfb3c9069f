import StubHTTP

/// Why a ``StubServer`` could not start.
public enum StubServerError: Error, Sendable, CustomStringConvertible {
    /// The stubs directory could not be loaded; the message names the file and field.
    case badStubs(StubsLoadError)
    /// The server could not listen; the message names the address.
    case cannotListen(ServerError)

    public var description: String {
        switch self {
        case let .badStubs(error): "\(error)"
        case let .cannotListen(error): "\(error)"
        }
    }
}
