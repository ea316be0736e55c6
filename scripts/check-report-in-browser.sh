#!/usr/bin/env bash
# Opens a run's report.html (or a history.html) in headless Chromium and checks what a reader would see:
# - every chart drawn (an SVG with paths in each figure, a non-blank screenshot);
# - nothing loaded from the network (Chromium's net log holds no http(s) request);
# - the first screen at 1280x800: no sideways scroll, and on a run's page the headline and the whole
#   table of judged figures above the fold (measured by a copy of the page that reports its own layout;
#   it prints where the table ends);
# - the printed page (Chromium's --print-to-pdf): every chart whole on one page, placed by where
#   pdftotext finds its caption and how tall its SVG is at the page's width; the pages as PNGs.
# Makes a quick run first if no report is given. Leaves first-screen.png, page.pdf and pdf-page-N.png.
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
if ! command -v pdftoppm >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing poppler-utils (pdftotext, pdftoppm) ..." >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils >/dev/null
  else
    echo "error: poppler-utils is not installed (apt-get install poppler-utils)" >&2; exit 2
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
chromium "${flags[@]}" --window-size=1280,800 --screenshot="$work/first-screen.png" "$url" >/dev/null 2>&1
# The layout probe: the same page with a script at its end that writes what the first screen holds
# into the page, read back from the DOM Chromium dumps (the report itself carries no script).
python3 - "$report" "$work/probe.html" <<'PY'
import sys
page = open(sys.argv[1], encoding="utf-8").read()
probe = """<script>addEventListener('load', () => {
  const d = document.documentElement, top = el => el ? el.getBoundingClientRect().top + scrollY : null;
  const bottom = el => el ? el.getBoundingClientRect().bottom + scrollY : null, last = list => list[list.length - 1];
  const headline = last(document.querySelectorAll('p.headline')), table = last(document.querySelectorAll('table.judged'));
  const forest = document.getElementById('chart-judgments');
  const out = {width: innerWidth, height: innerHeight, scrollWidth: d.scrollWidth, headlineBottom: bottom(headline),
               tableBottom: bottom(table), forestTop: top(forest)};
  const pre = document.createElement('pre'); pre.id = 'layout-probe'; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});</script>"""
open(sys.argv[2], "w", encoding="utf-8").write(page.replace("</body>", probe + "</body>"))
PY
chromium "${flags[@]}" --window-size=1280,800 --virtual-time-budget=2000 --dump-dom "file://$work/probe.html" > "$work/probe-dom.html" 2>/dev/null
chromium "${flags[@]}" --no-pdf-header-footer --print-to-pdf="$work/page.pdf" "$url" >/dev/null 2>&1
pdftotext -bbox-layout "$work/page.pdf" "$work/page-bbox.html"
pdftoppm -png -r 50 "$work/page.pdf" "$work/pdf-page"

python3 - "$work" <<'PY'
import json, re, sys, os, html as H
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

# The first screen, 1280x800.
probe = re.search(r'<pre id="layout-probe">(.*?)</pre>', open(os.path.join(work, "probe-dom.html"), encoding="utf-8").read(), re.S)
if not probe: problems.append("the layout probe did not run (no layout-probe in the dumped page)")
else:
    lay = json.loads(H.unescape(probe.group(1)))
    # The screenshot's viewport is the window asked for; the DOM dump's may be shorter, so the fold is the asked height.
    lay["height"] = 800
    if lay["scrollWidth"] > lay["width"]:
        problems.append(f"the page scrolls sideways at {lay['width']} px ({lay['scrollWidth']} px wide)")
    # A run's page: the headline and the whole table of judged figures above the fold (a run with nothing judged has no table).
    if "<title>Comparator run" in dom:
        if lay["headlineBottom"] is None: problems.append("the page has no headline")
        elif lay["headlineBottom"] > lay["height"]:
            problems.append(f"the headline ends at {lay['headlineBottom']:.0f} px, below the first screen ({lay['height']} px)")
        if lay["tableBottom"] is not None and lay["tableBottom"] > lay["height"]:
            problems.append(f"the table of judged figures ends at {lay['tableBottom']:.0f} px, below the first screen ({lay['height']} px)")
    first = f"first screen {lay['width']}x{lay['height']}: {lay['scrollWidth']} px wide" + (
        f", headline ends at {lay['headlineBottom']:.0f} px" if lay.get("headlineBottom") is not None else "") + (
        f", table ends at {lay['tableBottom']:.0f} px" if lay.get("tableBottom") is not None else "") + (
        f", forest plot from {lay['forestTop']:.0f} px" if lay.get("forestTop") is not None else "")

# The printed page: each chart's caption found on a page, and the chart below it (its SVG at the
# content width, the height its view box gives) ending above that page's bottom margin.
bbox = open(os.path.join(work, "page-bbox.html"), encoding="utf-8").read()
pages = []
for m in re.finditer(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', bbox, re.S):
    lines = [(float(l.group(1)), float(l.group(2)), float(l.group(4)),
              " ".join(H.unescape(w) for w in re.findall(r'<word[^>]*>(.*?)</word>', l.group(5))))
             for l in re.finditer(r'<line xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</line>', m.group(3), re.S)]
    pages.append((float(m.group(1)), float(m.group(2)), lines))
whole = 0
for name, body in figures:
    caption = H.unescape(re.sub(r"<[^>]+>", "", re.search(r"<figcaption>(.*?)</figcaption>", body, re.S).group(1))).strip()
    vb = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', body)
    found = [(i, line) for i, (_, _, lines) in enumerate(pages) for line in lines
             if len(line[3]) >= 12 and caption.startswith(line[3][: len(caption)]) and caption[:12] == line[3][:12]]
    if not found: problems.append(f"chart {name}: its caption is not in the printed PDF"); continue
    i, (x0, y0, y1, _) = found[0]
    width, height, _ = pages[i]
    # A wrapped caption: its later lines follow right below, sharing the left edge.
    for (lx, ly0, ly1, text) in pages[i][2]:
        if abs(lx - x0) < 1 and y1 <= ly0 < y1 + 4 and text and caption.find(text) > 0: y1 = ly1
    content = width - 2 * x0  # the margins are alike on both sides
    svg_w = min(float(vb.group(1)) * 0.75, content) if vb else content  # CSS px to pt, shrunk to the page
    bottom = y1 + (svg_w * float(vb.group(2)) / float(vb.group(1)) if vb else 0)
    # The left edge is the page's margin plus the body's 1 cm (print CSS); at a page's foot only the page's margin is left.
    foot = height - (x0 - 28.35)
    if bottom > foot + 2:
        problems.append(f"chart {name} is cut by the page break: it would end at {bottom:.0f} pt, page {i + 1} ends at {foot:.0f} pt")
    else: whole += 1
printed = f"printed: {len(pages)} pages, {whole} of {len(figures)} charts whole on their page"

for p in problems: print("FAIL:", p)
print(f"report checked in Chromium: {len(figures)} charts drawn, {len(remote)} network requests by the page"
      f" ({internal} by the browser itself, not the page), screenshot {png} bytes; "
      + (first + "; " if probe else "") + printed + (" -> OK" if not problems else ""))
sys.exit(1 if problems else 0)
PY
echo "screenshot: $work/page.png; first screen: $work/first-screen.png; printed: $work/page.pdf and $work/pdf-page-*.png"
