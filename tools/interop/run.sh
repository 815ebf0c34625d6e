#!/usr/bin/env bash
# Interop suite (`make interop`): builds the service, starts it on loopback with a temporary store, and
# runs real third-party SOAP clients against it, each importing the contract from the live ?WSDL:
#   .NET    Mono's `wsdl` (/protocol:SOAP, SOAP12, HttpGet, HttpPost) + mcs + mono
#   Java    JAX-WS RI wsimport (Debian libjaxws-java) on the machine's JDK: SOAP 1.1, SOAP 1.2 (-extension)
#   Python  zeep (Debian python3-zeep): SOAP 1.1, SOAP 1.2
#   Node    npm `soap`, pinned in node/package.json and node/package-lock.json: SOAP 1.1, SOAP 1.2; and
#           Node's own fetch against the ASP.NET AJAX JSON endpoint (the service runs with json on)
# Then the patched contract: a server built with the contract-evolution patches tools/interop/patches
# lists (a SOAP header operation, an out/ref operation, a Contact with a polymorphic field), called by
# the .NET and Java clients over SOAP 1.1 and 1.2 (dotnet/PatchedClient.cs, java/PatchedClient.java).
# Then an authenticated run against a second service with a users file: zeep UsernameToken (PasswordText,
# PasswordDigest) and the Mono proxies with Credentials (HTTP Basic), plus 401 checks (see docs/development.md).
# Every client runs the same scenario per binding with a fresh id (see docs/development.md, "Interoperability").
# Prints one PASS/FAIL line per check and ends with "N passed, M failed"; exits non-zero on any failure.
#
# usage: tools/interop/run.sh [--break-namespace]
#   --break-namespace  put a proxy between the clients and the service that rewrites the service
#                      namespace in every response but the WSDL: a deliberate contract break, which
#                      must make the suite fail.
# Environment: GO (default go); INTEROP_KEEP=1 keeps the work directory (proxies, logs) for inspection.
set -uo pipefail

cd "$(dirname "$0")/../.." || exit 2
ROOT=$PWD
HERE=$ROOT/tools/interop
GO=${GO:-go}
BREAK=
case "${1:-}" in
  "") ;;
  --break-namespace) BREAK=namespace ;;
  *) echo "usage: $0 [--break-namespace]" >&2; exit 2 ;;
esac

START=$SECONDS
WORK=$(mktemp -d "${TMPDIR:-/tmp}/contactsync-interop.XXXXXX") || exit 2
PIDS=()
cleanup() {
  local p
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
  if [ -n "${INTEROP_KEEP:-}" ]; then echo "interop: kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

PASSED=0
FAILED=0
pass() { PASSED=$((PASSED + 1)); echo "PASS $*"; }
fail() { FAILED=$((FAILED + 1)); echo "FAIL $*"; }
section() { echo; echo "== $* (at $((SECONDS - START))s)"; }
# show FILE [N]: the last N lines of a log, indented, after a failure.
show() { [ -s "$1" ] && tail -n "${2:-20}" "$1" | sed 's/^/    | /'; }
finish() {
  echo
  echo "interop: $((SECONDS - START))s"
  echo "$PASSED passed, $FAILED failed"
  [ "$FAILED" -eq 0 ] && [ "$PASSED" -gt 0 ]
  exit $?
}

# step NAME LOG CMD...: runs one install, build or import step (bounded by STEP_TIMEOUT seconds,
# default 180), one PASS/FAIL line.
step() {
  local name=$1 log=$2
  shift 2
  if timeout "${STEP_TIMEOUT:-180}" "$@" >"$log" 2>&1; then
    pass "$name"
  else
    fail "$name (exit $?: $*)"
    show "$log"
    return 1
  fi
}

# warnings TOOL LOG: lists what an import tool printed beyond its progress lines (see docs/development.md).
warnings() {
  local lines
  lines=$(grep -v -E '^\s*$|^parsing WSDL\.\.\.|^Generating code\.\.\.|^Writing file' "$2" | sed 's/^\[WARNING\] //')
  [ -n "$lines" ] && printf '%s\n' "$lines" | sed "s/^/    $1 says: /"
  return 0
}

CHECKS_PER_BINDING=9
# run_client LABEL CMD...: runs one client on one binding (bounded) and relays its PASS/FAIL lines.
# It must run CHECKS checks (default CHECKS_PER_BINDING).
run_client() {
  local label=$1 out=$WORK/$(echo "$1" | tr / -).out err=$WORK/$(echo "$1" | tr / -).err rc=0 n=0 line
  local want=${CHECKS:-$CHECKS_PER_BINDING}
  shift
  timeout 120 "$@" >"$out" 2>"$err" || rc=$?
  while IFS= read -r line; do
    case "$line" in
      PASS\ *) pass "${line#PASS }"; n=$((n + 1)) ;;
      FAIL\ *) fail "${line#FAIL }"; n=$((n + 1)) ;;
      *) echo "    | $line" ;;
    esac
  done <"$out"
  if [ "$n" -ne "$want" ] || { [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$out"; }; then
    fail "$label ran $n of $want checks (exit $rc)"
    show "$err"
  elif [ "$rc" -ne 0 ]; then
    show "$err" 10
  fi
}

# --- what the clients need: Debian packages (installed once), the npm package (cached) -------------
section "prerequisites"
need=()
{ command -v mcs && command -v wsdl && command -v mono; } >/dev/null 2>&1 || need+=(mono-devel)
command -v javac >/dev/null 2>&1 || need+=(default-jdk-headless)
[ -f /usr/share/java/jaxws-tools.jar ] || need+=(libjaxws-java)
/usr/bin/python3 -c 'import zeep' >/dev/null 2>&1 || need+=(python3-zeep)
{ command -v node && command -v npm; } >/dev/null 2>&1 || need+=(nodejs npm)
command -v curl >/dev/null 2>&1 || need+=(curl)
if [ ${#need[@]} -gt 0 ]; then
  echo "interop: installing ${need[*]}"
  STEP_TIMEOUT=600 step "install Debian packages: ${need[*]}" "$WORK/apt.log" \
    bash -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"' \
    apt "${need[@]}" || finish
else
  echo "interop: mono-devel, JDK, libjaxws-java, python3-zeep, node and npm already installed"
fi
# The npm packages depend only on package-lock.json: `npm ci` again only when it changed.
lockhash=$(sha256sum "$HERE/node/package-lock.json" | cut -d' ' -f1)
if [ "$(cat "$HERE/node/node_modules/.interop-lock" 2>/dev/null)" != "$lockhash" ]; then
  step "npm ci (node soap client)" "$WORK/npm.log" \
    bash -c 'cd "$1" && npm ci --no-audit --no-fund' npm "$HERE/node" &&
    echo "$lockhash" >"$HERE/node/node_modules/.interop-lock"
else
  echo "interop: node/node_modules matches package-lock.json"
fi

# --- the service, on loopback, with a temporary store --------------------------------------------
section "service"
step "build contactsync" "$WORK/build.log" "$GO" build -o "$WORK/contactsync" ./cmd/contactsync || finish

# start_on NAME LOG CMD...: starts a server that listens on 127.0.0.1:0 (a free port the kernel picks,
# so nothing else can be answering there) and logs "listening ... addr=127.0.0.1:PORT"; waits (bounded)
# for that line and for ?WSDL to answer. Sets PORT.
start_on() {
  local name=$1 log=$2 pid i
  shift 2
  "$@" >"$log" 2>&1 &
  pid=$!
  PIDS+=("$pid")
  PORT=
  for i in $(seq 100); do
    PORT=$(sed -n 's/.*listening.* addr=127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' "$log" | head -n 1)
    if [ -n "$PORT" ] &&
      curl -fsS -o /dev/null --max-time 2 "http://127.0.0.1:$PORT/contactsync/v1/sync.asmx?WSDL" 2>/dev/null; then
      pass "$name listening on 127.0.0.1:$PORT"
      return 0
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  fail "$name did not start and answer ?WSDL within 10s"
  show "$log"
  return 1
}

mkdir -p "$WORK/store"
start_on "service" "$WORK/server.log" \
  "$WORK/contactsync" serve --addr 127.0.0.1:0 --store "sqlite:$WORK/store/interop.db" \
  --protocols soap11,soap12,get,post,json,docs || finish
SERVICE_PORT=$PORT
if [ -n "$BREAK" ]; then
  step "build breakproxy" "$WORK/build-proxy.log" "$GO" build -o "$WORK/breakproxy" ./tools/interop/breakproxy || finish
  start_on "breakproxy (contract break: wrong namespace in every response)" "$WORK/proxy.log" \
    "$WORK/breakproxy" -listen 127.0.0.1:0 -target "http://127.0.0.1:$SERVICE_PORT" || finish
fi
# Clients import the contract from here, exactly as users do; its addresses name this host and port.
WSDL="http://127.0.0.1:$PORT/contactsync/v1/sync.asmx?WSDL"
RUN="$(date +%s)-$$"
fresh_id() { echo "interop-$1-$2-$RUN"; }

# --- .NET: Mono wsdl, one proxy per protocol, compiled with the scenario ---------------------------
section ".NET (Mono $(mono --version 2>/dev/null | head -1 | sed -n 's/.*version \([^ ]*\).*/\1/p'))"
D=$WORK/dotnet
mkdir -p "$D"
ok=1
for p in SOAP SOAP12 HttpGet HttpPost; do
  if step "dotnet import: wsdl /protocol:$p" "$D/wsdl-$p.log" \
    wsdl -nologo "/protocol:$p" "/namespace:ContactSync.$p" "/out:$D/Proxy$p.cs" "$WSDL"; then
    warnings "wsdl /protocol:$p" "$D/wsdl-$p.log"
  else
    ok=0
  fi
done
if [ $ok = 1 ] && step "dotnet build: mcs" "$D/mcs.log" \
  mcs -nologo -out:"$D/client.exe" -r:System.Web.Services -r:System.Xml -r:System.EnterpriseServices \
  -r:System.Core -r:Microsoft.CSharp "$D"/Proxy*.cs "$HERE/dotnet/Client.cs"; then
  for b in soap11 soap12 httpget httppost; do
    run_client "dotnet/$b" mono "$D/client.exe" "$b" "$(fresh_id dotnet "$b")"
  done
fi

# --- Java: JAX-WS wsimport, plain for SOAP 1.1 and with -extension for SOAP 1.2 --------------------
section "Java ($(javac -version 2>&1), JAX-WS RI $(dpkg-query -W -f='${Version}' libjaxws-java 2>/dev/null))"
J=$WORK/java
mkdir -p "$J/src" "$J/classes"
JAXWS_CP=/usr/share/java/jaxws-rt.jar # its manifest's Class-Path brings JAXB, SAAJ and the APIs
ok=1
for b in soap11 soap12; do
  ext=()
  [ $b = soap12 ] && ext=(-extension)
  if step "java import: wsimport ${ext[*]:-(plain)} -> $b" "$J/wsimport-$b.log" \
    java -jar /usr/share/java/jaxws-tools.jar "${ext[@]}" -keep -Xnocompile -s "$J/src" \
    -p "org.contactsync.interop.$b" "$WSDL"; then
    warnings "wsimport ${ext[*]:-(plain)}" "$J/wsimport-$b.log"
  else
    ok=0
  fi
done
if [ $ok = 1 ] && step "java build: javac" "$J/javac.log" \
  bash -c 'javac -nowarn -encoding UTF-8 -cp "$1" -d "$2" $(find "$3" -name "*.java") "$4"' javac \
  "$JAXWS_CP" "$J/classes" "$J/src" "$HERE/java/Client.java"; then
  for b in soap11 soap12; do
    # The property names the SAAJ factory the Debian jars provide, instead of letting SAAJ find it by
    # a deprecated service file, which logs a WARNING on every call (see docs/development.md).
    run_client "java/$b" java -Djavax.xml.soap.SAAJMetaFactory=com.sun.xml.messaging.saaj.soap.SAAJMetaFactoryImpl \
      -cp "$J/classes:$JAXWS_CP" Client "$b" "$(fresh_id java "$b")"
  done
fi

# --- Python: zeep imports the WSDL at run time -----------------------------------------------------
section "Python (zeep $(/usr/bin/python3 -c 'import zeep; print(zeep.__version__)' 2>/dev/null))"
for b in soap11 soap12; do
  run_client "python/$b" /usr/bin/python3 "$HERE/python/client.py" "$WSDL" "$b" "$(fresh_id python "$b")"
done

# --- Node: npm soap imports the WSDL at run time ---------------------------------------------------
section "Node ($(node --version), soap $(node -p 'require(process.argv[1]).version' "$HERE/node/node_modules/soap/package.json" 2>/dev/null))"
for b in soap11 soap12; do
  run_client "node/$b" node "$HERE/node/client.js" "$WSDL" "$b" "$(fresh_id node "$b")"
done
# The ASP.NET AJAX JSON endpoint (the service runs with --protocols ...,json), called with Node's fetch
# as a web page calls it. JSON carries no namespace, so it passes through a contract break too.
run_client "node/json" node "$HERE/node/json_client.js" "${WSDL%\?WSDL}" "$(fresh_id node json)"

# --- The patched contract: the contract-evolution patches tools/interop/patches lists, served by one ----
# server built once from a scratch copy of the module with all of them applied (the contract-evolution
# test's mechanism: tools/contractevo/patching, through cmd/patched), called by .NET and Java over SOAP
# 1.1 and 1.2 (dotnet/PatchedClient.cs, java/PatchedClient.java); it serves SOAP only, the protocols the
# clients import. A new patch is one line in tools/interop/patches, plus its checks in both clients
# and PATCHED_CHECKS raised to match. Not with a contract break.
PATCHED_CHECKS=7 # per binding and client: PatchedClient's checks (header 2, out/ref 2, polymorphic 3)
if [ -z "$BREAK" ]; then
  section "patched contract ($(grep -v -e '^#' -e '^[[:space:]]*$' "$HERE/patches" | paste -sd ' '))"
  # A cold build cache (this build runs with -trimpath, as the contract-evolution test's do) compiles
  # the whole module once more: allow longer than other steps.
  if STEP_TIMEOUT=600 step "build contactsync with the patches of tools/interop/patches" "$WORK/build-patched.log" \
    "$GO" run ./tools/contractevo/cmd/patched -list "$HERE/patches" -o "$WORK/contactsync-patched" &&
    start_on "patched service" "$WORK/server-patched.log" \
      "$WORK/contactsync-patched" serve --addr 127.0.0.1:0 --store "sqlite:$WORK/store/patched.db" \
      --protocols soap11,soap12,docs; then
    PATCHED_WSDL="http://127.0.0.1:$PORT/contactsync/v1/sync.asmx?WSDL"
    # .NET: Mono wsdl, SOAP 1.1 and SOAP 1.2 proxies (headers become SoapHeader members of the proxy).
    ok=1
    for p in SOAP SOAP12; do
      if step "dotnet-patched import: wsdl /protocol:$p" "$D/wsdl-patched-$p.log" \
        wsdl -nologo "/protocol:$p" "/namespace:ContactSync.Patched.$p" "/out:$D/PatchedProxy$p.cs" "$PATCHED_WSDL"; then
        warnings "wsdl /protocol:$p" "$D/wsdl-patched-$p.log"
      else
        ok=0
      fi
    done
    if [ $ok = 1 ] && step "dotnet-patched build: mcs" "$D/mcs-patched.log" \
      mcs -nologo -out:"$D/patched.exe" -r:System.Web.Services -r:System.Xml -r:System.Core -r:Microsoft.CSharp \
      "$D/PatchedProxySOAP.cs" "$D/PatchedProxySOAP12.cs" "$HERE/dotnet/PatchedClient.cs"; then
      for b in soap11 soap12; do
        CHECKS=$PATCHED_CHECKS run_client "dotnet-patched/$b" mono "$D/patched.exe" "$b" "$(fresh_id dotnet-patched "$b")"
      done
    fi
    # Java: wsimport -XadditionalHeaders (without it the SOAP headers are left out of the port's
    # methods), plain for SOAP 1.1 and with -extension for SOAP 1.2.
    JP=$WORK/java-patched
    mkdir -p "$JP/src" "$JP/classes"
    ok=1
    for b in soap11 soap12; do
      ext=()
      [ $b = soap12 ] && ext=(-extension)
      if step "java-patched import: wsimport -XadditionalHeaders${ext[*]:+ ${ext[*]}} -> $b" "$JP/wsimport-$b.log" \
        java -jar /usr/share/java/jaxws-tools.jar "${ext[@]}" -XadditionalHeaders -keep -Xnocompile -s "$JP/src" \
        -p "org.contactsync.interop.patched.$b" "$PATCHED_WSDL"; then
        warnings "wsimport -XadditionalHeaders${ext[*]:+ ${ext[*]}}" "$JP/wsimport-$b.log"
      else
        ok=0
      fi
    done
    if [ $ok = 1 ] && step "java-patched build: javac" "$JP/javac.log" \
      bash -c 'javac -nowarn -encoding UTF-8 -cp "$1" -d "$2" $(find "$3" -name "*.java") "$4"' javac \
      "$JAXWS_CP" "$JP/classes" "$JP/src" "$HERE/java/PatchedClient.java"; then
      for b in soap11 soap12; do
        CHECKS=$PATCHED_CHECKS run_client "java-patched/$b" java -Djavax.xml.soap.SAAJMetaFactory=com.sun.xml.messaging.saaj.soap.SAAJMetaFactoryImpl \
          -cp "$JP/classes:$JAXWS_CP" PatchedClient "$b" "$(fresh_id java-patched "$b")"
      done
    fi
  fi
fi

# --- Authenticated run: a second service with a users file written by `contactsync user add` --------
# zeep signs in with a WS-Security UsernameToken (PasswordText as alice, PasswordDigest as dave, the
# digest-enabled user); the .NET proxies set Credentials and answer the 401 challenge with HTTP Basic.
# Each does a short scenario and a call with a wrong password that must fail. Not with a contract break.
if [ -z "$BREAK" ]; then
  section "authenticated service (users file; HTTP Basic, WS-Security UsernameToken)"
  USERS=$WORK/users
  ALICE_PW="alice pw $RUN"
  DAVE_PW="dave-pw-$RUN"
  # "${add_user[@]}" PASSWORD NAME FILE [FLAGS]: the real command, the password on stdin as scripts pass it.
  add_user=(bash -c 'printf "%s\n" "$2" | "$1" user add "$3" --users-file "$4" --password-stdin "${@:5}"' add_user "$WORK/contactsync")
  if step "contactsync user add alice --password-stdin" "$WORK/user-alice.log" "${add_user[@]}" "$ALICE_PW" alice "$USERS" &&
    step "contactsync user add dave --password-stdin --digest" "$WORK/user-dave.log" "${add_user[@]}" "$DAVE_PW" dave "$USERS" --digest; then
    mode=$(stat -c %a "$USERS")
    if [ "$mode" = 600 ]; then pass "users file created with mode 600"; else fail "users file has mode $mode, want 600"; fi
    if start_on "authenticated service" "$WORK/server-auth.log" \
      "$WORK/contactsync" serve --addr 127.0.0.1:0 --store "sqlite:$WORK/store/auth.db" --users-file "$USERS"; then
      AUTH_URL="http://127.0.0.1:$PORT/contactsync/v1/sync.asmx"
      # No credentials: 401 with the Basic challenge, on the HTTP GET binding and on SOAP 1.1.
      for how in get soap11; do
        if [ $how = get ]; then
          curl -s -o /dev/null -D "$WORK/401-$how.txt" --max-time 10 "$AUTH_URL/VersionMajor"
        else
          curl -s -o /dev/null -D "$WORK/401-$how.txt" --max-time 10 "$AUTH_URL" -H 'Content-Type: text/xml; charset=utf-8' \
            -d '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><VersionMajor xmlns="http://localhost:8080/contactsync/v1/"/></soap:Body></soap:Envelope>'
        fi
        if head -n 1 "$WORK/401-$how.txt" | grep -q ' 401' &&
          grep -qi '^WWW-Authenticate: Basic realm="contactsync", charset="UTF-8"' "$WORK/401-$how.txt"; then
          pass "auth/$how without credentials: 401 with WWW-Authenticate Basic"
        else
          fail "auth/$how without credentials: want 401 with WWW-Authenticate Basic, got: $(tr -d '\r' <"$WORK/401-$how.txt" | head -n 1)"
        fi
      done
      AUTH_WSDL="$AUTH_URL?WSDL"
      for b in soap11 soap12; do
        CHECKS=3 run_client "python-auth/$b/text" /usr/bin/python3 "$HERE/python/auth_client.py" "$AUTH_WSDL" "$b" \
          "$(fresh_id python-auth-text "$b")" text alice "$ALICE_PW"
        CHECKS=4 run_client "python-auth/$b/digest" /usr/bin/python3 "$HERE/python/auth_client.py" "$AUTH_WSDL" "$b" \
          "$(fresh_id python-auth-digest "$b")" digest dave "$DAVE_PW"
      done
      if [ -f "$D/client.exe" ]; then
        for b in soap11 soap12 httpget httppost; do
          CHECKS=4 run_client "dotnet-auth/$b" mono "$D/client.exe" "$b" "$(fresh_id dotnet-auth "$b")" "$AUTH_URL" alice "$ALICE_PW"
        done
      else
        fail "dotnet-auth: no .NET client was built (see the .NET section)"
      fi
      if grep -qF -e "$ALICE_PW" -e "$DAVE_PW" -e 'Authorization' "$WORK/server-auth.log"; then
        fail "the authenticated service's log holds a password or an Authorization header"
      else
        pass "the authenticated service's log holds no password and no Authorization header"
      fi
    fi
  fi
fi

if [ "$FAILED" -gt 0 ]; then
  section "service log (last lines)"
  show "$WORK/server.log" 30
  [ -s "$WORK/server-patched.log" ] && section "patched service log (last lines)" && show "$WORK/server-patched.log" 30
  [ -s "$WORK/server-auth.log" ] && section "authenticated service log (last lines)" && show "$WORK/server-auth.log" 30
fi
finish
