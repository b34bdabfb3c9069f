import StubHTTP
import StubTestSupport
import Testing

@testable import StubKit

/// `RingBuffer` is what the request journal is made of: it must keep order and bounds, and appending
/// must never copy the storage once per element (that once made request 10,000 cost ~10× request 1).
@Suite("RingBuffer")
struct RingBufferTests {
    @Test(
        "Filling to capacity reallocates the storage about log2(capacity) times, then never again",
        arguments: [1, 10, 16, 17, 1_000, 10_000])
    func growthIsLogarithmic(capacity: Int) {
        var buffer = RingBuffer<Int>(capacity: capacity)
        for value in 0..<capacity { buffer.append(value) }
        // 16, 32, 64, … doubling, the last step clamped to the capacity.
        var expected = 0
        var size = 0
        while size < capacity { size = min(capacity, max(16, size * 2)); expected += 1 }
        #expect(buffer.storageGrowths == expected)
        for value in capacity..<(capacity * 10 + 100) { buffer.append(value) }
        #expect(buffer.storageGrowths == expected, "appending to a full buffer reuses its storage")
        #expect(buffer.count == capacity)
        #expect(buffer.elements == Array((capacity * 9 + 100)..<(capacity * 10 + 100)))
    }

    @Test("suffix gives the newest elements, oldest first, across the wrap")
    func suffix() {
        var buffer = RingBuffer<Int>(capacity: 20)
        for value in 0..<35 { buffer.append(value) }
        #expect(buffer.suffix(5) == Array(30..<35))
        #expect(buffer.suffix(20) == Array(15..<35))
        #expect(buffer.suffix(100) == Array(15..<35))
        #expect(buffer.suffix(0) == [])
        #expect(RingBuffer<Int>(capacity: 4).suffix(3) == [])
    }

    @Test("Appends and removals interleaved keep the storage: no growth while the count stays below it")
    func interleavedRemovalsDoNotGrow() {
        var buffer = RingBuffer<Int>(capacity: 10_000)
        for value in 0..<100 { buffer.append(value) }
        let grown = buffer.storageGrowths
        for value in 100..<100_000 {
            buffer.append(value)
            buffer.removeFirst()
        }
        #expect(buffer.storageGrowths == grown)
        #expect(buffer.elements == Array(99_900..<100_000))
        #expect(buffer.droppedCount == 99_900)
    }

    @Test("Random appends, removals and filters agree with an array model")
    func agreesWithArrayModel() {
        var generator = SplitMix64(seed: 17)  // RouteTableTests' generator: a failure reproduces
        for capacity in [1, 2, 5, 16, 33, 100] {
            var buffer = RingBuffer<Int>(capacity: capacity)
            var model: [Int] = []
            var dropped = 0
            for step in 0..<5_000 {
                switch generator.next() % 10 {
                case 0..<6:
                    let evicted = buffer.append(step)
                    if model.count == capacity {
                        #expect(evicted == model.removeFirst()); dropped += 1
                    } else {
                        #expect(evicted == nil)
                    }
                    model.append(step)
                case 6..<9:
                    #expect(buffer.removeFirst() == model.first)
                    if !model.isEmpty { model.removeFirst(); dropped += 1 }
                default:
                    let divisor = Int(generator.next() % 5) + 2
                    #expect(buffer.removeAll(where: { $0 % divisor == 0 }) == model.filter { $0 % divisor == 0 }.count)
                    model.removeAll(where: { $0 % divisor == 0 })
                }
                #expect(buffer.count == model.count)
                #expect(buffer.last == model.last)
            }
            #expect(buffer.elements == model)
            #expect(buffer.droppedCount == dropped)
        }
    }

    @Test("The journal's 20,000 requests at default limits reallocate its storage at most log2(10,000) + 1 times")
    func journalAppendsDoNotCopy() {
        let journal = RequestJournal()
        let request = HTTPRequest(method: .get, target: "/hello", headers: ["Host": "127.0.0.1"])
        for _ in 0..<20_000 { journal.record(request, matchedStub: nil, status: 404) }
        #expect(journal.entries.count == 10_000)
        #expect(journal.storageGrowths <= 11)
    }
}
