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

            /// User + system CPU time of the process, in seconds (see ``ProcessCPU``).
            func cpuSeconds() throws -> Double {
                Double(try ProcessCPU.ticks(pid)) / Double(ProcessCPU.ticksPerSecond)
            }
        }
    #endif
#endif
