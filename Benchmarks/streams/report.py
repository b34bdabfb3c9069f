"""The table of bench-streams.sh and bench-websockets.sh: per server, connections, silent ones, the rate of what
was counted, memory per open connection, threads, CPU per 1,000 counted; then stubserver against the reference.
Exits 1 with --check-like STRICT when stubserver had a silent connection, grew threads by more than 2, or (with
MIN_RATE) counted fewer than MIN_RATE per connection-second.

Usage: python3 report.py RESULTS STRICT WINDOW REFERENCE UNIT MIN_RATE
  RESULTS: lines "NAME JSON" from the clients (opened, count, silent, rss_before_kb, rss_open_kb, threads_before,
  threads_open, cpu_ticks, ticks_per_second); UNIT: what was counted ("events", "round trips"); MIN_RATE: 0 for none.
"""
import json
import sys

results, strict, window, reference, unit, min_rate = sys.argv[1], sys.argv[2] == "1", float(sys.argv[3]), \
    sys.argv[4], sys.argv[5], float(sys.argv[6])
rows = {}
for line in open(results):
    name, _, text = line.partition(" ")
    rows[name] = json.loads(text)
print(f"{'server':<11} {'open':>6} {'silent':>6} {unit + '/s':>14} {'KiB/conn':>9} {'threads':>13} "
      f"{'CPU ms/1k ' + unit:>20}")
figures = {}
for name, r in rows.items():
    per_connection = (r["rss_open_kb"] - r["rss_before_kb"]) / max(1, r["opened"])
    cpu_ms = r["cpu_ticks"] * 1000 / r["ticks_per_second"]
    per_k = cpu_ms * 1000 / max(1, r["count"])
    figures[name] = (per_connection, per_k)
    print(f"{name:<11} {r['opened']:>6} {r['silent']:>6} {r['count'] / window:>14.0f} {per_connection:>9.1f} "
          f"{r['threads_before']:>5} -> {r['threads_open']:<5} {per_k:>20.1f}")
if "stubserver" in figures and reference in figures:
    (sm, sc), (rm, rc) = figures["stubserver"], figures[reference]
    print(f"\nstubserver / {reference}: memory per connection {sm / rm if rm > 0 else float('nan'):.2f}x, "
          f"CPU per {unit[:-1] if unit.endswith('s') else unit} {sc / rc if rc > 0 else float('nan'):.2f}x")
failures = []
s = rows.get("stubserver")
if s:
    if s["silent"]:
        failures.append(f"{s['silent']} stubserver connections counted nothing")
    if min_rate > 0 and s["count"] < min_rate * s["opened"] * window:
        failures.append(f"stubserver: {s['count']} {unit}, under {min_rate} per connection-second")
    if s["threads_open"] - s["threads_before"] > 2:
        failures.append(f"stubserver's threads grew from {s['threads_before']} to {s['threads_open']}")
for failure in failures:
    print(f"{sys.argv[0]}:", failure)
sys.exit(1 if strict and failures else 0)
