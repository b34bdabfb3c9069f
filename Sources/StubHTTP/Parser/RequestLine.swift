/// Parses a request line, `method SP request-target SP HTTP-version` (RFC 9112 §3), CRLF already removed.
enum RequestLine {
    struct Parts {
        var method: HTTPMethod
        var target: String
        var version: HTTPVersion
    }

    static func parse(_ line: UnsafeBufferPointer<UInt8>) throws(ParserError) -> Parts {
        let count = line.count
        var methodEnd = 0
        while methodEnd < count && ByteClass.isTokenChar(line[methodEnd]) { methodEnd += 1 }
        guard methodEnd > 0, methodEnd < count, line[methodEnd] == ByteClass.space else {
            if methodEnd == count || methodEnd == 0 && count > 0 && line[0] == ByteClass.space {
                throw ParserError(.invalidRequestLine, "request line is not \"method SP target SP version\"")
            }
            throw ParserError(
                .invalidRequestLine,
                "method contains byte \(ByteClass.describe(line[methodEnd])), not a token character")
        }
        let targetStart = methodEnd + 1
        var targetEnd = targetStart
        while targetEnd < count && line[targetEnd] != ByteClass.space { targetEnd += 1 }
        guard targetEnd < count else {
            throw ParserError(.invalidRequestLine, "request line is not \"method SP target SP version\"")
        }

        let version = try parseVersion(UnsafeBufferPointer(rebasing: line[(targetEnd + 1)...]))

        guard targetEnd > targetStart else { throw ParserError(.invalidRequestLine, "request target is empty") }
        for i in targetStart..<targetEnd where !ByteClass.isTargetByte(line[i]) {
            throw ParserError(.invalidRequestLine, "request target contains byte \(ByteClass.describe(line[i]))")
        }
        let methodBytes = UnsafeBufferPointer(rebasing: line[0..<methodEnd])
        let targetBytes = UnsafeBufferPointer(rebasing: line[targetStart..<targetEnd])
        try checkForm(of: targetBytes, method: methodBytes)

        return Parts(
            method: method(methodBytes),
            target: String(decoding: targetBytes, as: UTF8.self),
            version: version)
    }

    /// `HTTP/1.0` or `HTTP/1.1`; another well-formed `HTTP/d.d` is unsupported (505), anything else malformed.
    static func parseVersion(_ bytes: UnsafeBufferPointer<UInt8>) throws(ParserError) -> HTTPVersion {
        guard bytes.count == 8, bytes[0] == UInt8(ascii: "H"), bytes[1] == UInt8(ascii: "T"),
            bytes[2] == UInt8(ascii: "T"), bytes[3] == UInt8(ascii: "P"), bytes[4] == UInt8(ascii: "/"),
            ByteClass.isDigit(bytes[5]), bytes[6] == UInt8(ascii: "."), ByteClass.isDigit(bytes[7])
        else {
            throw ParserError(.invalidRequestLine, "HTTP version is not \"HTTP/1.1\" or \"HTTP/1.0\"")
        }
        let major = Int(bytes[5] &- UInt8(ascii: "0")), minor = Int(bytes[7] &- UInt8(ascii: "0"))
        guard major == 1, minor <= 1 else {
            throw ParserError(.unsupportedVersion, "HTTP/\(major).\(minor) is not supported; use HTTP/1.1")
        }
        return minor == 1 ? .http1_1 : .http1_0
    }

    /// Origin-form (`/…`) or absolute-form (`scheme://…`) for any method, `*` only for OPTIONS, and authority-form
    /// (`host:port`) only for CONNECT.
    static func checkForm(of target: UnsafeBufferPointer<UInt8>, method: UnsafeBufferPointer<UInt8>) throws(ParserError)
    {
        let first = target[0]
        if method.elementsEqual("CONNECT".utf8) {
            // authority-form: host ":" port, no path.
            guard first != UInt8(ascii: "/"), target.contains(ByteClass.colon), !target.contains(UInt8(ascii: "/"))
            else {
                throw ParserError(.invalidRequestLine, "CONNECT needs an authority-form target \"host:port\"")
            }
            return
        }
        if first == UInt8(ascii: "/") { return }
        if target.count == 1 && first == UInt8(ascii: "*") {
            guard method.elementsEqual("OPTIONS".utf8) else {
                throw ParserError(.invalidRequestLine, "request target \"*\" is only allowed with OPTIONS")
            }
            return
        }
        // absolute-form with an authority: scheme "://", scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
        guard ByteClass.isAlpha(first) else {
            throw ParserError(.invalidRequestLine, "request target must start with \"/\" or be an absolute URI")
        }
        var i = 1
        while i < target.count {
            let c = target[i]
            if c == ByteClass.colon {
                if i + 2 < target.count && target[i + 1] == UInt8(ascii: "/") && target[i + 2] == UInt8(ascii: "/") {
                    return
                }
                break
            }
            guard
                ByteClass.isAlpha(c) || ByteClass.isDigit(c) || c == UInt8(ascii: "+") || c == UInt8(ascii: "-")
                    || c == UInt8(ascii: ".")
            else { break }
            i += 1
        }
        throw ParserError(.invalidRequestLine, "request target must start with \"/\" or be an absolute URI")
    }

    /// The method, sharing the common constants' storage.
    @inline(__always)
    static func method(_ bytes: UnsafeBufferPointer<UInt8>) -> HTTPMethod {
        if bytes.count == 3 && bytes[0] == UInt8(ascii: "G") && bytes[1] == UInt8(ascii: "E")
            && bytes[2] == UInt8(ascii: "T")
        {
            return .get
        }
        return HTTPMethod(String(decoding: bytes, as: UTF8.self))
    }
}
