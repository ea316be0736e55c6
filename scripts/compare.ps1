#Requires -Version 7.0
# The main job on a fresh machine, as scripts/compare.sh: prerequisites, build, then the default
# comparison (run) of every target that runs here, on loopback. Every argument goes to the
# comparator, e.g. `pwsh scripts/compare.ps1 --quick` or `pwsh scripts/compare.ps1 verify`.
Set-Location (Split-Path -Parent $PSScriptRoot)
& (Join-Path $PSScriptRoot 'prerequisites.ps1')
if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }
& (Join-Path $PSScriptRoot 'build.ps1')
if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }
# Called from a PowerShell prompt, `--targets a,b` arrives as an array: give it back as the comparator's list.
$passed = @($args | ForEach-Object { if ($_ -is [array]) { $_ -join ',' } else { "$_" } })
dotnet artifacts/bin/Comparator/release/comparator.dll @passed
exit $LASTEXITCODE
