#!/usr/bin/env bash
# authload.sh measures what keys cost under load (docs/reliability.md, "Keys on"): it
# builds qsc and starts two servers on loopback, one without keys and one with keys (an
# admin key and a search key in a keys file, and a per-key rate limit far above the load,
# so that every request is authorized and takes a token), then runs wrk as
# scripts/load.sh does (scripts/compress.lua: POST /v1/compress of one 17-word sentence)
# at 16 connections, alternating between the two servers, ROUNDS times each, and prints
# each run's RESULT line. Only the server under load works; the other is idle. Each
# run also prints other_cpu_s: the CPU seconds that processes other than the server
# under load and wrk used during the run (from /proc), to tell runs that shared the
# machine with other work.
#
#   scripts/authload.sh                 # 3 rounds of 30 s each
#   ROUNDS=5 DURATION=20s scripts/authload.sh
#   NICE=-10 scripts/authload.sh        # servers and wrk at nice -10, on a shared machine
set -euo pipefail
cd "$(dirname "$0")/.."

duration=${DURATION:-30s}
rounds=${ROUNDS:-3}
conns=${CONNECTIONS:-16}
open_port=${PORT:-18080}
keys_port=$((open_port + 1))
run=()
if [ -n "${NICE:-}" ]; then run=(nice -n "$NICE"); fi
key=search-key-$(head -c 18 /dev/urandom | base64 | tr '+/' '-_')

tmp=$(mktemp -d)
go build -o "$tmp/qsc" ./cmd/qsc
printf 'admin %s name=ops\nsearch %s name=bench\n' "admin-key-$(head -c 18 /dev/urandom | base64 | tr '+/' '-_')" "$key" >"$tmp/keys.txt"
chmod 600 "$tmp/keys.txt"
"${run[@]}" "$tmp/qsc" serve --addr "127.0.0.1:$open_port" 2>/dev/null &
open_pid=$!
"${run[@]}" "$tmp/qsc" serve --addr "127.0.0.1:$keys_port" --keys "$tmp/keys.txt" --rate-limit 1000000 2>/dev/null &
keys_pid=$!
trap 'kill "$open_pid" "$keys_pid" 2>/dev/null; wait "$open_pid" "$keys_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
until curl -sf "http://127.0.0.1:$open_port/readyz" >/dev/null && curl -sf "http://127.0.0.1:$keys_port/readyz" >/dev/null; do sleep 0.2; done
# The keyed server refuses a request without the key.
test "$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$keys_port/v1/compress")" = 401

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
hz=$(getconf CLK_TCK)
busy() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8 + $9}' /proc/stat; } # user nice system irq softirq steal
used() { awk '{print $14 + $15}' "/proc/$1/stat"; }                      # utime + stime of a process
echo "go: $(go version | cut -d' ' -f3-), cores: $(nproc), $conns connections, $duration per run, $rounds rounds"
KEY= "${run[@]}" wrk -t1 -c"$conns" -d5s -s scripts/compress.lua "http://127.0.0.1:$open_port/v1/compress" >/dev/null # warm-up
KEY=$key "${run[@]}" wrk -t1 -c"$conns" -d5s -s scripts/compress.lua "http://127.0.0.1:$keys_port/v1/compress" >/dev/null
for ((r = 1; r <= rounds; r++)); do
	for mode in off on; do
		if [ "$mode" = off ]; then port=$open_port k=; else port=$keys_port k=$key; fi
		if [ "$mode" = off ]; then pid=$open_pid; else pid=$keys_pid; fi
		echo "round=$r keys=$mode load_average_before=\"$(loadavg)\" at $(date -u +%FT%TZ)"
		b0=$(busy) s0=$(used "$pid")
		KEY=$k "${run[@]}" wrk -t1 -c"$conns" -d"$duration" --latency -s scripts/compress.lua "http://127.0.0.1:$port/v1/compress" >"$tmp/run.txt" &
		wrkpid=$!
		sleep 0.05
		w0=$(used "$wrkpid" 2>/dev/null || echo 0)
		while kill -0 "$wrkpid" 2>/dev/null; do w1=$(used "$wrkpid" 2>/dev/null || echo "$w1"); sleep 0.2; done
		wait "$wrkpid"
		b1=$(busy) s1=$(used "$pid")
		other=$(((b1 - b0) - (s1 - s0) - (w1 - w0)))
		echo "$(grep RESULT "$tmp/run.txt") other_cpu_s=$(awk -v o="$other" -v hz="$hz" 'BEGIN {printf "%.1f", o / hz}')"
	done
done
