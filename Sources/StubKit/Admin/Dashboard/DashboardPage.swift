/// The dashboard's HTML: the frame the script fills. Every value shown is set as text by the script.
enum DashboardPage {
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
                <p id="requests-empty" class="note">No requests yet. Send one to this server and it shows here.</p>
              </div>
              <aside id="detail" hidden></aside>
            </div>
          </section>
          <section id="view-stubs" class="view" hidden>
            <div class="toolbar"><button type="button" id="stubs-refresh">Refresh</button>
              <span id="stubs-count" class="note"></span></div>
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
            <p id="scenarios-empty" class="note" hidden>No stub names a scenario.</p>
          </section>
          <section id="view-recording" class="view" hidden>
            <p>Recording proxies requests that match no stub to a real server and turns its answers into stubs.</p>
            <p>Status: <strong id="recording-status">unknown</strong></p>
            <form id="recording-form" class="toolbar">
              <input id="recording-target" type="url" placeholder="https://api.example.com" aria-label="Target URL">
              <button type="submit" id="recording-start">Start recording</button>
              <button type="button" id="recording-stop">Stop</button>
              <button type="button" id="recording-snapshot">Snapshot the journal</button>
            </form>
            <pre id="recording-result" class="body" hidden></pre>
          </section>
        </main>
        </body>
        </html>

        """#
}
