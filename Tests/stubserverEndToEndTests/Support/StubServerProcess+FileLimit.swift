// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    #if os(Linux)
        import Foundation
        import Glibc
        import StubClient
        import StubKit

        extension StubServerProcess {
            /// Launches the built `stubserver` on the demo stubs under `ulimit -n openFiles` (through a shell
            /// script that `exec`s it, so the PID is the server's); the script is removed at once.
            static func launch(openFiles: Int, arguments: [String] = []) throws -> StubServerProcess {
                let script = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "stubserver-ulimit-\(UUID().uuidString).sh")
                try Data(
                    "#!/bin/sh\nulimit -n \(openFiles) && exec '\(try Paths.stubserverBinary().path)' \"$@\"\n".utf8
                ).write(to: script)
                defer { try? FileManager.default.removeItem(at: script) }
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
                return try launch(executable: script, stubs: Paths.demoStubs, arguments: arguments)
            }

            /// User + system CPU time of the process, from /proc/PID/stat (fields 14 and 15, in clock ticks).
            func cpuSeconds() throws -> Double {
                let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
                guard let close = stat.lastIndex(of: ")") else { throw POSIXError(.EINVAL) }
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                // After "pid (comm)", field 3 (state) is fields[0]; utime (14) is fields[11], stime (15) fields[12].
                guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
                    throw POSIXError(.EINVAL)
                }
                return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
            }
        }
    #endif
#endif
