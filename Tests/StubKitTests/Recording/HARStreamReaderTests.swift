import Foundation
import Testing

@testable import StubKit
@testable import StubProxy

/// A HAR file is read entry by entry, holding the largest entry rather than the file.
@Suite("HAR capture: read entry by entry")
struct HARStreamReaderTests {
    @Test("A 4 MiB capture of 10 KiB entries holds well under the file at once, and reads as the whole-file parse does")
    func boundedByTheLargestEntry() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("har-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("big.har")
        let body = String(repeating: "x", count: 10_000)
        let entries = (0..<420).map { index in
            #"{"request": {"method": "GET", "url": "https://api.example.com/items/\#(index)", "headers": [{"name": "Accept", "value": "*/*"}]},"#
                + #" "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "text/plain"}], "content": {"size": 10000, "mimeType": "text/plain", "text": "\#(body)"}}}"#
        }
        let document =
            #"{"log": {"version": "1.2", "entries": [\#n"# + entries.joined(separator: ",\n")
            + #"], "pages": [{"id": "page_1"}], "creator": {"name": "Test", "version": "1"}}}"#
        let bytes = Array(document.utf8)
        try Data(bytes).write(to: file)
        #expect(bytes.count > 4 << 20)

        let (capture, bytesHeld) = try HARStreamReader.capture(path: file.path, file: "big.har")
        #expect(bytesHeld < 512 << 10, "held \(bytesHeld) bytes of a \(bytes.count)-byte file")
        let whole = try HARCapture.parse(bytes, file: "big.har")
        #expect(capture.creator == "Test 1")
        #expect(capture.creator == whole.creator)
        #expect(capture.entries == whole.entries)
        #expect(try HARCapture.load(file).entries.count == 420)
    }

    @Test(
        "The fixtures read entry by entry exactly as parsed whole",
        arguments: ["chrome-devtools.har", "charles-proxy.har"])
    func fixtures(name: String) throws {
        let url = HARCaptureTests.fixtures.appendingPathComponent(name)
        let streamed = try HARStreamReader.capture(path: url.path, file: name).0
        let whole = try HARCapture.parse(Array(try Data(contentsOf: url)), file: name)
        #expect(streamed.creator == whole.creator)
        #expect(streamed.entries == whole.entries)
    }

    @Test(
        "A file that is not a valid HAR document is named as the whole-file parse names it",
        arguments: [
            ("{\"log\": {\n  \"entries\": [,]}}", "x.har:2:15: not a HAR file: unexpected ',', expected a value"),
            (
                #"{"log": {"entries": [{"request": {"method": "GET", "url": "/"}, "response": {"status": 200}}, {"response": {}}]}}"#,
                "x.har: log.entries[1]: missing 'request'"
            ),
            (#"{"log": {"entries": []}, "log": 1}"#, "x.har:1:26: not a HAR file: duplicate key 'log' in object"),
            (#"{"log": {"entries": []}} x"#, "x.har:1:26: not a HAR file: unexpected 'x' after the JSON value")
        ])
    func errors(document: String, message: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("har-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("x.har")
        try Data(document.utf8).write(to: file)
        #expect(throws: HARStreamReader.GiveUp.self) { try HARStreamReader.capture(path: file.path, file: "x.har") }
        do {
            _ = try HARCapture.load(file, displayPath: "x.har")
            Issue.record("no error for \(document)")
        } catch {
            #expect(error.description == message)
        }
    }
}
