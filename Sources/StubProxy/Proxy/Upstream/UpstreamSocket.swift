import StubHTTP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A non-blocking TCP connection to a plain-HTTP upstream: resolving, connecting, reading and writing, each one
/// system call that never waits (the ``UpstreamPoller`` does the waiting, in `poll(2)`), through the engine's
/// ``Socket`` with the outcome as the exchange reads it: a ``Step``, or an `errno` for the 502's words.
struct UpstreamSocket {
    /// What one read or write did.
    enum Step: Equatable {
        case done(Int)
        case wouldBlock
        case failed(Int32)
    }

    let socket: Socket
    var fd: Int32 { socket.fd }

    /// The addresses of `host` (a name, or an IPv4/IPv6 literal, with or without brackets) and `port`,
    /// in the system's order; or why there are none. Blocks for a DNS lookup: call off the event loops.
    static func resolve(host: String, port: Int) -> Result<[SocketAddress], UpstreamSocketError> {
        SocketAddress.lookUp(host: host, port: port, limit: 8).mapError {
            UpstreamSocketError("unknown host \(host) (\($0.reason))")
        }
    }

    /// A connection attempt: a socket whose connection is under way (or made already), or the `errno`.
    enum Attempt {
        case started(UpstreamSocket)
        case failed(Int32)
    }

    /// Starts connecting to `address`.
    static func connect(to address: SocketAddress) -> Attempt {
        do {
            return .started(UpstreamSocket(socket: try Socket.connecting(to: address).socket))
        } catch {
            return .failed(error.errno)
        }
    }

    /// The outcome of a connection that was under way: 0 once connected, else its `errno`.
    func connectionError() -> Int32 { socket.takePendingError() ?? 0 }

    /// Sends as much of `bytes` as the kernel takes, never raising SIGPIPE.
    func send(_ bytes: ArraySlice<UInt8>) -> Step {
        Self.step(bytes.withUnsafeBytes { buffer in Result { () throws(SocketError) in try socket.write(buffer) } })
    }

    /// Reads up to `buffer.count` bytes; `.done(0)` is the end of the connection.
    func receive(into buffer: inout [UInt8]) -> Step {
        Self.step(
            buffer.withUnsafeMutableBytes { buffer in Result { () throws(SocketError) in try socket.read(into: buffer) }
            })
    }

    func close() { socket.close() }

    private static func step(_ result: Result<IOResult<Int>, SocketError>) -> Step {
        switch result {
        case .success(.processed(let count)): .done(count)
        case .success(.wouldBlock): .wouldBlock
        case .failure(let error): .failed(error.errno)
        }
    }

    /// `Connection refused (errno 111)`: an `errno` in words, for the 502's body.
    static func describe(_ code: Int32) -> String {
        "\(String(cString: strerror(code))) (errno \(code))"
    }
}

/// Why an upstream could not be reached, in words.
struct UpstreamSocketError: Error, Equatable {
    let message: String
    init(_ message: String) { self.message = message }
}
