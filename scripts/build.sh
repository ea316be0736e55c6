#!/usr/bin/env bash
# Restores and builds everything in Release. Shared by compare.sh, test.sh and .ci/run.
#   1. Comparator.Core.slnf: the comparator, the tests and every target whose packages every
#      NuGet source we know of holds. A failure here fails the build. `build.sh run` (compare.sh)
#      builds Comparator.Run.slnf instead: the same without the tests and their doubles, which the
#      main job does not start (38 s on a fresh clone here, against 53 s for Core).
#   2. The optional targets (the named twins, whose packages only some NuGet sources hold): each is
#      restored on its own; where its packages restore from your NuGet sources it is built (and a
#      build failure fails the build), where they do not it is skipped with one line naming the
#      missing package ids, which the comparator then gives as the target's reason.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v dotnet >/dev/null 2>&1; then
  echo "error: the .NET 10 SDK (dotnet) is not on PATH; install it first" >&2
  exit 2
fi

export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
core=Comparator.Core.slnf
[ "${1:-}" = run ] && core=Comparator.Run.slnf
dotnet build "$core" -c Release -nologo -clp:ErrorsOnly -v:quiet

# target name, project; keep in step with the catalogue (loadtests/Targets/TargetCatalog.cs).
optional=("wcf src/WcfService/WcfService.csproj" "webapi src/WebApiService/WebApiService.csproj")
status=artifacts/optional-targets
mkdir -p "$status"
for entry in "${optional[@]}"; do
  read -r name project <<<"$entry"
  base=$(basename "$project" .csproj)
  rm -f "$status/$base.missing"
  if restore=$(dotnet restore "$project" -nologo -v:quiet 2>&1); then
    dotnet build "$project" -c Release --no-restore -nologo -clp:ErrorsOnly -v:quiet
    echo "built $name ($project)" >&2
  else
    # NU1101 (no such id) and NU1102/NU1103 (no such version): the package ids, once each, in order.
    ids=$(grep -oE 'NU110[123]: Unable to find package [A-Za-z0-9_.-]+' <<<"$restore" \
          | sed -E 's/.*Unable to find package //; s/\.$//' | awk '!seen[$0]++' | paste -sd, - | sed 's/,/, /g' || true)
    if [ -n "$ids" ]; then
      echo "missing: $ids" > "$status/$base.missing"
      echo "skipped $name ($project): not in your NuGet sources: $ids" >&2
    else
      reason=$(grep -m1 -E 'error' <<<"$restore" | sed -E 's/^.*error //' || true)
      echo "restore failed: ${reason:-see dotnet restore $project}" > "$status/$base.missing"
      echo "skipped $name ($project): restore failed: ${reason:-run dotnet restore $project to see why}" >&2
    fi
  fi
done
