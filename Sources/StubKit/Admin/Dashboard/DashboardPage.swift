/// The dashboard's HTML: the frame the script fills. Every value shown is set as text by the script.
///
/// Each panel says it is loading until its first answer, and that it is empty only once an answer said so.
/// The page can carry the most recent requests (``bytes(initialData:)``), which the script shows before the
/// live feed answers: a JSON data block, never run (the CSP allows no inline script anyway), its `<`, `>`
/// and `&` escaped so that no value can end it.
enum DashboardPage {
    /// The page without data: the requests list says it is loading until the live feed answers.
    static let withoutData = parts.before + parts.after

    /// The page with `initialData` (``appendInitialData(journal:recent:into:)``) in its data block.
    static func bytes(initialData: [UInt8]) -> [UInt8] {
        let open = Array(#"<script type="application/json" id="initial-requests">"#.utf8)
        let close = Array("</script>".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(parts.before.count + open.count + initialData.count + close.count + parts.after.count)
        bytes.append(contentsOf: parts.before)
        bytes.append(contentsOf: open)
        bytes.append(contentsOf: initialData)
        bytes.append(contentsOf: close)
        bytes.append(contentsOf: parts.after)
        return bytes
    }

    /// The most bytes of request summaries a page carries; the live feed sends the rest.
    static let maxInitialBytes = RequestFeed.maxBatchBytes

    /// `{"journal": {…}, "requests": [summary, …]}`, oldest first: the newest of `recent` that fit in
    /// ``maxInitialBytes``, with `<`, `>` and `&` written as `\u003c`, `\u003e`, `\u0026` (they occur only
    /// inside JSON strings, so the JSON means the same).
    static func appendInitialData(journal: JSONValue, recent: [RequestSummary], into bytes: inout [UInt8]) {
        var summaries: [[UInt8]] = []
        var size = 0
        for summary in recent.reversed() {
            var json: [UInt8] = []
            summary.appendJSON(into: &json)
            let escaped = escaped(json)
            size += escaped.count + 1
            guard size <= maxInitialBytes else { break }
            summaries.append(escaped)
        }
        var limits: [UInt8] = []
        journal.write(into: &limits, indent: nil)
        bytes.reserveCapacity(bytes.count + size + limits.count + 32)
        bytes.append(contentsOf: #"{"journal":"#.utf8)
        bytes.append(contentsOf: escaped(limits))
        bytes.append(contentsOf: #","requests":["#.utf8)
        for (index, summary) in summaries.reversed().enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: summary)
        }
        bytes.append(contentsOf: "]}".utf8)
    }

    /// `json` with `<`, `>` and `&` as `\u` escapes, which no HTML parser reads as markup.
    private static func escaped(_ json: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(json.count)
        for byte in json {
            switch byte {
            case UInt8(ascii: "<"): bytes.append(contentsOf: #"\u003c"#.utf8)
            case UInt8(ascii: ">"): bytes.append(contentsOf: #"\u003e"#.utf8)
            case UInt8(ascii: "&"): bytes.append(contentsOf: #"\u0026"#.utf8)
            default: bytes.append(byte)
            }
        }
        return bytes
    }

    /// ``html`` before and after the line where the data block goes.
    private static let parts: (before: [UInt8], after: [UInt8]) = {
        let page = Array(html.utf8), marker = Array("<!-- initial requests -->\n".utf8)
        guard let start = page.indices.first(where: { page[$0...].starts(with: marker) }) else { return (page, []) }
        return (Array(page[..<start]), Array(page[(start + marker.count)...]))
    }()

    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>stubserver dashboard</title>
        <link rel="icon" href="data:,">
        <link rel="stylesheet" href="/__admin/dashboard/style.css">
        <script src="/__admin/dashboard/app.js" defer></script>
        </head>
        <body>
        <header>
          <h1>stubserver</h1>
          <nav id="tabs" aria-label="Views">
            <button type="button" data-tab="requests" aria-selected="true">Requests</button>
            <button type="button" data-tab="stubs">Stubs</button>
            <button type="button" data-tab="scenarios">Scenarios</button>
            <button type="button" data-tab="data">Data</button>
            <button type="button" data-tab="recording">Recording</button>
          </nav>
          <span id="live" class="status" role="status">connecting…</span>
          <button type="button" id="token-button" class="quiet">Admin token</button>
        </header>
        <form id="token-form" hidden>
          <label>Admin token <input id="token-input" type="password" autocomplete="off"></label>
          <button type="submit">Use for this tab</button>
          <span id="token-message" class="note"></span>
        </form>
        <p id="error" class="error" role="alert" hidden></p>
        <main>
          <section id="view-requests" class="view">
            <div class="toolbar">
              <input id="filter" type="search" placeholder="Filter: method, host, path, stub" aria-label="Filter">
              <select id="filter-status" aria-label="Status">
                <option value="">Any status</option><option value="2">2xx</option><option value="3">3xx</option>
                <option value="4">4xx</option><option value="5">5xx</option>
              </select>
              <select id="filter-match" aria-label="Matched">
                <option value="">Matched or not</option><option value="matched">Matched</option>
                <option value="unmatched">Unmatched</option>
              </select>
              <button type="button" id="pause">Pause</button>
              <span id="counts" class="note"></span>
            </div>
            <p id="dropped" class="note warn" hidden></p>
            <div class="split">
              <div class="list">
                <table id="requests">
                  <thead><tr><th>Time</th><th>Method</th><th>Host</th><th>Path</th><th>Status</th>
                  <th>Answered by</th><th>ms</th></tr></thead>
                  <tbody></tbody>
                </table>
                <p id="requests-empty" class="note">Loading requests…</p>
              </div>
              <aside id="detail" hidden></aside>
            </div>
          </section>
          <section id="view-stubs" class="view" hidden>
            <div class="toolbar"><button type="button" id="stubs-refresh">Refresh</button>
              <span id="stubs-count" class="note">Loading stubs…</span></div>
            <table id="stubs">
              <thead><tr><th>#</th><th>Stub</th><th>Request</th><th>File</th><th>Priority</th><th>Scenario</th>
              <th>Uses</th></tr></thead>
              <tbody></tbody>
            </table>
          </section>
          <section id="view-scenarios" class="view" hidden>
            <div class="toolbar"><button type="button" id="scenarios-reset">Reset all scenarios</button>
              <button type="button" id="scenarios-refresh">Refresh</button></div>
            <table id="scenarios">
              <thead><tr><th>Scenario</th><th>State</th><th>Set state</th></tr></thead>
              <tbody></tbody>
            </table>
            <p id="scenarios-empty" class="note">Loading scenarios…</p>
          </section>
          <section id="view-data" class="view" hidden>
            <div class="toolbar"><button type="button" id="data-refresh">Refresh</button></div>
            <table id="data">
              <thead><tr><th>Collection</th><th>Base path</th><th>Items</th><th>Bytes</th><th>Reset</th></tr></thead>
              <tbody></tbody>
            </table>
            <p id="data-empty" class="note">Loading data collections…</p>
            <pre id="data-items" class="body" hidden></pre>
          </section>
          <section id="view-recording" class="view" hidden>
            <p>Recording proxies requests that match no stub to a real server and turns its answers into stubs.</p>
            <p>Status: <strong id="recording-status">loading…</strong></p>
            <form id="recording-form" class="toolbar">
              <input id="recording-target" type="url" placeholder="https://api.example.com" aria-label="Target URL">
              <button type="submit" id="recording-start">Start recording</button>
              <button type="button" id="recording-stop">Stop</button>
              <button type="button" id="recording-snapshot">Snapshot the journal</button>
            </form>
            <pre id="recording-result" class="body" hidden></pre>
          </section>
        </main>
        <!-- initial requests -->
        </body>
        </html>

        """#
}
