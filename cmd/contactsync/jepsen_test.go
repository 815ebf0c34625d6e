package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/store/postgres/pgtest"
	"github.com/contactsync/contactsync/wsdl"
)

// The history-checked fault test (issue 21): several `serve` instances share one PostgreSQL schema,
// each through a fault-injecting TCP proxy; concurrent clients create, update, read and delete a few
// contacts through random instances and bindings while instances are killed and stopped, partitioned
// from the database (bytes held and delivered on heal, or connections reset) and have their database
// sessions terminated. Every call is recorded and each contact's history is checked with porcupine
// under the standard and the strict model (history_test.go).
//
// `make test` runs a short form (jepsenDefaultDuration of load); `make jepsen` the long one, setting
// CONTACTSYNC_JEPSEN_DURATION. Each run prints the faults it injected; a failing run prints the smallest
// anomaly and keeps its directory: the history (history.jsonl), porcupine's visualization of it and
// each instance's log, under CONTACTSYNC_JEPSEN_DIR (default: the system's temporary directory).

const (
	jepsenDurationEnv     = "CONTACTSYNC_JEPSEN_DURATION"
	jepsenDirEnv          = "CONTACTSYNC_JEPSEN_DIR"
	jepsenDefaultDuration = 20 * time.Second

	jepsenInstances = 3
	jepsenClients   = 12
	jepsenKeys      = 8

	// jepsenDBTimeout is each instance's --db-timeout: short, so that a partition of a few seconds
	// outlasts it and a call gives up while its statements are held, which is what exposes late writes.
	jepsenDBTimeout = time.Second
	// jepsenCallTimeout is how long a client waits for an answer: longer than any fault lasts, so a
	// call to a stopped instance is answered once it resumes rather than counted as unanswered.
	jepsenCallTimeout = 8 * time.Second
	// jepsenGap is the healthy time between two faults.
	jepsenGap = 500 * time.Millisecond
)

// faultKind is one way the nemesis breaks the system.
type faultKind string

const (
	faultKill      faultKind = "kill"           // SIGKILL an instance, restart it a second later
	faultStop      faultKind = "stop"           // SIGSTOP an instance for two seconds, then SIGCONT
	faultHold      faultKind = "partition-hold" // partition an instance from the database, keeping the bytes
	faultReset     faultKind = "partition-reset"
	faultTerminate faultKind = "terminate-backends" // pg_terminate_backend on every session of an instance
)

var faultKinds = []faultKind{faultKill, faultStop, faultHold, faultReset, faultTerminate}

// faultSpan is one fault: which instance, when it started and when the instance was whole again.
type faultSpan struct {
	Kind       faultKind     `json:"kind"`
	Instance   int           `json:"instance"`
	Start, End time.Duration `json:"-"`
}

// jepsenInstance is one `serve` process and the proxy between it and the database.
type jepsenInstance struct {
	index    int
	bin      string
	port     string
	endpoint string
	dsn      string // through the proxy, with the instance's own application_name
	app      string
	proxy    *pgtest.Proxy
	log      *os.File

	mu  sync.Mutex
	cmd *exec.Cmd
}

func (in *jepsenInstance) start(t *testing.T) {
	t.Helper()
	cmd := exec.Command(in.bin, "serve", "--addr", "127.0.0.1:"+in.port, "--store", in.dsn,
		"--protocols", "soap11,soap12,get,post,json", "--db-max-conns", "4",
		"--db-timeout", jepsenDBTimeout.String(), "--db-connect-timeout", jepsenDBTimeout.String(),
		"--access-log=false", "--log-level", "warn")
	cmd.Stdout, cmd.Stderr = in.log, in.log
	require.NoError(t, cmd.Start())
	in.mu.Lock()
	in.cmd = cmd
	in.mu.Unlock()
	c := &gen.SyncServiceSoapClient{Invoker: &client.Client{Endpoint: in.endpoint, Namespace: wsdl.DefaultNamespace, Binding: client.SOAP11, HTTP: &http.Client{Timeout: time.Second}}}
	require.Eventually(t, func() bool {
		_, err := c.VersionMajor(&gen.VersionMajor{})
		return err == nil
	}, 30*time.Second, 20*time.Millisecond, "instance %d did not start", in.index)
}

func (in *jepsenInstance) signal(sig syscall.Signal) {
	in.mu.Lock()
	defer in.mu.Unlock()
	_ = in.cmd.Process.Signal(sig)
	if sig == syscall.SIGKILL {
		_ = in.cmd.Wait()
	}
}

// jepsenRun is one run: its instances, its history and the faults it injected.
type jepsenRun struct {
	t         *testing.T
	dir       string
	start     time.Time
	instances []*jepsenInstance
	admin     *pgx.Conn // the test's own session, for terminating the instances' sessions

	mu       sync.Mutex
	history  []histOp
	faults   []faultSpan
	problems []string // answers no model allows: internal errors, torn or foreign records
}

func (r *jepsenRun) since() time.Duration { return time.Since(r.start) }

func (r *jepsenRun) record(h histOp) {
	r.mu.Lock()
	r.history = append(r.history, h)
	r.mu.Unlock()
}

func (r *jepsenRun) problem(format string, args ...any) {
	r.mu.Lock()
	r.problems = append(r.problems, fmt.Sprintf(format, args...))
	r.mu.Unlock()
}

// TestJepsen is the history-checked fault test; see the comment at the top of this file.
func TestJepsen(t *testing.T) {
	t.Parallel() // no t.Setenv, no process-wide state: runs beside the other parallel tests
	if testing.Short() {
		t.Skip("builds and runs the real binary three times under faults; skipped with -short")
	}
	duration := jepsenDefaultDuration
	if v := os.Getenv(jepsenDurationEnv); v != "" {
		d, err := time.ParseDuration(v)
		require.NoError(t, err, "%s", jepsenDurationEnv)
		duration = d
	}
	dsn := pgtest.Schema(t)
	dir, err := os.MkdirTemp(os.Getenv(jepsenDirEnv), "contactsync-jepsen-*")
	require.NoError(t, err)
	keep := false
	t.Cleanup(func() {
		if keep || t.Failed() {
			t.Logf("the run's history, visualization and instance logs are kept in %s", dir)
			return
		}
		_ = os.RemoveAll(dir)
	})

	bin := filepath.Join(dir, "contactsync")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	require.NoError(t, build.Run())
	out, err := exec.Command(bin, "migrate", "--store", dsn).CombinedOutput()
	require.NoError(t, err, "%s", out)

	admin, err := pgx.Connect(t.Context(), dsn)
	require.NoError(t, err)
	t.Cleanup(func() { _ = admin.Close(context.Background()) })
	run := &jepsenRun{t: t, dir: dir, admin: admin}
	t.Cleanup(run.writeHistory) // whatever happens, the history is kept for a look
	schema := dsnParam(t, dsn, "search_path")
	for i := range jepsenInstances {
		proxy := pgtest.NewProxy(t, pgtest.Target(t, dsn))
		app := fmt.Sprintf("jepsen-%s-%d", strings.TrimPrefix(schema, "contactsync_test_"), i)
		logFile, err := os.Create(filepath.Join(dir, fmt.Sprintf("instance-%d.log", i)))
		require.NoError(t, err)
		t.Cleanup(func() { _ = logFile.Close() })
		port := freePort(t)
		in := &jepsenInstance{index: i, bin: bin, port: port, proxy: proxy, app: app, log: logFile,
			endpoint: "http://127.0.0.1:" + port + wsdl.Path,
			dsn:      pgtest.WithParam(t, pgtest.WithHostPort(t, dsn, proxy.Addr()), "application_name", app)}
		in.start(t)
		t.Cleanup(func() {
			in.signal(syscall.SIGCONT)
			in.signal(syscall.SIGKILL)
		})
		run.instances = append(run.instances, in)
	}

	run.start = time.Now()
	ctx, stopClients := context.WithCancel(t.Context())
	var clients sync.WaitGroup
	httpClient := noReplayClient()
	for c := range jepsenClients {
		clients.Go(func() { run.client(ctx, c, httpClient) })
	}
	run.nemesis(duration)
	stopClients()
	clients.Wait()
	elapsed := run.since()
	run.finalReads(httpClient)

	counts := map[faultKind]int{}
	for _, f := range run.faults {
		counts[f.Kind]++
	}
	outcomes := map[outcome]int{}
	for _, h := range run.history {
		outcomes[h.Outcome]++
	}
	var faultSummary, outcomeSummary []string
	for _, k := range faultKinds {
		faultSummary = append(faultSummary, fmt.Sprintf("%s=%d", k, counts[k]))
	}
	for _, o := range []outcome{answeredRecord, answeredAbsent, notApplied, unknownOutcome, noAnswer, notSent} {
		outcomeSummary = append(outcomeSummary, fmt.Sprintf("%s=%d", o, outcomes[o]))
	}
	t.Logf("%d calls in %v through %d instances (%s); faults injected: %s", len(run.history),
		elapsed.Round(time.Millisecond), jepsenInstances, strings.Join(outcomeSummary, " "), strings.Join(faultSummary, " "))
	for _, k := range faultKinds {
		assert.Positive(t, counts[k], "no %s fault was injected", k)
	}
	for _, p := range run.problems {
		t.Error(p)
	}
	run.checkHealthyReads()
	for _, strict := range []bool{false, true} {
		if !run.check(strict) {
			keep = true
		}
	}
}

// noReplayClient returns the HTTP client of the run's calls. Go's transport sends a request again,
// on a new connection, when a reused connection fails before the answer and the request is
// replayable (a GET): a call of the HTTP GET binding could then run twice while the history records it
// once. GETs therefore go over connections of their own, which the transport never retries on.
func noReplayClient() *http.Client {
	pooled := &http.Transport{MaxIdleConnsPerHost: jepsenClients}
	fresh := &http.Transport{DisableKeepAlives: true}
	return &http.Client{Transport: roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if req.Method == http.MethodGet {
			return fresh.RoundTrip(req)
		}
		return pooled.RoundTrip(req)
	})}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

var jepsenBindings = []client.Binding{client.SOAP11, client.SOAP12, client.HTTPGet, client.HTTPPost, client.JSON}

var jepsenOps = []string{"TestCreateContact", "TestUpdateContact", "ReadContact", "DeleteContact"}

// client runs one client's calls until ctx ends: a random operation on a random contact through a
// random instance and binding, with a short random pause between calls.
func (r *jepsenRun) client(ctx context.Context, id int, httpClient *http.Client) {
	rng := rand.New(rand.NewPCG(uint64(id), uint64(r.start.UnixNano())))
	for ctx.Err() == nil {
		in := rng.IntN(jepsenInstances)
		binding := jepsenBindings[rng.IntN(len(jepsenBindings))]
		h := histOp{Client: id, Instance: in, Binding: string(binding), Op: jepsenOps[rng.IntN(len(jepsenOps))],
			ID: fmt.Sprintf("jepsen-%d", rng.IntN(jepsenKeys))}
		r.call(h, httpClient)
		select {
		case <-ctx.Done():
		case <-time.After(time.Duration(rng.IntN(20)) * time.Millisecond):
		}
	}
}

// call makes the call h describes and records it with its outcome.
func (r *jepsenRun) call(h histOp, httpClient *http.Client) histOp {
	svc := &gen.SyncServiceSoapClient{Invoker: &client.Client{Endpoint: r.instances[h.Instance].endpoint, Namespace: wsdl.DefaultNamespace, Binding: client.Binding(h.Binding), HTTP: httpClient}}
	ctx, cancel := context.WithTimeout(context.Background(), jepsenCallTimeout)
	defer cancel()
	h.Call, h.At = r.since(), time.Now()
	res, err := client.Invoke(ctx, gen.Bind(svc), h.Op, map[string]string{"id": h.ID})
	h.Return = r.since()
	if err == nil {
		h.Outcome = answeredRecord
		if h.Record = recordOf(h.ID, contactOf(res)); h.Record == absent {
			r.problem("%s: a torn or foreign record: %+v", h, contactOf(res))
			h.Outcome = noAnswer
		}
	} else {
		h.Detail = err.Error()
		var problem bool
		h.Outcome, problem = outcomeOf(err)
		if problem {
			r.problem("%s: an answer no model allows: %v", h, err)
		}
	}
	r.record(h)
	return h
}

// outcomeOf classifies a failed call by the answer each binding gives; problem is set for an answer
// the service must never give (an internal error), which the history then counts as unanswered.
func outcomeOf(err error) (_ outcome, problem bool) {
	var fault *client.Fault
	var jsonErr *client.JSONError
	var status *client.StatusError
	code := ""
	switch {
	case errors.As(err, &fault):
		code = fault.ErrorCode
	case errors.As(err, &jsonErr):
		code = jsonErr.ExceptionType
	case errors.As(err, &status):
		switch {
		case status.StatusCode == http.StatusNotFound:
			code = "NotFound"
		case status.StatusCode == http.StatusServiceUnavailable:
			code = "Unavailable"
		case status.StatusCode == http.StatusInternalServerError && status.Message == service.OutcomeUnknownMessage:
			code = "OutcomeUnknown"
		}
	default:
		var opErr *net.OpError
		if errors.As(err, &opErr) && opErr.Op == "dial" {
			return notSent, false // the instance was down: the request never reached it
		}
		return noAnswer, false // no answer: reset or timed out
	}
	switch code {
	case "NotFound":
		return answeredAbsent, false
	case "Unavailable":
		return notApplied, false
	case "OutcomeUnknown":
		return unknownOutcome, false
	}
	return noAnswer, true
}

// nemesis injects faults one at a time, with jepsenGap of health between them, for at least duration:
// it deals the fault kinds from a shuffled deck, refilled when empty, and stops only with the deck
// empty, so every kind is injected as often as the others.
func (r *jepsenRun) nemesis(duration time.Duration) {
	rng := rand.New(rand.NewPCG(uint64(r.start.UnixNano()), 21))
	var deck []faultKind
	for {
		if len(deck) == 0 {
			if r.since() >= duration {
				return
			}
			deck = slices.Clone(faultKinds)
			rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
		}
		time.Sleep(jepsenGap)
		kind := deck[0]
		deck = deck[1:]
		in := r.instances[rng.IntN(len(r.instances))]
		span := faultSpan{Kind: kind, Instance: in.index, Start: r.since()}
		switch kind {
		case faultKill:
			in.signal(syscall.SIGKILL)
			time.Sleep(time.Second)
			in.start(r.t)
		case faultStop:
			in.signal(syscall.SIGSTOP)
			time.Sleep(2 * time.Second)
			in.signal(syscall.SIGCONT)
		case faultHold:
			in.proxy.Hold()
			time.Sleep(2500 * time.Millisecond)
			in.proxy.Up()
		case faultReset:
			in.proxy.Reset()
			time.Sleep(1500 * time.Millisecond)
			in.proxy.Up()
		case faultTerminate:
			var n int
			err := r.admin.QueryRow(context.Background(),
				`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1`, in.app).Scan(&n)
			require.NoError(r.t, err)
		}
		span.End = r.since()
		r.mu.Lock()
		r.faults = append(r.faults, span)
		r.mu.Unlock()
	}
}

// finalReads reads every contact through every instance once the faults are over and every call has
// returned: the reads belong to the history (one sequential order must explain them too), and the
// instances must agree.
func (r *jepsenRun) finalReads(httpClient *http.Client) {
	time.Sleep(jepsenGap) // the last fault's instance gets back on its feet, as between faults
	for _, in := range r.instances {
		require.True(r.t, in.proxy.Delivered(30*time.Second), "instance %d's proxy still carries bytes: %v", in.index, in.proxy.InFlight())
	}
	for k := range jepsenKeys {
		id := fmt.Sprintf("jepsen-%d", k)
		var seen []string
		for _, in := range r.instances {
			h := r.call(histOp{Client: jepsenClients + in.index, Instance: in.index, Binding: string(client.SOAP11),
				Op: "ReadContact", ID: id}, httpClient)
			assert.Contains(r.t, []outcome{answeredRecord, answeredAbsent}, h.Outcome, "final read: %s", h)
			seen = append(seen, h.result())
		}
		assert.Len(r.t, slices.Compact(seen), 1, "the instances disagree on %s: %v", id, seen)
	}
}

// checkHealthyReads: a read through an instance that no fault touched while it ran (its database
// sessions being terminated does not count: a broken pooled connection is retried) must be answered.
// Reads take no locks, so nothing another instance's fault leaves behind can delay them.
func (r *jepsenRun) checkHealthyReads() {
	const settle = time.Second // after a fault ends, the instance's pool gets back on its feet
	failed := 0
	for _, h := range r.history {
		if h.Op != "ReadContact" || h.Outcome == answeredRecord || h.Outcome == answeredAbsent {
			continue
		}
		touched := false
		for _, f := range r.faults {
			if f.Instance == h.Instance && f.Kind != faultTerminate && h.Call <= f.End+settle && h.Return >= f.Start {
				touched = true
				break
			}
		}
		if !touched {
			failed++
			if failed <= 10 {
				r.t.Errorf("a read through an instance under no fault failed: %s (%s)", h, h.Detail)
			}
		}
	}
	if failed > 10 {
		r.t.Errorf("… and %d more", failed-10)
	}
}

// check checks the history under one model, reporting the smallest anomaly of each failing contact
// and writing porcupine's visualization next to the history. It reports whether the history passed.
func (r *jepsenRun) check(strict bool) bool {
	name := map[bool]string{false: "standard", true: "strict"}[strict]
	res, info := linearizable(r.history, strict)
	if res == porcupine.Ok {
		r.t.Logf("%s model: every contact's history is linearizable", name)
		return true
	}
	path := filepath.Join(r.dir, name+"-model.html")
	if err := porcupine.VisualizePath(contactModel(strict, absent), info, path); err != nil {
		r.t.Logf("visualization: %v", err)
	}
	if res == porcupine.Unknown {
		r.t.Errorf("%s model: porcupine could not decide within %v", name, checkTimeout)
		return false
	}
	byID := map[string][]histOp{}
	for _, h := range r.history {
		byID[h.ID] = append(byID[h.ID], h)
	}
	reported := false
	for k := range jepsenKeys {
		id := fmt.Sprintf("jepsen-%d", k)
		if res, _ := linearizable(byID[id], strict); res == porcupine.Ok {
			continue
		}
		anomaly := smallestAnomaly(byID[id], strict)
		var b strings.Builder
		for _, h := range anomaly {
			b.WriteString("\n    " + h.String())
		}
		// The writes on the contact that failed, possibly having taken effect, shortly before: the
		// likely culprits, the last few.
		first := anomaly[0].Call
		var suspects []string
		for _, h := range byID[id] {
			if h.Op != "ReadContact" && (h.Outcome == notApplied || h.Outcome == unknownOutcome || h.Outcome == noAnswer) &&
				h.Call < first && h.Call > first-10*time.Second {
				suspects = append(suspects, "\n    "+h.String())
			}
		}
		suspects = suspects[max(0, len(suspects)-8):]
		r.t.Errorf("%s model: the calls on %s are not linearizable; the smallest anomaly (%d calls):%s\n"+
			"  the last writes on %s answered not-applied, unknown or not at all in the 10 s before it:%s\n  faults: %s",
			name, id, len(anomaly), b.String(), id, strings.Join(suspects, ""), r.faultList(first-10*time.Second, anomaly[len(anomaly)-1].Return))
		reported = true
	}
	if !reported { // porcupine found the whole history illegal but no contact's alone: a checker bug
		r.t.Errorf("%s model: the history is not linearizable, yet each contact's is", name)
	}
	return false
}

// faultList describes the faults that overlap [from, to].
func (r *jepsenRun) faultList(from, to time.Duration) string {
	var parts []string
	for _, f := range r.faults {
		if f.End >= from && f.Start <= to {
			parts = append(parts, fmt.Sprintf("%s of instance %d %.1fms..%.1fms", f.Kind, f.Instance, ms(f.Start), ms(f.End)))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "; ")
}

// writeHistory writes the history, one call per line, and the faults, to history.jsonl.
func (r *jepsenRun) writeHistory() {
	r.mu.Lock()
	defer r.mu.Unlock()
	f, err := os.Create(filepath.Join(r.dir, "history.jsonl"))
	require.NoError(r.t, err)
	defer f.Close()
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for _, fs := range r.faults {
		require.NoError(r.t, enc.Encode(map[string]any{"fault": fs.Kind, "instance": fs.Instance, "start": fs.Start, "end": fs.End}))
	}
	for _, h := range r.history {
		require.NoError(r.t, enc.Encode(h))
	}
	require.NoError(r.t, w.Flush())
}

// dsnParam returns the value of the connection parameter key of a URL DSN.
func dsnParam(t *testing.T, dsn, key string) string {
	t.Helper()
	cfg, err := pgx.ParseConfig(dsn)
	require.NoError(t, err)
	return cfg.RuntimeParams[key]
}
