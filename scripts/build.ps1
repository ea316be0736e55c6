#Requires -Version 7.0
# Restores and builds everything in Release: scripts/build.sh in PowerShell, for Windows (and any
# machine with pwsh). Shared by compare.ps1 and test.ps1.
#   1. Comparator.Core.slnf: the comparator, the tests and every target whose packages every
#      NuGet source we know of holds. A failure here fails the build.
#   2. The optional targets (the named twins): each restored on its own; built where its packages
#      restore, else skipped with one line naming the missing package ids (artifacts/optional-targets,
#      which the comparator gives as the target's reason).
Set-Location (Split-Path -Parent $PSScriptRoot)

if (-not (Get-Command dotnet -ErrorAction SilentlyContinue)) {
    [Console]::Error.WriteLine('error: the .NET 10 SDK (dotnet) is not on PATH; install it first')
    exit 2
}

$env:DOTNET_CLI_TELEMETRY_OPTOUT = '1'; $env:DOTNET_NOLOGO = '1'; $env:DOTNET_SKIP_FIRST_TIME_EXPERIENCE = '1'
dotnet build Comparator.Core.slnf -c Release -nologo -clp:ErrorsOnly -v:quiet
if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }

# target name, project; keep in step with the catalogue (loadtests/Targets/TargetCatalog.cs) and build.sh.
$optional = @(
    @{ Name = 'wcf'; Project = 'src/WcfService/WcfService.csproj' },
    @{ Name = 'webapi'; Project = 'src/WebApiService/WebApiService.csproj' }
)
$status = 'artifacts/optional-targets'
New-Item -ItemType Directory -Force $status | Out-Null
foreach ($entry in $optional) {
    $name = $entry.Name; $project = $entry.Project
    $missing = Join-Path $status ([IO.Path]::GetFileNameWithoutExtension($project) + '.missing')
    Remove-Item -Force -ErrorAction SilentlyContinue $missing
    $restore = (dotnet restore $project -nologo -v:quiet 2>&1 | Out-String)
    if ($LASTEXITCODE -eq 0) {
        dotnet build $project -c Release --no-restore -nologo -clp:ErrorsOnly -v:quiet
        if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }
        [Console]::Error.WriteLine("built $name ($project)")
        continue
    }
    # NU1101 (no such id) and NU1102/NU1103 (no such version): the package ids, once each, in order.
    $ids = [regex]::Matches($restore, 'NU110[123]: Unable to find package [A-Za-z0-9_.-]+') |
        ForEach-Object { ($_.Value -replace '.*Unable to find package ', '').TrimEnd('.') } | Select-Object -Unique
    if ($ids) {
        $list = $ids -join ', '
        Set-Content -Path $missing -Value "missing: $list"
        [Console]::Error.WriteLine("skipped $name ($project): not in your NuGet sources: $list")
    } else {
        $reason = ($restore -split "`n" | Where-Object { $_ -match 'error' } | Select-Object -First 1) -replace '^.*error ', ''
        Set-Content -Path $missing -Value "restore failed: $(if ($reason) { $reason.Trim() } else { "see dotnet restore $project" })"
        [Console]::Error.WriteLine("skipped $name ($project): restore failed: $(if ($reason) { $reason.Trim() } else { "run dotnet restore $project to see why" })")
    }
}
exit 0
