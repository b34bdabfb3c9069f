/// Ending a connection on purpose instead of answering (``ConnectionFailure``). Loop thread only.
extension Connection {
    func fail(_ failure: ConnectionFailure, generation: UInt64) {
        guard awaitsResponse(generation) else { return }
        switch failure {
        case .reset:
            socket.setLingerZero()
        case .closeWithoutResponse:
            break
        case .rawBytesThenClose(let bytes):
            var offset = 0
            while offset < bytes.count {
                // No typed throws through `withUnsafeBytes` (Swift 6.1's standard library cannot rethrow them).
                let written = bytes.withUnsafeBytes { raw -> IOResult<Int>? in
                    do throws(SocketError) {
                        return try socket.write(UnsafeRawBufferPointer(rebasing: raw[offset...]))
                    } catch {
                        return nil
                    }
                }
                guard case .processed(let count)? = written, count > 0 else { break }
                offset += count
            }
            socket.shutdownWrite()
        }
        close()
    }
}
