#!/usr/bin/env bash
# Installs the Debian packages the comparator needs, only when they are missing: the external load
# drivers (ab from apache2-utils, wrk) and Mono (mono-complete), which runs the .NET Framework
# (net472) targets wcf-classic, webapi-selfhost and httplistener-mono on Linux. As root with
# apt-get it installs them; otherwise it says what to run, and those targets and drivers are
# reported as unavailable with the same command.
set -euo pipefail

missing=()
command -v ab >/dev/null 2>&1 || missing+=(apache2-utils)
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
# Mono.Posix (in mono-complete) is what lets a net472 service stop cleanly on SIGTERM.
{ command -v mono >/dev/null 2>&1 && [ -d /usr/lib/mono/4.5 ]; } || missing+=(mono-complete)
# perf (linux-perf) samples the profiles (`comparator profile`, `run --profile`); without it they say so in one line.
# valgrind (callgrind, callgrind_control) runs the simulated pass (`run --counters simulated`); without it that pass says so in one line.
optional=()
command -v perf >/dev/null 2>&1 || optional+=(linux-perf)
{ command -v valgrind >/dev/null 2>&1 && command -v callgrind_control >/dev/null 2>&1; } || optional+=(valgrind)
if [ ${#optional[@]} -gt 0 ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  apt-get update -qq >/dev/null 2>&1 || true
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${optional[@]}" >/dev/null 2>&1 \
    || echo "note: ${optional[*]} could not be installed; profiles (perf) and the simulated pass (valgrind) will say what is missing" >&2
fi
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing ${missing[*]} (load drivers ab and wrk; Mono for the net472 targets) ..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "note: ${missing[*]} not installed; --driver ab/wrk/all need ab and wrk, the net472 targets need Mono: sudo apt-get install ${missing[*]}" >&2
fi
