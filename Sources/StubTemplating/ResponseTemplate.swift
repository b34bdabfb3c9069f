import StubHTTP
import StubModel

/// A stub response with templated parts (WireMock's `response-template` transformer), compiled when the
/// stub enters the route table (and reused while it is unchanged), rendered per request within
/// ``TemplateLimits`` (see ``StubRequestHandler`` for where: on the event loop while it is short).
///
/// Templated: header values, `body`, the string values of `jsonBody`, the contents of `bodyFileName`
/// and the file name itself, and a streamed response's events and lines (``StreamTemplate``). A templated file name picks among files read when the stub loaded
/// (``BodyFileSet``, compiled as ``TemplatedBodyFiles``), so no file is read while serving. Status and reason are not templated (as WireMock 2).
package final class ResponseTemplate: Sendable {
    /// A template problem in one part of a response.
    package struct Failure: Error {
        /// The field, as in a stub file: `body`, `headers.X-Id`, `jsonBody.user.login`, `bodyFileName`.
        package let field: [String]
        /// The file inside `__files` the template came from, for `bodyFileName`.
        let bodyFile: String?
        let error: TemplateError

        package init(field: [String], bodyFile: String?, error: TemplateError) {
            self.field = field
            self.bodyFile = bodyFile
            self.error = error
        }

        package var message: String {
            let inFile = bodyFile.map { " in '\($0)'" } ?? ""
            return "template error\(inFile) at \(error.line):\(error.column): \(error.message)"
        }
    }

    enum HeaderValue: Sendable {
        case fixed(String)
        case template(Template)
    }

    enum Body: Sendable {
        case fixed([UInt8])
        case template(Template)
        case json(TemplatedJSON)
        /// `bodyFileName` with a templated name, over the candidate files read at load time.
        case file(name: Template, files: TemplatedBodyFiles)
    }

    let status: StubHTTPStatus
    /// The response's own headers, then `Matched-Stub-Id` (and `Matched-Stub-Name`).
    let headers: [(name: String, value: HeaderValue)]
    /// How many of ``headers`` are the response's own (before the stub's id and name).
    private let ownHeaderCount: Int
    let body: Body
    /// The events or lines of a streamed response (its body is then empty).
    let stream: StreamTemplate?
    /// The stub, as messages name it: `'name' (id)` or `id`.
    let stubLabel: String
    /// How many times the stub has rendered, for seeded fake data; `nil` when no template calls `fake`.
    let fakeDataRenders: FakeDataRenders?

    /// Compiles every templated part of `definition`.
    /// - Parameter bodyFileName: the templated `bodyFileName`, when the caller parsed it already (to check it
    ///   before reading the files it could name).
    /// - Throws: ``Failure`` naming the part and the position in its template.
    package init(
        _ definition: ResponseDefinition, stubID: String, stubName: String?, bodyFileName: Template? = nil
    ) throws(Failure) {
        status = StubHTTPStatus(code: definition.status, reasonPhrase: definition.statusMessage)
        var headers: [(name: String, value: HeaderValue)] = []
        for field in definition.headersWithStreamDefaults {
            headers.append((field.name, try Self.headerValue(field)))
        }
        ownHeaderCount = headers.count
        self.headers = headers + Self.stubHeaders(stubID: stubID, stubName: stubName)
        stubLabel = Self.stubLabel(stubID: stubID, stubName: stubName)
        let body = definition.stream == nil ? try Self.compileBody(definition, fileName: bodyFileName) : .fixed([])
        self.body = body
        do {
            stream = try definition.stream.map(StreamTemplate.init)
        } catch {
            throw Failure(field: ["metadata", "stubserver"] + error.field, bodyFile: nil, error: error.error)
        }
        let usesFakeData = (Self.fieldTemplates(headers: headers, body: body) + (stream?.templates ?? [])).contains {
            $0.template.usesFakeData
        }
        fakeDataRenders = usesFakeData ? FakeDataRenders(stubID: stubID) : nil
    }

    /// This template, parsed already, for the stub `stubID` (named `stubName`): nothing is parsed again.
    package func bound(stubID: String, stubName: String?) -> ResponseTemplate {
        ResponseTemplate(self, stubID: stubID, stubName: stubName)
    }

    private init(_ parsed: ResponseTemplate, stubID: String, stubName: String?) {
        status = parsed.status
        ownHeaderCount = parsed.ownHeaderCount
        headers =
            Array(parsed.headers.prefix(parsed.ownHeaderCount)) + Self.stubHeaders(stubID: stubID, stubName: stubName)
        body = parsed.body
        stream = parsed.stream
        stubLabel = Self.stubLabel(stubID: stubID, stubName: stubName)
        fakeDataRenders = parsed.fakeDataRenders == nil ? nil : FakeDataRenders(stubID: stubID)
    }

    private static func stubHeaders(stubID: String, stubName: String?) -> [(name: String, value: HeaderValue)] {
        [("Matched-Stub-Id", .fixed(stubID))] + (stubName.map { [("Matched-Stub-Name", .fixed($0))] } ?? [])
    }

    private static func stubLabel(stubID: String, stubName: String?) -> String {
        stubName.map { "'\($0)' (\(stubID))" } ?? stubID
    }

    /// The helpers stubserver does not implement, by the field that calls them (`body`, `headers.X`,
    /// `jsonBody`, `bodyFileName`), each field once per helper.
    package var unknownHelpers: [(field: String, helper: String)] {
        var found: [(field: String, helper: String)] = []
        for (name, value) in headers {
            if case let .template(template) = value { found += template.unknownHelpers.map { ("headers.\(name)", $0) } }
        }
        switch body {
        case .fixed: break
        case let .template(template): found += template.unknownHelpers.map { ("body", $0) }
        case let .json(json): found += json.unknownHelpers.map { ("jsonBody", $0) }
        case let .file(name, files):
            found += (name.unknownHelpers + files.unknownHelpers).map { ("bodyFileName", $0) }
        }
        for (field, template) in stream?.templates ?? [] { found += template.unknownHelpers.map { (field, $0) } }
        return found
    }

    private static func headerValue(_ field: StubHTTPHeaders.Field) throws(Failure) -> HeaderValue {
        guard Template.hasTags(field.value.utf8) else { return .fixed(field.value) }
        do {
            return .template(try Template(field.value))
        } catch {
            throw Failure(field: ["headers", field.name], bodyFile: nil, error: error)
        }
    }

    private static func compileBody(_ definition: ResponseDefinition, fileName: Template?) throws(Failure) -> Body {
        switch definition.body {
        case .none:
            return .fixed([])
        case let .text(text):
            do { return .template(try Template(text)) } catch {
                throw Failure(field: ["body"], bodyFile: nil, error: error)
            }
        case let .json(value):
            return .json(try TemplatedJSON(value, at: ["jsonBody"]))
        case let .bytes(bytes):
            return .fixed(bytes)
        case let .file(name, bytes):
            if let set = definition.bodyFileSet {
                let nameTemplate: Template
                if let fileName {
                    nameTemplate = fileName
                } else {
                    do { nameTemplate = try Template(name) } catch {
                        throw Failure(field: ["bodyFileName"], bodyFile: nil, error: error)
                    }
                }
                return .file(name: nameTemplate, files: try TemplatedBodyFiles(set))
            }
            do { return .template(try Template(bytes: bytes)) } catch {
                throw Failure(field: ["bodyFileName"], bodyFile: name, error: error)
            }
        }
    }

    /// A rendered response: its body in the response, or, for a large one rendered with `spills`, in a file.
    package struct Rendered {
        package var response: HTTPResponse
        /// The body, when it spilled to a file (``TemplateOutput``): the response's own body is then empty.
        package var spilledBody: TemplateSpillFile?
        /// The events or lines of a streamed response, rendered for the request.
        package var stream: PreparedStream?

        package init(response: HTTPResponse, spilledBody: TemplateSpillFile? = nil, stream: PreparedStream? = nil) {
            self.response = response
            self.spilledBody = spilledBody
            self.stream = stream
        }
    }

    /// The response for `request`, or the limit its render reached (the output is then dropped).
    /// - Parameter spills: the body may spill to a temporary file past ``TemplateOutput/spillThreshold``
    ///   (a render thread's render; never on an event loop).
    /// - Parameter fakeSeed: the seed of this request's fake data (``nextFakeDataSeed(_:)``), or `nil`.
    /// - Parameter data: the server's data store, which the `data` helper reads; `nil` makes it write an error.
    package func render(
        _ request: StubHTTPRequest, pathParameters: [String: String], serverOrigin: String,
        limits: TemplateLimits, spills: Bool = false, fakeSeed: UInt64? = nil, data: (any TemplateDataSource)? = nil
    ) -> Result<Rendered, TemplateLimitExceeded> {
        var context = TemplateContext(
            request, pathParameters: pathParameters, serverOrigin: serverOrigin, limits: limits, fakeSeed: fakeSeed,
            data: data)
        var fields = StubHTTPHeaders()
        for (name, value) in headers {
            switch value {
            case let .fixed(text):
                fields.add(name: name, value: text)
            case let .template(template):
                var out = TemplateOutput()
                template.render(in: &context, into: &out)
                if let exceeded = context.exceeded { return .failure(exceeded) }
                // A rendered value must stay one header line.
                for index in out.bytes.indices
                where out.bytes[index] == 0x0D || out.bytes[index] == 0x0A || out.bytes[index] == 0x00 {
                    out.bytes[index] = 0x20
                }
                fields.add(name: name, value: String(decoding: out.bytes, as: UTF8.self))
            }
        }
        var status = status
        var out = TemplateOutput(spills: spills)
        switch body {
        case let .fixed(bytes):
            out.bytes = bytes
        case let .template(template):
            template.render(in: &context, into: &out)
        case let .json(json):
            json.render(in: &context, into: &out)
        case let .file(nameTemplate, files):
            var name = TemplateOutput()
            nameTemplate.render(in: &context, into: &name)
            if let exceeded = context.exceeded { return .failure(exceeded) }
            let fileName = String(decoding: name.bytes, as: UTF8.self)
            if let template = files.template(named: fileName) {
                template.render(in: &context, into: &out)
            } else {
                status = .internalServerError
                fields = ["Content-Type": "text/plain; charset=utf-8"]
                out = TemplateOutput()
                out.bytes = Array(
                    "stubserver: templated bodyFileName '\(fileName)' is not among the \(files.count) files read from \(files.displayPath) when the stub loaded\n"
                        .utf8)
            }
        }
        let renderedStream = stream.map { $0.render(in: &context) }
        if let exceeded = context.exceeded { return .failure(exceeded) }
        if let failure = context.evaluator.failure {
            return .success(
                Rendered(
                    response: HTTPResponse(
                        status: .internalServerError,
                        headers: ["Content-Type": "text/plain; charset=utf-8"],
                        body: Array("stubserver: stub \(stubLabel): \(failure)\n".utf8))))
        }
        guard out.spilled != nil else {
            return .success(
                Rendered(
                    response: HTTPResponse(status: status, headers: fields, body: out.bytes), stream: renderedStream))
        }
        guard out.finishSpill() else {
            return .success(
                Rendered(
                    response: HTTPResponse(
                        status: .internalServerError,
                        headers: ["Content-Type": "text/plain; charset=utf-8"],
                        body: Array(
                            "stubserver: stub \(stubLabel): the rendered body (\(out.count) bytes) could not be written to its temporary file\n"
                                .utf8))))
        }
        return .success(Rendered(response: HTTPResponse(status: status, headers: fields), spilledBody: out.spilled))
    }

    /// The `500` for a render that reached a limit, naming the stub and the limit.
    package func overLimitResponse(_ exceeded: TemplateLimitExceeded) -> HTTPResponse {
        HTTPResponse(
            status: .internalServerError, headers: ["Content-Type": "text/plain; charset=utf-8"],
            body: Array("\(overLimitMessage(exceeded))\n".utf8))
    }

    /// `stubserver: stub 'name' (id): response template stopped at the template limit of …`.
    package func overLimitMessage(_ exceeded: TemplateLimitExceeded) -> String {
        "stubserver: stub \(stubLabel): response template stopped at \(exceeded); raise it if the template is meant to be this large"
    }
}
