import Foundation

#if os(Linux)
    import CStubSystem
    import Glibc
#endif

#if os(macOS) || os(Linux)
    /// A child process: started with its standard streams on given descriptors, signalled by PID, reaped once.
    ///
    /// On Linux it is started with `posix_spawn` and reaped with `waitpid`, not with Foundation's `Process`:
    /// swift-corelibs-foundation's `Process.run()` lists `/proc/self/fd` to close descriptors in the child,
    /// copying each entry's 256-byte name field, which reads past glibc's buffer and crashes (SIGSEGV in
    /// `memcpy`) once the process has about 1,350 descriptors open, as a parallel test run does
    /// (swift-corelibs-foundation pull request 5472, after Swift 6.3). On macOS it is Foundation's `Process`.
    package final class SpawnedProcess: @unchecked Sendable {  // state behind `lock`
        /// How a process ended.
        package enum Ending: Sendable, Equatable {
            case exited(Int32)
            case signalled(Int32)
        }

        /// The process identifier.
        package let pid: Int32
        private let lock = NSLock()
        private var ending: Ending?
        #if os(macOS)
            private let process: Process
        #endif

        /// Starts `executable` with `arguments`; its stdin is `/dev/null`, its stdout and stderr are `output` and
        /// `error` (the caller closes its own copies when it no longer needs them).
        /// - Parameters:
        ///   - environment: its whole environment; `nil` for this process's.
        ///   - currentDirectory: its working directory; `nil` for this process's.
        package init(
            _ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
            currentDirectory: URL? = nil, output: Int32, error: Int32
        ) throws {
            #if os(Linux)
                let argv: [UnsafeMutablePointer<CChar>?] = ([executable.path] + arguments).map { strdup($0) }
                let envp: [UnsafeMutablePointer<CChar>?] = (environment ?? [:]).map { strdup("\($0.key)=\($0.value)") }
                defer {
                    argv.forEach { free($0) }
                    envp.forEach { free($0) }
                }
                let input = open("/dev/null", O_RDONLY | O_CLOEXEC)
                defer { if input >= 0 { close(input) } }
                var pid: pid_t = 0
                let result = (argv + [nil]).withUnsafeBufferPointer { argv in
                    (envp + [nil]).withUnsafeBufferPointer { envp in
                        cstub_spawn(
                            &pid, executable.path, argv.baseAddress,
                            environment == nil ? UnsafePointer(environ) : envp.baseAddress, currentDirectory?.path,
                            input, output, error)
                    }
                }
                guard result == 0 else {
                    throw CocoaError(
                        .fileReadUnknown,
                        userInfo: [
                            NSLocalizedDescriptionKey:
                                "cannot start \(executable.path): \(String(cString: strerror(result)))"
                        ])
                }
                self.pid = pid
            #else
                let process = Process()
                process.executableURL = executable
                process.arguments = arguments
                if let environment { process.environment = environment }
                if let currentDirectory { process.currentDirectoryURL = currentDirectory }
                process.standardInput = FileHandle.nullDevice
                process.standardOutput = FileHandle(fileDescriptor: output, closeOnDealloc: false)
                process.standardError = FileHandle(fileDescriptor: error, closeOnDealloc: false)
                try process.run()
                self.process = process
                self.pid = process.processIdentifier
            #endif
        }

        /// Whether it has not ended yet (reaps it when it has).
        package var isRunning: Bool { reap() == nil }

        /// Sends `signal` while it has not been reaped, so never to a process that took its PID later.
        package func signal(_ signal: Int32) {
            lock.withLock {
                if ending == nil { _ = kill(pid, signal) }
            }
        }

        /// Waits for it to end (checking every 10 ms) and returns how.
        @discardableResult
        package func waitUntilExit() -> Ending {
            while true {
                if let ending = reap() { return ending }
                usleep(10_000)
            }
        }

        /// How it ended, if it has; reaps it the first time.
        private func reap() -> Ending? {
            lock.withLock {
                if let ending { return ending }
                #if os(Linux)
                    var status: Int32 = 0
                    let reaped = waitpid(pid, &status, WNOHANG)
                    if reaped == -1 && errno == ECHILD {  // reaped by someone else: it ended, how is unknown
                        ending = .exited(-1)
                        return ending
                    }
                    guard reaped == pid else { return nil }
                    let signal = status & 0x7f
                    ending = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
                #else
                    guard !process.isRunning else { return nil }
                    ending =
                        process.terminationReason == .exit
                        ? .exited(process.terminationStatus) : .signalled(process.terminationStatus)
                #endif
                return ending
            }
        }
    }
#endif
