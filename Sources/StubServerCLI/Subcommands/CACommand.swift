import StubCertificates

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if os(macOS)
    import StubProcess
#endif

/// `stubserver ca path|export|trust`: this machine's local certificate authority, which signs the HTTPS
/// server's certificates: where it is, its certificate, and trusting it in an iOS simulator.
public struct CACommand: Subcommand {
    public static let name = "ca"
    public static let summary = "The local CA behind HTTPS: print its path, export it, trust it in a simulator."
    public static let usage = """
        USAGE: stubserver ca path [--ca-dir DIR]
               stubserver ca export [--der] [--ca-dir DIR]
               stubserver ca trust --simulator booted|UDID [--ca-dir DIR]

        The local certificate authority (CA) signs the certificate of every HTTPS server stubserver starts.
        It is made on first use, readable only by you. Clients that trust it accept the servers' certificates.

        ACTIONS:
          path            Print the path of the CA certificate (ca.crt), making the CA if needed.
          export          Write the CA certificate to stdout: PEM, or DER with --der.
          trust           Add the CA certificate to an iOS simulator's trusted roots (macOS with Xcode:
                          xcrun simctl keychain DEVICE add-root-cert). Once per simulator.

        OPTIONS:
          --ca-dir DIR    The CA's folder. Default: ~/Library/Application Support/stubserver/ca (macOS),
                          $XDG_DATA_HOME/stubserver/ca or ~/.local/share/stubserver/ca (Linux).
          --der           export: DER instead of PEM.
          --simulator DEVICE
                          trust: `booted`, or a simulator's UDID (xcrun simctl list devices).
          -h, --help      Print this help and exit.

        EXAMPLES:
          curl --cacert "$(stubserver ca path)" https://localhost:8443/hello
          stubserver ca trust --simulator booted
        """

    /// What to do with the CA.
    public enum Action: Sendable, Equatable {
        /// Print the certificate's path.
        case path
        /// Write the certificate to stdout, PEM or DER.
        case export(der: Bool)
        /// Add the certificate to a simulator's trusted roots.
        case trust(simulator: String)
    }

    /// What to do.
    public var action: Action
    /// The CA's folder; `nil` for `CertificateAuthority.defaultDirectory(environment:)`.
    public var directory: String?

    public init(action: Action, directory: String? = nil) {
        self.action = action
        self.directory = directory
    }

    public static func parse(_ arguments: [String]) throws(CLIError) -> CACommand {
        var reader = ArgumentReader(arguments)
        var actionName: String?
        var der = false
        var simulator: String?
        var directory: String?
        let options = ["--ca-dir", "--der", "--simulator"]
        while let argument = reader.next() {
            switch argument {
            case .positional(let word) where actionName == nil:
                guard ["path", "export", "trust"].contains(word) else {
                    throw CLIError("unknown action '\(word)'; the actions are path, export, trust")
                }
                actionName = word
            case .option("--ca-dir"):
                let value = try reader.value(for: "--ca-dir")
                guard !value.isEmpty else { throw CLIError("--ca-dir needs a folder") }
                directory = value
            case .option("--der"):
                try reader.noValue("--der")
                der = true
            case .option("--simulator"):
                simulator = try reader.value(for: "--simulator")
            default:
                throw reader.unexpected(argument, options: options)
            }
        }
        let action: Action
        switch actionName {
        case nil:
            throw CLIError("expected an action: path, export or trust")
        case "export"?:
            action = .export(der: der)
        case "trust"?:
            guard let simulator else { throw CLIError("trust needs --simulator booted or --simulator UDID") }
            guard simulator == "booted" || isUDID(simulator) else {
                throw CLIError(
                    "--simulator expects 'booted' or a simulator's UDID (xcrun simctl list devices), got '\(simulator)'"
                )
            }
            action = .trust(simulator: simulator)
        default:
            action = .path
        }
        if der, action != .export(der: true) { throw CLIError("--der is for export only") }
        switch action {
        case .trust: break
        case .path, .export: if simulator != nil { throw CLIError("--simulator is for trust only") }
        }
        return CACommand(action: action, directory: directory)
    }

    /// `8-4-4-4-12` hexadecimal digits.
    private static func isUDID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    public func run() -> ExitCode {
        run(output: { StandardStreams.output(bytes: $0) }, error: { StandardStreams.error($0) })
    }

    /// Does the work, writing results to `output` and diagnostics to `error`.
    func run(output: ([UInt8]) -> Void, error: (String) -> Void) -> ExitCode {
        let folder = directory.map { URL(fileURLWithPath: $0, isDirectory: true) }
        let authority: CertificateAuthority
        do {
            authority = try CertificateAuthority.loadOrCreate(in: folder ?? CertificateAuthority.defaultDirectory())
        } catch let failure {
            error("Error: \(failure.message)\n")
            return .failure
        }
        switch action {
        case .path:
            output(Array((authority.certificateURL.path + "\n").utf8))
            return .success
        case .export(let der):
            output(der ? authority.certificateDER : Array(authority.certificatePEM.utf8))
            return .success
        case .trust(let simulator):
            return trust(authority.certificateURL.path, simulator: simulator, error: error)
        }
    }

    /// The command that trusts `certificate` in `simulator`.
    static func trustCommand(certificate: String, simulator: String) -> [String] {
        ["xcrun", "simctl", "keychain", simulator, "add-root-cert", certificate]
    }

    private func trust(_ certificate: String, simulator: String, error: (String) -> Void) -> ExitCode {
        let command = Self.trustCommand(certificate: certificate, simulator: simulator)
        #if os(macOS)
            do {
                let process = try SpawnedProcess(
                    URL(fileURLWithPath: "/usr/bin/xcrun"), Array(command.dropFirst()), output: 1, error: 2)
                switch process.waitUntilExit() {
                case .exited(0):
                    error("Trusted \(certificate) in simulator \(simulator).\n")
                    return .success
                case .exited(let status):
                    error("Error: \(command.joined(separator: " ")) exited with status \(status)\n")
                case .signalled(let signal):
                    error("Error: \(command.joined(separator: " ")) ended by signal \(signal)\n")
                }
            } catch let failure {
                error("Error: cannot run xcrun (is Xcode installed?): \(failure)\n")
            }
            return .failure
        #else
            error(
                "Error: stubserver ca trust needs macOS with Xcode (xcrun simctl) to reach a simulator. On the Mac "
                    + "running the simulator, copy this CA certificate there and run:\n  "
                    + command.map(ShellWord.quoted).joined(separator: " ") + "\n")
            return .failure
        #endif
    }
}
