// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation

    /// A temporary folder holding a `stubs/` directory built file by file; removed on deinit.
    ///
    /// Run the server with `currentDirectory: temp.root` and `--stubs stubs`, so messages name
    /// `stubs/mappings/…` as a user would see them.
    final class TemporaryStubs: @unchecked Sendable {
        /// The temporary folder (the server's working directory).
        let root: URL
        /// `root/stubs`.
        let stubs: URL

        init() throws {
            root = FileManager.default.temporaryDirectory
                .appendingPathComponent("stubserver-e2e-\(UUID().uuidString)", isDirectory: true)
            stubs = root.appendingPathComponent("stubs", isDirectory: true)
            try FileManager.default.createDirectory(
                at: stubs.appendingPathComponent("mappings"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(
                at: stubs.appendingPathComponent("__files"), withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        /// Writes `contents` to `stubs/<relativePath>`, creating folders; replaces the file atomically.
        func write(_ relativePath: String, _ contents: String) throws {
            try write(relativePath, data: Data(contents.utf8))
        }

        /// Writes `data` to `stubs/<relativePath>`, creating folders; replaces the file atomically.
        func write(_ relativePath: String, data: Data) throws {
            let url = stubs.appendingPathComponent(relativePath)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        }

        /// Writes `contents` to `<root>/<relativePath>`, outside the stubs directory.
        func writeOutside(_ relativePath: String, _ contents: String) throws -> URL {
            let url = root.appendingPathComponent(relativePath)
            try Data(contents.utf8).write(to: url)
            return url
        }

        /// Creates `stubs/<relativePath>` as a symbolic link to `destination`.
        func symlink(_ relativePath: String, to destination: URL) throws {
            try FileManager.default.createSymbolicLink(
                at: stubs.appendingPathComponent(relativePath),
                withDestinationURL: destination)
        }
    }

    /// A WireMock mapping `GET url → 200 body` as JSON text, with optional extra top-level fields.
    func simpleMapping(
        _ url: String, body: String, urlField: String = "urlPath", priority: Int? = nil,
        name: String? = nil, extra: String = ""
    ) -> String {
        var fields: [String] = []
        if let name { fields.append("\"name\": \"\(name)\"") }
        if let priority { fields.append("\"priority\": \(priority)") }
        fields.append("\"request\": {\"method\": \"GET\", \"\(urlField)\": \"\(url)\"}")
        fields.append(
            "\"response\": {\"status\": 200, \"body\": \"\(body)\", \"headers\": {\"Content-Type\": \"text/plain\"}}")
        if !extra.isEmpty { fields.append(extra) }
        return "{" + fields.joined(separator: ", ") + "}"
    }
#endif
