#!/usr/bin/env bash
# fuzz.sh runs every native Go fuzz target of the repository (each `func FuzzXxx` of a
# *_test.go file), one after the other, and prints per target its package, the executions
# and the result (ok, or FAIL with the failing input's file under testdata/fuzz).
#
#   scripts/fuzz.sh            # 10 minutes per target
#   scripts/fuzz.sh 30s        # any duration go test -fuzztime takes
#   PARALLEL=1 scripts/fuzz.sh # fuzzing workers per target (default: go test's, GOMAXPROCS)
#   MINIMIZE=10s scripts/fuzz.sh 10m
#   TARGETS='FuzzKey|FuzzDo' scripts/fuzz.sh 1m   # only the targets whose name matches
#
# Minimization of a new interesting input is bounded by -fuzzminimizetime (MINIMIZE,
# default 5s), so that it does not eat the run. The full logs stay in $LOGDIR (default a
# temporary directory, printed at the end). The exit status is 1 when any target failed.
set -uo pipefail
cd "$(dirname "$0")/.."

duration=${1:-10m}
minimize=${MINIMIZE:-5s}
filter=${TARGETS:-.}
logdir=${LOGDIR:-$(mktemp -d)}
mkdir -p "$logdir"
parallel=()
if [[ -n ${PARALLEL:-} ]]; then
	parallel=(-parallel "$PARALLEL")
fi

# Every target as "package-dir target", sorted.
mapfile -t targets < <(grep -rn --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]*\(' . |
	sed -E 's#^\./(.*)/[^/]*_test\.go:[0-9]+:func (Fuzz[A-Za-z0-9_]*)\(.*#\1 \2#; s#^\./[^/ ]*_test\.go:[0-9]+:func (Fuzz[A-Za-z0-9_]*)\(.*#. \1#' |
	grep -E " ($filter)\$" | sort -u)
if [[ ${#targets[@]} -eq 0 ]]; then
	echo "fuzz.sh: no fuzz target matches $filter" >&2
	exit 2
fi

printf '%-14s %-18s %14s  %s\n' target package executions result
failed=0
for t in "${targets[@]}"; do
	dir=${t% *}
	name=${t#* }
	log="$logdir/$name.log"
	# -timeout: go test's default (10m) would end a 10-minute run as a failure.
	go test -run '^$' -fuzz "^$name\$" -fuzztime "$duration" -fuzzminimizetime "$minimize" -timeout 24h "${parallel[@]}" "./$dir" >"$log" 2>&1
	status=$?
	# The last progress line gives the executions: "fuzz: elapsed: 30s, execs: 123456 (…".
	execs=$(grep -oE 'execs: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+')
	if [[ $status -eq 0 ]]; then
		result=ok
	elif ! grep -q 'testdata/fuzz/' "$log" && [[ $(grep -v '^fuzz: ' "$log" | grep -cvE -- '^(warning: .*|--- FAIL: Fuzz[A-Za-z0-9_]* \([0-9.]+s\)|    context deadline exceeded|FAIL|exit status 1|FAIL\s.*)$') -eq 0 ]]; then
		# Go's fuzzing coordinator can report its own stop deadline as a failure, with no
		# failing input (golang/go#75804, fixed in Go 1.27): not a finding.
		result="ok (Go's end-of-run deadline race, golang/go#75804: no failing input)"
	else
		failed=1
		input=$(grep -oE 'testdata/fuzz/[^ ]+' "$log" | tail -1)
		result="FAIL${input:+ ($dir/$input)}: $(grep -m1 -E -- '--- FAIL|panic:|error' "$log" | head -c 200)"
	fi
	printf '%-14s %-18s %14s  %s\n' "$name" "$dir" "${execs:-?}" "$result"
done
echo "logs: $logdir"
exit $failed
