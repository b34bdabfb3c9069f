extension DashboardScript {
    /// The second part: one request in detail (with its near miss and "make a stub from this"), the stubs,
    /// the scenarios, recording, the tabs and the token form.
    static let views = #"""
        function bytesOf(base64) {
          const binary = atob(base64 || "");
          const bytes = new Uint8Array(binary.length);
          for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
          return bytes;
        }

        function headerValue(headers, name) {
          for (const [key, value] of Object.entries(headers || {})) {
            if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(", ") : String(value);
          }
          return "";
        }

        function hexDump(bytes) {
          const limit = Math.min(bytes.length, 65536), lines = [];
          for (let offset = 0; offset < limit; offset += 16) {
            const slice = [...bytes.subarray(offset, Math.min(offset + 16, limit))];
            const hex = slice.map((byte) => byte.toString(16).padStart(2, "0")).join(" ");
            const ascii = slice.map((byte) => byte >= 32 && byte < 127 ? String.fromCharCode(byte) : ".").join("");
            lines.push(offset.toString(16).padStart(8, "0") + "  " + hex.padEnd(48) + "  " + ascii);
          }
          if (bytes.length > limit) lines.push("… " + (bytes.length - limit) + " more bytes not shown");
          return lines.join("\n");
        }

        function bodyText(bytes, contentType) {
          let text = null;
          try { text = new TextDecoder("utf-8", { fatal: true }).decode(bytes); } catch (_) { text = null; }
          if (text === null || /[\u0000-\u0008\u000E-\u001F]/.test(text)) return hexDump(bytes);
          if (/json/i.test(contentType) || /^\s*[[{]/.test(text)) {
            try { return JSON.stringify(JSON.parse(text), null, 2); } catch (_) { return text; }
          }
          return text;
        }

        function headersView(headers) {
          const list = el("dl", { class: "headers" });
          for (const [name, value] of Object.entries(headers || {})) {
            for (const one of Array.isArray(value) ? value : [value]) list.append(el("dt", { text: name }), el("dd", { text: String(one) }));
          }
          return list.children.length ? list : el("p", { class: "note", text: "No headers." });
        }

        function bodyView(part) {
          const bytes = bytesOf(part.bodyAsBase64);
          if (!bytes.length) return [el("p", { class: "note", text: "No body." })];
          const views = [];
          if (part.bodyTruncated) {
            views.push(el("p", { class: "note warn", text: "The journal kept the first " + bytes.length + " of " +
              part.originalBodyLength + " bytes (--journal-max-body-bytes)." }));
          }
          views.push(el("pre", { class: "body", text: bodyText(bytes, headerValue(part.headers, "content-type")) }));
          return views;
        }

        async function select(summary) {
          state.selected = summary.seq;
          for (const row of $("requests").tBodies[0].rows) row.classList.toggle("selected", Number(row.dataset.seq) === summary.seq);
          const detail = $("detail");
          detail.hidden = false;
          detail.parentElement.classList.add("open");
          detail.replaceChildren(el("p", { class: "note", text: "Loading…" }));
          let entry;
          try {
            entry = await admin("GET", "requests/" + encodeURIComponent(summary.id) + "?stubserver=true");
          } catch (error) {
            const gone = error.status === 404 && state.journal && !state.journal.enabled
              ? "The request journal is off, so only the summary is known."
              : error.status === 404 ? "This request is no longer in the journal (it keeps the most recent ones)." : error.message;
            if (state.selected === summary.seq) detail.replaceChildren(detailHead(summary), el("p", { class: "note", text: gone }));
            return;
          }
          if (state.selected === summary.seq) detail.replaceChildren(...detailViews(summary, entry));
        }

        function detailHead(summary) {
          const close = el("button", { type: "button", class: "quiet", text: "Close", onclick: () => {
            state.selected = null;
            $("detail").hidden = true;
            $("detail").parentElement.classList.remove("open");
            for (const row of $("requests").tBodies[0].rows) row.classList.remove("selected");
          } });
          return el("div", { class: "detail-head" }, el("strong", { text: summary.method + " " + summary.url }), close);
        }

        function detailViews(summary, entry) {
          const views = [detailHead(summary), el("p", { class: "note", text: summary.host + " · " +
            new Date(summary.loggedDate).toLocaleString() + " · " + millis(summary.totalTime) + " ms" })];
          if (entry.wasMatched && summary.stub) views.push(el("p", { text: "Answered by " + stubLabel(summary.stub) }));
          views.push(el("h3", { text: "Request" }), headersView(entry.request.headers), ...bodyView(entry.request));
          const response = entry.response || { status: summary.status };
          views.push(el("h3", { text: "Response " + response.status }), headersView(response.headers));
          if (!entry.wasMatched) {
            views.push(el("h2", { text: "Near miss: why no stub answered" }), ...bodyView(response), makeStubView(entry));
          } else {
            views.push(...bodyView(response));
          }
          return views;
        }

        function stubFrom(entry) {
          const request = entry.request, url = new URL(request.url, "http://stub.invalid");
          const pattern = { method: request.method };
          const names = [...new Set(url.searchParams.keys())];
          if (names.length) {
            pattern.urlPath = url.pathname;
            pattern.queryParameters = {};
            for (const name of names) pattern.queryParameters[name] = { equalTo: url.searchParams.get(name) };
          } else {
            pattern.url = request.url;
          }
          if (request.virtualHost) pattern.host = { equalTo: request.virtualHost };
          if (request.body && !request.bodyTruncated) {
            try {
              JSON.parse(request.body);
              pattern.bodyPatterns = [{ equalToJson: request.body, ignoreExtraElements: true }];
            } catch (_) {
              pattern.bodyPatterns = [{ equalTo: request.body }];
            }
          }
          return { name: request.method + " " + url.pathname + " (made in the dashboard)", request: pattern,
            response: { status: 200, headers: { "Content-Type": "application/json" }, jsonBody: {} } };
        }

        function makeStubView(entry) {
          const box = el("div", { id: "make-stub" });
          const message = el("p", { id: "make-stub-message", class: "note", role: "status" });
          const editor = el("textarea", { id: "make-stub-json", spellcheck: "false", "aria-label": "Stub JSON" });
          const add = async (save) => {
            let mapping;
            try { mapping = JSON.parse(editor.value); } catch (error) { message.textContent = "Not JSON: " + error.message; return; }
            try {
              const created = await admin("POST", "mappings", mapping);
              let text = "Added stub " + created.id + ": the next request like this one matches it.";
              if (save) {
                await admin("POST", "mappings/save");
                text += " Saved into the stubs directory.";
              }
              message.textContent = text;
              scheduleStubsRefresh(0);
            } catch (error) {
              message.textContent = error.message;
            }
          };
          const open = el("button", { type: "button", id: "make-stub-open", class: "primary", text: "Make a stub from this",
            onclick: () => {
              editor.value = JSON.stringify(stubFrom(entry), null, 2);
              box.replaceChildren(editor, el("div", { class: "actions" },
                el("button", { type: "button", id: "make-stub-add", class: "primary", text: "Add stub", onclick: () => add(false) }),
                el("button", { type: "button", id: "make-stub-save", text: "Add and save to the stubs directory", onclick: () => add(true) }),
                el("button", { type: "button", text: "Copy", onclick: () => {
                  editor.select();
                  (navigator.clipboard ? navigator.clipboard.writeText(editor.value) : Promise.reject(new Error("no clipboard")))
                    .then(() => { message.textContent = "Copied."; }, () => { message.textContent = "Selected: copy it with the keyboard."; });
                } })), message);
            } });
          box.append(open);
          return box;
        }
        """#
}
