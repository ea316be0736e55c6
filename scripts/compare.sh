#!/usr/bin/env bash
# The main job on a fresh machine: build, then start every target that can run here on loopback
# and verify it. Extra arguments go to the comparator, e.g. `scripts/compare.sh serve`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
exec dotnet artifacts/bin/Comparator/release/comparator.dll "$@"
