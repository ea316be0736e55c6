#!/usr/bin/env bash
# Runs a scenario of crank/comparator.yml through crank (the targets on the server agent, the
# comparator as the load job on the client agent), then imports crank's result into a run directory.
#   bash scripts/crank-run.sh [--scenario default-pair] [--profile two-machines] [any crank option...]
# Needs crank's controller (`dotnet tool install -g Microsoft.Crank.Controller`, the `crank` command;
# CRANK="..." names another) and agents running on the machines the profile names.
set -euo pipefail
cd "$(dirname "$0")/.."

scenario=default-pair
profile=two-machines
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --scenario) scenario=${2:?--scenario needs a name}; shift 2 ;;
    --profile) profile=${2:?--profile needs a name}; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done

read -r -a crank <<<"${CRANK:-crank}"
if ! command -v "${crank[0]}" >/dev/null 2>&1; then
  echo "error: crank's controller ('${crank[0]}') is not on PATH: dotnet tool install -g Microsoft.Crank.Controller, or set CRANK" >&2
  exit 2
fi
comparator=artifacts/bin/Comparator/release/comparator.dll
[ -f "$comparator" ] || bash scripts/build.sh

mkdir -p results
json="results/crank-$scenario-$(date -u +%Y%m%d-%H%M%S).json"
status=0
"${crank[@]}" --config crank/comparator.yml --scenario "$scenario" --profile "$profile" --json "$json" ${args[@]+"${args[@]}"} || status=$?
if [ ! -s "$json" ]; then
  echo "error: crank wrote no result ($json), exit code $status; see its output above" >&2
  exit 1
fi
# A comparison with failed requests still has figures worth importing; crank's own failure is reported after them.
dotnet "$comparator" import-crank "$json"
exit "$status"
