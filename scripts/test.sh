#!/usr/bin/env bash
# The test suite on a fresh machine: build, then run every xunit test against the real targets.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/prerequisites.sh || exit $?
bash scripts/build.sh || exit $?

log=$(mktemp)
dotnet test tests/Comparator.Tests.csproj -c Release --no-build -nologo 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

# One plain summary line, "N passed, N failed", read from the runner's own totals.
summary=$(grep -E '(Passed|Failed)! +- +Failed: +[0-9]+, +Passed: +[0-9]+' "$log" | tail -n 1)
if [ -n "$summary" ]; then
  failed=$(sed -E 's/.*Failed: +([0-9]+),.*/\1/' <<<"$summary")
  passed=$(sed -E 's/.*Passed: +([0-9]+),.*/\1/' <<<"$summary")
  skipped=$(sed -E 's/.*Skipped: +([0-9]+),.*/\1/' <<<"$summary")
  echo "tests: $passed passed, $failed failed, $skipped skipped"
else
  echo "tests: the runner printed no totals (exit code $status)"
  [ "$status" -eq 0 ] && status=1
fi
rm -f "$log"
exit "$status"
