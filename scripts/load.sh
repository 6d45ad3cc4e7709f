#!/usr/bin/env bash
# load.sh reproduces the load runs of docs/reliability.md: it builds qsc, starts
# `qsc serve` on loopback and runs wrk (scripts/compress.lua: POST /v1/compress of one
# 17-word sentence, raw text, method lr) at 1, 16 and 64 connections, printing for each the
# load average before the run and wrk's RESULT line (requests/s, p50/p90/p99 in ms, errors).
#
#   scripts/load.sh              # 30 s per connection count
#   DURATION=60s scripts/load.sh
#   SOAK=600 scripts/load.sh     # then a soak: 16 connections for 600 s, RSS every 30 s
#
# The request log goes to /dev/null (LOG=FILE keeps it: about 150 bytes per request). The
# server runs with its defaults (a compression slot per core, one spare Go processor, the
# yield after each compression; SERVE_FLAGS adds flags); wrk runs one thread on the same
# machine.
set -euo pipefail
cd "$(dirname "$0")/.."

duration=${DURATION:-30s}
port=${PORT:-18080}
soak=${SOAK:-0}
log=${LOG:-/dev/null}
url=http://127.0.0.1:$port/v1/compress

tmp=$(mktemp -d)
go build -o "$tmp/qsc" ./cmd/qsc
"$tmp/qsc" serve --addr "127.0.0.1:$port" ${SERVE_FLAGS:-} 2>"$log" &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
until curl -sf "http://127.0.0.1:$port/readyz" >/dev/null; do sleep 0.2; done

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
rss() { awk '/^VmRSS/ {print $2 " kB"}' "/proc/$pid/status"; }

echo "go: $(go version | cut -d' ' -f3-), cores: $(nproc), server pid $pid, RSS after start $(rss)"
wrk -t1 -c16 -d5s -s scripts/compress.lua "$url" >/dev/null # warm-up
for c in 1 16 64; do
	echo "connections=$c load_average_before=\"$(loadavg)\" at $(date -u +%FT%TZ)"
	wrk -t1 -c"$c" -d"$duration" --latency -s scripts/compress.lua "$url" | grep RESULT
done
echo "RSS after the runs: $(rss)"

if [ "$soak" -gt 0 ]; then
	echo "soak: 16 connections for ${soak}s, RSS every 30 s"
	wrk -t1 -c16 -d"${soak}s" -s scripts/compress.lua "$url" >"$tmp/soak.txt" &
	wrkpid=$!
	for ((t = 0; t <= soak; t += 30)); do
		echo "t=${t}s rss=$(rss) load_average=\"$(loadavg)\""
		if [ "$t" -lt "$soak" ]; then sleep 30; fi
	done
	wait "$wrkpid"
	grep RESULT "$tmp/soak.txt"
fi
