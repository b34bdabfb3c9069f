/// The dashboard's style: a laptop screen or a phone-width window, light or dark as the system is.
enum DashboardStyle {
    static let css = #"""
        :root { --bg: #fff; --fg: #1d1d1f; --muted: #6e6e73; --line: #d2d2d7; --panel: #f5f5f7; --accent: #0066cc;
          --ok: #1a7f37; --warn: #9a6700; --bad: #cf222e; --selected: #e8f0fe;
          font: 14px/1.4 -apple-system, BlinkMacSystemFont, "Segoe UI", system-ui, sans-serif; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #1c1c1e; --fg: #f2f2f7; --muted: #a1a1a6; --line: #3a3a3c; --panel: #2c2c2e; --accent: #4da3ff;
            --ok: #3fb950; --warn: #d29922; --bad: #f85149; --selected: #203a5c; }
        }
        * { box-sizing: border-box; }
        [hidden] { display: none !important; }
        body { margin: 0; background: var(--bg); color: var(--fg); }
        header { display: flex; flex-wrap: wrap; align-items: center; gap: 12px; padding: 8px 16px;
          border-bottom: 1px solid var(--line); background: var(--panel); position: sticky; top: 0; z-index: 1; }
        h1 { font-size: 16px; margin: 0; }
        h2 { font-size: 15px; margin: 16px 0 6px; }
        h3 { font-size: 13px; margin: 12px 0 4px; color: var(--muted); text-transform: uppercase; }
        nav { display: flex; gap: 4px; flex-wrap: wrap; }
        button, select, input { font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line);
          border-radius: 6px; padding: 4px 10px; }
        button { cursor: pointer; }
        button:hover { border-color: var(--accent); }
        button.primary { background: var(--accent); color: #fff; border-color: var(--accent); }
        button.quiet { border-color: transparent; background: transparent; color: var(--muted); }
        nav button[aria-selected="true"] { background: var(--accent); color: #fff; border-color: var(--accent); }
        main { padding: 12px 16px; }
        .toolbar { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-bottom: 8px; }
        #filter { flex: 1 1 220px; min-width: 0; }
        .status { font-size: 12px; color: var(--muted); margin-left: auto; }
        .status.live { color: var(--ok); }
        .status.down { color: var(--bad); }
        .note { color: var(--muted); font-size: 12px; }
        .warn { color: var(--warn); }
        .error { margin: 8px 16px; padding: 8px 12px; border: 1px solid var(--bad); border-radius: 6px;
          color: var(--bad); }
        form#token-form { display: flex; gap: 8px; align-items: center; padding: 8px 16px;
          border-bottom: 1px solid var(--line); }
        .split { display: grid; grid-template-columns: minmax(0, 1fr); gap: 12px; }
        .split.open { grid-template-columns: minmax(0, 1.2fr) minmax(0, 1fr); }
        @media (max-width: 900px) { .split.open { grid-template-columns: minmax(0, 1fr); } }
        .list { overflow-x: auto; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
        th { font-weight: 600; color: var(--muted); font-size: 12px; position: sticky; top: 0; background: var(--bg); }
        td.path, td.wrap { word-break: break-all; }
        td.num { text-align: right; font-variant-numeric: tabular-nums; }
        #requests tbody tr { cursor: pointer; }
        #requests tbody tr:hover { background: var(--panel); }
        #requests tbody tr.selected { background: var(--selected); }
        .s2 { color: var(--ok); } .s3 { color: var(--accent); } .s4 { color: var(--warn); } .s5 { color: var(--bad); }
        .unmatched { color: var(--bad); font-weight: 600; }
        .badge { display: inline-block; font-size: 11px; padding: 0 6px; border-radius: 8px; border: 1px solid var(--line);
          color: var(--muted); margin-left: 4px; }
        .badge.unused { color: var(--warn); border-color: var(--warn); }
        aside#detail { border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; background: var(--panel);
          min-width: 0; }
        .detail-head { display: flex; justify-content: space-between; gap: 8px; align-items: baseline; }
        .detail-head strong { word-break: break-all; }
        dl.headers { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 12px; margin: 0;
          font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; }
        dl.headers dt { color: var(--muted); } dl.headers dd { margin: 0; word-break: break-all; }
        pre.body, textarea { font: 12px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; white-space: pre-wrap;
          word-break: break-all; background: var(--bg); border: 1px solid var(--line); border-radius: 6px;
          padding: 8px; margin: 4px 0; max-height: 420px; overflow: auto; }
        textarea { width: 100%; min-height: 240px; color: inherit; }
        @media (max-width: 600px) {
          header, main { padding-left: 8px; padding-right: 8px; }
          #requests th:nth-child(3), #requests td:nth-child(3), #requests th:nth-child(7), #requests td:nth-child(7),
          #stubs th:nth-child(1), #stubs td:nth-child(1), #stubs th:nth-child(4), #stubs td:nth-child(4) { display: none; }
          th, td { padding: 4px; }
        }
        .actions { display: flex; flex-wrap: wrap; gap: 8px; margin: 6px 0; }
        """#
}
