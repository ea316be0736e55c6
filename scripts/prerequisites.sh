#!/usr/bin/env bash
# Installs the Debian packages the comparator's external drivers need (ab from apache2-utils, wrk),
# only when they are missing. As root with apt-get it installs them; otherwise it says what to run.
set -euo pipefail

missing=()
command -v ab >/dev/null 2>&1 || missing+=(apache2-utils)
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing ${missing[*]} (load drivers ab and wrk) ..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "note: ${missing[*]} not installed; --driver ab/wrk/all need them: sudo apt-get install ${missing[*]}" >&2
fi
