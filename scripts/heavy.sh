#!/usr/bin/env bash
# heavy.sh reproduces the heavy-document load case of docs/reliability.md (issue 23): it
# builds qsc, starts `qsc serve` on loopback, and runs wrk with 256 connections, each
# posting a 1 MiB document to /v1/snippets (scripts/snippets.lua) for 25 s, while
# scripts/heavyprobe sends small POST /v1/compress requests one at a time and reads the
# server's RSS from /proc every second, during the load and for 60 s after it. It prints
# the RSS after start, wrk's RESULT line (answers by status) and the probe's: peak RSS,
# RSS 60 s after the load, and the small requests' p99.
#
#   scripts/heavy.sh
#   CONNECTIONS=64 DURATION=25 AFTER=60 scripts/heavy.sh
#   SERVE_FLAGS="--max-body-in-flight 0" scripts/heavy.sh   # flags for qsc serve
#   ROUTE=annotate scripts/heavy.sh                          # POST /v1/annotate instead
#
# wrk runs at nice 5 (NICE) on the same cores as the server; the request log goes to
# /dev/null (LOG=FILE keeps it).
set -euo pipefail
cd "$(dirname "$0")/.."

port=${PORT:-18081}
conns=${CONNECTIONS:-256}
duration=${DURATION:-25}
after=${AFTER:-60}
log=${LOG:-/dev/null}
base=http://127.0.0.1:$port

tmp=$(mktemp -d)
go build -o "$tmp/qsc" ./cmd/qsc
go build -o "$tmp/heavyprobe" ./scripts/heavyprobe
"$tmp/qsc" serve --addr "127.0.0.1:$port" ${SERVE_FLAGS:-} 2>"$log" &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
until curl -sf "$base/readyz" >/dev/null; do sleep 0.2; done

rss() { awk '/^VmRSS/ {print $2 " kB"}' "/proc/$pid/status"; }
echo "date: $(date -u +%FT%TZ), go: $(go version | cut -d' ' -f3-), cores: $(nproc), load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "server pid $pid, RSS after start $(rss)"
sleep 5
echo "RSS 5 s after start $(rss)"

"$tmp/heavyprobe" -url "$base" -pid "$pid" -load "${duration}s" -after "${after}s" >"$tmp/probe.txt" &
probe=$!
ROUTE=${ROUTE:-snippets} nice -n "${NICE:-5}" wrk -t1 -c"$conns" -d"${duration}s" --timeout 30s -s scripts/snippets.lua "$base/v1/${ROUTE:-snippets}" | grep RESULT
wait "$probe"
grep '^t=' "$tmp/probe.txt" | awk '{printf "%s%s", sep, $0; sep=" | "} END {print ""}'
grep RESULT -A 12 "$tmp/probe.txt"
