package main

import (
	"log/slog"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/wsdl"
)

// debugLine returns the debug line of the request with the given X-Request-ID.
func debugLine(t *testing.T, logs *syncBuffer, id string) string {
	t.Helper()
	var line string
	require.Eventually(t, func() bool {
		for _, l := range strings.Split(logs.String(), "\n") {
			if strings.Contains(l, `msg="request detail"`) && strings.Contains(l, "request_id="+id+" ") {
				line = l
				return true
			}
		}
		return false
	}, 5*time.Second, 10*time.Millisecond, "no debug line for %s in:\n%s", id, logs.String())
	return line
}

// TestDebugLog: --log-level debug used to add nothing. Each request served by a binding now gets one
// debug line with its binding, operation, the names of its parameters (never their values), the
// authentication decision (user, scheme, why refused), the admission decision (queued, shed, why) and
// the time it spent in the store; and the access line names the authenticated user.
func TestDebugLog(t *testing.T) {
	clearSettingsEnv(t)
	dir := t.TempDir()
	users := filepath.Join(dir, "users")
	_, err := runCLIStdin(t, "s3cret-pw\n", "user", "add", "alice", "--users-file", users, "--password-stdin", "--digest")
	require.NoError(t, err)
	held := newHoldingStore()
	var logs syncBuffer
	limits := server.DefaultLimits()
	limits.Admission.MaxConcurrent, limits.Admission.QueueTimeout = 1, 50*time.Millisecond
	level := choice{value: "debug", allowed: []string{"debug", "info"}}
	logOpts := logOptions{format: choice{value: "text", allowed: []string{"text"}}, level: level}
	logger, err := newLogger(&logs, logOpts)
	require.NoError(t, err)
	addr, cancel, done := launchServe(t, serveOptions{
		store:  "sqlite:" + filepath.Join(dir, "c.db"),
		auth:   authOptions{usersFile: users, docs: "open", maxClockSkew: time.Minute},
		limits: limits,
		obs:    obsOptions{accessLog: true, accessLines: newAccessLog(&logs, logOpts)},
		wrapStore: func(st store.Store) store.Store {
			held.Store = st
			return held
		},
	}, logger)
	defer func() { cancel(); require.NoError(t, <-done) }()
	endpoint := "http://" + addr.String() + wsdl.Path

	send := func(id, path, user, password string) int {
		req, err := http.NewRequest(http.MethodGet, endpoint+path, nil)
		require.NoError(t, err)
		req.Header.Set("X-Request-ID", id)
		if user != "" {
			req.SetBasicAuth(user, password)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}

	assert.Equal(t, 404, send("ok-1", "/ReadContact?id=nobody", "alice", "s3cret-pw"))
	line := debugLine(t, &logs, "ok-1")
	for _, want := range []string{"level=DEBUG", "binding=get", "operation=ReadContact", "params=id", "auth=basic", "user=alice",
		"auth_decision=accepted", `admission="admitted at once"`, "failed_at=operation", `error="NotFound: `} {
		assert.Contains(t, line, want)
	}
	assert.Regexp(t, regexp.MustCompile(` store=[0-9.]+[µnm]?s `), line)
	assert.Regexp(t, regexp.MustCompile(`msg=request .*request_id=ok-1 .* user=alice\n`), logs.String(), "the access line names the user")

	assert.Equal(t, 401, send("bad-pw", "/VersionMajor", "alice", "not-it"))
	assert.Contains(t, debugLine(t, &logs, "bad-pw"), `auth=basic user=alice auth_decision="refused: wrong password"`)
	assert.Equal(t, 401, send("no-user", "/VersionMajor", "mallory", "x"))
	assert.Contains(t, debugLine(t, &logs, "no-user"), `user=mallory auth_decision="refused: no user of that name in the users file"`)
	assert.Equal(t, 401, send("anonymous", "/VersionMajor", "", ""))
	assert.Contains(t, debugLine(t, &logs, "anonymous"), "refused: no credentials")

	// One request holds the only operation slot; the next queues, then is shed.
	first := make(chan int, 1)
	go func() { first <- send("holder", "/ReadContact?id=hold", "alice", "s3cret-pw") }()
	<-held.entered
	assert.Equal(t, 503, send("shed", "/VersionMajor", "alice", "s3cret-pw"))
	close(held.release)
	assert.Equal(t, 404, <-first)
	assert.Contains(t, debugLine(t, &logs, "shed"), `admission="shed: no operation slot (--max-concurrent) came free within --queue-timeout (queued 50ms)"`)
	holder := debugLine(t, &logs, "holder")
	storeTime := regexp.MustCompile(` store=(\S+) `).FindStringSubmatch(holder)
	require.NotNil(t, storeTime, holder)
	d, err := time.ParseDuration(storeTime[1])
	require.NoError(t, err)
	assert.GreaterOrEqual(t, d, 40*time.Millisecond, "the held Get's time is the store's")

	for _, secret := range []string{"s3cret-pw", "not-it", "YWxpY2U6"} {
		assert.NotContains(t, logs.String(), secret)
	}
}

// TestNoDebugLinesAtInfo: at the default level the debug lines cost nothing and say nothing.
func TestNoDebugLinesAtInfo(t *testing.T) {
	clearSettingsEnv(t)
	var logs syncBuffer
	addr, cancel, done := launchServe(t, serveOptions{store: "sqlite:" + filepath.Join(t.TempDir(), "c.db")},
		slog.New(slog.NewTextHandler(&logs, nil)))
	resp, err := http.Get("http://" + addr.String() + wsdl.Path + "/VersionMajor")
	require.NoError(t, err)
	resp.Body.Close()
	cancel()
	require.NoError(t, <-done)
	assert.NotContains(t, logs.String(), "request detail")
}
