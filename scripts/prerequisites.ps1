#Requires -Version 7.0
# What the comparator needs besides the .NET 10 SDK, checked (and on Linux installed) only when missing.
# On Linux: scripts/prerequisites.sh (apt-get: ab, wrk, mono-complete). On Windows there is no package
# to install for the targets: .NET Framework 4.7.2 or later runs the net472 exes (wcf-classic,
# webapi-selfhost, httplistener-mono) directly. ab is a cross-check driver: it comes with Apache httpd
# for Windows; wrk has no Windows build, so --driver wrk says it is not installed. Notes only, never a failure.
$ErrorActionPreference = 'Stop'

if (-not $IsWindows) {
    bash (Join-Path $PSScriptRoot 'prerequisites.sh')
    exit $LASTEXITCODE
}

# .NET Framework 4.7.2 is release 461808 (learn.microsoft.com: "How to determine which .NET Framework versions are installed").
$ndp = Get-ItemProperty 'HKLM:\SOFTWARE\Microsoft\NET Framework Setup\NDP\v4\Full' -Name Release -ErrorAction SilentlyContinue
if ($null -eq $ndp -or $ndp.Release -lt 461808) {
    Write-Warning 'note: .NET Framework 4.7.2 or later is not installed; the net472 targets (wcf-classic, webapi-selfhost, httplistener-mono) need it: install .NET Framework 4.8 from https://dotnet.microsoft.com/download/dotnet-framework'
}
if (-not (Get-Command ab -ErrorAction SilentlyContinue)) {
    Write-Warning 'note: ab is not on PATH; --driver ab needs it: it comes with Apache httpd for Windows (Apache Lounge, https://www.apachelounge.com/download/): put its bin folder on PATH'
}
# wrk is not checked: it has no Windows build (the comparator reports --driver wrk as not installed).
exit 0
