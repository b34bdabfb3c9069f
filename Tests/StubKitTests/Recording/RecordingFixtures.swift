import Foundation
import StubHTTP

@testable import StubKit

/// A temporary stubs directory for writer tests, removed when the test ends.
final class WriterFolder {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "writer-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    func write(_ exchanges: [RecordedExchange], options: StubWriter.Options = .init()) throws -> RecordingSummary {
        try StubWriter(root: root, displayRoot: "Stubs", options: options).write(exchanges)
    }

    func text(_ relative: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
    }

    func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(relative)))
    }

    func put(_ relative: String, _ text: String) throws {
        let url = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// Every file under the folder, relative, sorted.
    func files() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var names: [String] = []
        while let name = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root.path + "/" + name, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                names.append(name)
            }
        }
        return names.sorted()
    }

    /// Everything written, as one string: what secrets must be absent from.
    func allText() -> String {
        files().compactMap { try? text($0) }.joined(separator: "\n")
    }

    func load() throws -> [StubMapping] {
        try StubsDirectory.load(root, displayRoot: "Stubs").mappings
    }
}

extension RecordedExchange {
    /// A JSON exchange: `GET url` answered `status` with `body`.
    static func json(
        _ url: String, method: String = "GET", status: Int = 200, body: String,
        requestHeaders: HTTPHeaders = [:], responseHeaders: HTTPHeaders = [:],
        requestBody: String = ""
    ) -> RecordedExchange {
        var headers: HTTPHeaders = ["Content-Type": "application/json; charset=utf-8"]
        for field in responseHeaders { headers.add(name: field.name, value: field.value) }
        return RecordedExchange(
            request: .init(method: method, url: url, headers: requestHeaders, body: Array(requestBody.utf8)),
            response: .init(status: status, headers: headers, body: Array(body.utf8)))
    }
}

extension StubMapping {
    /// Whether the mapping's request pattern matches `method url` with `headers` and `body`.
    func matches(_ method: String, _ url: String, headers: HTTPHeaders = [:], body: String = "") -> Bool {
        CompiledRequestPattern(request).match(
            HTTPRequest(method: HTTPMethod(method), target: url, headers: headers, body: Array(body.utf8))
        ).isMatch
    }

    /// The bytes of a file body.
    var bodyBytes: [UInt8]? {
        guard case .file(_, let bytes) = response.body else { return nil }
        return bytes
    }
}
