import StubModel

#if !Slim && canImport(Glibc)
    import CStubSystem
    import Glibc
    import StubHTTP

    /// One request to an `https://` upstream as a libcurl easy handle, from its options to the complete
    /// answer: run by the ``CurlPoller``, whose thread alone touches it once it is handed over (libcurl
    /// calls ``write`` and the header callback from inside `curl_multi_perform`, on that thread).
    ///
    /// The answer is bounded as the other paths bound it: the response head to
    /// ``UpstreamResponseParser/maxHeadBytes``, the (decoded) body to the proxy's `maxResponseBytes`; going
    /// beyond either aborts the transfer from the callback.
    final class CurlExchange {
        /// The easy handle, cleaned up with this exchange.
        let easy: UnsafeMutableRawPointer
        /// The request's header fields, as libcurl wants them (`Name: value` lines); freed with this exchange.
        private var headerList: UnsafeMutableRawPointer?
        /// libcurl's words for a failure (CURLOPT_ERRORBUFFER, CURL_ERROR_SIZE bytes).
        private let errorBuffer: UnsafeMutablePointer<CChar>
        /// The proxy timeout (libcurl's CURLOPT_TIMEOUT_MS), and when it runs out for this exchange.
        let timeout: Duration
        let deadline: ContinuousClock.Instant
        private let maxBodyBytes: Int
        let completion: @Sendable (UpstreamExchange.Outcome) -> Void

        /// The last response head's fields, in order; an interim (`1xx`) head's are dropped at the next status line.
        private var fields: [(name: String, value: String)] = []
        private var headBytes = 0
        /// Whether the blank line ending the head has come: header lines after it are trailers, not kept.
        private var headEnded = false
        private var body: [UInt8] = []
        /// Why a callback aborted the transfer (head or body too large), reported instead of libcurl's write error.
        private var abort: ProxyFailure.Kind?

        /// Sets up the transfer of `method` `url` with `headers` and `body`.
        /// - Returns: `nil`, after calling `completion`, when libcurl takes no handle or refuses an option.
        init?(
            url: String, method: String, headers: StubHTTPHeaders, body requestBody: [UInt8], timeout: Duration,
            maxBodyBytes: Int, completion: @escaping @Sendable (UpstreamExchange.Outcome) -> Void
        ) {
            guard let easy = cstub_curl_easy_init() else {
                completion(.failed(.unreachable("libcurl could not start a transfer")))
                return nil
            }
            self.easy = easy
            errorBuffer = .allocate(capacity: Int(cstub_CURL_ERROR_SIZE))
            errorBuffer.initialize(repeating: 0, count: Int(cstub_CURL_ERROR_SIZE))
            self.timeout = timeout
            deadline = .now + timeout
            self.maxBodyBytes = maxBodyBytes
            self.completion = completion
            if let refused = configure(url: url, method: method, headers: headers, body: requestBody) {
                completion(
                    .failed(.unreachable("libcurl refused the request: \(Self.words(refused)) (curl error \(refused))"))
                )
                return nil
            }
        }

        deinit {
            cstub_curl_easy_cleanup(easy)
            if let headerList { cstub_curl_slist_free_all(headerList) }
            errorBuffer.deallocate()
        }

        /// Sets the transfer's options; the first error code libcurl returns, or `nil`.
        private func configure(url: String, method: String, headers: StubHTTPHeaders, body: [UInt8]) -> Int32? {
            let context = Unmanaged.passUnretained(self).toOpaque()
            let (seconds, attoseconds) = timeout.components
            let milliseconds = max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
            var codes: [Int32] = [
                url.withCString { cstub_curl_easy_setopt_pointer(easy, Int32(cstub_CURLOPT_URL), $0) },
                cstub_curl_easy_setopt_long(easy, Int32(cstub_CURLOPT_PROTOCOLS), Int(cstub_CURLPROTO_HTTPS)),
                cstub_curl_easy_setopt_long(easy, Int32(cstub_CURLOPT_REDIR_PROTOCOLS), Int(cstub_CURLPROTO_HTTPS)),
                // Redirects go back to the client, as WireMock returns them.
                cstub_curl_easy_setopt_long(easy, Int32(cstub_CURLOPT_FOLLOWLOCATION), 0),
                // No signals from libcurl's resolver or timeouts: this is one thread among many.
                cstub_curl_easy_setopt_long(easy, Int32(cstub_CURLOPT_NOSIGNAL), 1),
                cstub_curl_easy_setopt_long(easy, Int32(cstub_CURLOPT_NOPROGRESS), 1),
                cstub_curl_easy_setopt_long(easy, Int32(cstub_CURLOPT_TIMEOUT_MS), Int(clamping: milliseconds)),
                // Bodies come back decoded (libcurl inflates them), so ask only for what it inflates, as URLSession did.
                "gzip, deflate".withCString {
                    cstub_curl_easy_setopt_pointer(easy, Int32(cstub_CURLOPT_ACCEPT_ENCODING), $0)
                },
                cstub_curl_easy_setopt_pointer(easy, Int32(cstub_CURLOPT_ERRORBUFFER), errorBuffer),
                cstub_curl_easy_setopt_data_function(easy, Int32(cstub_CURLOPT_WRITEFUNCTION)) {
                    data, size, count, context in
                    CurlExchange.of(context)?.take(body: UnsafeRawBufferPointer(start: data, count: size * count)) ?? 0
                },
                cstub_curl_easy_setopt_pointer(easy, Int32(cstub_CURLOPT_WRITEDATA), context),
                cstub_curl_easy_setopt_data_function(easy, Int32(cstub_CURLOPT_HEADERFUNCTION)) {
                    data, size, count, context in
                    CurlExchange.of(context)?.take(headerLine: UnsafeRawBufferPointer(start: data, count: size * count))
                        ?? 0
                },
                cstub_curl_easy_setopt_pointer(easy, Int32(cstub_CURLOPT_HEADERDATA), context)
            ]
            codes += setMethod(method, body: body)
            for line in Self.headerLines(headers) {
                // CURLE_OUT_OF_MEMORY
                guard let appended = line.withCString({ cstub_curl_slist_append(headerList, $0) }) else { return 27 }
                headerList = appended
            }
            if let headerList {
                codes.append(cstub_curl_easy_setopt_pointer(easy, Int32(cstub_CURLOPT_HTTPHEADER), headerList))
            }
            return codes.first { $0 != 0 }
        }

        /// `HEAD` without a body; a body (or `POST`, `PUT`, `PATCH`) as libcurl's copied post fields; any other
        /// method by name.
        private func setMethod(_ method: String, body: [UInt8]) -> [Int32] {
            if method == "HEAD" { return [cstub_curl_easy_setopt_long(easy, Int32(cstub_CURLOPT_NOBODY), 1)] }
            var codes: [Int32] = []
            if !body.isEmpty || ["POST", "PUT", "PATCH"].contains(method) {
                // The size first, so that libcurl copies that many bytes (the body may hold NULs).
                codes.append(
                    cstub_curl_easy_setopt_off_t(easy, Int32(cstub_CURLOPT_POSTFIELDSIZE_LARGE), Int64(body.count)))
                codes.append(
                    (body.isEmpty ? [0] : body).withUnsafeBytes {
                        cstub_curl_easy_setopt_pointer(easy, Int32(cstub_CURLOPT_COPYPOSTFIELDS), $0.baseAddress)
                    })
                if method == "POST" { return codes }
            } else if method == "GET" {
                return codes
            }
            codes.append(
                method.withCString { cstub_curl_easy_setopt_pointer(easy, Int32(cstub_CURLOPT_CUSTOMREQUEST), $0) })
            return codes
        }

        /// `headers` as libcurl's lines: `Name: value`, or `Name;` for an empty value. `Accept-Encoding` is
        /// libcurl's own (what it can decode); a field with CR or LF in it (from a stub file) is left out.
        static func headerLines(_ headers: StubHTTPHeaders) -> [String] {
            let isSafe = { (text: String) in
                !text.utf8.contains(13) && !text.utf8.contains(10) && !text.utf8.contains(0)
            }
            return headers.compactMap { field in
                guard !StubHTTPHeaders.equalsIgnoringCase(field.name, "Accept-Encoding"), isSafe(field.name),
                    isSafe(field.value),
                    !field.name.isEmpty
                else { return nil }
                return field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)"
            }
        }

        /// The exchange a libcurl callback's `context` points to: `configure` passes it, unretained, as WRITEDATA
        /// and HEADERDATA (the exchange outlives its transfer).
        private static func of(_ context: UnsafeMutableRawPointer?) -> CurlExchange? {
            context.map { Unmanaged<CurlExchange>.fromOpaque($0).takeUnretainedValue() }
        }

        /// Takes a piece of the (decoded) body; fewer bytes than given (which aborts the transfer) beyond the limit.
        private func take(body bytes: UnsafeRawBufferPointer) -> Int {
            guard body.count + bytes.count <= maxBodyBytes else {
                abort = .tooLarge(maxBodyBytes)
                return 0
            }
            body.append(contentsOf: bytes)
            return bytes.count
        }

        /// Takes one line of a response head (status line, field, or the blank line ending it), CRLF included.
        private func take(headerLine bytes: UnsafeRawBufferPointer) -> Int {
            headBytes += bytes.count
            guard headBytes <= UpstreamResponseParser.maxHeadBytes else {
                abort = .unreachable(
                    "not a valid HTTP response: a response head longer than \(UpstreamResponseParser.maxHeadBytes) bytes"
                )
                return 0
            }
            var line = String(decoding: bytes, as: UTF8.self)
            while let last = line.last, last == "\r\n" || last == "\n" || last == "\r" { line.removeLast() }
            if line.hasPrefix("HTTP/") {
                // A new head: after an interim 1xx one, or a proxy's answer to CONNECT.
                fields.removeAll()
                headBytes = bytes.count
                headEnded = false
            } else if line.isEmpty {
                headEnded = true
            } else if headEnded {
                // A trailer after a chunked body: not a field of the head.
            } else if let first = line.first, first == " " || first == "\t", !fields.isEmpty {
                fields[fields.count - 1].value += " " + Self.trimmed(Substring(line))
            } else if let colon = line.firstIndex(of: ":") {
                fields.append((Self.trimmed(line[..<colon]), Self.trimmed(line[line.index(after: colon)...])))
            }
            return bytes.count
        }

        private static func trimmed(_ text: Substring) -> String {
            String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        }

        /// How the transfer ended, from libcurl's result code: the answer, or why there is none.
        func outcome(result: Int32) -> UpstreamExchange.Outcome {
            if let abort { return .failed(abort) }
            guard result == 0 else {
                if result == 28 { return .failed(.timedOut(timeout)) }  // CURLE_OPERATION_TIMEDOUT
                var osErrno = 0
                _ = cstub_curl_easy_getinfo_long(easy, Int32(cstub_CURLINFO_OS_ERRNO), &osErrno)
                let message = errorBuffer.pointee == 0 ? Self.words(result) : String(cString: errorBuffer)
                return .failed(.unreachable(Self.reason(result, message: message, osErrno: Int32(clamping: osErrno))))
            }
            var code = 0
            _ = cstub_curl_easy_getinfo_long(easy, Int32(cstub_CURLINFO_RESPONSE_CODE), &code)
            guard code > 0 else { return .failed(.unreachable("no HTTP response")) }
            return .answered(
                HTTPResponse(status: StubHTTPStatus(code: code), headers: Self.passedOn(fields), body: body))
        }

        /// The upstream's header fields to pass on, in their order: all but hop-by-hop and framing fields (its
        /// `Date` too, which the engine then does not add), without `Content-Encoding` for the codings libcurl
        /// inflated.
        static func passedOn(_ fields: [(name: String, value: String)]) -> StubHTTPHeaders {
            var headers = StubHTTPHeaders()
            for field in fields where !ProxyDefinition.isHopByHop(field.name) {
                if StubHTTPHeaders.equalsIgnoringCase(field.name, "Content-Encoding"),
                    ["gzip", "x-gzip", "deflate"].contains(field.value.lowercased())
                {
                    continue
                }
                headers.add(name: field.name, value: field.value)
            }
            return headers
        }

        /// libcurl's words for `code` (curl_easy_strerror).
        static func words(_ code: Int32) -> String {
            cstub_curl_easy_strerror(code).map { String(cString: $0) } ?? "error \(code)"
        }
    }
#endif
