#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension RawSocket {
    /// Accepts one connection on `listener` (from ``occupyLoopbackPort(listening:)``), waiting at most
    /// `timeoutSeconds` for it; the connection is blocking, safe from SIGPIPE, and a read on it waits at most
    /// `timeoutSeconds` too. Close it with ``closeSocket(_:)``. For a fake server speaking raw bytes.
    public static func acceptConnection(_ listener: Int32, timeoutSeconds: Int = 30) throws -> Int32 {
        var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(timeoutSeconds * 1000)) == 1 else {
            throw Failure(description: "no connection to accept within \(timeoutSeconds) seconds")
        }
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { throw Failure("accept") }
        preventSIGPIPE(fd)
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    /// Reads from `fd` until `bytes` ends with `terminator` (a request head's blank line, say), at most `limit`
    /// bytes; throws when the connection ends or a read times out first.
    public static func read(_ fd: Int32, through terminator: [UInt8], limit: Int = 1 << 16) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while !bytes.suffix(terminator.count).elementsEqual(terminator) {
            guard bytes.count < limit else { throw Failure(description: "no \(terminator) in \(limit) bytes") }
            guard recv(fd, &byte, 1, 0) == 1 else { throw Failure("recv") }
            bytes.append(byte)
        }
        return bytes
    }

    /// Appends whatever comes next on `fd` (at most 64 KiB) to `buffer`; `false` at the end of the stream or a reset.
    /// - Throws: ``ClientError`` when the read fails otherwise (its timeout passed, say).
    public static func receive(_ fd: Int32, appendingTo buffer: inout [UInt8]) throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n > 0 {
            buffer.append(contentsOf: chunk[0..<n])
            return true
        }
        if n == 0 || errno == ECONNRESET { return false }
        throw ClientError(description: "recv: errno \(errno) (timeout?)")
    }

    /// Reads whatever comes next on `fd` (at most 64 KiB); empty at the end of the stream.
    public static func readSome(_ fd: Int32) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { throw Failure("recv") }
        return Array(buffer[0..<count])
    }
}
