import XCTest

@testable import StubKit

/// ``StreamedJSONObject`` and ``StreamedJSONBodySource``: the bytes of a document sent element by element
/// are exactly those of the whole tree as the admin API printed it, in any piece size.
final class StreamedJSONObjectTests: XCTestCase {
    private let elements: [JSONValue] = [
        ["url": "/a", "headers": ["Accept": ["a", "b"]], "empty": .object([]), "none": .array([])],
        .string("quote \" and\nnewline"),
        .array([1, 2, .array([3])]),
        .null
    ]

    private func whole(
        _ before: [(key: String, value: JSONValue)], _ key: String, _ elements: [JSONValue],
        _ after: [(key: String, value: JSONValue)]
    ) -> [UInt8] {
        AdminResponse.json(.object(before + [(key, .array(elements))] + after)).body
    }

    private func documents() -> [(StreamedJSONObject, [UInt8], String)] {
        let befores: [[(key: String, value: JSONValue)]] = [[], [("first", 1)], [("a", "x"), ("b", ["c": true])]]
        let afters: [[(key: String, value: JSONValue)]] = [
            [], [("meta", ["total": 12])], [("x", false), ("y", .array([]))]
        ]
        var out: [(StreamedJSONObject, [UInt8], String)] = []
        for before in befores {
            for after in afters {
                for count in 0...elements.count {
                    let shown = Array(elements.prefix(count))
                    let document = StreamedJSONObject(before: before, arrayKey: "items", count: count, after: after) {
                        shown[$0]
                    }
                    out.append(
                        (
                            document, whole(before, "items", shown, after),
                            "\(before.count) before, \(count) items, \(after.count) after"
                        ))
                }
            }
        }
        return out
    }

    func testTheDocumentIsByteIdenticalToTheWholeTree() {
        for (document, expected, label) in documents() {
            XCTAssertEqual(
                String(decoding: document.bytes(), as: UTF8.self), String(decoding: expected, as: UTF8.self), label)
            XCTAssertEqual(document.byteCount(), expected.count, label)
        }
    }

    func testTheBodySourceGivesTheSameBytesInEveryPieceSize() {
        for (document, expected, label) in documents() {
            for maxBytes in [1, 2, 3, 7, 64, 1 << 20] {
                let source = StreamedJSONBodySource(document)
                var received: [UInt8] = []
                while let piece = source.next(maxBytes: maxBytes) {
                    XCTAssertLessThanOrEqual(piece.count, maxBytes, label)
                    XCTAssertFalse(piece.isEmpty, label)
                    received += piece
                }
                XCTAssertEqual(received, expected, "\(label), pieces of \(maxBytes)")
                XCTAssertNil(source.next(maxBytes: maxBytes), "stays at the end")
            }
        }
    }

    func testACancelledSourceStops() {
        let source = StreamedJSONBodySource(StreamedJSONObject(arrayKey: "items", count: 3) { _ in "x" })
        XCTAssertNotNil(source.next(maxBytes: 2))
        source.cancel()
        XCTAssertNil(source.next(maxBytes: 2))
    }
}
