package server_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/internal/testsupport"
	"github.com/contactsync/contactsync/server/observe"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/wsdl"
)

// eventsByID is an Observer keeping each request's events by request id.
type eventsByID struct {
	mu   sync.Mutex
	byID map[string]observe.Events
}

func (e *eventsByID) Finished(_ *http.Request, ev *observe.Events) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.byID[ev.RequestID] = *ev
}

func (e *eventsByID) of(id string) observe.Events {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.byID[id]
}

// TestHandlerReportsEachStage: the assembled handler, with authentication on, reports the stages a
// request went through to its event record, where an observer registered with the middleware reads
// them: the binding, the authentication decision (from the headers, or from the UsernameToken the
// body carried), admission, the operation decoded, and the stage it failed at. A refused caller's body
// is never reported decoded.
func TestHandlerReportsEachStage(t *testing.T) {
	limits := server.DefaultLimits()
	limits.Admission.MaxBodyBytes = 4 << 10
	h, err := server.NewHandler(gen.Bind(service.New(testsupport.OpenSQLite(t))), server.Config{
		BaseURL: wsdl.DefaultBaseURL, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Auth: newAuthenticator(t), Limits: limits,
	})
	require.NoError(t, err)
	events := &eventsByID{byID: map[string]observe.Events{}}
	srv := httptest.NewServer(observe.Middleware(h, observe.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Observers: []observe.Observer{events}}))
	t.Cleanup(srv.Close)
	ns := wsdl.DefaultNamespace

	send := func(id string, r wireRequest, authorization string) int {
		req, err := http.NewRequest(r.method, srv.URL+wsdl.Path+r.path, strings.NewReader(r.body))
		require.NoError(t, err)
		req.Header.Set("X-Request-ID", id)
		if r.contentType != "" {
			req.Header.Set("Content-Type", r.contentType)
		}
		if r.soapAction != "" {
			req.Header.Set("SOAPAction", r.soapAction)
		}
		if authorization != "" {
			req.Header.Set("Authorization", authorization)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		require.NoError(t, resp.Body.Close())
		return resp.StatusCode
	}
	good := token{user: "alice", password: "alice-pw"}.header(false)
	bad := token{user: "alice", password: "nope"}.header(false)
	unknownAction := requestFor("soap11", ns, "VersionMajor", "", false)
	unknownAction.soapAction = `"` + ns + `NoSuchOperation"`
	huge := requestFor("soap11", ns, "ReadContact", strings.Repeat("x", 8<<10), true)

	for _, tc := range []struct {
		name          string
		req           wireRequest
		authorization string
		status        int
		want          observe.Events // the fields compared below
		wantCode      fault.Code
	}{
		{"basic, operation failed", requestFor("get", ns, "ReadContact", "nobody", true), basic("alice", "alice-pw"), 404,
			observe.Events{Binding: "get", AuthOn: true, Auth: observe.Auth{Decided: true, Scheme: "basic", User: "alice"},
				Admission: observe.Admission{Reached: true}, Operation: "ReadContact", FailedAt: observe.StageOperation}, fault.NotFound},
		{"basic refused before the body", requestFor("get", ns, "VersionMajor", "", false), basic("alice", "nope"), 401,
			observe.Events{Binding: "get", AuthOn: true, Auth: observe.Auth{Decided: true, Scheme: "basic", User: "alice", Refused: "wrong password"},
				FailedAt: observe.StageAuth}, fault.Unauthenticated},
		{"basic accepted, body too large", huge, basic("alice", "alice-pw"), 500, // a SOAP fault
			observe.Events{Binding: "soap11", AuthOn: true, Auth: observe.Auth{Decided: true, Scheme: "basic", User: "alice"},
				Admission: observe.Admission{Reached: true}, FailedAt: observe.StageAdmission}, fault.TooLarge},
		{"token accepted", withHeader(requestFor("soap11", ns, "VersionMajor", "", false), false, good), "", 200,
			observe.Events{Binding: "soap11", AuthOn: true, Auth: observe.Auth{Decided: true, Scheme: "ws-security-text", User: "alice"},
				Admission: observe.Admission{Reached: true}, Operation: "VersionMajor"}, ""},
		{"token refused: its body is not reported decoded", withHeader(requestFor("soap11", ns, "VersionMajor", "", false), false, bad), "", 500,
			observe.Events{Binding: "soap11", AuthOn: true, Auth: observe.Auth{Decided: true, Scheme: "ws-security-text", User: "alice", Refused: "wrong password"},
				FailedAt: observe.StageAuth}, fault.Unauthenticated},
		{"token accepted, unknown action", withHeader(unknownAction, false, good), "", 500,
			observe.Events{Binding: "soap11", AuthOn: true, Auth: observe.Auth{Decided: true, Scheme: "ws-security-text", User: "alice"},
				FailedAt: observe.StageDecode}, fault.UnknownOperation},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := strings.ReplaceAll(tc.name, " ", "-")
			id = strings.NewReplacer(",", "", ":", "").Replace(id)
			require.Equal(t, tc.status, send(id, tc.req, tc.authorization))
			ev := events.of(id)
			assert.Equal(t, id, ev.RequestID)
			assert.Equal(t, tc.want.Binding, ev.Binding)
			assert.Equal(t, tc.want.AuthOn, ev.AuthOn)
			assert.Equal(t, tc.want.Auth, ev.Auth)
			assert.Equal(t, tc.want.Admission.Reached, ev.Admission.Reached)
			assert.Equal(t, tc.want.Operation, ev.Operation)
			assert.Equal(t, tc.want.FailedAt, ev.FailedAt)
			assert.Equal(t, tc.wantCode, ev.Code())
			assert.Equal(t, tc.status, ev.Status)
		})
	}
}
