/// A command-line error. Printed as `Error: <message>` followed by the usage text (the subcommand's,
/// when it is about one), exit code 2.
public struct CLIError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    /// The subcommand whose arguments are wrong (``Subcommand/name``), if any: its usage is printed.
    public var subcommand: String?
    public init(_ message: String, subcommand: String? = nil) {
        self.message = message
        self.subcommand = subcommand
    }
    public var description: String { message }
}

/// The process exit codes of `stubserver`.
public enum ExitCode: Int32, Sendable {
    case success = 0
    /// A runtime failure not covered below.
    case failure = 1
    /// Bad command line; the usage text is printed.
    case usage = 2
    /// The stubs directory could not be loaded.
    case badStubs = 3
    /// The server could not listen on the requested host and port.
    case cannotListen = 4
}
