import StubHTTP
import StubModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Walks a parsed HAR document, keeping the JSON path for messages.
struct HARReader {
    let file: String

    func error(_ path: String, _ message: String) -> HARError { HARError(file: file, path: path, message) }

    func capture(_ document: JSONValue) throws(HARError) -> HARCapture {
        guard case .object = document else { throw error("", "not a HAR file: expected an object with a 'log' member") }
        guard let log = document["log"] else { throw error("", "not a HAR file: no 'log' member") }
        let logObject = try object(log, "log")
        let creator = try logObject["creator"].flatMap { (value) throws(HARError) in try self.creator(value) }
        guard let entriesValue = logObject["entries"] else { throw error("log", "no 'entries' member") }
        guard case .array(let entries) = entriesValue else {
            throw error("log.entries", "expected an array, found \(kind(entriesValue))")
        }
        var result: [HARCapture.Entry] = []
        for (index, entry) in entries.enumerated() {
            result.append(try self.entry(entry, index: index))
        }
        return HARCapture(creator: creator, entries: result)
    }

    /// `log.creator`'s name and version (`WebInspector 537.36`), or nil when both are absent.
    func creator(_ value: JSONValue) throws(HARError) -> String? {
        let creatorObject = try object(value, "log.creator")
        let creator = [
            try optionalString(creatorObject["name"], "log.creator.name"),
            try optionalString(creatorObject["version"], "log.creator.version")
        ]
        .compactMap { $0 }.joined(separator: " ")
        return creator.isEmpty ? nil : creator
    }

    func entry(_ value: JSONValue, index: Int) throws(HARError) -> HARCapture.Entry {
        let path = "log.entries[\(index)]"
        let entry = try object(value, path)
        let request = try object(try required(entry["request"], path, "request"), path + ".request")
        let response = try object(try required(entry["response"], path, "response"), path + ".response")
        let method = try string(try required(request["method"], path + ".request", "method"), path + ".request.method")
        let url = try string(try required(request["url"], path + ".request", "url"), path + ".request.url")
        let requestBody = try postData(request["postData"], path + ".request.postData")
        let status = try integer(
            try required(response["status"], path + ".response", "status"), path + ".response.status")
        let responseHeaders = try headers(response["headers"], path + ".response.headers")
        let (body, missing) = try content(
            response["content"], path + ".response.content",
            contentType: responseHeaders.first(name: "Content-Type"))
        let (host, port) = Self.hostAndPort(url)
        let exchange = RecordedExchange(
            request: .init(
                method: method, url: url, headers: try headers(request["headers"], path + ".request.headers"),
                body: requestBody),
            response: .init(status: status, headers: responseHeaders, body: body))
        return HARCapture.Entry(index: index, host: host, port: port, exchange: exchange, isMissingContent: missing)
    }

    /// `response.content`: the body, and whether the file left out a body the response had.
    private func content(_ value: JSONValue?, _ path: String, contentType: String?) throws(HARError) -> ([UInt8], Bool)
    {
        guard let value, value != .null else { return ([], false) }
        let content = try object(value, path)
        let size = try content["size"].map { (size) throws(HARError) in try integer(size, path + ".size") } ?? 0
        guard let text = try optionalString(content["text"], path + ".text") else { return ([], size > 0) }
        let mimeType = try optionalString(content["mimeType"], path + ".mimeType") ?? contentType
        return (
            try decode(
                text, encoding: try optionalString(content["encoding"], path + ".encoding"),
                mimeType: mimeType, path), false
        )
    }

    /// `request.postData.text`, decoded like content; empty without `postData` or `text`.
    private func postData(_ value: JSONValue?, _ path: String) throws(HARError) -> [UInt8] {
        guard let value, value != .null else { return [] }
        let postData = try object(value, path)
        guard let text = try optionalString(postData["text"], path + ".text") else { return [] }
        return try decode(
            text, encoding: try optionalString(postData["encoding"], path + ".encoding"),
            mimeType: try optionalString(postData["mimeType"], path + ".mimeType"), path)
    }

    /// The bytes of a `text`: base64-decoded for `"base64"`, else the text in its media type's
    /// charset when that is Latin-1, else UTF-8.
    private func decode(_ text: String, encoding: String?, mimeType: String?, _ path: String) throws(HARError)
        -> [UInt8]
    {
        switch encoding?.lowercased() {
        case nil, "": break
        case "base64":
            let compact = text.filter { !$0.isWhitespace }
            guard let data = Data(base64Encoded: compact) else {
                throw error(path + ".text", "'encoding' is \"base64\" but the text is not valid base64")
            }
            return [UInt8](data)
        case let other?:
            throw error(path + ".encoding", "unsupported encoding \"\(other)\"; HAR 1.2 knows only \"base64\"")
        }
        let charset = mimeType?.lowercased() ?? ""
        if charset.contains("charset=iso-8859-1") || charset.contains("charset=latin1"),
            let data = text.data(using: .isoLatin1)
        {
            return [UInt8](data)
        }
        return Array(text.utf8)
    }

    private func headers(_ value: JSONValue?, _ path: String) throws(HARError) -> StubHTTPHeaders {
        guard let value, value != .null else { return [:] }
        guard case .array(let items) = value else { throw error(path, "expected an array, found \(kind(value))") }
        var headers = StubHTTPHeaders()
        for (index, item) in items.enumerated() {
            let itemPath = "\(path)[\(index)]"
            let field = try object(item, itemPath)
            let name = try string(try required(field["name"], itemPath, "name"), itemPath + ".name")
            let text = try string(try required(field["value"], itemPath, "value"), itemPath + ".value")
            headers.add(name: name, value: text)
        }
        return headers
    }

    /// Host (lowercased) and port of an absolute URL; empty and `nil` for a relative one.
    static func hostAndPort(_ url: String) -> (String, Int?) {
        guard let scheme = url.firstRange(of: "://") else { return ("", nil) }
        let rest = url[scheme.upperBound...]
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {  // [::1]:8080
            let port = authority[authority.index(after: close)...].dropFirst()
            return (String(authority[...close]).lowercased(), Int(port))
        }
        if let colon = authority.lastIndex(of: ":") {
            return (String(authority[..<colon]).lowercased(), Int(authority[authority.index(after: colon)...]))
        }
        return (String(authority).lowercased(), nil)
    }
}
