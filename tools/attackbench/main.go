// Command attackbench is the load generator of `make bench-attack` (issue 14): it runs one attack
// scenario against a running contactsync on loopback, together with "a normal client" (16
// connections at a fixed 500 requests/s in all, p99 over its successful responses), and prints each
// figure against its target with PASS or MISS. tools/attackbench/run.sh starts a fresh server for each
// scenario and runs this command against it.
//
// Scenarios (-scenario):
//
//	slowbody   300 connections trickle a SOAP body at 1 byte/s (reconnecting when cut off), while the
//	           normal client runs. Targets: every normal request succeeds; p99 <= 50 ms.
//	hostile    256 connections send 1 MiB hostile envelopes (attribute, namespace, name, comment, PI
//	           and CDATA floods) back to back, while the normal client runs. Targets: the server's
//	           peak RSS (VmHWM, -pid) <= 256 MiB; normal p99 <= 100 ms.
//	overload   closed-loop ReadContact from -max-concurrent connections, then from 4x as many.
//	           Targets: successes/s at 4x >= 80% of those at 1x; p99 of successes at 4x <= 50 ms.
//	passwords  64 connections send HTTP Basic with a different wrong password on every request, while
//	           the normal client calls as a user whose login is cached, and -first-users users each
//	           log in for the first time. Targets: p99 <= 50 ms for both.
//	replay     16 connections send PasswordDigest UsernameTokens with fresh nonces and a Created near
//	           the future edge of the window as one user, while the normal client calls with fresh
//	           digest tokens as another. Targets: every normal request succeeds; p99 <= 50 ms.
//
// Operation names come from the generated contract and requests from the bundled client, as the
// round's rule for code outside the service wants.
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/auth"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/wire"
)

type options struct {
	endpoint, namespace, scenario string
	duration, warmup              time.Duration
	pid, maxConcurrent            int
	user, password                string // the normal client's credentials ("" for none)
	attacker, attackerPassword    string // the replay scenario's attacking digest user
	firstUsers                    int    // passwords: users first<i> (password = user name) who log in for the first time
	skew                          time.Duration
	attackOnly                    bool // run only the attackers (the child process of measureUnder)
}

func main() {
	var o options
	flag.StringVar(&o.endpoint, "url", "", "endpoint URL, e.g. http://127.0.0.1:18300/contactsync/v1/sync.asmx")
	flag.StringVar(&o.namespace, "ns", "http://localhost:8080/contactsync/v1/", "service namespace (the server's --base-url + /contactsync/v1/)")
	flag.StringVar(&o.scenario, "scenario", "", "slowbody, hostile, overload, passwords or replay")
	flag.DurationVar(&o.duration, "duration", 15*time.Second, "how long the normal client measures (each overload phase lasts this long)")
	flag.DurationVar(&o.warmup, "warmup", 2*time.Second, "how long the attack runs before the normal client starts measuring")
	flag.IntVar(&o.pid, "pid", 0, "the server's process id, for its peak RSS (VmHWM)")
	flag.IntVar(&o.maxConcurrent, "max-concurrent", 64, "the server's --max-concurrent (overload)")
	flag.StringVar(&o.user, "user", "", "the normal client's user (passwords: HTTP Basic; replay: PasswordDigest)")
	flag.StringVar(&o.password, "password", "", "the normal client's password")
	flag.StringVar(&o.attacker, "attacker", "", "replay: the attacking digest user")
	flag.StringVar(&o.attackerPassword, "attacker-password", "", "replay: the attacking user's password")
	flag.IntVar(&o.firstUsers, "first-users", 20, "passwords: users first1..firstN (password = name) logging in for the first time")
	flag.DurationVar(&o.skew, "skew", auth.DefaultMaxClockSkew, "replay: the server's --auth-max-clock-skew")
	flag.BoolVar(&o.attackOnly, "attack-only", false, "run only the scenario's attackers, for warm-up + duration (used by attackbench itself)")
	flag.Parse()
	if o.endpoint == "" {
		fail("-url is required")
	}
	scenarios := map[string]func(options) []result{
		"slowbody": slowBody, "hostile": hostile, "overload": overload, "passwords": passwords, "replay": replay,
	}
	run, ok := scenarios[o.scenario]
	if !ok {
		fail("unknown -scenario %q", o.scenario)
	}
	// A MISS is a result, not a failure of the benchmark: the exit status stays 0 and the driver
	// reports it.
	for _, r := range run(o) {
		fmt.Println(r)
	}
}

// addr is the server's host:port.
func (o options) addr() string {
	u, err := url.Parse(o.endpoint)
	if err != nil || u.Host == "" {
		fail("-url %q: not an absolute URL", o.endpoint)
	}
	return u.Host
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "attackbench: "+format+"\n", args...)
	os.Exit(2)
}

// result is one figure against its target.
type result struct {
	scenario, figure, value, target, status string
	// raw is a line the attacking child printed, passed on as it is.
	raw string
}

func (r result) String() string {
	if r.raw != "" {
		return r.raw
	}
	return fmt.Sprintf("%-9s  %-58s  %12s  %-10s  %s", r.scenario, r.figure, r.value, r.target, r.status)
}

func check(scenario, figure string, value float64, unit string, op string, target float64) result {
	ok := value <= target
	if op == ">=" {
		ok = value >= target
	}
	status := "MISS"
	if ok {
		status = "PASS"
	}
	return result{scenario: scenario, figure: figure, value: strconv.FormatFloat(value, 'f', 1, 64) + " " + unit,
		target: op + " " + strconv.FormatFloat(target, 'f', 0, 64) + " " + unit, status: status}
}

func info(scenario, figure, value string) result {
	return result{scenario: scenario, figure: figure, value: value, status: "info"}
}

// --- requests -----------------------------------------------------------------------------------

// opFor returns the generated operation whose request message has the type of request, so no
// operation name is spelled here.
func opFor(request wire.Message) *wire.Operation {
	for _, op := range gen.Operations {
		if reflect.TypeOf(op.NewRequest()) == reflect.TypeOf(request) {
			return op
		}
	}
	fail("no operation takes a %T", request)
	return nil
}

var (
	readOp   = opFor(&gen.ReadContact{})
	createOp = opFor(&gen.TestCreateContact{})
	// readContact is the ReadContact request's wrapper element, for the hostile envelopes.
	readContact = readOp.RequestElement
)

// readRequest and createRequest are the messages of those operations for a contact id.
func readRequest(id string) wire.Message   { return &gen.ReadContact{Id: id} }
func createRequest(id string) wire.Message { return &gen.TestCreateContact{Id: id} }

// template is a request to replay: method, URL, headers and body, built once by the bundled client.
type template struct {
	method, url string
	header      http.Header
	body        []byte
}

func newTemplate(o options, op *wire.Operation, msg wire.Message) template {
	c := &client.Client{Endpoint: o.endpoint, Namespace: o.namespace, Binding: client.SOAP11}
	req, err := c.NewRequest(context.Background(), op, msg)
	if err != nil {
		fail("building a request: %v", err)
	}
	body, err := io.ReadAll(req.Body)
	if err != nil {
		fail("building a request: %v", err)
	}
	return template{method: req.Method, url: req.URL.String(), header: req.Header, body: body}
}

// wire renders t as HTTP/1.1 bytes for a raw connection.
func (t template) wire() []byte {
	u, err := url.Parse(t.url)
	if err != nil {
		fail("request URL: %v", err)
	}
	var b bytes.Buffer
	b.WriteString(t.method + " " + u.RequestURI() + " HTTP/1.1\r\nHost: " + u.Host + "\r\n")
	for k, vs := range t.header {
		for _, v := range vs {
			b.WriteString(k + ": " + v + "\r\n")
		}
	}
	b.WriteString("Content-Length: " + strconv.Itoa(len(t.body)) + "\r\n\r\n")
	b.Write(t.body)
	return b.Bytes()
}

// withSecurity returns t with a WS-Security header holding a PasswordDigest UsernameToken, with a
// fresh nonce and the given Created time.
func (t template) withSecurity(user, password string, created time.Time) template {
	nonce := make([]byte, 16)
	_, _ = rand.Read(nonce)
	c := created.UTC().Format(time.RFC3339)
	header := `<soap:Header><wsse:Security xmlns:wsse="` + auth.NSSecurityExt + `" xmlns:wsu="` + auth.NSSecurityUtil + `"><wsse:UsernameToken>` +
		`<wsse:Username>` + user + `</wsse:Username><wsse:Password Type="` + auth.PasswordDigest + `">` + auth.Digest(nonce, c, password) + `</wsse:Password>` +
		`<wsse:Nonce EncodingType="` + auth.EncodingBase64 + `">` + base64.StdEncoding.EncodeToString(nonce) + `</wsse:Nonce>` +
		`<wsu:Created>` + c + `</wsu:Created></wsse:UsernameToken></wsse:Security></soap:Header>`
	t.body = bytes.Replace(t.body, []byte("<soap:Body>"), []byte(header+"<soap:Body>"), 1)
	return t
}

// conn is one load-generator connection: raw HTTP/1.1 with keep-alive, a request written as
// pre-rendered bytes and only the status line and framing of the response parsed, so the generator
// costs little CPU next to the server it measures (net/http's client cost several times more).
type conn struct {
	addr string
	nc   net.Conn
	r    *bufio.Reader
	stop func() bool // unregisters the close-on-cancel of nc
}

func newConn(addr string) *conn { return &conn{addr: addr} }

func (c *conn) reset() {
	if c.nc != nil {
		c.stop()
		_ = c.nc.Close()
		c.nc = nil
	}
}

// do sends req and reads the response; status is 0 when no response came. ctx's end closes the
// connection, cutting a request in flight short.
func (c *conn) do(ctx context.Context, req []byte) int {
	for attempt := 0; attempt < 2 && ctx.Err() == nil; attempt++ {
		reused := c.nc != nil
		if c.nc == nil {
			nc, err := net.DialTimeout("tcp", c.addr, 5*time.Second)
			if err != nil {
				time.Sleep(10 * time.Millisecond)
				return 0
			}
			c.nc, c.r = nc, bufio.NewReaderSize(nc, 16<<10)
			c.stop = context.AfterFunc(ctx, func() { _ = nc.Close() })
		}
		_ = c.nc.SetDeadline(time.Now().Add(30 * time.Second))
		status, keepAlive, err := c.exchange(req)
		if err != nil {
			c.reset()
			if reused {
				continue // the server may have closed an idle connection: once more on a new one
			}
			return 0
		}
		if !keepAlive {
			c.reset()
		}
		return status
	}
	return 0
}

func (c *conn) exchange(req []byte) (status int, keepAlive bool, err error) {
	if _, err := c.nc.Write(req); err != nil {
		return 0, false, err
	}
	line, err := c.r.ReadString('\n')
	if err != nil {
		return 0, false, err
	}
	fields := strings.Fields(line)
	if len(fields) < 2 {
		return 0, false, errors.New("bad status line")
	}
	if status, err = strconv.Atoi(fields[1]); err != nil {
		return 0, false, err
	}
	length, keepAlive := -1, true
	for {
		h, err := c.r.ReadString('\n')
		if err != nil {
			return 0, false, err
		}
		h = strings.TrimRight(h, "\r\n")
		if h == "" {
			break
		}
		k, v, _ := strings.Cut(h, ":")
		v = strings.TrimSpace(v)
		switch strings.ToLower(k) {
		case "content-length":
			if length, err = strconv.Atoi(v); err != nil {
				return 0, false, err
			}
		case "connection":
			keepAlive = !strings.EqualFold(v, "close")
		case "transfer-encoding":
			return 0, false, errors.New("chunked responses are not expected")
		}
	}
	if length < 0 {
		_, err = io.Copy(io.Discard, c.r)
		return status, false, err
	}
	_, err = c.r.Discard(length)
	return status, keepAlive, err
}

// createContact stores the contact the normal client reads.
func createContact(o options, id string) {
	hc := &http.Client{Timeout: 10 * time.Second}
	if o.user != "" && o.scenario == "passwords" {
		hc.Transport = basicAuth{o.user, o.password}
	}
	c := &gen.SyncServiceSoapClient{Invoker: &client.Client{Endpoint: o.endpoint, Namespace: o.namespace, Binding: client.SOAP11, HTTP: hc}}
	if _, err := c.TestCreateContact(&gen.TestCreateContact{Id: id}); err != nil {
		fail("creating the contact the normal client reads: %v", err)
	}
}

// basicAuth adds HTTP Basic credentials to every request.
type basicAuth struct{ user, password string }

func (b basicAuth) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.SetBasicAuth(b.user, b.password)
	return http.DefaultTransport.RoundTrip(req)
}

// --- measurement --------------------------------------------------------------------------------

// tally collects outcomes and the latencies of successes.
type tally struct {
	mu       sync.Mutex
	ok       []time.Duration
	statuses map[int]int
}

func (t *tally) add(status int, latency time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.statuses == nil {
		t.statuses = map[int]int{}
	}
	t.statuses[status]++
	if status == http.StatusOK {
		t.ok = append(t.ok, latency)
	}
}

func (t *tally) total() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for _, c := range t.statuses {
		n += c
	}
	return n
}

func (t *tally) successes() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.ok)
}

// quantile of the successes' latencies, in milliseconds (0 without any).
func (t *tally) quantile(q float64) float64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.ok) == 0 {
		return 0
	}
	s := slices.Clone(t.ok)
	slices.Sort(s)
	i := min(len(s)-1, int(q*float64(len(s))))
	return float64(s[i]) / float64(time.Millisecond)
}

func (t *tally) describe() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	keys := slices.Sorted(func(yield func(int) bool) {
		for k := range t.statuses {
			if !yield(k) {
				return
			}
		}
	})
	var parts []string
	for _, k := range keys {
		name := strconv.Itoa(k)
		if k == 0 {
			name = "no response"
		}
		parts = append(parts, name+": "+strconv.Itoa(t.statuses[k]))
	}
	return strings.Join(parts, ", ")
}

// normalClient is "a normal client": 16 connections sending 500 requests/s in all at fixed times,
// for d. Latency is counted from when a request was due, not when it could be sent, so a stalled
// server is not hidden by the client waiting for it (coordinated omission).
func normalClient(ctx context.Context, addr string, d time.Duration, next func() []byte) *tally {
	const conns, rate = 16, 500
	interval := time.Duration(float64(time.Second) * conns / rate)
	t := &tally{}
	start := time.Now()
	var wg sync.WaitGroup
	for i := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := newConn(addr)
			defer c.reset()
			for k := 0; ; k++ {
				due := start.Add(time.Duration(i)*interval/conns + time.Duration(k)*interval)
				if due.Sub(start) >= d || ctx.Err() != nil {
					return
				}
				time.Sleep(time.Until(due))
				status := c.do(ctx, next())
				t.add(status, time.Since(due))
			}
		}()
	}
	wg.Wait()
	return t
}

// closedLoop runs n connections each sending next() back to back (a refused request is retried at
// once, as wrk does) until ctx ends.
func closedLoop(ctx context.Context, addr string, n int, next func() []byte) *tally {
	t := &tally{}
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := newConn(addr)
			defer c.reset()
			for ctx.Err() == nil {
				start := time.Now()
				status := c.do(ctx, next())
				if ctx.Err() != nil {
					return // cut off by the end of the phase: not a result
				}
				t.add(status, time.Since(start))
			}
		}()
	}
	wg.Wait()
	return t
}

// processCPU returns the user and system CPU time process pid has used (fields 14 and 15 of
// /proc/PID/stat, in clock ticks of 1/100 s, the USER_HZ of every Linux architecture Go runs on), or
// a negative duration when it cannot be read.
func processCPU(pid int) time.Duration {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if pid == 0 || err != nil {
		return -1
	}
	// The command name (field 2) is in parentheses and may hold spaces and parentheses; fields
	// count from after its last closing one.
	end := bytes.LastIndexByte(stat, ')')
	fields := strings.Fields(string(stat[end+1:]))
	if end < 0 || len(fields) < 13 {
		return -1
	}
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err1 != nil || err2 != nil {
		return -1
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// vmHWM returns the process's peak resident set size in MiB.
func vmHWM(pid int) (float64, error) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024, err
		}
	}
	return 0, errors.New("no VmHWM in /proc/PID/status")
}

// normalResults are the normal client's figures: successes (all, when required) and p99.
func normalResults(scenario string, t *tally, p99Target float64, allMustSucceed bool) []result {
	total, ok := t.total(), t.successes()
	rs := []result{info(scenario, "normal client: responses by status", t.describe())}
	if total == 0 {
		return append(rs, result{scenario: scenario, figure: "normal client: requests", value: "0", target: "> 0", status: "MISS"})
	}
	share := 100 * float64(ok) / float64(total)
	if allMustSucceed {
		rs = append(rs, check(scenario, "normal client: successful requests", share, "%", ">=", 100))
	} else {
		rs = append(rs, info(scenario, "normal client: successful requests", strconv.FormatFloat(share, 'f', 1, 64)+" %"))
	}
	rs = append(rs, info(scenario, "normal client: p50 / p90 / max of successes", fmt.Sprintf("%.1f / %.1f / %.1f ms", t.quantile(0.5), t.quantile(0.9), t.quantile(1))))
	return append(rs, check(scenario, "normal client: p99 of successes", t.quantile(0.99), "ms", "<=", p99Target))
}

// --- scenarios ----------------------------------------------------------------------------------

// measureUnder runs attackers in a child process (this command again, with -attack-only) for the
// warm-up and the measurement, and the normal client here once the warm-up is over, with alongside
// (if any) running beside it. A separate process keeps the attackers' goroutines from competing with
// the normal client's in one Go scheduler, which would measure the load generator, not the server.
// The child prints its own figures; they are returned with the normal client's tally.
func measureUnder(o options, attackers func(ctx context.Context) []result, next func() []byte, alongside func(ctx context.Context)) (*tally, []result) {
	if o.attackOnly {
		ctx, cancel := context.WithTimeout(context.Background(), o.warmup+o.duration)
		defer cancel()
		for _, r := range attackers(ctx) {
			fmt.Println(r)
		}
		os.Exit(0)
	}
	// The attackers run niced, so that on a machine they saturate, the normal client still gets the
	// CPU promptly when its requests are due: it measures the server, not its own waiting.
	args := append([]string{"-n", "10", os.Args[0]}, os.Args[1:]...)
	child := exec.Command("nice", append(args, "-attack-only")...)
	var out bytes.Buffer
	child.Stdout, child.Stderr = &out, os.Stderr
	if err := child.Start(); err != nil {
		fail("starting the attacking process: %v", err)
	}
	time.Sleep(o.warmup)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	if alongside != nil {
		wg.Add(1)
		go func() { defer wg.Done(); alongside(ctx) }()
	}
	t := normalClient(context.Background(), o.addr(), o.duration, next)
	cancel()
	wg.Wait()
	if err := child.Wait(); err != nil {
		fail("the attacking process failed: %v", err)
	}
	var rs []result
	for line := range strings.Lines(out.String()) {
		rs = append(rs, result{raw: strings.TrimRight(line, "\n")})
	}
	return t, rs
}

// setUp runs f unless this is the attacking child, whose parent has set up already.
func setUp(o options, f func()) {
	if !o.attackOnly {
		f()
	}
}

func slowBody(o options) []result {
	setUp(o, func() { createContact(o, "attack-normal") })
	normalWire := newTemplate(o, readOp, readRequest("attack-normal")).wire()
	slow := newTemplate(o, readOp, readRequest("attack-slow"))
	u, _ := url.Parse(o.endpoint)
	t, attack := measureUnder(o, func(ctx context.Context) []result {
		var cut atomic.Int64
		var wg sync.WaitGroup
		for range 300 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for ctx.Err() == nil {
					trickle(ctx, u, slow)
					if ctx.Err() == nil {
						cut.Add(1)
					}
				}
			}()
		}
		wg.Wait()
		return []result{info("slowbody", "slow connections cut off or closed by the server", strconv.FormatInt(cut.Load(), 10))}
	}, func() []byte { return normalWire }, nil)
	return append(normalResults("slowbody", t, 50, true), attack...)
}

// trickle sends t's headers, then its body one byte a second, until the server stops reading
// (closes the connection or answers) or ctx ends.
func trickle(ctx context.Context, u *url.URL, t template) {
	conn, err := net.DialTimeout("tcp", u.Host, 5*time.Second)
	if err != nil {
		time.Sleep(100 * time.Millisecond)
		return
	}
	defer conn.Close()
	var head strings.Builder
	head.WriteString(t.method + " " + u.RequestURI() + " HTTP/1.1\r\nHost: " + u.Host + "\r\n")
	for k, vs := range t.header {
		for _, v := range vs {
			head.WriteString(k + ": " + v + "\r\n")
		}
	}
	head.WriteString("Content-Length: " + strconv.Itoa(len(t.body)) + "\r\n\r\n")
	if _, err := io.WriteString(conn, head.String()); err != nil {
		return
	}
	answered := make(chan struct{})
	go func() { _, _ = conn.Read(make([]byte, 1)); close(answered) }()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for _, b := range t.body {
		select {
		case <-ctx.Done():
			return
		case <-answered:
			return
		case <-tick.C:
		}
		if _, err := conn.Write([]byte{b}); err != nil {
			return
		}
	}
	<-answered
}

// hostileBodies are 1 MiB envelopes of each shape issue 14 found expensive.
func hostileBodies(o options) [][]byte {
	const size = 1 << 20
	fill := func(prefix, unit, suffix string) []byte {
		var b bytes.Buffer
		b.WriteString(`<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` + prefix)
		end := suffix + `</soap:Body></soap:Envelope>`
		for i := 0; ; i++ {
			u := strings.ReplaceAll(unit, "N", strconv.Itoa(i))
			if b.Len()+len(u)+len(end) > size {
				break
			}
			b.WriteString(u)
		}
		b.WriteString(end)
		return b.Bytes()
	}
	wrapper := `<` + readContact + ` xmlns="` + o.namespace + `"`
	return [][]byte{
		fill(wrapper, ` aN="1"`, `/>`),
		fill(wrapper, ` xmlns:pN="u"`, `/>`),
		fill(`<`+readContact, `x`, `/>`),
		fill(``, `<!--c-->`, ``),
		fill(``, `<?p x?>`, ``),
		fill(wrapper+`>`, `<![CDATA[x]]>`, `</`+readContact+`>`),
	}
}

func hostile(o options) []result {
	setUp(o, func() { createContact(o, "attack-normal") })
	normalWire := newTemplate(o, readOp, readRequest("attack-normal")).wire()
	tmpl := newTemplate(o, readOp, readRequest("x"))
	var wires [][]byte
	for _, body := range hostileBodies(o) {
		h := tmpl
		h.body = body
		wires = append(wires, h.wire())
	}
	t, attack := measureUnder(o, func(ctx context.Context) []result {
		sent := &tally{}
		var wg sync.WaitGroup
		for i := range 256 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := newConn(o.addr())
				defer c.reset()
				for k := i; ctx.Err() == nil; k++ {
					status := c.do(ctx, wires[k%len(wires)])
					if ctx.Err() == nil {
						sent.add(status, 0)
					}
				}
			}()
		}
		wg.Wait()
		return []result{info("hostile", "hostile requests by status", sent.describe())}
	}, func() []byte { return normalWire }, nil)
	rs := append(normalResults("hostile", t, 100, false), attack...)
	if o.pid == 0 {
		return append(rs, result{scenario: "hostile", figure: "server peak RSS (VmHWM)", value: "unknown", target: "<= 256 MiB", status: "MISS"})
	}
	hwm, err := vmHWM(o.pid)
	if err != nil {
		return append(rs, result{scenario: "hostile", figure: "server peak RSS (VmHWM)", value: err.Error(), target: "<= 256 MiB", status: "MISS"})
	}
	return append(rs, check("hostile", "server peak RSS (VmHWM)", hwm, "MiB", "<=", 256))
}

func overload(o options) []result {
	createContact(o, "attack-normal")
	normalWire := newTemplate(o, readOp, readRequest("attack-normal")).wire()
	next := func() []byte { return normalWire }
	// Each phase also reports the CPU the server and this load generator used, as a share of the
	// phase's wall time, and the server's CPU per success: a server below ~100% was not the
	// bottleneck (the generator was, when it is near 100%), and a CPU per success that grows from 1x
	// to 4x is what the server spends on the surplus connections.
	phase := func(n int) (*tally, float64, string) {
		ctx, cancel := context.WithTimeout(context.Background(), o.duration)
		defer cancel()
		server0, client0 := processCPU(o.pid), processCPU(os.Getpid())
		start := time.Now()
		t := closedLoop(ctx, o.addr(), n, next)
		wall := time.Since(start)
		server, client := processCPU(o.pid)-server0, processCPU(os.Getpid())-client0
		cpu := "unknown"
		if o.pid != 0 && server0 >= 0 && client0 >= 0 {
			cpu = fmt.Sprintf("server %.0f%%, %.1f µs per success; load generator %.0f%%",
				100*server.Seconds()/wall.Seconds(), float64(server.Microseconds())/float64(max(t.successes(), 1)),
				100*client.Seconds()/wall.Seconds())
		}
		return t, float64(t.successes()) / wall.Seconds(), cpu
	}
	_, _, _ = phase(o.maxConcurrent) // warm-up: connections, caches
	at1, rate1, cpu1 := phase(o.maxConcurrent)
	at4, rate4, cpu4 := phase(4 * o.maxConcurrent)
	n, n4 := strconv.Itoa(o.maxConcurrent), strconv.Itoa(4*o.maxConcurrent)
	return []result{
		info("overload", "successes/s at "+n+" connections (--max-concurrent)", strconv.FormatFloat(rate1, 'f', 0, 64)),
		info("overload", "responses at "+n+" connections", at1.describe()),
		info("overload", "CPU at "+n+" connections", cpu1),
		info("overload", "successes/s at "+n4+" connections", strconv.FormatFloat(rate4, 'f', 0, 64)),
		info("overload", "responses at "+n4+" connections", at4.describe()),
		info("overload", "CPU at "+n4+" connections", cpu4),
		check("overload", "goodput at 4x over goodput at 1x", 100*rate4/max(rate1, 1), "%", ">=", 80),
		check("overload", "p99 of successes at 4x", at4.quantile(0.99), "ms", "<=", 50),
	}
}

func passwords(o options) []result {
	if o.user == "" {
		fail("passwords needs -user and -password")
	}
	setUp(o, func() { createContact(o, "attack-normal") }) // also makes the normal user's login cached
	normal := newTemplate(o, readOp, readRequest("attack-normal"))
	basic := func(user, password string) template {
		t := normal
		t.header = normal.header.Clone()
		t.header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(user+":"+password)))
		return t
	}
	normalWire := basic(o.user, o.password).wire()
	// A first login costs one bcrypt comparison at the users file's cost (61 ms at cost 10 on the
	// machine BENCHMARKS.md describes) however the server schedules it: idle1..idle5 log in before
	// the attack, one at a time, to show that floor.
	idle := &tally{}
	func() {
		c := newConn(o.addr())
		defer c.reset()
		for i := 1; i <= 5; i++ {
			name := "idle" + strconv.Itoa(i)
			start := time.Now()
			idle.add(c.do(context.Background(), basic(name, name).wire()), time.Since(start))
		}
	}()
	first := &tally{}
	t, attack := measureUnder(o, func(ctx context.Context) []result {
		var wrong atomic.Int64
		var wg sync.WaitGroup
		for range 64 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := newConn(o.addr())
				defer c.reset()
				for ctx.Err() == nil {
					c.do(ctx, basic(o.user, "wrong-"+strconv.FormatInt(wrong.Add(1), 10)).wire())
				}
			}()
		}
		wg.Wait()
		return []result{info("passwords", "wrong passwords sent", strconv.FormatInt(wrong.Load(), 10))}
	}, func() []byte { return normalWire }, func(ctx context.Context) {
		// First logins, spread over the measurement, one at a time.
		gap := o.duration / time.Duration(o.firstUsers+1)
		c := newConn(o.addr())
		defer c.reset()
		for i := 1; i <= o.firstUsers && ctx.Err() == nil; i++ {
			time.Sleep(gap)
			name := "first" + strconv.Itoa(i)
			req := basic(name, name).wire()
			start := time.Now()
			status := c.do(ctx, req)
			if ctx.Err() == nil {
				first.add(status, time.Since(start))
			}
		}
	})
	rs := append(normalResults("passwords", t, 50, false), attack...)
	rs = append(rs, info("passwords", "first logins by status", first.describe()))
	rs = append(rs, info("passwords", "first login without the attack: median / max (one bcrypt)",
		strconv.FormatFloat(idle.quantile(0.5), 'f', 1, 64)+" / "+strconv.FormatFloat(idle.quantile(1), 'f', 1, 64)+" ms"))
	if first.successes() == 0 {
		return append(rs, result{scenario: "passwords", figure: "first login: p99", value: "no success", target: "<= 50 ms", status: "MISS"})
	}
	return append(rs,
		check("passwords", "first login: p99 (max of "+strconv.Itoa(first.successes())+")", first.quantile(1), "ms", "<=", 50),
		// What the attack adds to a first login, over the comparison it costs anyway.
		check("passwords", "first login: p99 over the unattacked median", first.quantile(1)-idle.quantile(0.5), "ms", "<=", 50))
}

func replay(o options) []result {
	if o.user == "" || o.attacker == "" {
		fail("replay needs -user, -password, -attacker and -attacker-password")
	}
	base := newTemplate(o, readOp, readRequest("attack-normal"))
	setUp(o, func() {
		// The contact is created with the normal user's token.
		create := newTemplate(o, createOp, createRequest("attack-normal")).withSecurity(o.user, o.password, time.Now())
		c := newConn(o.addr())
		defer c.reset()
		if s := c.do(context.Background(), create.wire()); s != http.StatusOK {
			fail("creating the contact with a digest token: status %d", s)
		}
	})
	t, attack := measureUnder(o, func(ctx context.Context) []result {
		var sent atomic.Int64
		var wg sync.WaitGroup
		for range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := newConn(o.addr())
				defer c.reset()
				for ctx.Err() == nil {
					edge := time.Now().Add(o.skew - 2*time.Second)
					c.do(ctx, base.withSecurity(o.attacker, o.attackerPassword, edge).wire())
					sent.Add(1)
				}
			}()
		}
		wg.Wait()
		return []result{info("replay", "attacking tokens sent", strconv.FormatInt(sent.Load(), 10))}
	}, func() []byte { return base.withSecurity(o.user, o.password, time.Now()).wire() }, nil)
	return append(normalResults("replay", t, 50, true), attack...)
}
