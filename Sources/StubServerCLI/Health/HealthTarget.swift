#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The URL `stubserver health` probes when given none: the running `stubserver`'s own address, read from
/// its command line and `STUBSERVER_OPTIONS` (Linux `/proc`, e.g. PID 1 of a container, so a `--port`
/// given to `docker run` or in the environment is followed), else `http://127.0.0.1:8080`.
enum HealthTarget {
    /// Where a server started with `arguments` (after the program name) and `environment` listens, or `nil`
    /// when they do not serve or ask for a system-chosen port (`--port 0`).
    static func url(serverArguments arguments: [String], environment: [String: String]) -> HealthURL? {
        guard let all = try? OptionsEnvironment.arguments(arguments, environment: environment),
            case let .serve(options) = try? CommandParser.parse(all), options.port != 0
        else { return nil }
        return HealthURL.probing(host: options.host, port: options.port)
    }

    /// The default URL: the serving `stubserver` process found in `/proc` (Linux), else 127.0.0.1:8080.
    static func defaultURL() -> HealthURL {
        #if os(Linux)
            if let url = RunningServers.first(where: { url(serverArguments: $0.arguments, environment: $0.environment) }
            ) {
                return url
            }
        #endif
        return HealthURL(host: "127.0.0.1", port: 8080)
    }
}

#if os(Linux)
    /// The `stubserver` processes this user can see in `/proc`, other than this one.
    enum RunningServers {
        /// The first non-nil `transform` of a running server's arguments and environment, lowest PID first.
        static func first<T>(where transform: (_ process: (arguments: [String], environment: [String: String])) -> T?)
            -> T?
        {
            let own = getpid()
            let pids = directoryEntries("/proc").compactMap(Int32.init).filter { $0 != own }.sorted()
            for pid in pids {
                guard let name = readFile("/proc/\(pid)/comm"), name == "stubserver\n",
                    let commandLine = readFile("/proc/\(pid)/cmdline")
                else { continue }
                let arguments = commandLine.split(separator: "\0", omittingEmptySubsequences: false).dropFirst()
                    .dropLast(commandLine.hasSuffix("\0") ? 1 : 0).map(String.init)
                var environment: [String: String] = [:]
                for entry in (readFile("/proc/\(pid)/environ") ?? "").split(separator: "\0") {
                    guard let eq = entry.firstIndex(of: "=") else { continue }
                    environment[String(entry[..<eq])] = String(entry[entry.index(after: eq)...])
                }
                if let found = transform((arguments, environment)) { return found }
            }
            return nil
        }

        private static func readFile(_ path: String) -> String? {
            let descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { return nil }
            defer { _ = Glibc.close(descriptor) }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while bytes.count < 1 << 20 {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                bytes += buffer[..<count]
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        private static func directoryEntries(_ path: String) -> [String] {
            guard let directory = opendir(path) else { return [] }
            defer { closedir(directory) }
            var names: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                names.append(name)
            }
            return names
        }
    }
#endif
