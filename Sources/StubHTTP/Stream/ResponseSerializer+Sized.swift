/// The head of a response whose body is produced later but whose length is known now.
extension ResponseSerializer {
    /// Appends status line, the handler's headers, `Content-Length: contentLength` (unless the status
    /// forbids a body), `Date` and `Connection`. The body follows as raw bytes (none for `HEAD`).
    static func serializeSizedHead(
        _ head: HTTPResponse, contentLength: Int, context: ResponseContext,
        dateLine: [UInt8], into out: inout [UInt8]
    ) {
        let carriesDate = appendStatusAndHeaders(head, into: &out)
        let code = head.status.code
        if !(code < 200 || code == 204 || code == 304) {
            out.append(contentsOf: "Content-Length: ".utf8)
            appendDecimal(contentLength, into: &out)
            out.append(contentsOf: crlf)
        }
        appendTail(context: context, dateLine: carriesDate ? [] : dateLine, into: &out)
    }
}
