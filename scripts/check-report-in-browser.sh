#!/usr/bin/env bash
# Opens a run's report.html (or a history.html) in headless Chromium and checks what a reader would see: every chart
# drawn (an SVG with paths in each figure, a non-blank screenshot), and nothing loaded from the
# network (Chromium's net log holds no http(s) request). Makes a quick run first if no report is given.
#   bash scripts/check-report-in-browser.sh [path/to/report.html]
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing chromium ..." >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "error: chromium is not installed (apt-get install chromium)" >&2; exit 2
  fi
fi

report=${1:-}
if [ -z "$report" ]; then
  bash scripts/build.sh
  out=$(mktemp -d)
  dotnet artifacts/bin/Comparator/release/comparator.dll run --quick --endpoints time,echo-post,echo-put --sizes 500,64KB --out "$out" >/dev/null
  report=$(ls -d "$out"/*/report.html | head -n 1)
fi
[ -f "$report" ] || { echo "error: no report at $report" >&2; exit 2; }
url="file://$(realpath "$report")"
work=$(mktemp -d)
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
       --disable-component-update --disable-sync --user-data-dir="$work/profile")

chromium "${flags[@]}" --log-net-log="$work/net.json" --dump-dom "$url" > "$work/dom.html" 2>/dev/null
chromium "${flags[@]}" --window-size=1200,4000 --screenshot="$work/page.png" "$url" >/dev/null 2>&1

python3 - "$work" <<'PY'
import json, re, sys, os
work = sys.argv[1]
dom = open(os.path.join(work, "dom.html"), encoding="utf-8").read()
figures = re.findall(r'<figure id="chart-([a-z0-9-]+)">(.*?)</figure>', dom, re.S)
problems = []
# A run's page has five charts or more; a capacity run's page one per cell, a history's one per cell and figure.
least = 1 if "<title>Comparator capacity" in dom or "<title>Comparator history" in dom else 5
if len(figures) < least: problems.append(f"expected {least} charts or more, the page has {len(figures)}")
for name, body in figures:
    paths = len(re.findall(r"<path\b", body))
    if "<svg" not in body or paths < 3: problems.append(f"chart {name} is not drawn ({paths} paths)")
raw = open(os.path.join(work, "net.json"), encoding="utf-8", errors="replace").read()
try: log = json.loads(raw)
except ValueError: log = json.loads(raw.rstrip().rstrip(",") + "]}")  # a log cut at exit lacks its closing brackets
types = {v: k for k, v in log["constants"]["logEventTypes"].items()}
starts = [e.get("params", {}) for e in log["events"] if types.get(e["type"]) == "URL_REQUEST_START_JOB"]
# Requests the browser makes for itself (update checks, accounts) have no initiating origin;
# anything the page asked for is initiated by the page's (file) origin.
remote = sorted({p["url"] for p in starts if p.get("url", "").startswith(("http:", "https:", "ws:", "wss:"))
                 and p.get("initiator") != "not an origin"})
internal = sum(1 for p in starts if p.get("initiator") == "not an origin")
if remote: problems.append("the page loaded from the network: " + ", ".join(remote[:5]))
png = os.path.getsize(os.path.join(work, "page.png")) if os.path.exists(os.path.join(work, "page.png")) else 0
if png < 20000: problems.append(f"the screenshot is blank or missing ({png} bytes)")
for p in problems: print("FAIL:", p)
print(f"report checked in Chromium: {len(figures)} charts drawn, {len(remote)} network requests by the page"
      f" ({internal} by the browser itself, not the page), screenshot {png} bytes"
      + (" -> OK" if not problems else ""))
sys.exit(1 if problems else 0)
PY
echo "screenshot: $work/page.png"
