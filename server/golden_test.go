package server_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/wsdl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goldenOperations lists every operation with what must be stored before it runs, so each golden
// exchange is a success: the contact operations other than create need the contact to exist.
var goldenOperations = []struct {
	op          string
	hasID       bool
	needsStored bool
}{
	{"TestCreateContact", true, false},
	{"TestUpdateContact", true, true},
	{"DeleteContact", true, true},
	{"ReadContact", true, true},
	{"Version", false, false},
	{"VersionMajor", false, false},
	{"VersionMinor", false, false},
}

// TestGoldenWire sends each operation over each binding through the real handler and store and
// compares the exact response bytes with testdata/<binding>/<Op>.response.xml. The request sent is
// recorded beside it as <Op>.request.xml (SOAP) or <Op>.request.txt (the HTTP bindings' query or form).
func TestGoldenWire(t *testing.T) {
	const id = "golden-1"
	for _, binding := range bindings {
		t.Run(binding, func(t *testing.T) {
			for _, g := range goldenOperations {
				t.Run(g.op, func(t *testing.T) {
					ts := newTestServer(t, wsdl.DefaultBaseURL)
					if g.needsStored {
						require.NoError(t, ts.store.Put(context.Background(), service.TestRecord(id)))
					}
					req := requestFor(binding, wsdl.DefaultNamespace, g.op, id, g.hasID)
					resp, body := ts.do(t, req)
					assert.Equal(t, 200, resp.StatusCode, body)
					assert.Equal(t, contentTypeOf[binding], resp.Header.Get("Content-Type"))

					dir := filepath.Join("testdata", binding)
					if binding == "soap11" || binding == "soap12" {
						golden(t, filepath.Join(dir, g.op+".request.xml"), req.body)
					} else {
						golden(t, filepath.Join(dir, g.op+".request.txt"), req.method+" "+wsdl.Path+req.path+"\n"+req.body)
					}
					golden(t, filepath.Join(dir, g.op+".response.xml"), body)
				})
			}
		})
	}
}

// TestGoldenWriteFailures freezes the two answers a failed write gets, on every binding and the JSON
// endpoint, as golden files testdata/<binding>/TestCreateContact.<Code>.response.xml (.json for the
// JSON endpoint): Unavailable, 503 with Retry-After, which says the write was not applied and may be
// retried; and OutcomeUnknown, 500 without Retry-After, which says the store sent the commit and lost
// its answer, so the client must read the contact before retrying. Clients and their retry policies
// key on these; changing them is a breaking change.
func TestGoldenWriteFailures(t *testing.T) {
	for _, tc := range []struct {
		code       string
		err        error
		status     int
		retryAfter string
	}{
		{"Unavailable", fmt.Errorf("postgres: put contact: %w: %w", store.ErrUnavailable, errors.New("timeout: context deadline exceeded")), 503, "1"},
		{"OutcomeUnknown", fmt.Errorf("postgres: put contact: %w: %w", store.ErrOutcomeUnknown, context.DeadlineExceeded), 500, ""},
	} {
		t.Run(tc.code, func(t *testing.T) {
			ts, logs := newFakeServer(t, &fakeStore{put: func(context.Context, store.Record) error { return tc.err }},
				server.Limits{}, allProtocols...)
			for _, binding := range append(bindings, "json") {
				t.Run(binding, func(t *testing.T) {
					req, contentType, file := requestFor(binding, ns, "TestCreateContact", "golden-1", true), contentTypeOf[binding], ".response.xml"
					switch binding {
					case "get", "post":
						contentType = "text/plain; charset=utf-8"
					case "json":
						req, contentType, file = jsonRequest("TestCreateContact", `{"id":"golden-1"}`), "application/json; charset=utf-8", ".response.json"
					}
					resp, body := ts.do(t, req)
					assert.Equal(t, tc.status, resp.StatusCode)
					assert.Equal(t, tc.retryAfter, resp.Header.Get("Retry-After"))
					assert.Equal(t, contentType, resp.Header.Get("Content-Type"))
					golden(t, filepath.Join("testdata", binding, "TestCreateContact."+tc.code+file), body)
				})
			}
			if tc.code == "OutcomeUnknown" {
				assert.Contains(t, logs.String(), tc.err.Error(), "an unknown outcome is logged with its cause")
			}
		})
	}
}
