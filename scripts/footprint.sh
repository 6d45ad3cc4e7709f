#!/usr/bin/env bash
# footprint.sh: what a program pays for linking qsc (issue 21).
#
#   scripts/footprint.sh [SRC]      (SRC: a checkout of qsc, default the repository root)
#
# Builds examples/footprint (ten lines: qsc.New, then one Compress) and cmd/qsc from SRC,
# then prints, as a tab-separated table:
#   example_binary_bytes                  size of the example binary
#   example_new_ms_min / _median          time of qsc.New over $RUNS runs
#   example_vmhwm_kb_min / _median        peak RSS after one compression (VmHWM)
#   cli_binary_bytes                      size of the qsc binary
#   serve_idle_rss_kb                     qsc serve (demo collection on), after start-up
#   serve_rss_kb / serve_hwm_kb           after one POST /v1/compress to each method of /healthz
# The test behind the build tag footprint (footprint_test.go) runs it:
#   go test -tags footprint -run Footprint -v .
# Linux only (/proc). Runs are sequential; load on the machine shows in the times.
set -euo pipefail

SRC=${1:-$(cd "$(dirname "$0")/.." && pwd)}
RUNS=${RUNS:-7}
PORT=${PORT:-18931}
TMP=$(mktemp -d)
SERVER=""
cleanup() {
	if [[ -n $SERVER ]]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
	rm -rf "$TMP"
}
trap cleanup EXIT

(cd "$SRC" && go build -o "$TMP/footprint" ./examples/footprint && go build -o "$TMP/qsc" ./cmd/qsc)

size() { stat -c %s "$1"; }
# stats prints the minimum and the median of numbers, one a line.
stats() { sort -g | awk '{v[NR]=$1} END {printf "%s\t%s\n", v[1], v[int((NR+1)/2)]}'; }

news=()
hwms=()
for ((i = 0; i < RUNS; i++)); do
	out=$("$TMP/footprint")
	news+=("$(awk -F'\t' '$1=="new_ms"{print $2}' <<<"$out")")
	hwms+=("$(awk -F'\t' '$1=="vmhwm_kb"{print $2}' <<<"$out")")
done
read -r new_min new_med < <(printf '%s\n' "${news[@]}" | stats)
read -r hwm_min hwm_med < <(printf '%s\n' "${hwms[@]}" | stats)

status() { awk -v k="$2:" '$1==k{print $2}' "/proc/$1/status"; }

"$TMP/qsc" serve --addr "127.0.0.1:$PORT" 2>"$TMP/serve.log" &
SERVER=$!
for ((i = 0; i < 600; i++)); do
	if curl -sf "http://127.0.0.1:$PORT/healthz" >"$TMP/health.json" 2>/dev/null; then break; fi
	sleep 0.1
done
[[ -s $TMP/health.json ]] || { echo "qsc serve did not start:" >&2; cat "$TMP/serve.log" >&2; exit 1; }
sleep 2 # let the start-up garbage be collected and returned
idle=$(status "$SERVER" VmRSS)
methods=$(sed -e 's/.*"methods":\[//' -e 's/\].*//' -e 's/"//g' -e 's/,/ /g' "$TMP/health.json")
for m in $methods; do
	code=$(curl -s -o "$TMP/answer.json" -w '%{http_code}' "http://127.0.0.1:$PORT/v1/compress" \
		-d "{\"id\":\"$m\",\"text\":\"Police in Syracuse arrested two men on Tuesday after a long investigation into a string of burglaries.\",\"query\":[\"Syracuse\"],\"budget\":40,\"method\":\"$m\"}")
	[[ $code == 200 ]] || { echo "method $m: HTTP $code: $(cat "$TMP/answer.json")" >&2; exit 1; }
done
rss=$(status "$SERVER" VmRSS)
hwm=$(status "$SERVER" VmHWM)

printf 'what\tvalue\n'
printf 'example_binary_bytes\t%s\n' "$(size "$TMP/footprint")"
printf 'example_new_ms_min\t%s\nexample_new_ms_median\t%s\n' "$new_min" "$new_med"
printf 'example_vmhwm_kb_min\t%s\nexample_vmhwm_kb_median\t%s\n' "$hwm_min" "$hwm_med"
printf 'cli_binary_bytes\t%s\n' "$(size "$TMP/qsc")"
printf 'serve_methods\t%s\n' "$methods"
printf 'serve_idle_rss_kb\t%s\nserve_rss_kb\t%s\nserve_hwm_kb\t%s\n' "$idle" "$rss" "$hwm"
