#!/usr/bin/env bash
# make bench-load: the load benchmark of issues 8 and 15.
#
# Builds contactsync, a baseline server (tools/loadbench/baseline: net/http answering canned bytes) and
# a store filler (tools/loadbench/fill); starts contactsync pinned to one CPU with a SQLite store
# pre-filled with $CONTACTS contacts, and drives it from another CPU with wrk ($CONNECTIONS
# connections, one wrk thread) for every binding's ReadContact (random stored ids) and for
# TestCreateContact (a fresh id per request), then the same scenarios against the baseline, which
# answers each with the exact bytes contactsync answered to the same request, captured at start.
# Rounds interleave server and baseline runs, so slow phases of a shared machine hit both; medians
# are reported. A last scenario compares ReadContact on a store of $SCALE_LARGE contacts with one of
# $SCALE_SMALL. It prints a table, PASS/MISS per target, and exits 0 whether targets are met or not;
# it exits non-zero only when the benchmark itself broke (a build failed, a server did not start, wrk
# is missing or a run produced no result).
#
# Besides wrk's req/s and latencies it measures each server's own CPU time per request (utime + stime
# of the process from /proc/PID/stat across each run, divided by the requests wrk completed), which
# other load on a shared machine disturbs much less than req/s, and each contactsync process's memory:
# RssAnon and RssFile from /proc/PID/status, sampled every 100 ms, maxima reported separately (file-
# backed pages, such as a memory-mapped database, are not anonymous memory).
#
# With BASE_REF=<commit>, the binary of that commit (extracted with git archive and built with the same
# command and $BUILD_FLAGS) runs every contactsync scenario too, on its own copy of each store, in the
# same rounds, alternating which of the two goes first; the report adds, per scenario, both medians of
# server CPU us per request, their difference in %, and the median of the per-round differences.
#
# Settings (environment):
#   ROUNDS=7             interleaved rounds; medians are over rounds (issue 15's targets need >= 7)
#   DURATION=10s         length of each wrk run
#   CONNECTIONS=16       wrk connections
#   CONTACTS=100000      contacts in the main store
#   STORE=sqlite         the store every contactsync serves from: sqlite (a file per server), or postgres:
#                        a fresh schema per server in PGDSN's database, filled by that server's own binary
#                        (`contactsync import` of an export of the filled SQLite file, so BASE_REF's schema
#                        may differ) and dropped at the end. PostgreSQL's own CPU is not counted (only the
#                        contactsync process's), and it runs on whatever CPU it likes; SCALE is 0.
#   PGDSN=$CONTACTSYNC_TEST_POSTGRES  with STORE=postgres: a postgres:// URL of a database the run may
#                        create schemas in
#   ONLY=                a regular expression: run only the scenarios whose name matches it, e.g.
#                        ONLY=TestCreateContact or ONLY='^(get|post)-' (the baselines follow)
#   SCALE=1              0 skips the 1,000,000-vs-1,000 scenario (and its fill, ~15 s)
#   SCALE_SMALL=1000 SCALE_LARGE=1000000
#   SERVER_CPU=0 CLIENT_CPU=1   CPUs for the servers and for wrk (taskset -c)
#   PORT=18181           first of the local ports used (PORT .. PORT+12)
#   LOADBENCH_KEEP=1     keep the work directory (databases, captured responses, server stderr, raw results)
#   PROFILE=1            also profile under load: one more contactsync serve on the main store, the same
#                        binary and configuration plus --admin-addr and --admin-pprof, takes a CPU profile
#                        through its admin listener during one run of soap11 and get ReadContact and
#                        soap11 TestCreateContact, prints the top entries and keeps the profiles in the
#                        work directory (implies LOADBENCH_KEEP=1). The profiles include everything serve
#                        runs per request (metrics, access log, request ids).
#   SERVE_FLAGS=         extra flags for every contactsync serve of the run, split on spaces, e.g.
#                        SERVE_FLAGS=--access-log=false (the baseline does not take them)
#   BASE_REF=            a commit (any git revision: a hash, HEAD~1, main) whose binary is measured
#                        alongside the working tree's, e.g. BASE_REF=HEAD~1 for "within 3% of the parent"
#   BASE_SERVE_FLAGS=    extra serve flags for BASE_REF's servers instead of SERVE_FLAGS; with BASE_REF=HEAD
#                        this measures a flag's cost, e.g. BASE_SERVE_FLAGS=--access-log=false
#   BUILD_FLAGS=-trimpath  go build flags of both contactsync binaries
#   GO=go                the Go command
# Quick development run: ROUNDS=1 DURATION=3s SCALE=0 make bench-load
# PostgreSQL, before and after a change: STORE=postgres BASE_REF=HEAD~1 make bench-load
#
# contactsync runs with its default configuration apart from --addr, --store and $SERVE_FLAGS; whatever it writes to
# stderr (its log, and an access log line per request if the build has one) goes to a file in the work
# directory, so logging costs what it costs in production without a terminal slowing it down.
set -euo pipefail

ROUNDS=${ROUNDS:-7}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-16}
CONTACTS=${CONTACTS:-100000}
SCALE=${SCALE:-1}
SCALE_SMALL=${SCALE_SMALL:-1000}
SCALE_LARGE=${SCALE_LARGE:-1000000}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
PORT=${PORT:-18181}
GO=${GO:-go}
PROFILE=${PROFILE:-0}
BASE_REF=${BASE_REF:-}
BUILD_FLAGS=${BUILD_FLAGS:--trimpath}
STORE=${STORE:-sqlite}
ONLY=${ONLY:-}
PGDSN=${PGDSN:-${CONTACTSYNC_TEST_POSTGRES:-}}
read -r -a SERVE_FLAGS <<<"${SERVE_FLAGS:-}"
if [ -n "${BASE_SERVE_FLAGS+set}" ]; then
	read -r -a BASE_SERVE_FLAGS <<<"$BASE_SERVE_FLAGS"
else
	BASE_SERVE_FLAGS=(${SERVE_FLAGS[@]+"${SERVE_FLAGS[@]}"})
fi
read -r -a BUILD_FLAGS <<<"$BUILD_FLAGS"
[ "$PROFILE" = 1 ] && LOADBENCH_KEEP=1

NS=http://localhost:8080/contactsync/v1/ # the namespace of the default --base-url
ENDPOINT=/contactsync/v1/sync.asmx
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LUA=$ROOT/tools/loadbench/lua/request.lua

die() { echo "bench-load: $*" >&2; exit 2; }
say() { echo "bench-load: $*" >&2; }

# --- tools ----------------------------------------------------------------------------------------
install_debian() { # install_debian PACKAGE: only with apt-get, as root or through sudo
	local sudo=
	[ "$(id -u)" = 0 ] || sudo=sudo
	command -v apt-get >/dev/null || return 1
	$sudo apt-get install -y "$1" >/dev/null 2>&1 || { $sudo apt-get update >/dev/null 2>&1 && $sudo apt-get install -y "$1" >/dev/null 2>&1; }
}
for tool in wrk curl; do
	if ! command -v $tool >/dev/null; then
		say "installing $tool (Debian package $tool)"
		install_debian $tool || die "$tool is missing and could not be installed; apt-get install $tool"
	fi
done
command -v taskset >/dev/null || die "taskset is missing (Debian package util-linux)"
ncpu=$(nproc)
[ "$ncpu" -gt "$SERVER_CPU" ] && [ "$ncpu" -gt "$CLIENT_CPU" ] || die "SERVER_CPU=$SERVER_CPU and CLIENT_CPU=$CLIENT_CPU need more than the $ncpu CPUs here"
[ "$SERVER_CPU" != "$CLIENT_CPU" ] || say "warning: server and wrk share CPU $SERVER_CPU; ratios will be meaningless"
CLK_TCK=$(getconf CLK_TCK)
case $STORE in
sqlite) ;;
postgres)
	case $PGDSN in
	postgres://* | postgresql://*) ;;
	"") die "STORE=postgres needs PGDSN (or CONTACTSYNC_TEST_POSTGRES): a postgres:// URL of a database the run may create schemas in" ;;
	*) die "PGDSN must be a postgres:// URL (the run adds search_path to it)" ;;
	esac
	if [ "$SCALE" = 1 ]; then
		say "STORE=postgres: skipping the 1,000,000-vs-1,000 scenario (SCALE=0)"
		SCALE=0
	fi ;;
*) die "STORE=$STORE: use sqlite or postgres" ;;
esac
REF_SHA=
if [ -n "$BASE_REF" ]; then
	REF_SHA=$(git -C "$ROOT" rev-parse --verify --quiet "$BASE_REF^{commit}") || die "BASE_REF=$BASE_REF names no commit of this repository"
	[ "$ROUNDS" -ge 7 ] || say "warning: ROUNDS=$ROUNDS; a comparison with BASE_REF needs at least 7 rounds to mean anything"
fi

# --- work directory and cleanup -------------------------------------------------------------------
WORK=$(mktemp -d "${TMPDIR:-/tmp}/loadbench.XXXXXX")
PIDS=()
SCHEMAS=() # STORE=postgres: the schemas this run created, dropped by cleanup
cleanup() {
	local pid schema
	for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
	for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
	for schema in "${SCHEMAS[@]}"; do
		"$WORK/fill" -pgdsn "$PGDSN" -drop-schema "$schema" 2>/dev/null || say "could not drop schema $schema; drop it by hand"
	done
	if [ "${LOADBENCH_KEEP:-}" = 1 ]; then say "work directory kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for p in $(seq "$PORT" $((PORT + 12))); do port_free "$p" || die "port $p is in use; set PORT to a free range"; done

# --- build ----------------------------------------------------------------------------------------
say "building into $WORK"
(cd "$ROOT" && $GO build ${BUILD_FLAGS[@]+"${BUILD_FLAGS[@]}"} -o "$WORK/contactsync" ./cmd/contactsync &&
	$GO build -o "$WORK/baseline" ./tools/loadbench/baseline && $GO build -o "$WORK/fill" ./tools/loadbench/fill) || die "build failed"
if [ -n "$REF_SHA" ]; then
	# The base commit's tree, extracted (not checked out: the repository's work trees and index are left
	# alone), built by the same command. Its stores are filled by its own filler when it has one, so a
	# schema the base does not know yet cannot stop it from starting.
	say "building BASE_REF=$BASE_REF (${REF_SHA:0:12})"
	mkdir "$WORK/ref-src"
	git -C "$ROOT" archive "$REF_SHA" | tar -x -C "$WORK/ref-src" || die "extracting BASE_REF=$BASE_REF failed"
	(cd "$WORK/ref-src" && $GO build ${BUILD_FLAGS[@]+"${BUILD_FLAGS[@]}"} -o "$WORK/contactsync-ref" ./cmd/contactsync) ||
		die "building BASE_REF=$BASE_REF failed"
	REF_FILL=$WORK/fill
	if [ -d "$WORK/ref-src/tools/loadbench/fill" ]; then
		(cd "$WORK/ref-src" && $GO build -o "$WORK/fill-ref" ./tools/loadbench/fill) || die "building BASE_REF's filler failed"
		REF_FILL=$WORK/fill-ref
	fi
fi

fill() { # fill DB N [FILLER]
	"${3:-$WORK/fill}" -db "$1" -n "$2" -prefix c 2>>"$WORK/fill.log" || die "filling $1 failed: $(tail -3 "$WORK/fill.log")"
}

# prepare_store NAME N BINARY FILLER: a store of N contacts for the server NAME, run by BINARY; sets
# STORE_SPEC to its --store. SQLite: a file filled by FILLER. STORE=postgres: a fresh schema in PGDSN's
# database, filled by BINARY's own import of $WORK/contacts.jsonl (which holds N contacts).
prepare_store() {
	local name=$1 n=$2 bin=$3 filler=$4
	if [ "$STORE" = sqlite ]; then
		fill "$WORK/$name.db" "$n" "$filler"
		STORE_SPEC=sqlite:$WORK/$name.db
		return
	fi
	local schema=loadbench_$$_${RANDOM}_${name//-/_}
	"$WORK/fill" -pgdsn "$PGDSN" -create-schema "$schema" 2>>"$WORK/fill.log" || die "creating schema $schema failed: $(tail -3 "$WORK/fill.log")"
	SCHEMAS+=("$schema")
	case $PGDSN in
	*\?*) STORE_SPEC="$PGDSN&search_path=$schema" ;;
	*) STORE_SPEC="$PGDSN?search_path=$schema" ;;
	esac
	"$bin" import --store "$STORE_SPEC" --in "$WORK/contacts.jsonl" >>"$WORK/fill.log" 2>&1 ||
		die "importing $n contacts into schema $schema failed: $(tail -3 "$WORK/fill.log")"
}

# cpu_ticks PID: the process's CPU time so far (utime + stime, all threads), in clock ticks.
cpu_ticks() {
	local stat
	read -r stat <"/proc/$1/stat" || die "process $1 is gone"
	stat=${stat##*) } # the command name may hold spaces; the fields after it do not
	read -r -a f <<<"$stat"
	echo $((f[11] + f[12])) # fields 14 and 15 of proc(5), counted from field 3 here
}

# watch_memory PID NAME: samples RssAnon and RssFile of PID every 100 ms while it runs and keeps the
# maxima (kB) in $WORK/NAME.mem. Only shell builtins per sample (read -t on a FIFO nobody writes is the
# sleep), so the sampler costs next to nothing; it runs on the client CPU, off the server's.
watch_memory() {
	local pid=$1 out=$WORK/$2.mem
	echo "$2 $pid" >>"$WORK/pids.txt"
	[ -p "$WORK/tick" ] || mkfifo "$WORK/tick"
	(
		exec 3<>"$WORK/tick"
		anon=0 file=0
		while [ -r "/proc/$pid/status" ]; do
			changed=
			while read -r k v _; do
				case $k in
				RssAnon:) [ "$v" -le "$anon" ] || { anon=$v; changed=1; } ;;
				RssFile:) [ "$v" -le "$file" ] || { file=$v; changed=1; } ;;
				esac
			done <"/proc/$pid/status" 2>/dev/null || break
			[ -z "$changed" ] || echo "$anon $file" >"$out"
			read -r -t 0.1 -u 3 _ || true
		done
	) &
	PIDS+=("$!")
	taskset -cp "$CLIENT_CPU" "$!" >/dev/null 2>&1 || true
}

wait_ready() { # wait_ready PORT PID NAME
	local i
	for i in $(seq 1 300); do
		kill -0 "$2" 2>/dev/null || die "$3 exited at start; its stderr: $(tail -5 "$WORK/$3.stderr" 2>/dev/null)"
		if curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$1$ENDPOINT/VersionMajor"; then return 0; fi
		sleep 0.1
	done
	die "$3 did not answer on port $1 within 30 s"
}

start_server() { # start_server NAME PORT STORE [FLAG...]; sets SERVER_PID
	local name=$1 port=$2 spec=$3
	shift 3
	taskset -c "$SERVER_CPU" "$WORK/contactsync" serve --addr "127.0.0.1:$port" --store "$spec" ${SERVE_FLAGS[@]+"${SERVE_FLAGS[@]}"} "$@" 2>"$WORK/$name.stderr" &
	SERVER_PID=$!
	PIDS+=("$SERVER_PID")
	wait_ready "$port" "$SERVER_PID" "$name"
	watch_memory "$SERVER_PID" "$name"
}

start_ref() { # start_ref NAME PORT STORE: BASE_REF's binary, with BASE_SERVE_FLAGS; sets SERVER_PID
	local name=$1 port=$2 spec=$3
	taskset -c "$SERVER_CPU" "$WORK/contactsync-ref" serve --addr "127.0.0.1:$port" --store "$spec" ${BASE_SERVE_FLAGS[@]+"${BASE_SERVE_FLAGS[@]}"} 2>"$WORK/$name.stderr" &
	SERVER_PID=$!
	PIDS+=("$SERVER_PID")
	wait_ready "$port" "$SERVER_PID" "$name"
	watch_memory "$SERVER_PID" "$name"
}

# --- scenarios ------------------------------------------------------------------------------------
# Each scenario: name, binding, operation. The baseline of scenario i listens on PORT+1+i.
SCENARIOS=("soap11-ReadContact soap11 ReadContact" "soap12-ReadContact soap12 ReadContact"
	"get-ReadContact get ReadContact" "post-ReadContact post ReadContact"
	"soap11-TestCreateContact soap11 TestCreateContact")
if [ -n "$ONLY" ]; then
	kept=()
	for s in "${SCENARIOS[@]}"; do [[ ${s%% *} =~ $ONLY ]] && kept+=("$s"); done
	[ ${#kept[@]} -gt 0 ] || die "ONLY=$ONLY matches no scenario"
	SCENARIOS=("${kept[@]}")
fi

# capture BINDING OP ID PORT OUT: one request as the wrk script sends it; writes OUT.body and
# OUT.ctype and fails unless the answer is 200.
capture() {
	local binding=$1 op=$2 id=$3 port=$4 out=$5 url="http://127.0.0.1:$4$ENDPOINT" env
	local args=(-s -o "$out.body" -w '%{http_code} %{content_type}' --max-time 5)
	case $binding in
	soap11 | soap12)
		local p=soap env_ns=http://schemas.xmlsoap.org/soap/envelope/
		[ "$binding" = soap12 ] && p=soap12 env_ns=http://www.w3.org/2003/05/soap-envelope
		env=$(printf '<?xml version="1.0" encoding="utf-8"?>\n<%s:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:%s="%s">\n  <%s:Body>\n    <%s xmlns="%s"><id>%s</id></%s>\n  </%s:Body>\n</%s:Envelope>\n' \
			$p $p $env_ns $p "$op" $NS "$id" "$op" $p $p)
		if [ "$binding" = soap11 ]; then
			args+=(-H 'Content-Type: text/xml; charset=utf-8' -H "SOAPAction: \"$NS$op\"")
		else
			args+=(-H "Content-Type: application/soap+xml; charset=utf-8; action=\"$NS$op\"")
		fi
		args+=(--data-binary "$env" "$url") ;;
	get) args+=("$url/$op?id=$id") ;;
	post) args+=(-H 'Content-Type: application/x-www-form-urlencoded' --data-binary "id=$id" "$url/$op") ;;
	esac
	local answer
	answer=$(curl "${args[@]}") || die "capturing $binding $op failed"
	[ "${answer%% *}" = 200 ] || die "capturing $binding $op: status ${answer%% *}: $(head -c 300 "$out.body")"
	printf '%s' "${answer#* }" >"$out.ctype"
}

RESULTS=$WORK/results.txt
: >"$RESULTS"
# run_wrk SCENARIO TARGET ROUND PORT BINDING OP N PID: one wrk run, appended to $RESULTS with the CPU
# time process PID (the server) spent per request during it.
run_wrk() {
	local out=$WORK/wrk-$1-$2-$3.txt cpu0 cpu1
	cpu0=$(cpu_ticks "$8")
	LB_BINDING=$5 LB_OP=$6 LB_NS=$NS LB_PATH=$ENDPOINT LB_N=$7 LB_PREFIX=c LB_NONCE="$2$3$RANDOM$$" \
		timeout 600 taskset -c "$CLIENT_CPU" wrk -t1 -c"$CONNECTIONS" -d"$DURATION" -s "$LUA" "http://127.0.0.1:$4" >"$out" 2>&1 ||
		die "wrk failed for $1 against $2: $(tail -5 "$out")"
	cpu1=$(cpu_ticks "$8")
	local line
	line=$(grep '^LBRESULT ' "$out") || die "wrk printed no result for $1 against $2: $(tail -5 "$out")"
	# LBRESULT requests= duration_us= rps= p50_us= p99_us= non2xx= socket=
	# results.txt: scenario target round rps p50_us p99_us non2xx socket cpu_us_per_request
	echo "$1 $2 $3 $(echo "$line" | sed 's/^LBRESULT //; s/[a-z0-9_]*=//g' |
		awk -v ticks=$((cpu1 - cpu0)) -v hz="$CLK_TCK" '{printf "%s %s %s %s %s %.2f", $3, $4, $5, $6, $7, ($1 > 0 ? ticks * 1e6 / hz / $1 : 0)}')" >>"$RESULTS"
	printf '  %-28s %-8s round %s: %s cpu_us_per_request=%s\n' "$1" "$2" "$3" "$(echo "$line" | sed 's/^LBRESULT //')" \
		"$(tail -1 "$RESULTS" | awk '{print $9}')" >&2
}

# run_pair SCENARIO ROUND BINDING OP N PORT PID REF_PORT REF_PID: the working tree's server and, with
# BASE_REF, the base's; the base goes first in even rounds, so neither always runs after the other.
run_pair() {
	if [ -z "$REF_SHA" ]; then
		run_wrk "$1" server "$2" "$6" "$3" "$4" "$5" "$7"
	elif [ $(($2 % 2)) = 1 ]; then
		run_wrk "$1" server "$2" "$6" "$3" "$4" "$5" "$7"
		run_wrk "$1" ref "$2" "$8" "$3" "$4" "$5" "$9"
	else
		run_wrk "$1" ref "$2" "$8" "$3" "$4" "$5" "$9"
		run_wrk "$1" server "$2" "$6" "$3" "$4" "$5" "$7"
	fi
}

# --- main store, captures, baselines --------------------------------------------------------------
say "filling a store with $CONTACTS contacts ($STORE)"
if [ "$STORE" = postgres ]; then
	fill "$WORK/source.db" "$CONTACTS"
	"$WORK/contactsync" export --store "sqlite:$WORK/source.db" --out "$WORK/contacts.jsonl" 2>>"$WORK/fill.log" ||
		die "exporting the filled store failed: $(tail -3 "$WORK/fill.log")"
fi
prepare_store main "$CONTACTS" "$WORK/contactsync" "$WORK/fill"
MAIN_SPEC=$STORE_SPEC
start_server server "$PORT" "$MAIN_SPEC"
MAIN_PID=$SERVER_PID
REF_PID=
if [ -n "$REF_SHA" ]; then
	prepare_store ref-main "$CONTACTS" "$WORK/contactsync-ref" "$REF_FILL"
	start_ref ref $((PORT + 10)) "$STORE_SPEC"
	REF_PID=$SERVER_PID
fi
BASELINE_PIDS=()
for i in "${!SCENARIOS[@]}"; do
	read -r name binding op <<<"${SCENARIOS[$i]}"
	id=c0000000
	[ "$op" = TestCreateContact ] && id=wcapture
	capture "$binding" "$op" "$id" "$PORT" "$WORK/$name"
	bport=$((PORT + 1 + i))
	taskset -c "$SERVER_CPU" "$WORK/baseline" -addr "127.0.0.1:$bport" -body "$WORK/$name.body" \
		-content-type "$(cat "$WORK/$name.ctype")" 2>"$WORK/baseline-$name.stderr" &
	PIDS+=("$!")
	BASELINE_PIDS[i]=$!
	wait_ready "$bport" "$!" "baseline-$name"
done

say "$ROUNDS round(s) of ${#SCENARIOS[@]} scenarios x {server,${REF_SHA:+ ref,} baseline}, $DURATION each, $CONNECTIONS connections"
for round in $(seq 1 "$ROUNDS"); do
	for i in "${!SCENARIOS[@]}"; do
		read -r name binding op <<<"${SCENARIOS[$i]}"
		run_pair "$name" "$round" "$binding" "$op" "$CONTACTS" "$PORT" "$MAIN_PID" $((PORT + 10)) "$REF_PID"
		run_wrk "$name" baseline "$round" $((PORT + 1 + i)) "$binding" "$op" "$CONTACTS" "${BASELINE_PIDS[i]}"
	done
done
hwm() { awk '/^VmHWM/ {print $2}' "/proc/$1/status"; }
echo "server $(hwm "$MAIN_PID")" >"$WORK/hwm.txt"
[ -z "$REF_PID" ] || echo "ref $(hwm "$REF_PID")" >>"$WORK/hwm.txt"

# --- 1,000,000 vs 1,000 contacts ------------------------------------------------------------------
if [ "$SCALE" = 1 ]; then
	say "filling stores with $SCALE_SMALL and $SCALE_LARGE contacts"
	fill "$WORK/small.db" "$SCALE_SMALL"
	fill "$WORK/large.db" "$SCALE_LARGE"
	start_server small $((PORT + 6)) "sqlite:$WORK/small.db"
	SMALL_PID=$SERVER_PID
	start_server large $((PORT + 7)) "sqlite:$WORK/large.db"
	LARGE_PID=$SERVER_PID
	REF_SMALL_PID= REF_LARGE_PID=
	if [ -n "$REF_SHA" ]; then
		fill "$WORK/ref-small.db" "$SCALE_SMALL" "$REF_FILL"
		fill "$WORK/ref-large.db" "$SCALE_LARGE" "$REF_FILL"
		start_ref ref-small $((PORT + 11)) "sqlite:$WORK/ref-small.db"
		REF_SMALL_PID=$SERVER_PID
		start_ref ref-large $((PORT + 12)) "sqlite:$WORK/ref-large.db"
		REF_LARGE_PID=$SERVER_PID
	fi
	for round in $(seq 1 "$ROUNDS"); do
		run_pair "soap11-ReadContact@small" "$round" soap11 ReadContact "$SCALE_SMALL" $((PORT + 6)) "$SMALL_PID" $((PORT + 11)) "$REF_SMALL_PID"
		run_pair "soap11-ReadContact@large" "$round" soap11 ReadContact "$SCALE_LARGE" $((PORT + 7)) "$LARGE_PID" $((PORT + 12)) "$REF_LARGE_PID"
	done
	echo "large $(hwm "$LARGE_PID")" >>"$WORK/hwm.txt"
	[ -z "$REF_LARGE_PID" ] || echo "ref-large $(hwm "$REF_LARGE_PID")" >>"$WORK/hwm.txt"
fi

# --- profiles under load (PROFILE=1) -------------------------------------------------------------
if [ "$PROFILE" = 1 ]; then
	say "profiling under load (contactsync serve --admin-pprof on the main store)"
	# The measured server is stopped first, so the profiled one is the only process with the store
	# open, as the measured one was.
	kill "$MAIN_PID" 2>/dev/null || true
	wait "$MAIN_PID" 2>/dev/null || true
	start_server profiled $((PORT + 8)) "$MAIN_SPEC" --admin-addr "127.0.0.1:$((PORT + 9))" --admin-pprof
	seconds=$(( $(echo "$DURATION" | tr -dc '0-9') - 1 ))
	[ "$seconds" -ge 1 ] || seconds=1
	for scenario in "soap11 ReadContact" "get ReadContact" "soap11 TestCreateContact"; do
		read -r binding op <<<"$scenario"
		curl -s --max-time $((seconds + 30)) -o "$WORK/profile-$binding-$op.cpu" \
			"http://127.0.0.1:$((PORT + 9))/debug/pprof/profile?seconds=$seconds" &
		curlpid=$!
		run_wrk "$binding-$op" profiled 1 $((PORT + 8)) "$binding" "$op" "$CONTACTS" "$SERVER_PID"
		wait "$curlpid" || die "taking the CPU profile failed"
	done
	curl -s --max-time 30 -o "$WORK/profile.allocs" "http://127.0.0.1:$((PORT + 9))/debug/pprof/allocs" || die "taking the allocation profile failed"
	for f in "$WORK"/profile-*.cpu; do
		echo
		echo "== $(basename "$f"): top by flat CPU"
		(cd "$ROOT" && $GO tool pprof -top -nodecount=25 "$f" 2>/dev/null | sed -n '1,32p')
	done
	echo
	echo "== allocations (all scenarios): top by space"
	(cd "$ROOT" && $GO tool pprof -sample_index=alloc_space -top -nodecount=20 "$WORK/profile.allocs" 2>/dev/null | sed -n '1,26p')
	grep -v ' profiled ' "$RESULTS" >"$RESULTS.tmp" && mv "$RESULTS.tmp" "$RESULTS" # profiled runs are not measurements
fi

# --- report ---------------------------------------------------------------------------------------
# Memory per contactsync process: name, RssAnon and RssFile maxima (kB), Pss_File now (kB, "-" once
# stopped), VmHWM (kB, "-" if not taken). RssFile counts a file page once per mapping of it, and each
# SQLite read connection maps the database on its own, so Pss_File (which shares each page among its
# mappings) is what the mapped file really holds in memory.
MEM=$WORK/memory.txt
: >"$MEM"
for name in server ref small large ref-small ref-large; do
	[ -f "$WORK/$name.mem" ] || continue
	pid=$(awk -v n="$name" '$1 == n {print $2}' "$WORK/pids.txt")
	pss=$(awk '/^Pss_File:/ {print $2}' "/proc/$pid/smaps_rollup" 2>/dev/null) || true
	hwm=$(awk -v n="$name" '$1 == n {print $2}' "$WORK/hwm.txt")
	echo "$name $(cat "$WORK/$name.mem") ${pss:--} ${hwm:--}" >>"$MEM"
done
echo
echo "contactsync load benchmark: $(nproc) CPUs ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)), $ROUNDS round(s) x $DURATION, $CONNECTIONS connections, server on CPU $SERVER_CPU, wrk on CPU $CLIENT_CPU"
echo "store: $STORE, $CONTACTS contacts (scale scenario: $SCALE_SMALL vs $SCALE_LARGE); medians over rounds; errors = non-2xx + socket errors, summed"
echo "CPU us/req: the server process's CPU time (user + system) during a run / requests completed; x bl: over the baseline's"
[ -z "$REF_SHA" ] || echo "ref: BASE_REF=$BASE_REF (${REF_SHA:0:12})${BASE_SERVE_FLAGS[*]:+ with ${BASE_SERVE_FLAGS[*]}}; server: the working tree${SERVE_FLAGS[*]:+ with ${SERVE_FLAGS[*]}}"
echo
awk -v contacts="$CONTACTS" -v small="$SCALE_SMALL" -v large="$SCALE_LARGE" -v memfile="$MEM" -v rounds="$ROUNDS" '
function median(list,    n, a, i, j, t) {
	n = split(list, a, " ")
	for (i = 2; i <= n; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
	return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function verdict(ok) { return ok ? "PASS" : "MISS" }
BEGIN {
	while ((getline line < memfile) > 0) {
		split(line, f, " ")
		memorder[++memcount] = f[1]; anon[f[1]] = f[2]; file[f[1]] = f[3]; pss[f[1]] = f[4]; hwm[f[1]] = f[5]
	}
}
{
	key = $1 SUBSEP $2
	if (!(key in rps)) { order[++count] = key }
	rps[key] = rps[key] " " $4; p50[key] = p50[key] " " $5; p99[key] = p99[key] " " $6
	cpu[key] = cpu[key] " " $9; cpuat[$1, $2, $3] = $9
	errors[key] += $7 + $8
	if ($2 == "ref") hasref = 1
}
END {
	printf "%-28s %-9s %10s %9s %9s %7s %7s %11s %7s\n", "scenario", "target", "req/s", "p50 ms", "p99 ms", "errors", "ratio", "CPU us/req", "x bl"
	for (i = 1; i <= count; i++) {
		split(order[i], k, SUBSEP)
		r = median(rps[order[i]]); m[order[i]] = r
		c = median(cpu[order[i]]); mc[order[i]] = c
		bk = k[1] SUBSEP "baseline"
		ratio = ""; cratio = ""
		if (k[2] != "baseline" && (bk in rps)) {
			ratio = sprintf("%.2fx", r / median(rps[bk]))
			if (median(cpu[bk]) > 0) cratio = sprintf("%.2fx", c / median(cpu[bk]))
		}
		printf "%-28s %-9s %10.0f %9.3f %9.3f %7d %7s %11.1f %7s\n", k[1], k[2], r, median(p50[order[i]]) / 1000, median(p99[order[i]]) / 1000, errors[order[i]], ratio, c, cratio
	}
	if (hasref) {
		print ""
		print "working tree (server) against BASE_REF (ref): server CPU us per request"
		printf "%-28s %9s %9s %9s %12s %10s\n", "scenario", "server", "ref", "diff", "paired diff", "cheaper"
		for (i = 1; i <= count; i++) {
			split(order[i], k, SUBSEP)
			if (k[2] != "server" || !((k[1] SUBSEP "ref") in cpu)) continue
			s = mc[order[i]]; b = mc[k[1] SUBSEP "ref"]
			# The paired difference is the median of the differences within each round: the two ran back to
			# back, so a slow phase of the machine mostly cancels out of it.
			pairs = ""; wins = 0; n = 0
			for (r = 1; r <= rounds; r++) {
				if (!(((k[1], "server", r) in cpuat) && ((k[1], "ref", r) in cpuat))) continue
				sv = cpuat[k[1], "server", r]; bv = cpuat[k[1], "ref", r]
				if (bv <= 0) continue
				n++; pairs = pairs " " (sv / bv - 1) * 100
				if (sv < bv) wins++
			}
			diff[k[1]] = b > 0 ? (s / b - 1) * 100 : 0
			printf "%-28s %9.1f %9.1f %+8.1f%% %+11.1f%% %6d/%d\n", k[1], s, b, diff[k[1]], median(pairs), wins, n
		}
	}
	if (memcount) {
		print ""
		print "memory of each contactsync process, MiB: RssAnon and RssFile are maxima of samples every 100 ms;"
		print "RssFile counts the database once per read connection mapping it, PssFile (at the end) once"
		printf "%-12s %9s %9s %9s %9s\n", "process", "RssAnon", "RssFile", "PssFile", "VmHWM"
		for (i = 1; i <= memcount; i++) {
			n = memorder[i]
			printf "%-12s %9.1f %9.1f %9s %9s\n", n, anon[n] / 1024, file[n] / 1024, pss[n] == "-" ? "-" : sprintf("%.1f", pss[n] / 1024), hwm[n] == "-" ? "-" : sprintf("%.1f", hwm[n] / 1024)
		}
	}
	print ""
	print "targets (issue 15):"
	split("soap11 soap12 get post", bs, " ")
	for (b = 1; b <= 4; b++) {
		s = bs[b] "-ReadContact"
		if (!((s SUBSEP "server") in mc) || mc[s SUBSEP "baseline"] <= 0) continue
		q = mc[s SUBSEP "server"] / mc[s SUBSEP "baseline"]
		limit = bs[b] == "soap11" ? 2.2 : 2.4
		printf "  %s  %s ReadContact server CPU per request <= %.1fx of the baseline: %.2fx (%.1f vs %.1f us)\n", verdict(q <= limit), bs[b], limit, q, mc[s SUBSEP "server"], mc[s SUBSEP "baseline"]
	}
	for (i = 1; i <= count; i++) {
		split(order[i], k, SUBSEP)
		if (k[2] != "server") continue
		v = median(p99[order[i]]) / 1000
		printf "  %s  p99 <= 2 ms, %s: %.3f ms\n", verdict(v <= 2), k[1], v
	}
	total = 0
	for (i = 1; i <= count; i++) { split(order[i], k, SUBSEP); if (k[2] == "server") total += errors[order[i]] }
	printf "  %s  zero errors (all server runs): %d\n", verdict(total == 0), total
	if ("server" in anon) printf "  %s  RssAnon <= 64 MiB, %d-contact server: %.1f MiB (RssFile %.1f MiB)\n", verdict(anon["server"] <= 65536), contacts, anon["server"] / 1024, file["server"] / 1024
	if ("large" in anon) printf "  %s  RssAnon <= 64 MiB, %d-contact server: %.1f MiB (RssFile %.1f MiB)\n", verdict(anon["large"] <= 65536), large, anon["large"] / 1024, file["large"] / 1024
	sk = "soap11-ReadContact@small" SUBSEP "server"; lk = "soap11-ReadContact@large" SUBSEP "server"
	if ((sk in m) && (lk in m)) {
		q = m[lk] / m[sk]
		printf "  %s  ReadContact with %d contacts within 10%% of %d: %.2fx (%.0f vs %.0f req/s; CPU %.1f vs %.1f us/req)\n", verdict(q >= 0.9), large, small, q, m[lk], m[sk], mc[lk], mc[sk]
	}
	ck = "soap11-TestCreateContact" SUBSEP "server"
	if (ck in m) printf "  %s  TestCreateContact >= 5000/s (durable): %.0f/s\n", verdict(m[ck] >= 5000), m[ck]
	if (hasref) {
		for (i = 1; i <= count; i++) {
			split(order[i], k, SUBSEP)
			if (k[2] != "server" || !(k[1] in diff)) continue
			printf "  %s  %s server CPU per request within +3%% of BASE_REF: %+.1f%%\n", verdict(diff[k[1]] <= 3), k[1], diff[k[1]]
		}
	}
}' "$RESULTS"
if [ "${LOADBENCH_KEEP:-}" = 1 ]; then echo; echo "raw results: $RESULTS"; fi
