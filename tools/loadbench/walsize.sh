#!/usr/bin/env bash
# The SQLite WAL under sustained load (issue 31): serves a store of $CONTACTS contacts filled by
# tools/loadbench/fill, drives it with two wrk processes at once for $DURATION (SOAP 1.1 ReadContact of
# random stored ids on $CONNECTIONS connections, SOAP 1.1 TestCreateContact of fresh ids, each a durable
# write, on as many), samples the sizes of the database file and its -wal every second, and prints the
# WAL's maximum, its median over the second half of the run (the steady size), its size at the end, and
# the requests each wrk completed.
#
# Settings (environment): CONTACTS=1000000 DURATION=180 (seconds) CONNECTIONS=8 PORT=18281
# SERVER_CPU=0 CLIENT_CPU=1, REF= a commit to measure instead of the working tree (built from git
# archive, as run.sh's BASE_REF), SERVE_FLAGS= extra serve flags, LOADBENCH_KEEP=1 keeps the work
# directory (the samples are in samples.txt). Needs wrk, curl and taskset.
set -euo pipefail

CONTACTS=${CONTACTS:-1000000}
DURATION=${DURATION:-180}
CONNECTIONS=${CONNECTIONS:-8}
PORT=${PORT:-18281}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
REF=${REF:-}
GO=${GO:-go}
read -r -a SERVE_FLAGS <<<"${SERVE_FLAGS:-}"

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LUA=$ROOT/tools/loadbench/lua/request.lua
NS=http://localhost:8080/contactsync/v1/
ENDPOINT=/contactsync/v1/sync.asmx
say() { echo "walsize: $*" >&2; }
die() { say "$*"; exit 2; }
for tool in wrk curl taskset; do command -v $tool >/dev/null || die "$tool is missing"; done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/walsize.XXXXXX")
PIDS=()
cleanup() {
	local pid
	for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
	for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
	if [ "${LOADBENCH_KEEP:-}" = 1 ]; then say "work directory kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

SRC=$ROOT
if [ -n "$REF" ]; then
	mkdir "$WORK/src"
	git -C "$ROOT" archive "$REF" | tar -x -C "$WORK/src" || die "extracting REF=$REF failed"
	SRC=$WORK/src
fi
say "building ${REF:-the working tree} into $WORK"
(cd "$SRC" && $GO build -trimpath -o "$WORK/contactsync" ./cmd/contactsync && $GO build -o "$WORK/fill" ./tools/loadbench/fill) ||
	die "build failed"

say "filling $CONTACTS contacts"
start=$(date +%s)
"$WORK/fill" -db "$WORK/store.db" -n "$CONTACTS" -prefix c 2>"$WORK/fill.log" || die "fill failed: $(tail -3 "$WORK/fill.log")"
say "filled in $(($(date +%s) - start)) s; database $(stat -c %s "$WORK/store.db") bytes"

taskset -c "$SERVER_CPU" "$WORK/contactsync" serve --addr "127.0.0.1:$PORT" --store "sqlite:$WORK/store.db" \
	${SERVE_FLAGS[@]+"${SERVE_FLAGS[@]}"} 2>"$WORK/serve.stderr" &
PIDS+=($!)
for _ in $(seq 100); do
	curl -fsS -o /dev/null "http://127.0.0.1:$PORT/healthz" 2>/dev/null && break
	sleep 0.2
done
curl -fsS -o /dev/null "http://127.0.0.1:$PORT/healthz" || die "serve did not start: $(tail -5 "$WORK/serve.stderr")"

# wrk_run OP: one wrk process for DURATION seconds, its output in $WORK/wrk-OP.txt.
wrk_run() {
	LB_BINDING=soap11 LB_OP=$1 LB_NS=$NS LB_PATH=$ENDPOINT LB_N=$CONTACTS LB_PREFIX=c LB_NONCE="walsize$RANDOM$$" \
		taskset -c "$CLIENT_CPU" wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" -s "$LUA" "http://127.0.0.1:$PORT" >"$WORK/wrk-$1.txt" 2>&1
}
say "mixed load for $DURATION s"
wrk_run ReadContact &
reader=$!
wrk_run TestCreateContact &
writer=$!
: >"$WORK/samples.txt"
for t in $(seq "$DURATION"); do
	sleep 1
	echo "$t $(stat -c %s "$WORK/store.db" 2>/dev/null || echo 0) $(stat -c %s "$WORK/store.db-wal" 2>/dev/null || echo 0)" >>"$WORK/samples.txt"
done
wait "$reader" "$writer" || die "wrk failed: $(tail -3 "$WORK"/wrk-*.txt)"

awk -v d="$DURATION" '
	{ db = $2; wal[NR] = $3; if ($3 > max) max = $3; last = $3 }
	END {
		n = 0
		for (i = int(NR / 2) + 1; i <= NR; i++) s[++n] = wal[i]
		asort(s)
		printf "database %.1f MB at the end; WAL max %.1f MB, steady (median of the second half) %.1f MB, at the end %.1f MB\n",
			db / 1e6, max / 1e6, s[int((n + 1) / 2)] / 1e6, last / 1e6
	}' "$WORK/samples.txt"
for op in ReadContact TestCreateContact; do
	echo "$op: $(grep '^LBRESULT ' "$WORK/wrk-$op.txt" | sed 's/^LBRESULT //')"
done
