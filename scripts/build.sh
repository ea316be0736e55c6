#!/usr/bin/env bash
# Restores and builds the whole solution in Release. Shared by compare.sh, test.sh and .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v dotnet >/dev/null 2>&1; then
  echo "error: the .NET 10 SDK (dotnet) is not on PATH; install it first" >&2
  exit 2
fi

export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
dotnet build Comparator.sln -c Release -nologo -clp:ErrorsOnly -v:quiet
