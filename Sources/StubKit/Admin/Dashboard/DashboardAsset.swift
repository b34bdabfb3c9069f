import StubHTTP

/// The files of the dashboard, served from the binary: the page, its script and its style. No CDN, no
/// build step; the page's Content-Security-Policy allows only these and calls to this server, so no
/// value shown (a request body holding `<script>`) can run. The page may carry the most recent requests as
/// data (``DashboardPage/bytes(initialData:)``); ``bytes`` is the page without them.
enum DashboardAsset: Sendable {
    case page, script, style

    /// The asset at `path` (below `/__admin`), if any.
    init?<Path: StringProtocol>(path: Path) {
        switch String(path) {
        case "/__admin/dashboard", "/__admin/dashboard/": self = .page
        case "/__admin/dashboard/app.js": self = .script
        case "/__admin/dashboard/style.css": self = .style
        default: return nil
        }
    }

    /// A `GET` or `HEAD` of an asset: served without the admin token, as it holds no data when there is one.
    static func isAsset(_ request: StubHTTPRequest) -> Bool {
        (request.method == .get || request.method == .head) && DashboardAsset(path: request.path) != nil
    }

    var bytes: [UInt8] {
        switch self {
        case .page: Self.pageBytes
        case .script: Self.scriptBytes
        case .style: Self.styleBytes
        }
    }

    var headers: HTTPHeaders {
        var headers: HTTPHeaders = [
            "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"
        ]
        switch self {
        case .page:
            headers.add(name: "Content-Type", value: "text/html; charset=utf-8")
            headers.add(name: "Content-Security-Policy", value: Self.contentSecurityPolicy)
            headers.add(name: "X-Frame-Options", value: "DENY")
        case .script: headers.add(name: "Content-Type", value: "text/javascript; charset=utf-8")
        case .style: headers.add(name: "Content-Type", value: "text/css; charset=utf-8")
        }
        return headers
    }

    /// Scripts and styles from this server only (no inline ones), calls to this server only, no frames.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    private static let pageBytes = DashboardPage.withoutData
    private static let scriptBytes = Array((DashboardScript.core + DashboardScript.views + DashboardScript.panels).utf8)
    private static let styleBytes = Array(DashboardStyle.css.utf8)
}
