#!/usr/bin/env bash
# The main job on a fresh machine: build, then the default comparison (run) of every target that
# runs here, on loopback. Extra arguments go to the comparator, e.g. `scripts/compare.sh run --quick`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/prerequisites.sh
bash scripts/build.sh run
exec dotnet artifacts/bin/Comparator/release/comparator.dll "$@"
