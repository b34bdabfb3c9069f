import Testing

@testable import StubHTTP

/// A connection's output: the buffer, then a shared body; pure, no sockets.
@Suite("OutputBuffer")
struct OutputBufferTests {
    /// Drains `buffer` as a socket taking at most `step` bytes per write would; returns the bytes written.
    private func drain(_ buffer: inout OutputBuffer, step: Int) -> [UInt8] {
        var written: [UInt8] = []
        while !buffer.isDrained {
            let count = buffer.withUnwrittenBytes { bytes in
                written.append(contentsOf: bytes.prefix(step))
                return min(step, bytes.count)
            }
            buffer.consume(count)
        }
        return written
    }

    @Test("Writes the buffer, then the shared body, whatever the write size", arguments: [1, 3, 1000])
    func writesBufferThenSharedBody(step: Int) {
        var buffer = OutputBuffer()
        #expect(buffer.isDrained)
        buffer.append(contentsOf: Array("head:".utf8))
        buffer.append { $0.append(contentsOf: Array("more;".utf8)) }
        buffer.attachSharedBody(Array("body".utf8))
        #expect(!buffer.isDrained && buffer.hasQueuedBytes && buffer.queuedCount == 10)
        #expect(String(decoding: drain(&buffer, step: step), as: UTF8.self) == "head:more;body")
        #expect(buffer.isDrained && !buffer.hasQueuedBytes && buffer.queuedCount == 0)
    }

    @Test("A shared body alone is not queued bytes, but is written")
    func sharedBodyAlone() {
        var buffer = OutputBuffer()
        buffer.attachSharedBody([1, 2, 3])
        #expect(!buffer.hasQueuedBytes && buffer.queuedCount == 0 && !buffer.isDrained)
        #expect(drain(&buffer, step: 2) == [1, 2, 3])
    }

    @Test("Compacting drops the written bytes and keeps the queued ones")
    func compacting() {
        var buffer = OutputBuffer()
        buffer.append(contentsOf: [1, 2, 3, 4, 5])
        buffer.withUnwrittenBytes { #expect(Array($0) == [1, 2, 3, 4, 5]) }
        buffer.consume(2)
        #expect(buffer.queuedCount == 3)
        buffer.compact()
        #expect(buffer.queuedCount == 3)
        buffer.append(contentsOf: [6])
        #expect(drain(&buffer, step: 100) == [3, 4, 5, 6])
    }

    @Test("Reset empties it for the next response; release drops everything unwritten")
    func resetAndRelease() {
        var buffer = OutputBuffer()
        buffer.append(contentsOf: [1, 2])
        buffer.attachSharedBody([3])
        _ = drain(&buffer, step: 10)
        buffer.reset()
        #expect(buffer.isDrained)
        buffer.append(contentsOf: [4])
        #expect(drain(&buffer, step: 10) == [4])
        buffer.append(contentsOf: [5, 6])
        buffer.attachSharedBody([7])
        buffer.release()
        #expect(buffer.isDrained && buffer.queuedCount == 0)
    }
}
