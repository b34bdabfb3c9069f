/// The options of `stubserver`, with their defaults.
public struct Options: Sendable, Equatable {
    /// The stubs directory (WireMock root dir layout). Default `Stubs`, so `swift run stubserver` in the
    /// repository serves the demo.
    public var stubs: String = "Stubs"
    /// The port to listen on; 0 asks the system for a free one. Default 8080.
    public var port: Int = 8080
    /// The address to listen on. Default `127.0.0.1`.
    public var host: String = "127.0.0.1"
    /// Log one line per request to stderr.
    public var verbose: Bool = false
    /// Reload the stubs when a file in the stubs directory changes.
    public var watch: Bool = false

    public init() {}
}

/// What the command line asks for.
public enum Command: Sendable, Equatable {
    /// Serve the stubs.
    case serve(Options)
    /// Print the usage text and exit 0.
    case help
    /// Print the version and exit 0.
    case version
}
