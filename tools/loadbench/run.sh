#!/usr/bin/env bash
# make bench-load: the load benchmark of issue 8.
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
# Settings (environment):
#   ROUNDS=3             interleaved rounds; medians are over rounds
#   DURATION=10s         length of each wrk run
#   CONNECTIONS=16       wrk connections
#   CONTACTS=100000      contacts in the main store
#   SCALE=1              0 skips the 1,000,000-vs-1,000 scenario (and its fill, ~15 s)
#   SCALE_SMALL=1000 SCALE_LARGE=1000000
#   SERVER_CPU=0 CLIENT_CPU=1   CPUs for the servers and for wrk (taskset -c)
#   PORT=18181           first of the local ports used (PORT .. PORT+7)
#   LOADBENCH_KEEP=1     keep the work directory (databases, captured responses, server stderr, raw results)
#   PROFILE=1            also profile under load: one more contactsync serve on the main store, the same
#                        binary and configuration plus --admin-addr and --admin-pprof, takes a CPU profile
#                        through its admin listener during one run of soap11 and get ReadContact and
#                        soap11 TestCreateContact, prints the top entries and keeps the profiles in the
#                        work directory (implies LOADBENCH_KEEP=1). The profiles include everything serve
#                        runs per request (metrics, access log, request ids).
#   SERVE_FLAGS=         extra flags for every contactsync serve of the run, split on spaces, e.g.
#                        SERVE_FLAGS=--access-log=false (the baseline does not take them)
#   GO=go                the Go command
# Quick development run: ROUNDS=1 DURATION=3s make bench-load
#
# contactsync runs with its default configuration apart from --addr, --store and $SERVE_FLAGS; whatever it writes to
# stderr (its log, and an access log line per request if the build has one) goes to a file in the work
# directory, so logging costs what it costs in production without a terminal slowing it down.
set -euo pipefail

ROUNDS=${ROUNDS:-3}
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
read -r -a SERVE_FLAGS <<<"${SERVE_FLAGS:-}"
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

# --- work directory and cleanup -------------------------------------------------------------------
WORK=$(mktemp -d "${TMPDIR:-/tmp}/loadbench.XXXXXX")
PIDS=()
cleanup() {
	local pid
	for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
	for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
	if [ "${LOADBENCH_KEEP:-}" = 1 ]; then say "work directory kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for p in $(seq "$PORT" $((PORT + 9))); do port_free "$p" || die "port $p is in use; set PORT to a free range"; done

# --- build ----------------------------------------------------------------------------------------
say "building into $WORK"
(cd "$ROOT" && $GO build -o "$WORK/contactsync" ./cmd/contactsync && $GO build -o "$WORK/baseline" ./tools/loadbench/baseline &&
	$GO build -o "$WORK/fill" ./tools/loadbench/fill) || die "build failed"

fill() { # fill DB N
	"$WORK/fill" -db "$1" -n "$2" -prefix c 2>>"$WORK/fill.log" || die "filling $1 failed: $(tail -3 "$WORK/fill.log")"
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

start_server() { # start_server NAME PORT DB [FLAG...]; sets SERVER_PID
	local name=$1 port=$2 db=$3
	shift 3
	taskset -c "$SERVER_CPU" "$WORK/contactsync" serve --addr "127.0.0.1:$port" --store "sqlite:$db" ${SERVE_FLAGS[@]+"${SERVE_FLAGS[@]}"} "$@" 2>"$WORK/$name.stderr" &
	SERVER_PID=$!
	PIDS+=("$SERVER_PID")
	wait_ready "$port" "$SERVER_PID" "$name"
}

# --- scenarios ------------------------------------------------------------------------------------
# Each scenario: name, binding, operation. The baseline of scenario i listens on PORT+1+i.
SCENARIOS=("soap11-ReadContact soap11 ReadContact" "soap12-ReadContact soap12 ReadContact"
	"get-ReadContact get ReadContact" "post-ReadContact post ReadContact"
	"soap11-TestCreateContact soap11 TestCreateContact")

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
# run_wrk SCENARIO TARGET ROUND PORT BINDING OP N: one wrk run, appended to $RESULTS.
run_wrk() {
	local out=$WORK/wrk-$1-$2-$3.txt
	LB_BINDING=$5 LB_OP=$6 LB_NS=$NS LB_PATH=$ENDPOINT LB_N=$7 LB_PREFIX=c LB_NONCE="$3$RANDOM$$" \
		timeout 600 taskset -c "$CLIENT_CPU" wrk -t1 -c"$CONNECTIONS" -d"$DURATION" -s "$LUA" "http://127.0.0.1:$4" >"$out" 2>&1 ||
		die "wrk failed for $1 against $2: $(tail -5 "$out")"
	local line
	line=$(grep '^LBRESULT ' "$out") || die "wrk printed no result for $1 against $2: $(tail -5 "$out")"
	# LBRESULT requests= duration_us= rps= p50_us= p99_us= non2xx= socket=
	echo "$1 $2 $3 $(echo "$line" | sed 's/^LBRESULT //; s/[a-z0-9_]*=//g' | awk '{print $3, $4, $5, $6, $7}')" >>"$RESULTS"
	printf '  %-28s %-8s round %s: %s\n' "$1" "$2" "$3" "$(echo "$line" | sed 's/^LBRESULT //')" >&2
}

# --- main store, captures, baselines --------------------------------------------------------------
say "filling a store with $CONTACTS contacts"
fill "$WORK/main.db" "$CONTACTS"
start_server server "$PORT" "$WORK/main.db"
MAIN_PID=$SERVER_PID
for i in "${!SCENARIOS[@]}"; do
	read -r name binding op <<<"${SCENARIOS[$i]}"
	id=c0000000
	[ "$op" = TestCreateContact ] && id=wcapture
	capture "$binding" "$op" "$id" "$PORT" "$WORK/$name"
	bport=$((PORT + 1 + i))
	taskset -c "$SERVER_CPU" "$WORK/baseline" -addr "127.0.0.1:$bport" -body "$WORK/$name.body" \
		-content-type "$(cat "$WORK/$name.ctype")" 2>"$WORK/baseline-$name.stderr" &
	PIDS+=("$!")
	wait_ready "$bport" "$!" "baseline-$name"
done

say "$ROUNDS round(s) of ${#SCENARIOS[@]} scenarios x {server, baseline}, $DURATION each, $CONNECTIONS connections"
for round in $(seq 1 "$ROUNDS"); do
	for i in "${!SCENARIOS[@]}"; do
		read -r name binding op <<<"${SCENARIOS[$i]}"
		run_wrk "$name" server "$round" "$PORT" "$binding" "$op" "$CONTACTS"
		run_wrk "$name" baseline "$round" $((PORT + 1 + i)) "$binding" "$op" "$CONTACTS"
	done
done
MAIN_HWM=$(awk '/^VmHWM/ {print $2}' "/proc/$MAIN_PID/status")

# --- 1,000,000 vs 1,000 contacts ------------------------------------------------------------------
LARGE_HWM=
if [ "$SCALE" = 1 ]; then
	say "filling stores with $SCALE_SMALL and $SCALE_LARGE contacts"
	fill "$WORK/small.db" "$SCALE_SMALL"
	fill "$WORK/large.db" "$SCALE_LARGE"
	start_server small $((PORT + 6)) "$WORK/small.db"
	start_server large $((PORT + 7)) "$WORK/large.db"
	LARGE_PID=$SERVER_PID
	for round in $(seq 1 "$ROUNDS"); do
		run_wrk "soap11-ReadContact@small" server "$round" $((PORT + 6)) soap11 ReadContact "$SCALE_SMALL"
		run_wrk "soap11-ReadContact@large" server "$round" $((PORT + 7)) soap11 ReadContact "$SCALE_LARGE"
	done
	LARGE_HWM=$(awk '/^VmHWM/ {print $2}' "/proc/$LARGE_PID/status")
fi

# --- profiles under load (PROFILE=1) -------------------------------------------------------------
if [ "$PROFILE" = 1 ]; then
	say "profiling under load (contactsync serve --admin-pprof on the main store)"
	# The measured server is stopped first, so the profiled one is the only process with the store
	# open, as the measured one was.
	kill "$MAIN_PID" 2>/dev/null || true
	wait "$MAIN_PID" 2>/dev/null || true
	start_server profiled $((PORT + 8)) "$WORK/main.db" --admin-addr "127.0.0.1:$((PORT + 9))" --admin-pprof
	seconds=$(( $(echo "$DURATION" | tr -dc '0-9') - 1 ))
	[ "$seconds" -ge 1 ] || seconds=1
	for scenario in "soap11 ReadContact" "get ReadContact" "soap11 TestCreateContact"; do
		read -r binding op <<<"$scenario"
		curl -s --max-time $((seconds + 30)) -o "$WORK/profile-$binding-$op.cpu" \
			"http://127.0.0.1:$((PORT + 9))/debug/pprof/profile?seconds=$seconds" &
		curlpid=$!
		run_wrk "$binding-$op" profiled 1 $((PORT + 8)) "$binding" "$op" "$CONTACTS"
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
echo
echo "contactsync load benchmark: $(nproc) CPUs ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)), $ROUNDS round(s) x $DURATION, $CONNECTIONS connections, server on CPU $SERVER_CPU, wrk on CPU $CLIENT_CPU"
echo "store: $CONTACTS contacts (scale scenario: $SCALE_SMALL vs $SCALE_LARGE); medians over rounds; errors = non-2xx + socket errors, summed"
echo
awk -v contacts="$CONTACTS" -v small="$SCALE_SMALL" -v large="$SCALE_LARGE" -v main_hwm="$MAIN_HWM" -v large_hwm="$LARGE_HWM" '
function median(list,    n, a, i, j, t) {
	n = split(list, a, " ")
	for (i = 2; i <= n; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
	return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function verdict(ok) { return ok ? "PASS" : "MISS" }
{
	key = $1 SUBSEP $2
	if (!(key in rps)) { order[++count] = key }
	rps[key] = rps[key] " " $4; p50[key] = p50[key] " " $5; p99[key] = p99[key] " " $6
	errors[key] += $7 + $8
}
END {
	printf "%-28s %-9s %10s %9s %9s %7s %9s\n", "scenario", "target", "req/s", "p50 ms", "p99 ms", "errors", "ratio"
	for (i = 1; i <= count; i++) {
		split(order[i], k, SUBSEP)
		r = median(rps[order[i]]); m[order[i]] = r
		ratio = ""
		if (k[2] == "server" && ((k[1] SUBSEP "baseline") in rps)) ratio = sprintf("%.2fx", r / median(rps[k[1] SUBSEP "baseline"]))
		printf "%-28s %-9s %10.0f %9.3f %9.3f %7d %9s\n", k[1], k[2], r, median(p50[order[i]]) / 1000, median(p99[order[i]]) / 1000, errors[order[i]], ratio
	}
	print ""
	print "targets:"
	split("soap11 soap12 get post", bs, " ")
	base = "soap11-ReadContact" SUBSEP "baseline"
	if (("soap11-ReadContact" SUBSEP "server") in m) {
		q = m["soap11-ReadContact" SUBSEP "server"] / m[base]
		printf "  %s  SOAP 1.1 ReadContact >= 0.6x baseline: %.2fx\n", verdict(q >= 0.6), q
	}
	for (b = 1; b <= 4; b++) {
		s = bs[b] "-ReadContact"
		if (!((s SUBSEP "server") in m)) continue
		q = m[s SUBSEP "server"] / m[s SUBSEP "baseline"]
		printf "  %s  %s ReadContact >= 0.5x baseline: %.2fx\n", verdict(q >= 0.5), bs[b], q
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
	printf "  %s  peak RSS <= 64 MiB, %d-contact server: %.1f MiB\n", verdict(main_hwm <= 65536), contacts, main_hwm / 1024
	if (large_hwm != "") printf "  %s  peak RSS <= 64 MiB, %d-contact server: %.1f MiB\n", verdict(large_hwm <= 65536), large, large_hwm / 1024
	sk = "soap11-ReadContact@small" SUBSEP "server"; lk = "soap11-ReadContact@large" SUBSEP "server"
	if ((sk in m) && (lk in m)) {
		q = m[lk] / m[sk]
		printf "  %s  ReadContact with %d contacts within 10%% of %d: %.2fx (%.0f vs %.0f req/s)\n", verdict(q >= 0.9), large, small, q, m[lk], m[sk]
	}
	ck = "soap11-TestCreateContact" SUBSEP "server"
	if (ck in m) printf "  %s  TestCreateContact >= 5000/s (durable): %.0f/s\n", verdict(m[ck] >= 5000), m[ck]
}' "$RESULTS"
if [ "${LOADBENCH_KEEP:-}" = 1 ]; then echo; echo "raw results: $RESULTS"; fi
