#!/usr/bin/env bash
# make bench-instr: instructions per operation of Go benchmarks, counted by valgrind's callgrind, for
# comparisons that other load on a shared machine barely disturbs (wall-clock benchmarks can be off by
# tens of percent there; one instruction count repeats to within about 1.5%, the median of REPEAT
# counts better: what varies is the Go runtime's time-driven work, the garbage collector's pacing and
# background goroutines, which a slower run does more of per iteration).
#
# For each benchmark matching BENCH in package PKG it runs the test binary under callgrind twice, with
# N1 and N2 iterations (-test.benchtime Nx), and prints (Ir(N2) - Ir(N1)) / (N2 - N1): setup, fixtures
# and the first iterations cancel out. With BASE_REF=<commit> it builds the same package's test binary
# from that commit (git archive, the repository's work trees untouched) and prints both counts and the
# difference in %. Callgrind counts user-space instructions only: system calls, page faults and cache
# misses are not in it (count system calls with strace -c, see BENCHMARKS.md).
#
# Settings (environment):
#   BENCH=.          benchmark regexp (-test.bench); each leaf benchmark it matches is counted on its own
#   PKG=./server/    the package
#   N1=2000 N2=10000 iterations of the two runs
#   REPEAT=3         counts per benchmark and binary; the median is printed
#   BASE_REF=        a commit to compare with
#   GO=go
# Example: BENCH='^BenchmarkHandler$/soap11/ReadContact$' BASE_REF=HEAD~1 make bench-instr
set -euo pipefail

BENCH=${BENCH:-.}
PKG=${PKG:-./server/}
N1=${N1:-2000}
N2=${N2:-10000}
REPEAT=${REPEAT:-3}
BASE_REF=${BASE_REF:-}
GO=${GO:-go}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

die() { echo "bench-instr: $*" >&2; exit 2; }
[ "$N2" -gt "$N1" ] || die "N2 ($N2) must be larger than N1 ($N1)"
if ! command -v valgrind >/dev/null; then
	echo "bench-instr: installing valgrind (Debian package valgrind)" >&2
	sudo=
	[ "$(id -u)" = 0 ] || sudo=sudo
	{ $sudo apt-get install -y valgrind >/dev/null 2>&1 || { $sudo apt-get update >/dev/null 2>&1 && $sudo apt-get install -y valgrind >/dev/null 2>&1; }; } ||
		die "valgrind is missing and could not be installed; apt-get install valgrind"
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/benchinstr.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

(cd "$ROOT" && $GO test -c -o "$WORK/new.test" "$PKG") || die "building $PKG failed"
if [ -n "$BASE_REF" ]; then
	sha=$(git -C "$ROOT" rev-parse --verify --quiet "$BASE_REF^{commit}") || die "BASE_REF=$BASE_REF names no commit"
	mkdir "$WORK/ref-src"
	git -C "$ROOT" archive "$sha" | tar -x -C "$WORK/ref-src"
	(cd "$WORK/ref-src" && $GO test -c -o "$WORK/ref.test" "$PKG") || die "building $PKG at BASE_REF=$BASE_REF failed"
fi

# The benchmarks run in the package directory, as go test runs them (golden files are read relative
# to it). GODEBUG=asyncpreemptoff=1: valgrind 3.19 aborts on Go's preemption signal; cpu.rdtscp=off:
# on CPUs that have RDTSCP the Go runtime reads its clock with it, which valgrind 3.19 cannot decode
# (the program dies of SIGILL at once, and its count would be the start-up's alone).
dir=$ROOT/$PKG
# ir BINARY REGEX N: total instructions of one run; nothing when the benchmark did not complete its
# N iterations (a crash, a failed fixture), so a broken run can never pass for a count.
ir() {
	local out
	out=$(cd "$dir" && GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" \
		-test.run '^$' -test.bench "$2" -test.benchtime "${3}x" -test.cpu 1 2>&1)
	grep -Eq "^Benchmark[^ ]*[[:space:]]+$3[[:space:]]" <<<"$out" || return 0
	sed -n 's/.*Collected : \([0-9]*\).*/\1/p' <<<"$out"
}
# per_op BINARY REGEX: instructions per iteration, the median of REPEAT counts.
per_op() {
	local a b i counts=()
	for i in $(seq "$REPEAT"); do
		a=$(ir "$1" "$2" "$N1")
		b=$(ir "$1" "$2" "$N2")
		[ -n "$a" ] && [ -n "$b" ] || die "callgrind produced no count for $2 (run the benchmark without valgrind to see why)"
		counts+=($(((b - a) / (N2 - N1))))
	done
	printf '%s\n' "${counts[@]}" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

# The leaf benchmarks BENCH selects, from a quick run of one iteration each.
mapfile -t names < <(cd "$dir" && "$WORK/new.test" -test.run '^$' -test.bench "$BENCH" -test.benchtime 1x -test.cpu 1 2>/dev/null |
	sed -n 's/^\(Benchmark[^ \t]*\)[ \t].*/\1/p')
[ "${#names[@]}" -gt 0 ] || die "no benchmark in $PKG matches BENCH=$BENCH"

printf '%-60s %14s' "benchmark ($PKG)" "instr/op"
[ -z "$BASE_REF" ] || printf ' %14s %8s' "BASE_REF" "diff"
echo
for name in "${names[@]}"; do
	# An exact regexp for this leaf: each level of the name anchored on its own.
	regex=$(echo "$name" | sed 's/[][\.*^$+?(){}|]/\\&/g; s|/|$/^|g; s/^/^/; s/$/$/')
	new=$(per_op "$WORK/new.test" "$regex")
	printf '%-60s %14d' "$name" "$new"
	if [ -n "$BASE_REF" ]; then
		if ref=$(per_op "$WORK/ref.test" "$regex" 2>/dev/null); then
			printf ' %14d %+7.1f%%' "$ref" "$(awk -v n="$new" -v r="$ref" 'BEGIN { print (n / r - 1) * 100 }')"
		else
			printf ' %14s' "(absent)"
		fi
	fi
	echo
done
