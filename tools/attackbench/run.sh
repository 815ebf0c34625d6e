#!/usr/bin/env bash
# make bench-attack: the attack and overload benchmark of issue 14.
#
# Builds contactsync and the load generator (tools/attackbench), then, for each scenario, starts a
# fresh contactsync on loopback with its default configuration (plus a users file where the scenario
# needs authentication), runs the scenario against it (tools/attackbench/main.go says what each does
# and its targets), and stops it. Each scenario prints its figures against their targets with PASS or
# MISS; a summary follows. The script exits 0 whether targets are met or not, and non-zero only when
# the benchmark itself broke (a build failed, a server did not start, a scenario did not finish).
#
# Settings (environment):
#   SCENARIOS="slowbody hostile overload passwords replay"   which scenarios, in order
#   DURATION=15s         how long the normal client measures in each scenario (each overload phase too)
#   WARMUP=2s            how long an attack runs before the normal client starts
#   MAX_CONCURRENT=      --max-concurrent for every server (default: serve's own, 32 per CPU, at least 16)
#   PORT=18300           the port the servers listen on (127.0.0.1)
#   SERVER_CPU=0 CLIENT_CPU=1   CPUs for the server and for the load generator (taskset -c), as
#                        make bench-load does, so the attackers' own work does not take the server's CPU;
#                        PIN=0 runs both unpinned
#   SERVE_FLAGS=         extra flags for every contactsync serve, split on spaces
#   ATTACKBENCH_KEEP=1   keep the work directory (databases, users file, server logs)
#   GO=go                the Go command
# Quick smoke run: DURATION=2s WARMUP=1s make bench-attack
#
# A full disk (issue 14, item 5) is not a load scenario: its behaviour is covered by the store tests on
# a size-limited filesystem.
set -euo pipefail

SCENARIOS=${SCENARIOS:-slowbody hostile overload passwords replay}
DURATION=${DURATION:-15s}
WARMUP=${WARMUP:-2s}
PORT=${PORT:-18300}
GO=${GO:-go}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
PIN=${PIN:-1}
read -r -a SERVE_FLAGS <<<"${SERVE_FLAGS:-}"

NS=http://localhost:8080/contactsync/v1/ # the namespace of the default --base-url
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

die() { echo "bench-attack: $*" >&2; exit 2; }
say() { echo "bench-attack: $*" >&2; }

command -v curl >/dev/null || die "curl is missing (Debian package curl)"
command -v nice >/dev/null || die "nice is missing (Debian package coreutils)"
server_pin=() client_pin=()
if [ "$PIN" = 1 ]; then
	command -v taskset >/dev/null || die "taskset is missing (Debian package util-linux); or PIN=0"
	ncpu=$(nproc)
	[ "$ncpu" -gt "$SERVER_CPU" ] && [ "$ncpu" -gt "$CLIENT_CPU" ] || die "SERVER_CPU=$SERVER_CPU and CLIENT_CPU=$CLIENT_CPU need more than the $ncpu CPUs here; or PIN=0"
	server_pin=(taskset -c "$SERVER_CPU") client_pin=(taskset -c "$CLIENT_CPU")
fi
[ -r /proc/self/status ] || die "needs Linux (/proc) for the server's peak RSS"

WORK=$(mktemp -d)
SERVER_PID=
cleanup() {
	if [ -n "$SERVER_PID" ]; then
		kill "$SERVER_PID" 2>/dev/null || true
		wait "$SERVER_PID" 2>/dev/null || true
	fi
	if [ "${ATTACKBENCH_KEEP:-0}" = 1 ]; then
		say "work directory kept: $WORK"
	else
		rm -rf "$WORK"
	fi
}
trap cleanup EXIT

say "building"
(cd "$ROOT" && "$GO" build -o "$WORK/contactsync" ./cmd/contactsync) || die "building contactsync failed"
(cd "$ROOT" && "$GO" build -o "$WORK/attackbench" ./tools/attackbench) || die "building attackbench failed"

# Users: alice (the normal client of passwords), first1..first20 (first logins, password = name),
# idle1..idle5 (first logins before the attack, the unattacked time of a first login: one bcrypt),
# dave and mallory (PasswordDigest: the normal client and the attacker of replay). bcrypt makes each
# addition take a moment.
say "writing the users file"
users=$WORK/users
# The first-login passwords are their users' names, shorter than user add's default minimum of 8:
# --min-password-length 1 lets this bench keep them (a deployment keeps the default).
add_user() { # add_user NAME PASSWORD [--digest]
	printf '%s\n' "$2" | "$WORK/contactsync" user add --users-file "$users" --password-stdin --min-password-length 1 ${3:+"$3"} "$1" >/dev/null 2>&1 ||
		die "contactsync user add $1 failed"
}
add_user alice alice-secret
for i in $(seq 1 20); do add_user "first$i" "first$i"; done
for i in $(seq 1 5); do add_user "idle$i" "idle$i"; done
add_user dave dave-secret --digest
add_user mallory mallory-secret --digest

mc_flags=()
[ -n "${MAX_CONCURRENT:-}" ] && mc_flags=(--max-concurrent "$MAX_CONCURRENT")

# start_server NAME [FLAGS...]: a fresh contactsync on $PORT with its own database; sets SERVER_PID.
start_server() {
	local name=$1
	shift
	${server_pin[@]+"${server_pin[@]}"} "$WORK/contactsync" serve --addr "127.0.0.1:$PORT" --store "sqlite:$WORK/$name.db" "${mc_flags[@]}" \
		${SERVE_FLAGS[@]+"${SERVE_FLAGS[@]}"} "$@" 2>"$WORK/$name.log" &
	SERVER_PID=$!
	for _ in $(seq 1 100); do
		if curl -fsS -o /dev/null "http://127.0.0.1:$PORT/healthz" 2>/dev/null; then
			return 0
		fi
		kill -0 "$SERVER_PID" 2>/dev/null || die "contactsync serve for $name exited; its log: $(tail -5 "$WORK/$name.log")"
		sleep 0.1
	done
	die "contactsync serve for $name did not answer /healthz within 10 s"
}

stop_server() {
	kill "$SERVER_PID" 2>/dev/null || true
	wait "$SERVER_PID" 2>/dev/null || true
	SERVER_PID=
}

# The --max-concurrent the overload scenario loads: the flag when given, else the server's default.
max_concurrent() {
	if [ -n "${MAX_CONCURRENT:-}" ]; then
		echo "$MAX_CONCURRENT"
		return
	fi
	# Under the same CPU pinning as the servers: the default follows the CPUs the process may use.
	${server_pin[@]+"${server_pin[@]}"} "$WORK/contactsync" serve --help 2>&1 | sed -n 's/.*--max-concurrent int.*(default \([0-9]*\)).*/\1/p'
}

# seconds DURATION: a Go duration of whole seconds or minutes (15s, 2m), or under a second, rounded up.
seconds() {
	case $1 in
	*ms) echo 1 ;;
	*m) echo $((${1%m} * 60)) ;;
	*s) echo "${1%s}" ;;
	*) die "DURATION and WARMUP take whole seconds or minutes (15s, 2m), not $1" ;;
	esac
}

results=$WORK/results
: >"$results"
endpoint="http://127.0.0.1:$PORT/contactsync/v1/sync.asmx"
mc=$(max_concurrent)
[ -n "$mc" ] || die "could not learn --max-concurrent's default from contactsync serve --help"
say "machine: $(nproc) CPUs; server on CPU ${server_pin[2]:-any}, load generator on CPU ${client_pin[2]:-any}; --max-concurrent $mc; normal client: 16 connections at 500 requests/s for $DURATION"

for scenario in $SCENARIOS; do
	args=(-url "$endpoint" -ns "$NS" -scenario "$scenario" -duration "$DURATION" -warmup "$WARMUP")
	case $scenario in
	slowbody | hostile | overload)
		start_server "$scenario"
		;;
	passwords)
		start_server "$scenario" --users-file "$users"
		args+=(-user alice -password alice-secret -first-users 20)
		;;
	replay)
		start_server "$scenario" --users-file "$users"
		args+=(-user dave -password dave-secret -attacker mallory -attacker-password mallory-secret)
		;;
	*) die "unknown scenario $scenario" ;;
	esac
	args+=(-pid "$SERVER_PID" -max-concurrent "$mc")
	say "scenario $scenario"
	# Bounded in time: the overload's three phases (the longest scenario), the warm-up and a margin.
	limit=$((3 * $(seconds "$DURATION") + $(seconds "$WARMUP") + 60))
	timeout "$limit" ${client_pin[@]+"${client_pin[@]}"} "$WORK/attackbench" "${args[@]}" | tee -a "$results" || die "scenario $scenario did not finish"
	kill -0 "$SERVER_PID" 2>/dev/null || die "contactsync died during $scenario; its log: $(tail -5 "$WORK/$scenario.log")"
	stop_server
done

echo
echo "Summary (issue 14 targets; figures from this machine, which must be quiet for a recorded run):"
grep -E ' (PASS|MISS)$' "$results" || true
echo "$(grep -c ' PASS$' "$results" || true) PASS, $(grep -c ' MISS$' "$results" || true) MISS"
