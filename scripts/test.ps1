#Requires -Version 7.0
# The test suite on a fresh machine, as scripts/test.sh: prerequisites, build, then every xunit test
# against the real targets; the last line is "tests: N passed, N failed, N skipped" and the exit code
# is the runner's.
#   pwsh scripts/test.ps1 [-Filter NAME]   NAME: only the tests whose full name contains it
#                                          (an expression with = or ~ goes to dotnet test --filter as it is)
param([string]$Filter)
Set-Location (Split-Path -Parent $PSScriptRoot)
& (Join-Path $PSScriptRoot 'prerequisites.ps1')
if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }
& (Join-Path $PSScriptRoot 'build.ps1')
if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }

$testArgs = @('test', 'tests/Comparator.Tests.csproj', '-c', 'Release', '--no-build', '-nologo')
if ($Filter) { $testArgs += @('--filter', $(if ($Filter -match '[=~]') { $Filter } else { "FullyQualifiedName~$Filter" })) }
$log = [System.Collections.Generic.List[string]]::new()
dotnet @testArgs 2>&1 | ForEach-Object { $line = "$_"; $log.Add($line); $line }
$status = $LASTEXITCODE

# One plain summary line, read from the runner's own totals.
$summary = $log | Where-Object { $_ -match '(Passed|Failed)! +- +Failed: +\d+, +Passed: +\d+' } | Select-Object -Last 1
if ($summary -match 'Failed: +(\d+), +Passed: +(\d+), +Skipped: +(\d+)') {
    "tests: $($Matches[2]) passed, $($Matches[1]) failed, $($Matches[3]) skipped"
} else {
    "tests: the runner printed no totals (exit code $status)"
    if ($status -eq 0) { $status = 1 }
}
exit $status
