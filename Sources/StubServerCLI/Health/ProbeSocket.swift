#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A non-blocking TCP client socket whose every wait is a `poll(2)` bounded by the probe's deadline.
struct ProbeSocket {
    private let descriptor: Int32

    #if os(Linux)
        private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
        private static let sendFlags: Int32 = 0
    #endif

    private init(descriptor: Int32) { self.descriptor = descriptor }

    /// Connects to `address`, waiting until `deadline` at most.
    static func connect(to address: ProbeAddress, deadline: ContinuousClock.Instant) -> Result<
        ProbeSocket, ProbeFailure
    > {
        let descriptor = socket(address.family, ProbeAddress.streamType, 0)
        guard descriptor >= 0 else { return .failure(.errno("socket", errno)) }
        let socket = ProbeSocket(descriptor: descriptor)
        #if canImport(Darwin)
            var on: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL, 0) | O_NONBLOCK)
        let started = address.bytes.withUnsafeBytes { raw in
            raw.withMemoryRebound(to: sockaddr.self) { Glue.connect(descriptor, $0.baseAddress, socklen_t(raw.count)) }
        }
        if started != 0 {
            // In progress (or failed at once): wait until the socket is writable, then ask whether it is
            // connected. Portable: no EINPROGRESS or SO_ERROR, which differ or are absent between the SDKs.
            if let failure = socket.wait(for: Int16(POLLOUT), until: deadline, doing: "connecting") {
                socket.close()
                return .failure(failure)
            }
            if let failure = socket.connectionFailure() {
                socket.close()
                return .failure(failure)
            }
        }
        return .success(socket)
    }

    /// Sends `request`, then reads until the peer closes, `limit` bytes arrive, or the deadline passes.
    func exchange(_ request: [UInt8], deadline: ContinuousClock.Instant, limit: Int) -> Result<[UInt8], ProbeFailure> {
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Self.sendFlags) }
            if count > 0 { sent += count; continue }
            guard count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
                return .failure(.errno("send", errno))
            }
            if let failure = wait(for: Int16(POLLOUT), until: deadline, doing: "sending") { return .failure(failure) }
        }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while answer.count < limit {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 { answer += buffer[..<count]; continue }
            if count == 0 { break }
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
                return answer.isEmpty ? .failure(.errno("recv", errno)) : .success(answer)
            }
            // A status line is all the probe needs: stop waiting once one has arrived.
            if answer.contains(10) { break }
            if let failure = wait(for: Int16(POLLIN), until: deadline, doing: "waiting for the answer") {
                return .failure(failure)
            }
        }
        return .success(answer)
    }

    /// `nil` once a non-blocking connect has completed; otherwise the reason it failed, which a read on
    /// the unconnected socket reports as its errno.
    private func connectionFailure() -> ProbeFailure? {
        var peer = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let connected = withUnsafeMutablePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &length) }
        }
        if connected == 0 { return nil }
        var byte: UInt8 = 0
        _ = recv(descriptor, &byte, 1, 0)
        return .errno("connect", errno)
    }

    func close() {
        #if canImport(Glibc)
            _ = Glibc.close(descriptor)
        #else
            _ = Darwin.close(descriptor)
        #endif
    }

    /// Polls for `events` until `deadline`; `nil` when ready, else why not.
    private func wait(for events: Int16, until deadline: ContinuousClock.Instant, doing what: String) -> ProbeFailure? {
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return ProbeFailure("timed out \(what)") }
            let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(clamping: milliseconds))
            if ready > 0 { return nil }
            if ready < 0, errno != EINTR { return .errno("poll", errno) }
        }
    }
}

/// The C `connect(2)`, reachable from inside ``ProbeSocket``, whose static `connect(to:deadline:)`
/// shadows it.
private enum Glue {
    static func connect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t) -> Int32 {
        #if canImport(Glibc)
            Glibc.connect(descriptor, address, length)
        #else
            Darwin.connect(descriptor, address, length)
        #endif
    }
}
