#!/usr/bin/env bash
# The test suite on a fresh machine: build, then run every xunit test against the real targets.
#   bash scripts/test.sh           the full suite (what .ci/run runs)
#   bash scripts/test.sh --quick   the inner loop: only the tests that start no process (no service, Mono, valgrind
#                                  or perf); a class that starts one carries [Trait(TestTiers.Trait, TestTiers.Processes)]
# A test that runs longer than the hang bound is ended and named by the runner (--blame-hang), so a hung test
# fails the run within minutes rather than at CI's limit.
set -uo pipefail
cd "$(dirname "$0")/.."

quick=
case "${1:-}" in
  "") ;;
  --quick) quick=1 ;;
  *) echo "error: test.sh takes --quick or nothing, not '$1'" >&2; exit 2 ;;
esac
# The longest test runs about 3 minutes here; a test still running after this is taken for hung.
hang=${COMPARATOR_TEST_HANG:-10m}

if [ -n "$quick" ]; then
  bash scripts/build.sh || exit $?
  filter=(--filter "Tier!=processes")
  export COMPARATOR_TEST_TIER=quick
else
  bash scripts/prerequisites.sh || exit $?
  bash scripts/build.sh || exit $?
  filter=()
fi

log=$(mktemp)
# Each test's line with its time (verbosity normal) goes to the log only; the terminal sees the runner's usual output.
dotnet test tests/Comparator.Tests.csproj -c Release --no-build -nologo "${filter[@]}" \
  --blame-hang --blame-hang-timeout "$hang" --blame-hang-dump-type none \
  --logger "console;verbosity=normal" 2>&1 | tee "$log" | grep -vE '^\s+Passed [A-Za-z]' 
status=${PIPESTATUS[0]}
# Where the time goes: the slowest 20 tests, from the runner's own times ("[1 m 40 s]", "[4 s]", "[258 ms]").
python3 - "$log" <<'PY' || true
import re, sys
times = []
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    m = re.match(r"\s+(Passed|Failed|Skipped) (\S+) \[(?:(\d+) m )?(?:(\d+) s)?(?: ?(\d+) ms)?\]", line)
    if m and (m.group(3) or m.group(4) or m.group(5)):
        seconds = int(m.group(3) or 0) * 60 + int(m.group(4) or 0) + int(m.group(5) or 0) / 1000
        times.append((seconds, m.group(2).replace("Comparator.Tests.", "")))
if times:
    times.sort(reverse=True)
    print(f"slowest tests (of {len(times)}, {sum(t for t, _ in times) / 60:.1f} min in all):")
    for seconds, name in times[:20]: print(f"  {seconds:7.1f} s  {name}")
PY
# A hang ends the test host: the runner names the test it ended; say it in one line.
if grep -q "The specified inactivity time of .* has elapsed" "$log"; then
  hung=$(grep -A3 "The test running when the crash occurred" "$log" | grep -oE '^Comparator\.Tests\.[A-Za-z0-9_.]+' | paste -sd, - || true)
  echo "tests: ${hung:-a test} ran past the hang bound ($hang) and was ended; the run stopped there"
  [ "$status" -eq 0 ] && status=1
fi

# One plain summary line, "N passed, N failed", read from the runner's own totals.
summary=$(grep -E '(Passed|Failed)! +- +Failed: +[0-9]+, +Passed: +[0-9]+' "$log" | tail -n 1)
if [ -n "$summary" ]; then
  failed=$(sed -E 's/.*Failed: +([0-9]+),.*/\1/' <<<"$summary")
  passed=$(sed -E 's/.*Passed: +([0-9]+),.*/\1/' <<<"$summary")
  skipped=$(sed -E 's/.*Skipped: +([0-9]+),.*/\1/' <<<"$summary")
  echo "tests: $passed passed, $failed failed, $skipped skipped"
elif grep -qE '^Total tests: +[0-9]+' "$log"; then
  # At normal verbosity the runner ends with "Total tests: N", then "Passed: N", "Failed: N", "Skipped: N" (those that occurred).
  count() { grep -E "^ +$1: +[0-9]+" "$log" | tail -n 1 | grep -oE '[0-9]+' || echo 0; }
  echo "tests: $(count Passed) passed, $(count Failed) failed, $(count Skipped) skipped"
else
  echo "tests: the runner printed no totals (exit code $status)"
  [ "$status" -eq 0 ] && status=1
fi
rm -f "$log"
exit "$status"
