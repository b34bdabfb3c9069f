extension DashboardScript {
    /// The third part: the stubs in match order, the scenarios, recording, the tabs, the token form, and
    /// the start. Each panel says it is loading until its first answer, and why when that answer failed.
    static let panels = #"""
        function scheduleStubsRefresh(delay) {
          if (state.stubsRefresh) return;
          state.stubsRefresh = setTimeout(() => {
            state.stubsRefresh = null;
            refreshStubs().catch(showError);
          }, delay);
        }

        // What a panel's `request` answers. When it fails, the panel's note `node` says why if it never loaded (a
        // later failure leaves what it showed; the error box says it), and the failure goes on.
        async function loadPanel(node, request) {
          try {
            return await request;
          } catch (error) {
            if (!node.dataset.loaded) {
              node.textContent = error.status === 401 ? "Shown once this tab has the admin token."
                : "Not loaded: " + (error.message || error);
            }
            throw error;
          }
        }

        async function refreshStubs() {
          const [table, scenarios] = await loadPanel($("stubs-count"),
            Promise.all([admin("GET", "stubserver/stubs"), admin("GET", "scenarios")]));
          state.stubsById = new Map(table.stubs.map((stub) => [stub.id, stub]));
          relabelRows();
          const current = new Map(scenarios.scenarios.map((scenario) => [scenario.name, scenario.state]));
          const rows = table.stubs.map((stub, index) => {
            let scenario = "";
            if (stub.scenarioName) {
              scenario = stub.scenarioName + " (now " + (current.get(stub.scenarioName) || "Started") + "): " +
                (stub.requiredScenarioState || "any state") + (stub.newScenarioState ? " → " + stub.newScenarioState : "");
            }
            const uses = el("td", { class: "num" }, String(stub.uses));
            if (stub.uses === 0) uses.append(el("span", { class: "badge unused", text: "never used" }));
            return el("tr", { dataset: { id: stub.id } },
              el("td", { class: "num", text: String(index + 1) }),
              el("td", { class: "wrap", text: stub.name || "" }),
              el("td", { class: "wrap", text: stub.request }),
              el("td", { class: "wrap", text: stub.file || "added at run time" }),
              el("td", { class: "num", text: String(stub.priority) }),
              el("td", { class: "wrap", text: scenario }), uses);
          });
          $("stubs").tBodies[0].replaceChildren(...rows);
          const unused = table.stubs.filter((stub) => stub.uses === 0).length;
          $("stubs-count").dataset.loaded = "true";
          $("stubs-count").textContent = table.stubs.length === 0
            ? "No stubs. Add them to the stubs directory, or make one here from an unmatched request."
            : table.stubs.length + " stubs, in the order requests try them; " + unused + " never used since the last reset.";
        }

        // Rows shown before the stubs were known name their stub's file once it is.
        function relabelRows() {
          for (const row of $("requests").tBodies[0].rows) {
            const summary = state.rows.get(Number(row.dataset.seq));
            if (summary && summary.wasMatched) row.cells[5].textContent = stubLabel(summary.stub);
          }
        }

        async function refreshScenarios() {
          const json = await loadPanel($("scenarios-empty"), admin("GET", "scenarios"));
          const rows = json.scenarios.map((scenario) => {
            const choice = el("select", { "aria-label": "State of " + scenario.name });
            for (const possible of scenario.possibleStates) {
              const option = el("option", { value: possible, text: possible });
              if (possible === scenario.state) option.selected = true;
              choice.append(option);
            }
            const set = el("button", { type: "button", text: "Set", onclick: async () => {
              try {
                await admin("PUT", "scenarios/" + encodeURIComponent(scenario.name) + "/state", { state: choice.value });
                await refreshScenarios();
              } catch (error) { showError(error); }
            } });
            return el("tr", { dataset: { scenario: scenario.name } },
              el("td", { class: "wrap", text: scenario.name }), el("td", { class: "state", text: scenario.state }),
              el("td", {}, choice, " ", set));
          });
          $("scenarios").tBodies[0].replaceChildren(...rows);
          $("scenarios-empty").dataset.loaded = "true";
          $("scenarios-empty").textContent = "No stub names a scenario.";
          $("scenarios-empty").hidden = rows.length > 0;
        }

        async function refreshData() {
          const json = await loadPanel($("data-empty"), admin("GET", "stubserver/data"));
          const rows = json.collections.map((collection) => {
            const path = "stubserver/data/" + encodeURIComponent(collection.name);
            const view = el("button", { type: "button", class: "quiet", text: collection.name, onclick: async () => {
              try {
                const full = await admin("GET", path);
                $("data-items").textContent = JSON.stringify(full.items, null, 2);
                $("data-items").hidden = false;
              } catch (error) { showError(error); }
            } });
            const reset = el("button", { type: "button", text: "Reset to seed", onclick: async () => {
              try {
                await admin("DELETE", path);
                await refreshData();
              } catch (error) { showError(error); }
            } });
            return el("tr", { dataset: { collection: collection.name } },
              el("td", {}, view), el("td", { class: "wrap", text: collection.basePath }),
              el("td", { class: "count", text: String(collection.count) }), el("td", { text: String(collection.bytes) }),
              el("td", {}, reset));
          });
          $("data").tBodies[0].replaceChildren(...rows);
          $("data-empty").dataset.loaded = "true";
          $("data-empty").textContent = "No data collection: declare one in collections/ or POST /__admin/stubserver/data.";
          $("data-empty").hidden = rows.length > 0;
        }

        async function refreshRecording() {
          const json = await loadPanel($("recording-status"), admin("GET", "recordings/status"));
          $("recording-status").dataset.loaded = "true";
          $("recording-status").textContent = json.status;
        }

        async function recording(path, body) {
          const result = $("recording-result");
          try {
            const json = await admin("POST", "recordings/" + path, body);
            const mappings = (json && json.mappings) || [];
            result.textContent = path === "start" ? "Recording."
              : mappings.length + " stubs made" + (mappings.length ? ":\n" : ".") +
                mappings.map((mapping) => (mapping.request.method || "ANY") + " " +
                  (mapping.request.url || mapping.request.urlPath || mapping.request.urlPattern || "")).join("\n");
            result.hidden = false;
            await refreshRecording();
            scheduleStubsRefresh(0);
          } catch (error) {
            result.textContent = error.message;
            result.hidden = false;
          }
        }

        function show(tab) {
          for (const button of $("tabs").querySelectorAll("button")) {
            button.setAttribute("aria-selected", String(button.dataset.tab === tab));
          }
          for (const view of document.querySelectorAll(".view")) view.hidden = view.id !== "view-" + tab;
          const load = {
            requests: null, stubs: refreshStubs, scenarios: refreshScenarios, data: refreshData, recording: refreshRecording
          }[tab];
          if (load) load().then(() => showError(null), showError);
        }

        function start() {
          for (const button of $("tabs").querySelectorAll("button")) button.addEventListener("click", () => show(button.dataset.tab));
          $("filter").addEventListener("input", applyFilter);
          $("filter-status").addEventListener("change", applyFilter);
          $("filter-match").addEventListener("change", applyFilter);
          $("pause").addEventListener("click", togglePause);
          $("stubs-refresh").addEventListener("click", () => refreshStubs().then(() => showError(null), showError));
          $("scenarios-refresh").addEventListener("click", () => refreshScenarios().catch(showError));
          $("data-refresh").addEventListener("click", () => refreshData().then(() => showError(null), showError));
          $("scenarios-reset").addEventListener("click", () =>
            admin("POST", "scenarios/reset").then(refreshScenarios).then(() => showError(null), showError));
          $("recording-form").addEventListener("submit", (event) => {
            event.preventDefault();
            recording("start", { targetBaseUrl: $("recording-target").value });
          });
          $("recording-stop").addEventListener("click", () => recording("stop"));
          $("recording-snapshot").addEventListener("click", () => recording("snapshot", {}));
          $("token-button").addEventListener("click", () => askToken(""));
          $("token-form").addEventListener("submit", (event) => {
            event.preventDefault();
            sessionStorage.setItem(TOKEN_KEY, $("token-input").value);
            $("token-input").value = "";
            $("token-form").hidden = true;
            showError(null);
            refreshStubs().catch(showError);
            const tab = $("tabs").querySelector("button[aria-selected='true']").dataset.tab;
            if (tab === "scenarios" || tab === "recording") show(tab);
            connectFeed();
          });
          adoptInitial();
          updateCounts();
          refreshStubs().catch(showError);
          connectFeed();
        }

        start();

        """#
}
