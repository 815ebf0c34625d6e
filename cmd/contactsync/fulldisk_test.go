package main

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/contactsync/contactsync/server/store/storetest/fulldisk"
	"github.com/contactsync/contactsync/wsdl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestServeOnFullDisk runs serve with its SQLite store on a real file system that fills up (a
// size-limited tmpfs): writes are answered 503 with Retry-After rather than as internal errors, /readyz
// says "store not writable", reads go on, the failures are logged a few times rather than once per
// request, nothing acknowledged is lost, and once space is freed /readyz and the writes recover by
// themselves, /readyz without any write traffic.
func TestServeOnFullDisk(t *testing.T) {
	dir := fulldisk.Mount(t, 4<<20)
	logs := &syncBuffer{}
	addr, cancel, done := launchServe(t, serveOptions{
		store: "sqlite:" + filepath.Join(dir, "contacts.db"), shutdownTimeout: 5 * time.Second,
		writeProbeInterval: 100 * time.Millisecond, obs: obsOptions{accessLog: false},
	}, slog.New(slog.NewTextHandler(logs, nil)))
	defer func() {
		cancel()
		require.NoError(t, <-done)
	}()
	base := "http://" + addr.String()
	get := func(path string) (int, string, http.Header) {
		resp, err := http.Get(base + path)
		require.NoError(t, err)
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, string(body), resp.Header
	}
	create := func(id string) (int, http.Header) {
		status, _, h := get(wsdl.Path + "/TestCreateContact?id=" + id)
		return status, h
	}
	read := func(id string) (int, string) {
		status, body, _ := get(wsdl.Path + "/ReadContact?id=" + id)
		return status, body
	}

	acked := map[string]string{} // id -> its ReadContact body while the disk had room
	for i := range 10 {
		id := fmt.Sprint("before-", i)
		status, _ := create(id)
		require.Equal(t, 200, status)
		_, acked[id] = read(id)
	}
	status, body, _ := get("/readyz")
	require.Equal(t, 200, status, body)

	free := fulldisk.Fill(t, dir)
	failed := 0
	for i := range 200 {
		id := fmt.Sprint("during-", i)
		status, h := create(id)
		switch status {
		case 200: // a write may still fit in space SQLite already holds
			_, acked[id] = read(id)
		case 503:
			assert.Equal(t, "1", h.Get("Retry-After"))
			failed++
		default:
			t.Fatalf("TestCreateContact on a full disk answered %d", status)
		}
	}
	require.Positive(t, failed, "no write failed on a full disk")
	// Over SOAP too: 503 with Retry-After and a Server fault saying Unavailable, not an internal error.
	ns := wsdl.DefaultNamespace
	envelope := `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><TestCreateContact xmlns="` + ns +
		`"><id>soap-during</id></TestCreateContact></soap:Body></soap:Envelope>`
	req, err := http.NewRequest("POST", base+wsdl.Path, strings.NewReader(envelope))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "text/xml; charset=utf-8")
	req.Header.Set("SOAPAction", `"`+ns+`TestCreateContact"`)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	soapBody, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	if resp.StatusCode == 200 { // it fit after all
		_, acked["soap-during"] = read("soap-during")
	} else {
		assert.Equal(t, 503, resp.StatusCode, string(soapBody))
		assert.Equal(t, "1", resp.Header.Get("Retry-After"))
		assert.Contains(t, string(soapBody), "soap:Server")
		assert.Contains(t, string(soapBody), ">Unavailable</ErrorCode>")
	}
	status, body, h := get("/readyz")
	assert.Equal(t, 503, status)
	assert.Equal(t, "not ready: store not writable\n", body)
	assert.Equal(t, "1", h.Get("Retry-After"))
	for id, want := range acked {
		status, body := read(id)
		require.Equal(t, 200, status, "reads go on: %s", id)
		require.Equal(t, want, body)
	}
	lines := strings.Count(logs.String(), "the store cannot write")
	assert.Positive(t, lines)
	assert.LessOrEqual(t, lines, 3, "%d failed writes, logged at most once per interval per cause:\n%s", failed, logs.String())
	assert.NotContains(t, logs.String(), "request failed", "not an internal error")

	free()
	require.Eventually(t, func() bool {
		status, _, _ := get("/readyz")
		return status == 200
	}, 10*time.Second, 50*time.Millisecond, "/readyz recovers by itself, with no write traffic")
	for i := range 10 {
		id := fmt.Sprint("after-", i)
		status, _ := create(id)
		require.Equal(t, 200, status, "writes resume")
		_, acked[id] = read(id)
	}
	assert.Contains(t, logs.String(), "the store can write again")
	for id, want := range acked {
		status, body := read(id)
		require.Equal(t, 200, status, "acknowledged %s lost", id)
		require.Equal(t, want, body)
	}
}
