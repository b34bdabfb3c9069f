/// The dashboard's script, first part: calls to the admin API (with the tab's token), the live feed of
/// requests (server-sent events read with `fetch`, so the token can go in a header), and the request list,
/// which starts with the requests the page came with (its `initial-requests` data block) and says it is
/// loading until the page or the feed told what the journal holds.
/// Every value from the server is put on the page as text (`textContent`, `append` of strings), never as HTML.
enum DashboardScript {
    static let core = #"""
        "use strict";
        const TOKEN_KEY = "stubserver.adminToken";
        const MAX_ROWS = 2000;
        const state = { rows: new Map(), held: [], queue: [], queued: null, paused: false, selected: null, dropped: 0,
          journal: null, stubsById: new Map(), stubsRefresh: null, feed: null, loaded: false, needsToken: false };

        function $(id) { return document.getElementById(id); }

        function el(tag, props, ...children) {
          const node = document.createElement(tag);
          for (const [key, value] of Object.entries(props || {})) {
            if (key === "class") node.className = value;
            else if (key === "text") node.textContent = value;
            else if (key === "dataset") Object.assign(node.dataset, value);
            else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
            else node.setAttribute(key, value);
          }
          for (const child of children) if (child !== null && child !== undefined) node.append(child);
          return node;
        }

        function token() { return sessionStorage.getItem(TOKEN_KEY) || ""; }

        function authorized(headers) {
          const all = Object.assign({}, headers);
          if (token()) all.Authorization = "Bearer " + token();
          return all;
        }

        class AdminCallError extends Error {
          constructor(status, message) { super(message); this.status = status; }
        }

        async function admin(method, path, body) {
          const init = { method, cache: "no-store",
            headers: authorized(body === undefined ? {} : { "Content-Type": "application/json" }) };
          if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
          const response = await fetch("/__admin/" + path, init);
          const text = await response.text();
          let json = null;
          try { json = text ? JSON.parse(text) : null; } catch (_) { json = null; }
          if (response.status === 401) askToken("This server needs its admin token (--admin-token).");
          if (!response.ok) {
            const first = json && json.errors && json.errors[0];
            const message = (first && (first.detail || first.title)) || text || "HTTP " + response.status;
            throw new AdminCallError(response.status, method + " /__admin/" + path + ": " + message);
          }
          return json;
        }

        function showError(error) {
          const box = $("error");
          box.hidden = !error;
          box.textContent = error ? String(error.message || error) : "";
        }

        function askToken(message) {
          $("token-form").hidden = false;
          $("token-message").textContent = message || "";
          $("token-input").focus();
        }

        function setLive(text, kind) {
          const status = $("live");
          status.textContent = text;
          status.className = "status " + (kind || "");
        }

        async function connectFeed() {
          if (state.feed) state.feed.abort();
          const controller = new AbortController();
          state.feed = controller;
          setLive("connecting…");
          try {
            const response = await fetch("/__admin/stubserver/requests/live", { cache: "no-store",
              headers: authorized({ Accept: "text/event-stream" }), signal: controller.signal });
            if (response.status === 401) {
              setLive("needs the admin token", "down");
              state.needsToken = true;
              updateCounts();
              askToken("This server needs its admin token (--admin-token).");
              return;
            }
            state.needsToken = false;
            if (!response.ok) throw new Error("live feed: HTTP " + response.status + ": " + await response.text());
            setLive("live", "live");
            const reader = response.body.getReader();
            const decoder = new TextDecoder();
            let buffer = "";
            for (;;) {
              const { value, done } = await reader.read();
              if (done) break;
              buffer += decoder.decode(value, { stream: true });
              let end;
              while ((end = buffer.indexOf("\n\n")) >= 0) {
                handleEvent(buffer.slice(0, end));
                buffer = buffer.slice(end + 2);
              }
            }
            throw new Error("the server ended the live feed");
          } catch (error) {
            if (controller.signal.aborted) return;
            setLive("disconnected, retrying…", "down");
            setTimeout(() => { if (state.feed === controller) connectFeed(); }, 2000);
          }
        }

        function handleEvent(block) {
          let name = "message", data = "";
          for (const line of block.split("\n")) {
            if (line.startsWith("event:")) name = line.slice(6).trim();
            else if (line.startsWith("data:")) data += line.slice(5).replace(/^ /, "");
          }
          if (!data) return;
          const payload = JSON.parse(data);
          if (name === "hello") {
            state.journal = payload.journal;
            // No request follows: the journal is empty (else the list waits for the feed's first rows).
            if (payload.recent === 0) loaded();
          } else if (name === "request") receive(payload);
          else if (name === "dropped") {
            loaded();
            state.dropped += payload.count;
            const note = $("dropped");
            note.textContent = state.dropped + " requests are not shown: the page fell behind the server. " +
              "The journal still has those it keeps (GET /__admin/requests).";
            note.hidden = false;
          }
        }

        // The list shows what the journal holds: "No requests yet" only from now on.
        function loaded() {
          if (state.loaded) return;
          state.loaded = true;
          updateCounts();
        }

        // The requests the page came with (oldest first), shown before the live feed answers.
        function adoptInitial() {
          const block = $("initial-requests");
          if (!block) return;
          const initial = JSON.parse(block.textContent);
          state.journal = initial.journal;
          for (const summary of initial.requests) state.queue.push(summary);
          flushRows();
          loaded();
        }

        function receive(summary) {
          if (state.rows.has(summary.seq)) return;
          if (summary.stub && !state.stubsById.has(summary.stub.id)) scheduleStubsRefresh(0);
          else if (!$("view-stubs").hidden) scheduleStubsRefresh(1000);
          if (state.paused) {
            if (!state.held.some((held) => held.seq === summary.seq)) state.held.push(summary);
            if (state.held.length > MAX_ROWS) state.held.shift();
            updatePause();
            return;
          }
          state.queue.push(summary);
          if (!state.queued) state.queued = setTimeout(flushRows, 100);
        }

        // New rows are put on the page ten times a second at most, newest first, in one insertion.
        function flushRows() {
          state.queued = null;
          const fresh = state.queue.filter((summary) => !state.rows.has(summary.seq)).slice(-MAX_ROWS);
          state.queue = [];
          fresh.sort((a, b) => b.seq - a.seq);
          const body = $("requests").tBodies[0], top = body.firstElementChild;
          if (fresh.length && (!top || Number(top.dataset.seq) < fresh[fresh.length - 1].seq)) {
            const rows = document.createDocumentFragment();
            for (const summary of fresh) {
              state.rows.set(summary.seq, summary);
              rows.append(rowFor(summary));
            }
            body.insertBefore(rows, top);
          } else {
            for (const summary of fresh) addRow(summary);
          }
          trimRows();
          if (fresh.length) state.loaded = true;
          updateCounts();
        }

        function trimRows() {
          const body = $("requests").tBodies[0];
          while (state.rows.size > MAX_ROWS) {
            const last = body.lastElementChild;
            state.rows.delete(Number(last.dataset.seq));
            last.remove();
          }
        }

        function addRow(summary) {
          state.rows.set(summary.seq, summary);
          const body = $("requests").tBodies[0];
          let before = body.firstElementChild;
          while (before && Number(before.dataset.seq) > summary.seq) before = before.nextElementSibling;
          body.insertBefore(rowFor(summary), before);
          trimRows();
        }

        function stubLabel(stub) {
          const known = state.stubsById.get(stub.id);
          const file = known && known.file;
          return file && file !== stub.displayName ? stub.displayName + " (" + file + ")" : stub.displayName;
        }

        function millis(value) { return value < 10 ? value.toFixed(2) : value.toFixed(0); }

        function rowFor(summary) {
          const answered = summary.wasMatched
            ? el("td", { class: "wrap", text: stubLabel(summary.stub) })
            : el("td", { class: "unmatched", text: "unmatched" });
          const row = el("tr", { dataset: { seq: String(summary.seq) }, onclick: () => select(summary) },
            el("td", { text: new Date(summary.loggedDate).toLocaleTimeString() }),
            el("td", { text: summary.method }),
            el("td", { class: "wrap", text: summary.host }),
            el("td", { class: "path", text: summary.url }),
            el("td", { class: "s" + String(summary.status).charAt(0), text: String(summary.status) }),
            answered,
            el("td", { class: "num", text: millis(summary.totalTime) }));
          if (state.selected === summary.seq) row.classList.add("selected");
          row.hidden = !matchesFilter(summary);
          return row;
        }

        function matchesFilter(summary) {
          const text = $("filter").value.trim().toLowerCase();
          const status = $("filter-status").value, match = $("filter-match").value;
          if (status && String(summary.status).charAt(0) !== status) return false;
          if (match === "matched" && !summary.wasMatched) return false;
          if (match === "unmatched" && summary.wasMatched) return false;
          if (!text) return true;
          const stub = summary.stub ? stubLabel(summary.stub) : "unmatched";
          return [summary.method, summary.host, summary.url, String(summary.status), stub]
            .some((field) => field.toLowerCase().includes(text));
        }

        function applyFilter() {
          for (const row of $("requests").tBodies[0].rows) row.hidden = !matchesFilter(state.rows.get(Number(row.dataset.seq)));
          updateCounts();
        }

        function updateCounts() {
          let shown = 0, all = 0;
          for (const row of $("requests").tBodies[0].rows) {
            all += 1;
            if (!row.hidden) shown += 1;
          }
          const noun = all === 1 ? " request" : " requests";
          $("counts").textContent = !state.loaded ? "" : shown === all ? all + noun : shown + " of " + all + noun;
          $("requests-empty").hidden = all > 0;
          $("requests-empty").textContent = state.loaded ? emptyJournalText()
            : state.needsToken ? "Requests show here once this tab has the admin token." : "Loading requests…";
        }

        function emptyJournalText() {
          if (state.journal && !state.journal.enabled) {
            return "No requests yet. The journal is off (--no-request-journal): requests sent from now on show here.";
          }
          return "No requests yet. Send one to this server and it shows here.";
        }

        function updatePause() {
          $("pause").textContent = state.paused ? "Resume (" + state.held.length + " new)" : "Pause";
          $("pause").setAttribute("aria-pressed", String(state.paused));
        }

        function togglePause() {
          state.paused = !state.paused;
          if (!state.paused) {
            for (const summary of state.held) if (!state.rows.has(summary.seq)) addRow(summary);
            state.held = [];
            updateCounts();
          }
          updatePause();
        }

        """#
}
