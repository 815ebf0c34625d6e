#!/usr/bin/env bash
# make bench-data: the data benchmark of issue 17.
#
# Builds contactsync and two helpers (tools/databench/gen writes $CONTACTS contacts as JSON Lines, the
# way export writes them; tools/databench/writer is a write load through a running service and its
# check), then times, each as its own process under /usr/bin/time (elapsed time and peak resident set
# size, the kernel's maximum, not a sample):
#
#   1. import of the file into a new SQLite store, and into a new PostgreSQL schema (--max-errors 0,
#      the default: the whole file is checked first, then written);
#   2. export of both stores, compared byte for byte with the generated file;
#   3. copy of the SQLite store into another new PostgreSQL schema (with its verification);
#   4. backup of the SQLite store while `serve` answers a write load on it, then a restore: `serve` on
#      the backup, asked for every write acknowledged before the backup started.
#
# It prints a table and PASS/MISS per target, and exits 0 whether targets are met or not; non-zero
# only when the benchmark itself broke (a build failed, a step failed, a server did not start).
#
# Settings (environment):
#   CONTACTS=1000000     contacts in the file and the stores
#   POSTGRES=$CONTACTSYNC_TEST_POSTGRES   PostgreSQL DSN; each run creates its schemas and drops them
#   PORT=18281           first of two local ports for serve
#   LOAD_SECONDS=3       seconds of write load before the backup starts (and after it ends)
#   WRITERS=4            concurrent writers of the load
#   DATABENCH_KEEP=1     keep the work directory (files, databases, logs)
#   GO=go                the Go command
# Quick development run: CONTACTS=20000 LOAD_SECONDS=1 make bench-data
set -euo pipefail

CONTACTS=${CONTACTS:-1000000}
POSTGRES=${POSTGRES:-${CONTACTSYNC_TEST_POSTGRES:-}}
PORT=${PORT:-18281}
LOAD_SECONDS=${LOAD_SECONDS:-3}
WRITERS=${WRITERS:-4}
GO=${GO:-go}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

die() { echo "databench: $*" >&2; exit 2; }
[ -n "$POSTGRES" ] || die "set POSTGRES (or CONTACTSYNC_TEST_POSTGRES) to a PostgreSQL DSN, e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
command -v psql >/dev/null || die "psql is needed to create and drop the benchmark's schemas (Debian: postgresql-client)"
if [ ! -x /usr/bin/time ]; then
	echo "databench: installing GNU time (Debian package time)" >&2
	apt-get install -y time >/dev/null || die "GNU time (/usr/bin/time) is needed"
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/databench.XXXXXX")
SCHEMA=databench_$$
PIDS=()
cleanup() {
	for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
	wait 2>/dev/null || true
	psql "$POSTGRES" -qc "DROP SCHEMA IF EXISTS ${SCHEMA}_import CASCADE; DROP SCHEMA IF EXISTS ${SCHEMA}_copy CASCADE" >/dev/null 2>&1 || true
	if [ "${DATABENCH_KEEP:-0}" = 1 ]; then echo "databench: kept $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

# with_schema DSN SCHEMA: the DSN with search_path set (URL or key=value form).
with_schema() {
	case "$1" in
	postgres://* | postgresql://*) case "$1" in *\?*) echo "$1&search_path=$2" ;; *) echo "$1?search_path=$2" ;; esac ;;
	*) echo "$1 search_path=$2" ;;
	esac
}
PG_IMPORT=$(with_schema "$POSTGRES" "${SCHEMA}_import")
PG_COPY=$(with_schema "$POSTGRES" "${SCHEMA}_copy")
psql "$POSTGRES" -qc "CREATE SCHEMA ${SCHEMA}_import; CREATE SCHEMA ${SCHEMA}_copy" >/dev/null

echo "databench: building into $WORK" >&2
(cd "$ROOT" && "$GO" build -o "$WORK/contactsync" ./cmd/contactsync &&
	"$GO" build -o "$WORK/gen" ./tools/databench/gen && "$GO" build -o "$WORK/writer" ./tools/databench/writer)
CS=$WORK/contactsync

echo "databench: generating $CONTACTS contacts" >&2
"$WORK/gen" -n "$CONTACTS" >"$WORK/contacts.jsonl"

ROWS=()
# timed NAME COUNT CMD...: runs CMD under /usr/bin/time, records seconds and peak RSS.
timed() {
	local name=$1 count=$2
	shift 2
	echo "databench: $name" >&2
	if ! /usr/bin/time -f "%e %M" -o "$WORK/time.$name" "$@" >"$WORK/out.$name" 2>"$WORK/err.$name"; then
		cat "$WORK/out.$name" "$WORK/err.$name" >&2
		die "$name failed"
	fi
	local secs kb
	read -r secs kb <"$WORK/time.$name"
	ROWS+=("$name $count $secs $kb")
}

timed import-sqlite "$CONTACTS" "$CS" import --store "sqlite:$WORK/a.db" --in "$WORK/contacts.jsonl"
timed import-postgres "$CONTACTS" "$CS" import --store "$PG_IMPORT" --in "$WORK/contacts.jsonl"
timed export-sqlite "$CONTACTS" "$CS" export --store "sqlite:$WORK/a.db" --out "$WORK/export-sqlite.jsonl"
timed export-postgres "$CONTACTS" "$CS" export --store "$PG_IMPORT" --out "$WORK/export-postgres.jsonl"
SAME=yes
cmp -s "$WORK/contacts.jsonl" "$WORK/export-sqlite.jsonl" || SAME=no
cmp -s "$WORK/contacts.jsonl" "$WORK/export-postgres.jsonl" || SAME=no
timed copy-sqlite-postgres "$CONTACTS" "$CS" copy --from "sqlite:$WORK/a.db" --to "$PG_COPY"
VERIFIED=no
grep -q '^verified: both stores hold' "$WORK/out.copy-sqlite-postgres" && VERIFIED=yes

# wait_up PORT: waits until serve answers on PORT.
wait_up() {
	for _ in $(seq 100); do
		if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
		sleep 0.1
	done
	die "serve did not start on port $1 (see $WORK/serve*.log)"
}
ENDPOINT=/contactsync/v1/sync.asmx
"$CS" serve --addr "127.0.0.1:$PORT" --store "sqlite:$WORK/a.db" --access-log=false 2>"$WORK/serve.log" &
SERVE=$!
PIDS+=("$SERVE")
wait_up "$PORT"
"$WORK/writer" -mode write -c "$WRITERS" -endpoint "http://127.0.0.1:$PORT$ENDPOINT" -acks "$WORK/acks" 2>"$WORK/writer.log" &
WRITER=$!
PIDS+=("$WRITER")
sleep "$LOAD_SECONDS"
ACKED_BEFORE=$(wc -l <"$WORK/acks")
timed backup-under-load "$((CONTACTS + ACKED_BEFORE))" "$CS" backup --store "sqlite:$WORK/a.db" --to "$WORK/backup.db"
ACKED_AFTER_BACKUP=$(wc -l <"$WORK/acks")
sleep "$LOAD_SECONDS"
kill -TERM "$WRITER"
wait "$WRITER" || true
ACKED_TOTAL=$(wc -l <"$WORK/acks")
kill -TERM "$SERVE"
wait "$SERVE" || true
"$CS" serve --addr "127.0.0.1:$((PORT + 1))" --store "sqlite:$WORK/backup.db" --access-log=false 2>"$WORK/serve-restore.log" &
RESTORE=$!
PIDS+=("$RESTORE")
wait_up "$((PORT + 1))"
MISSING=unknown
if "$WORK/writer" -mode verify -n "$ACKED_BEFORE" -c 8 -endpoint "http://127.0.0.1:$((PORT + 1))$ENDPOINT" -acks "$WORK/acks" >"$WORK/verify.out" 2>"$WORK/verify.log"; then
	MISSING=0
else
	MISSING=$(sed -n 's/.*: \([0-9]*\) missing/\1/p' "$WORK/verify.out")
	MISSING=${MISSING:-"check failed (see verify.log)"}
fi
kill -TERM "$RESTORE"
wait "$RESTORE" || true
BACKUP_CONTACTS=$(sed -n 's/.*: \([0-9]*\) contacts,.*/\1/p' "$WORK/out.backup-under-load")

# The report.
echo
echo "## Data benchmark: $CONTACTS contacts ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs)"
echo
echo "| step | contacts | seconds | contacts/s | peak RSS (MiB) | target | result |"
echo "|---|---:|---:|---:|---:|---|---|"
ALL_RSS=PASS
for row in "${ROWS[@]}"; do
	read -r name count secs kb <<<"$row"
	rate=$(awk -v n="$count" -v s="$secs" 'BEGIN { if (s > 0) printf "%.0f", n / s; else print "-" }')
	mib=$(awk -v k="$kb" 'BEGIN { printf "%.1f", k / 1024 }')
	target=""
	result=""
	case $name in
	import-sqlite) target="≥ 50,000/s" min=50000 ;;
	import-postgres) target="≥ 20,000/s" min=20000 ;;
	export-*) target="≥ 200,000/s" min=200000 ;;
	*) min="" ;;
	esac
	if [ -n "$min" ]; then
		result=$(awk -v r="$rate" -v m="$min" 'BEGIN { print (r >= m) ? "PASS" : "MISS" }')
	fi
	rss=$(awk -v k="$kb" 'BEGIN { print (k <= 64 * 1024) ? "PASS" : "MISS" }')
	[ "$rss" = PASS ] || ALL_RSS=MISS
	echo "| $name | $count | $secs | $rate | $mib ($rss ≤ 64) | $target | $result |"
done
echo
echo "- RSS ≤ 64 MiB in every step: $ALL_RSS"
echo "- exports byte-equal to the imported file (both stores): $SAME"
echo "- copy SQLite → PostgreSQL verified equal content (count and SHA-256): $VERIFIED ($( [ $VERIFIED = yes ] && echo PASS || echo MISS))"
echo "- backup under write load ($WRITERS writers): $ACKED_BEFORE writes acknowledged before it started, $((ACKED_AFTER_BACKUP - ACKED_BEFORE)) during it, $((ACKED_TOTAL - ACKED_AFTER_BACKUP)) after; the backup holds $BACKUP_CONTACTS contacts; acknowledged-before writes missing from the restored backup: $MISSING ($( [ "$MISSING" = 0 ] && echo PASS || echo MISS))"
