import StubLoading
import StubModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The entries of a HAR 1.2 file (HTTP Archive: what Safari's and Chrome's Web Inspector, Charles,
/// Proxyman and most proxies export), as exchanges for ``StubWriter``.
///
/// ```swift
/// let capture = try HARCapture.load(URL(fileURLWithPath: "capture.har"))
/// let github = capture.entries.filter { $0.host == "api.github.com" }
/// let summary = try StubWriter(root: URL(fileURLWithPath: "Stubs")).write(github.map(\.exchange))
/// ```
///
/// Read from each `log.entries[i]`: `request.method`, `request.url` (absolute: its host is
/// ``Entry/host``, its path and query the stub's URL), `request.headers`, `request.postData.text`,
/// `response.status`, `response.headers` and `response.content.text`, base64-decoded when
/// `content.encoding` is `"base64"` (and `postData.encoding` likewise, as some tools write it).
/// Fields the format requires but exporters leave out (`headers`, `content`, `postData`) are taken
/// as empty; a field present with the wrong type is an error naming the entry.
public struct HARCapture: Sendable {
    /// One `log.entries[i]`.
    public struct Entry: Sendable, Hashable {
        /// Its position in `log.entries`.
        public var index: Int
        /// The request URL's host, lowercased (`api.github.com`); empty for a URL without one.
        public var host: String
        /// The request URL's port when it names one (`8080`).
        public var port: Int?
        public var exchange: RecordedExchange
        /// Whether the response says it had a body (`content.size` > 0) that the file does not hold
        /// (`content.text` missing), as when a capture is exported without content.
        public var isMissingContent: Bool
    }

    /// `log.creator.name` and `version` (`WebInspector 537.36`, `Charles Proxy 4.6.4`), if given.
    public var creator: String?
    /// The entries in file order.
    public var entries: [Entry]

    /// The largest HAR file read: 1 GiB.
    public static let maximumFileSize = 1 << 30

    /// Reads and parses a HAR file, entry by entry: it holds the largest entry and the entries, not the
    /// whole file (a file that is not a valid HAR document is then parsed whole to name the problem).
    /// - Parameters:
    ///   - url: the HAR file.
    ///   - displayPath: How the file is named in errors; defaults to the path as given.
    /// - Throws: ``HARError`` naming the file, and the entry and field when one is wrong.
    public static func load(_ url: URL, displayPath: String? = nil) throws(HARError) -> HARCapture {
        let display = displayPath ?? url.relativePath
        let data: Data
        do {
            let size =
                switch try FileManager.default.attributesOfItem(atPath: url.path)[.size] {
                case let size as Int: size
                case let size as UInt64: Int(clamping: size)
                default: 0
                }
            guard size <= maximumFileSize else {
                throw HARError(
                    file: display, path: "",
                    "is \(size >> 20) MiB; HAR files up to \(maximumFileSize >> 20) MiB are read")
            }
            if let (capture, _) = try? HARStreamReader.capture(path: url.path, file: display) { return capture }
            // Not a HAR document the stream accepts: parsed whole, which names the problem.
            data = try Data(contentsOf: url)
        } catch let error as HARError {
            throw error
        } catch {
            throw HARError(file: display, path: "", "cannot read file: \(FileErrorReason.describe(error))")
        }
        return try parse([UInt8](data), file: display)
    }

    /// Parses the bytes of a HAR file.
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - file: How the file is named in errors.
    public static func parse(_ bytes: [UInt8], file: String) throws(HARError) -> HARCapture {
        let document: JSONValue
        do {
            // Some Windows tools (Fiddler) start the file with a UTF-8 byte order mark.
            let hasBOM = bytes.starts(with: [0xEF, 0xBB, 0xBF])
            document = try JSONParser.parse(hasBOM ? Array(bytes.dropFirst(3)) : bytes)
        } catch {
            throw HARError(
                file: file, path: "", "not a HAR file: " + error.message, position: (error.line, error.column))
        }
        return try HARReader(file: file).capture(document)
    }
}
