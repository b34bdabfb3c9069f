// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(Linux)
    import Foundation

    /// What the kernel knows of a child process's sockets and descriptors and a test cannot otherwise see (a
    /// server has read the requests it holds, a silent upstream has been sent the forwarded requests, a server is
    /// out of descriptors), from `/proc`: conditions to wait on instead of a pause. Linux only.
    enum KernelSockets {
        /// One IPv4 TCP socket of this network namespace, as a line of `/proc/net/tcp` gives it.
        struct Entry {
            var localPort: Int
            var remotePort: Int
            /// The kernel's TCP state: 1 established, 10 listening.
            var state: Int
            /// Bytes written and not yet acknowledged by the peer.
            var sendQueue: Int
            /// Bytes received and not yet read; for a listening socket, connections not yet accepted.
            var receiveQueue: Int

            var isEstablished: Bool { state == 1 }
            var isListening: Bool { state == 10 }
        }

        /// Every IPv4 TCP socket of this network namespace (the test process's, its children's and any other's):
        /// thousands on a busy machine (a megabyte or more to read), so poll it every 100 ms or so, not faster.
        static func entries() -> [Entry] {
            // Read to the end: `/proc` files have no size, and `String(contentsOfFile:)` stops after the first page.
            guard let file = FileHandle(forReadingAtPath: "/proc/net/tcp") else { return [] }
            defer { try? file.close() }
            guard let data = try? file.readToEnd() else { return [] }
            return String(decoding: data, as: UTF8.self).split(separator: "\n").dropFirst().compactMap { line in
                // "sl local_address rem_address st tx_queue:rx_queue ...", addresses as HEXIP:HEXPORT.
                let fields = line.split(separator: " ")
                guard fields.count > 4 else { return nil }
                let queues = fields[4].split(separator: ":")
                guard let local = fields[1].split(separator: ":").last.flatMap({ Int($0, radix: 16) }),
                    let remote = fields[2].split(separator: ":").last.flatMap({ Int($0, radix: 16) }),
                    let state = Int(fields[3], radix: 16), queues.count == 2,
                    let send = Int(queues[0], radix: 16), let receive = Int(queues[1], radix: 16)
                else { return nil }
                return Entry(
                    localPort: local, remotePort: remote, state: state, sendQueue: send, receiveQueue: receive)
            }
        }

        /// The established sockets on the server side of `port` (their local port): one per accepted connection,
        /// and per connection the kernel completed into the listener's backlog.
        static func accepted(onPort port: Int) -> [Entry] {
            entries().filter { $0.localPort == port && $0.isEstablished }
        }

        /// The number of open descriptors of process `pid` (`/proc/PID/fd`), or -1.
        static func descriptorCount(_ pid: Int32) -> Int {
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
        }
    }
#endif
