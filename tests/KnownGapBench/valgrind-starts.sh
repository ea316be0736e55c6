#!/usr/bin/env bash
# Starts one Mono service under valgrind's callgrind N times, as the simulated pass starts it, and says of each start whether it came up
# and whether valgrind itself died ("VALGRIND INTERNAL ERROR"): the measurement behind the pass's settings (docs/method.md, "Valgrind's own crash").
# usage: valgrind-starts.sh SERVICE.exe N PORT OUT_DIR [valgrind options...]
# env: MONO_DEBUG etc. are passed to Mono; INSTR=1 turns counting on after 30 requests (callgrind_control -i on), 30 more, then a dump.
set -u
exe=$1; n=$2; port=$3; out=$4; shift 4
mkdir -p "$out"
for i in $(seq 1 "$n"); do
  rm -f "$out"/cg.*
  t0=$(date +%s.%N)
  valgrind "$@" --callgrind-out-file="$out/cg.%p" mono "$exe" --port "$port" > "$out/stdout.$i" 2> "$out/stderr.$i" &
  pid=$!
  status=timeout
  for _ in $(seq 1 600); do
    if ! kill -0 $pid 2>/dev/null; then status=exited; break; fi
    if curl -s -o /dev/null -m 60 "http://127.0.0.1:$port/api/time"; then status=up; break; fi
    sleep 0.2
  done
  t1=$(date +%s.%N)
  if [ $status = up ]; then
    ok=0
    for _ in $(seq 1 30); do [ "$(curl -s -o /dev/null -w '%{http_code}' -m 60 "http://127.0.0.1:$port/api/time")" = 200 ] && ok=$((ok+1)); done
    if [ -n "${INSTR:-}" ]; then
      callgrind_control -i on $pid > /dev/null 2>&1 || status="$status-noinstr"
      for _ in $(seq 1 30); do [ "$(curl -s -o /dev/null -w '%{http_code}' -m 60 "http://127.0.0.1:$port/api/time")" = 200 ] && ok=$((ok+1)); done
      callgrind_control -d $pid > /dev/null 2>&1 || status="$status-nodump"
      ok=$((ok-30))
    fi
    kill -0 $pid 2>/dev/null || status=died-after
    [ $ok -lt 30 ] && status="$status-failed$((30-ok))"
  fi
  kill -TERM $pid 2>/dev/null
  for _ in $(seq 1 50); do kill -0 $pid 2>/dev/null || break; sleep 0.2; done
  kill -0 $pid 2>/dev/null && { kill -KILL $pid; status="$status-killed"; }
  wait $pid 2>/dev/null
  crash=$(grep -c "INTERNAL ERROR" "$out/stderr.$i")
  echo "$i $status up=$(echo "$t1 - $t0" | bc) crash=$crash" | tee -a "$out/log"
done
