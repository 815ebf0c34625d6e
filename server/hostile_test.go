package server_test

import (
	"bufio"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/internal/testsupport"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/wsdl"
)

// newRealServer serves the handler through server.NewHTTPServer, so connection limits (header size,
// timeouts) are the ones `contactsync serve` uses.
func newRealServer(t *testing.T, limits server.Limits) *testServer {
	t.Helper()
	st := testsupport.OpenSQLite(t)
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	h, err := server.NewHandler(gen.Bind(service.New(st)), server.Config{BaseURL: wsdl.DefaultBaseURL, Limits: limits, Logger: logger})
	require.NoError(t, err)
	srv := httptest.NewUnstartedServer(h)
	srv.Config = server.NewHTTPServer(h, limits, logger)
	srv.Start()
	t.Cleanup(srv.Close)
	return &testServer{Server: srv, store: st, endpoint: srv.URL + wsdl.Path}
}

// soap11 wraps body content in a SOAP 1.1 envelope.
func soap11(body string) string {
	return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` + body + `</soap:Body></soap:Envelope>`
}

func soap12(body string) string {
	return `<soap12:Envelope xmlns:soap12="http://www.w3.org/2003/05/soap-envelope"><soap12:Body>` + body + `</soap12:Body></soap12:Envelope>`
}

// create is a TestCreateContact wrapper for the id element's content; the hostile rows use it so that
// a request wrongly accepted would store the victim contact, which the test then checks did not happen.
func create(idElement string) string {
	return `<TestCreateContact xmlns="` + ns + `">` + idElement + `</TestCreateContact>`
}

const victim = "victim"

// TestHostileInput sends requests that are malformed, oversized or malicious to every binding, and
// checks each gets the exact status, content type and fault code or message, that the server still
// answers afterwards, and that nothing stored changed.
func TestHostileInput(t *testing.T) {
	garbage := make([]byte, 4096)
	_, err := rand.Read(garbage)
	require.NoError(t, err)
	billionLaughs := `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>` +
		soap11(create(`<id>&lol3;</id>`))
	externalEntity := `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>` + soap11(create(`<id>&xxe;</id>`))
	deep := soap11(create(strings.Repeat("<a>", 100000) + strings.Repeat("</a>", 100000)))
	wide := soap11(create(`<id>` + victim + `</id>` + strings.Repeat("<x/>", 2000)))
	valid := soap11(create(`<id>` + victim + `</id>`))
	const (
		xml11     = "text/xml; charset=utf-8"
		xml12     = "application/soap+xml; charset=utf-8"
		plain     = "text/plain; charset=utf-8"
		form      = "application/x-www-form-urlencoded"
		malformed = "<ErrorCode xmlns=\"" + ns + "\">MalformedRequest</ErrorCode>"
		invalid   = "<ErrorCode xmlns=\"" + ns + "\">InvalidArgument</ErrorCode>"
		unknownOp = "<ErrorCode xmlns=\"" + ns + "\">UnknownOperation</ErrorCode>"
		tooLarge  = "<ErrorCode xmlns=\"" + ns + "\">TooLarge</ErrorCode>"
		client    = "<faultcode>soap:Client</faultcode>"
		sender    = "<soap12:Value>soap12:Sender</soap12:Value>"
	)
	cases := []struct {
		name        string
		req         wireRequest
		status      int
		contentType string
		contains    []string
	}{
		// SOAP 1.1: malformed documents.
		{"soap11 empty body", wireRequest{method: "POST", contentType: xml11}, 500, xml11, []string{client, malformed, "empty"}},
		{"soap11 white space only", wireRequest{method: "POST", contentType: xml11, body: " \n\t "}, 500, xml11, []string{client, malformed}},
		{"soap11 binary garbage", wireRequest{method: "POST", contentType: xml11, body: string(garbage)}, 500, xml11, []string{client, malformed}},
		{"soap11 plain text", wireRequest{method: "POST", contentType: xml11, body: "hello"}, 500, xml11, []string{client, malformed}},
		{"soap11 truncated", wireRequest{method: "POST", contentType: xml11, body: valid[:len(valid)/2]}, 500, xml11, []string{client, malformed}},
		{"soap11 trailing garbage", wireRequest{method: "POST", contentType: xml11, body: valid + "<more/>"}, 500, xml11, []string{client, malformed}},
		{"soap11 root not an envelope", wireRequest{method: "POST", contentType: xml11, body: create(`<id>` + victim + `</id>`)}, 500, xml11, []string{client, malformed, "must be a SOAP Envelope"}},
		{"soap11 wrong envelope namespace", wireRequest{method: "POST", contentType: xml11, body: strings.ReplaceAll(valid, "http://schemas.xmlsoap.org/soap/envelope/", "urn:wrong")}, 500, xml11, []string{"<faultcode>soap:VersionMismatch</faultcode>", "SupportedEnvelope"}},
		{"soap11 soap12 envelope", wireRequest{method: "POST", contentType: xml11, body: soap12(create(`<id>` + victim + `</id>`))}, 500, xml11, []string{"<faultcode>soap:VersionMismatch</faultcode>"}},
		{"soap11 no body", wireRequest{method: "POST", contentType: xml11, body: `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Header/></soap:Envelope>`}, 500, xml11, []string{client, malformed, "no Body"}},
		{"soap11 empty body element", wireRequest{method: "POST", contentType: xml11, body: soap11("")}, 500, xml11, []string{client, malformed, "Body is empty"}},
		{"soap11 two operations", wireRequest{method: "POST", contentType: xml11, body: soap11(create(`<id>`+victim+`</id>`) + create(`<id>x</id>`))}, 500, xml11, []string{client, malformed, "exactly one"}},
		{"soap11 element after body", wireRequest{method: "POST", contentType: xml11, body: strings.Replace(valid, "</soap:Body>", "</soap:Body><x/>", 1)}, 500, xml11, []string{client, malformed}},
		// SOAP 1.1: dispatch.
		{"soap11 unknown operation", wireRequest{method: "POST", contentType: xml11, body: soap11(`<Explode xmlns="` + ns + `"/>`)}, 500, xml11, []string{client, unknownOp, "Explode"}},
		{"soap11 operation in another namespace", wireRequest{method: "POST", contentType: xml11, body: soap11(`<TestCreateContact xmlns="urn:other"><id>` + victim + `</id></TestCreateContact>`)}, 500, xml11, []string{client, unknownOp, "urn:other"}},
		{"soap11 unknown SOAPAction", wireRequest{method: "POST", contentType: xml11, soapAction: `"` + ns + `Explode"`, body: valid}, 500, xml11, []string{client, unknownOp}},
		{"soap11 mismatched SOAPAction", wireRequest{method: "POST", contentType: xml11, soapAction: `"` + ns + `DeleteContact"`, body: valid}, 500, xml11, []string{client, unknownOp, "names DeleteContact"}},
		{"soap11 SOAPAction of another service", wireRequest{method: "POST", contentType: xml11, soapAction: `"http://tempuri.org/TestCreateContact"`, body: valid}, 500, xml11, []string{client, unknownOp}},
		{"soap11 unknown mustUnderstand header", wireRequest{method: "POST", contentType: xml11, body: strings.Replace(valid, "<soap:Body>", `<soap:Header><x:Pay xmlns:x="urn:x" soap:mustUnderstand="1"/></soap:Header><soap:Body>`, 1)}, 500, xml11, []string{"<faultcode>soap:MustUnderstand</faultcode>"}},
		// SOAP 1.1: arguments.
		{"soap11 missing id", wireRequest{method: "POST", contentType: xml11, body: soap11(create(""))}, 500, xml11, []string{client, invalid, "required"}},
		{"soap11 empty id", wireRequest{method: "POST", contentType: xml11, body: soap11(create("<id></id>"))}, 500, xml11, []string{client, invalid, "required"}},
		{"soap11 nil id", wireRequest{method: "POST", contentType: xml11, body: soap11(create(`<id xsi:nil="true" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"/>`))}, 500, xml11, []string{client, invalid, "required"}},
		{"soap11 id with a tab", wireRequest{method: "POST", contentType: xml11, body: soap11(create("<id>a\tb</id>"))}, 500, xml11, []string{client, invalid, "control character"}},
		{"soap11 id too long", wireRequest{method: "POST", contentType: xml11, body: soap11(create("<id>" + strings.Repeat("é", service.MaxIDLength+1) + "</id>"))}, 500, xml11, []string{client, invalid, "longer than 256"}},
		{"soap11 id twice", wireRequest{method: "POST", contentType: xml11, body: soap11(create("<id>" + victim + "</id><id>b</id>"))}, 500, xml11, []string{client, invalid, "more than once"}},
		{"soap11 id with markup", wireRequest{method: "POST", contentType: xml11, body: soap11(create("<id><b>" + victim + "</b></id>"))}, 500, xml11, []string{client, invalid, "must hold text"}},
		{"soap11 unqualified id", wireRequest{method: "POST", contentType: xml11, body: soap11(create(`<id xmlns="">` + victim + `</id>`))}, 500, xml11, []string{client, invalid, "namespace"}},
		// SOAP 1.1: attacks and encodings.
		{"soap11 billion laughs", wireRequest{method: "POST", contentType: xml11, body: billionLaughs}, 500, xml11, []string{client, malformed, "DOCTYPE"}},
		{"soap11 external entity", wireRequest{method: "POST", contentType: xml11, body: externalEntity}, 500, xml11, []string{client, malformed, "DOCTYPE"}},
		{"soap11 undefined entity", wireRequest{method: "POST", contentType: xml11, body: soap11(create("<id>&xxe;</id>"))}, 500, xml11, []string{client, malformed}},
		{"soap11 100000-deep nesting", wireRequest{method: "POST", contentType: xml11, body: deep}, 500, xml11, []string{client, tooLarge, "deeper than 32"}},
		{"soap11 too many elements", wireRequest{method: "POST", contentType: xml11, body: wide}, 500, xml11, []string{client, tooLarge, "more than 1000"}},
		{"soap11 latin-1 declared", wireRequest{method: "POST", contentType: xml11, body: strings.Replace(valid, `encoding="utf-8"`, `encoding="ISO-8859-1"`, 1)}, 500, xml11, []string{client, malformed, "only UTF-8"}},
		{"soap11 invalid UTF-8", wireRequest{method: "POST", contentType: xml11, body: soap11(create("<id>\xff\xfe" + victim + "</id>"))}, 500, xml11, []string{client, malformed}},
		{"soap11 UTF-16 byte order mark", wireRequest{method: "POST", contentType: xml11, body: "\xFF\xFE<\x00a\x00/\x00>\x00"}, 500, xml11, []string{client, malformed}},
		{"soap11 body over 1 MiB", wireRequest{method: "POST", contentType: xml11, body: soap11(create("<id>" + victim + "</id>" + strings.Repeat(" ", 1<<20)))}, 500, xml11, []string{client, tooLarge}},
		// SOAP endpoint: transport.
		{"endpoint json", wireRequest{method: "POST", contentType: "application/json", body: `{"id":"victim"}`}, 415, plain, []string{"text/xml"}},
		{"endpoint no content type", wireRequest{method: "POST", body: valid}, 415, plain, []string{"text/xml"}},
		{"endpoint near-miss media type", wireRequest{method: "POST", contentType: "text/xmlx", body: valid}, 415, plain, []string{"text/xml"}},
		{"endpoint PUT", wireRequest{method: "PUT", contentType: xml11, body: valid}, 405, plain, []string{"PUT"}},
		// SOAP 1.2.
		{"soap12 empty body", wireRequest{method: "POST", contentType: xml12}, 500, xml12, []string{sender, "cs:MalformedRequest"}},
		{"soap12 soap11 envelope", wireRequest{method: "POST", contentType: xml12, body: valid}, 500, xml12, []string{"soap12:VersionMismatch", "SupportedEnvelope"}},
		{"soap12 unknown action", wireRequest{method: "POST", contentType: xml12 + `; action="` + ns + `Explode"`, body: soap12(create("<id>" + victim + "</id>"))}, 500, xml12, []string{sender, "cs:UnknownOperation"}},
		{"soap12 billion laughs", wireRequest{method: "POST", contentType: xml12, body: strings.ReplaceAll(billionLaughs, "http://schemas.xmlsoap.org/soap/envelope/", "http://www.w3.org/2003/05/soap-envelope")}, 500, xml12, []string{sender, "cs:MalformedRequest"}},
		{"soap12 unknown mustUnderstand header", wireRequest{method: "POST", contentType: xml12, body: strings.Replace(soap12(create("<id>"+victim+"</id>")), "<soap12:Body>", `<soap12:Header><x:Pay xmlns:x="urn:x" soap12:mustUnderstand="true"/></soap12:Header><soap12:Body>`, 1)}, 500, xml12, []string{"soap12:MustUnderstand", `<soap12:NotUnderstood qname="h:Pay" xmlns:h="urn:x" />`}},
		{"soap12 empty id", wireRequest{method: "POST", contentType: xml12, body: soap12(create("<id></id>"))}, 500, xml12, []string{sender, "cs:InvalidArgument"}},
		{"soap12 unknown operation", wireRequest{method: "POST", contentType: xml12, body: soap12(`<Explode xmlns="` + ns + `"/>`)}, 500, xml12, []string{sender, "cs:UnknownOperation"}},
		{"soap12 100000-deep nesting", wireRequest{method: "POST", contentType: xml12, body: strings.ReplaceAll(deep, "http://schemas.xmlsoap.org/soap/envelope/", "http://www.w3.org/2003/05/soap-envelope")}, 500, xml12, []string{sender, "cs:TooLarge"}},
		{"soap12 1 MB header", wireRequest{method: "POST", contentType: xml12 + `; action="` + strings.Repeat("a", 1<<20) + `"`, body: soap12(create("<id>" + victim + "</id>"))}, 431, plain, nil},
		// HTTP GET.
		{"get unknown operation", wireRequest{method: "GET", path: "/Explode?id=" + victim}, 404, plain, []string{`"Explode" does not exist`}},
		{"get missing id", wireRequest{method: "GET", path: "/TestCreateContact"}, 400, plain, []string{"required"}},
		{"get empty id", wireRequest{method: "GET", path: "/TestCreateContact?id="}, 400, plain, []string{"required"}},
		{"get id twice", wireRequest{method: "GET", path: "/TestCreateContact?id=" + victim + "&id=b"}, 400, plain, []string{"more than once"}},
		{"get bad percent encoding", wireRequest{method: "GET", path: "/TestCreateContact?id=%zz"}, 400, plain, []string{"URL encoding"}},
		{"get invalid UTF-8", wireRequest{method: "GET", path: "/TestCreateContact?id=%ff" + victim}, 400, plain, []string{"UTF-8"}},
		{"get control character", wireRequest{method: "GET", path: "/TestCreateContact?id=a%01b"}, 400, plain, []string{"control character"}},
		{"get id too long", wireRequest{method: "GET", path: "/TestCreateContact?id=" + strings.Repeat("x", service.MaxIDLength+1)}, 400, plain, []string{"longer than 256"}},
		{"get 1 MB query string", wireRequest{method: "GET", path: "/TestCreateContact?id=" + strings.Repeat("x", 1<<20)}, 431, plain, nil},
		{"get DELETE method", wireRequest{method: "DELETE", path: "/TestCreateContact?id=" + victim}, 405, plain, []string{"DELETE"}},
		{"get unknown path", wireRequest{method: "GET", path: "x/../../admin"}, 404, plain, []string{"Nothing is served"}},
		// HTTP POST.
		{"post wrong content type", wireRequest{method: "POST", path: "/TestCreateContact", contentType: "text/xml", body: "id=" + victim}, 415, plain, []string{form}},
		{"post latin-1 form", wireRequest{method: "POST", path: "/TestCreateContact", contentType: form + "; charset=iso-8859-1", body: "id=" + victim}, 415, plain, []string{"charset"}},
		{"post missing id", wireRequest{method: "POST", path: "/TestCreateContact", contentType: form, body: "name=" + victim}, 400, plain, []string{"required"}},
		{"post bad encoding", wireRequest{method: "POST", path: "/TestCreateContact", contentType: form, body: "id=%zz"}, 400, plain, []string{"URL encoding"}},
		{"post body over 1 MiB", wireRequest{method: "POST", path: "/TestCreateContact", contentType: form, body: "id=" + victim + "&pad=" + strings.Repeat("x", 1<<20)}, 413, plain, []string{"larger than"}},
	}
	require.GreaterOrEqual(t, len(cases), 40)

	ts := newRealServer(t, server.Limits{})
	ctx := context.Background()
	keeper := service.TestContact("keeper")
	require.NoError(t, ts.store.Put(ctx, service.ToRecord(keeper)))

	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := ts.do(t, tc.req)
			assertAnswer(t, resp, body, tc.status, tc.contentType, tc.contains)
			requireStillServing(t, ts)
		})
	}

	got, err := ts.store.Get(ctx, "keeper")
	require.NoError(t, err)
	assert.Equal(t, service.ToRecord(keeper), got, "a hostile request changed a stored contact")
	_, err = ts.store.Get(ctx, victim)
	assert.ErrorIs(t, err, store.ErrNotFound, "a hostile request stored the victim contact")
}

func requireStillServing(t *testing.T, ts *testServer) {
	t.Helper()
	resp, body := ts.do(t, wireRequest{method: "GET", path: "/VersionMajor"})
	require.Equal(t, 200, resp.StatusCode, "server stopped answering: %s", body)
}

// TestTwentyMegabyteBody announces a 20 MB body and sends only part of it: the server must refuse it
// from the Content-Length alone, without reading or buffering it.
func TestTwentyMegabyteBody(t *testing.T) {
	ts := newRealServer(t, server.Limits{})
	for _, binding := range []struct{ path, contentType, want string }{
		{wsdl.Path, "text/xml; charset=utf-8", "TooLarge"},
		{wsdl.Path + "/TestCreateContact", "application/x-www-form-urlencoded", "larger than"},
	} {
		conn, err := net.Dial("tcp", ts.Listener.Addr().String())
		require.NoError(t, err)
		_, err = fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n<soap:Envelope", binding.path, binding.contentType, 20<<20)
		require.NoError(t, err)
		require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		_ = conn.Close()
		assert.Contains(t, []int{413, 500}, resp.StatusCode)
		assert.Contains(t, string(body), binding.want)
	}
	requireStillServing(t, ts)
}

// TestSlowHeadersAreCut opens a connection that sends headers byte by byte too slowly (slowloris): the
// server must close it once the read-header timeout passes, and keep serving everyone else.
func TestSlowHeadersAreCut(t *testing.T) {
	limits := server.DefaultLimits()
	limits.ReadHeaderTimeout = 300 * time.Millisecond
	ts := newRealServer(t, limits)
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	_, err = io.WriteString(conn, "GET "+wsdl.Path+"/VersionMajor HTTP/1.1\r\nHost: x\r\n")
	require.NoError(t, err)

	start := time.Now()
	closed := make(chan error, 1)
	go func() {
		buf := make([]byte, 512)
		for {
			if _, err := conn.Read(buf); err != nil {
				closed <- err
				return
			}
		}
	}()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-closed:
			assert.Error(t, err)
			assert.Less(t, time.Since(start), 5*time.Second)
			requireStillServing(t, ts)
			return
		case <-tick.C:
			_, _ = io.WriteString(conn, "X") // one more byte of a header that never ends
		case <-time.After(10 * time.Second):
			t.Fatal("the server kept a slow-header connection open for 10s")
		}
	}
}
