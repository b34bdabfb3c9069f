import StubHTTP

/// One endpoint of the admin API: its method, its path below `/__admin`, and the call that answers it.
///
/// ``AdminRoute/table`` lists them all; resolving a request (404 for an unknown path, 405 naming the
/// methods a known path allows) and telling the listings (streamed as they are serialized) from the other
/// calls both come from it. Adding an endpoint is one row here and its handler in an `AdminAPI+…` file.
struct AdminRoute: Sendable {
    /// How the endpoint answers, given the path's parameters in order.
    enum Answer: Sendable {
        /// A whole response.
        case response(@Sendable (AdminAPI, StubHTTPRequest, _ parameters: [String]) throws(AdminError) -> HTTPResponse)
        /// A JSON document that can be large: streamed as it is serialized once it is longer than the
        /// engine's buffer.
        case listing(
            @Sendable (AdminAPI, StubHTTPRequest, _ parameters: [String]) throws(AdminError) -> StreamedJSONObject)
        /// A file under `__files`: sent whole when small, else streamed from disk.
        case file
        /// A stream that stays open (server-sent events), answered through the responder itself; the
        /// executor runs its work off the event loop.
        case live(@Sendable (AdminAPI, StubHTTPRequest, HTTPResponder, HTTPBodyExecutor) -> Void)

        /// A whole response from `call`, which reads nothing of the request (`.plain(AdminAPI.health)`).
        static func plain(_ call: @escaping @Sendable (AdminAPI) -> () throws(AdminError) -> HTTPResponse) -> Answer {
            .response { api, _, _ throws(AdminError) in try call(api)() }
        }

        /// A whole response from `call`, given the request's body (`.body(AdminAPI.createMapping)`).
        static func body(
            _ call: @escaping @Sendable (AdminAPI) -> ([UInt8]) throws(AdminError) -> HTTPResponse
        ) -> Answer {
            .response { api, request, _ throws(AdminError) in try call(api)(request.body) }
        }

        /// A whole response from `call`, given the path's one parameter (`.parameter(AdminAPI.getMapping)`).
        static func parameter(
            _ call: @escaping @Sendable (AdminAPI) -> (String) throws(AdminError) -> HTTPResponse
        ) -> Answer {
            .response { api, _, parameters throws(AdminError) in try call(api)(parameters[0]) }
        }

        /// A whole response from `call`, given the path's one parameter and the request's body
        /// (`.parameterAndBody(AdminAPI.updateMapping)`).
        static func parameterAndBody(
            _ call: @escaping @Sendable (AdminAPI) -> (String, [UInt8]) throws(AdminError) -> HTTPResponse
        ) -> Answer {
            .response { api, request, parameters throws(AdminError) in try call(api)(parameters[0], request.body) }
        }

        /// A whole response from `call`, given the whole request (`.request(AdminAPI.nearMisses)`).
        static func request(
            _ call: @escaping @Sendable (AdminAPI) -> (StubHTTPRequest) throws(AdminError) -> HTTPResponse
        ) -> Answer {
            .response { api, request, _ throws(AdminError) in try call(api)(request) }
        }
    }

    /// One piece of a path pattern.
    enum Segment: Sendable, Hashable {
        /// This exact segment.
        case literal(String)
        /// Any one segment, passed to the answer as a parameter.
        case parameter
        /// One or more segments to the end, joined with `/` into one parameter (file names with folders).
        case rest
    }

    let method: String
    let pattern: [Segment]
    let answer: Answer

    /// - Parameter path: the pattern below `/__admin`, segments separated by `/`: `{name}` is a parameter,
    ///   `{name...}` the rest of the path.
    init(_ method: String, _ path: String, _ answer: Answer) {
        self.method = method
        pattern = Self.pattern(path)
        self.answer = answer
    }

    /// The segments of a path pattern (`mappings/{id}`, `files/{name...}`).
    static func pattern(_ path: String) -> [Segment] {
        path.split(separator: "/").map { segment in
            guard segment.hasPrefix("{") else { return .literal(String(segment)) }
            return segment.hasSuffix("...}") ? .rest : .parameter
        }
    }

    /// The parameters of `segments` if they fit this route's pattern, else nil.
    func parameters(_ segments: [String]) -> [String]? {
        var parameters: [String] = []
        for (index, segment) in pattern.enumerated() {
            guard index < segments.count else { return nil }
            switch segment {
            case .literal(let literal): guard segments[index] == literal else { return nil }
            case .parameter: parameters.append(segments[index])
            case .rest: return parameters + [segments[index...].joined(separator: "/")]
            }
        }
        return segments.count == pattern.count ? parameters : nil
    }

    /// How many of the pattern's segments are literal: among the routes a path fits, only those with the
    /// most count, so fixed names win over parameters (`/__admin/mappings/reset` is never the stub `reset`).
    var literalCount: Int {
        pattern.reduce(0) { count, segment in if case .literal = segment { count + 1 } else { count } }
    }

    /// A route and the parameters the request's path gave it.
    struct Resolved: Sendable {
        let route: AdminRoute
        let parameters: [String]
    }

    /// The route for `method` and the path below `/__admin` (segments, percent-decoded). `HEAD` takes the
    /// `GET` route: the engine sends its headers and no body.
    /// - Throws: ``AdminError`` 404 for an unknown path, 405 (with the allowed methods) for a known path
    ///   and another method.
    static func resolve(method: String, segments: [String]) throws(AdminError) -> Resolved {
        var fitting: [Resolved] = []
        var best = 0
        for route in table {
            guard let parameters = route.parameters(segments) else { continue }
            let literals = route.literalCount
            if literals > best { fitting.removeAll() }
            if literals >= best {
                best = literals
                fitting.append(Resolved(route: route, parameters: parameters))
            }
        }
        let shown = "/__admin" + segments.map { "/" + $0 }.joined()
        guard !fitting.isEmpty else { throw .notFound("no admin endpoint at \(shown)") }
        let wanted = method == "HEAD" ? "GET" : method
        guard let resolved = fitting.first(where: { $0.route.method == wanted }) else {
            let allowed = fitting.flatMap { $0.route.method == "GET" ? ["GET", "HEAD"] : [$0.route.method] }
            throw .methodNotAllowed(method: method, path: shown, allowed: allowed)
        }
        return resolved
    }
}
