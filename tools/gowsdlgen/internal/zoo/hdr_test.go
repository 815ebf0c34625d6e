package zoo_test

import (
	"bytes"
	"context"
	"html"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/bcrypt"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/auth"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/zoohdr"
)

// hdrNS is the namespace of the header contract (zoo3's).
const hdrNS = "http://localhost:8080/zoo3/v1/"

// attrsService is hdrService whose Renew sends the AuthHeader back with its foreign attributes.
type attrsService struct{ hdrService }

func (attrsService) RenewContext(_ context.Context, r *zoohdr.Renew) (*zoohdr.RenewResponse, error) {
	return &zoohdr.RenewResponse{RenewResult: authText(r.AuthHeader), AuthHeader: r.AuthHeader}, nil
}

func hdrEnvelope11(envAttrs, header, body string) string {
	return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"` + envAttrs +
		`><soap:Header>` + header + `</soap:Header><soap:Body>` + body + `</soap:Body></soap:Envelope>`
}

const wsseToken = `<wsse:Security soap:mustUnderstand="1" xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd">` +
	`<wsse:UsernameToken><wsse:Username>alice</wsse:Username><wsse:Password Type="` + auth.PasswordText + `">%s</wsse:Password></wsse:UsernameToken></wsse:Security>`

// TestHdrSOAP: the header rules the captures do not show, through the real handler: WS-Security
// beside a contract header (authentication on), a header whose prefix the Envelope declares, a bad
// value in a header, foreign attributes kept and written back, SOAP 1.2's NotUnderstood for an
// undeclared header, and a contract header on an operation that declares it Out only.
func TestHdrSOAP(t *testing.T) {
	hash, err := bcrypt.GenerateFromPassword([]byte("alice-pw"), bcrypt.MinCost)
	require.NoError(t, err)
	users, err := auth.ParseUsers(strings.NewReader("alice:" + string(hash) + "\n"))
	require.NoError(t, err)
	authn, err := auth.New(users, auth.Options{})
	require.NoError(t, err)
	open, err := server.NewHandler(zoohdr.Bind(attrsService{}), server.Config{BaseURL: zooBaseURL})
	require.NoError(t, err)
	closed, err := server.NewHandler(zoohdr.Bind(attrsService{}), server.Config{BaseURL: zooBaseURL, Auth: authn})
	require.NoError(t, err)
	auth := `<AuthHeader xmlns="` + hdrNS + `"><User>bob</User><Token>t-1</Token></AuthHeader>`
	whoAmI := `<WhoAmI xmlns="` + hdrNS + `" />`
	tests := []struct {
		name          string
		h             http.Handler
		soap12        bool
		action        string
		envelope      string
		status        int
		says, notSays []string
	}{
		{name: "WS-Security beside a contract header", h: closed, action: "WhoAmI",
			envelope: hdrEnvelope11("", strings.Replace(wsseToken, "%s", "alice-pw", 1)+auth, whoAmI),
			status:   200, says: []string{"<WhoAmIResult>AuthHeader User=bob;Token=t-1;"}},
		{name: "WS-Security refused beside a contract header", h: closed, action: "WhoAmI",
			envelope: hdrEnvelope11("", strings.Replace(wsseToken, "%s", "nope", 1)+auth, whoAmI),
			status:   500, says: []string{"wsse:FailedAuthentication"}},
		{name: "WS-Security with authentication off", h: open, action: "WhoAmI",
			envelope: hdrEnvelope11("", strings.Replace(wsseToken, "%s", "nope", 1)+auth, whoAmI),
			status:   200, says: []string{"User=bob"}},
		{name: "a prefix declared on the Envelope", h: open, action: "WhoAmI",
			envelope: hdrEnvelope11(` xmlns:t="`+hdrNS+`"`, `<t:AuthHeader soap:mustUnderstand="1"><t:User>carol</t:User></t:AuthHeader>`, `<t:WhoAmI />`),
			status:   200, says: []string{"<WhoAmIResult>AuthHeader User=carol;Token=;"}},
		{name: "no SOAPAction: routed by the body, then the header read", h: open,
			envelope: hdrEnvelope11("", auth, whoAmI), status: 200, says: []string{"User=bob"}},
		{name: "a bad value in a declared header", h: open, action: "WhoAmI",
			envelope: hdrEnvelope11("", `<AuthHeader xmlns="`+hdrNS+`"><User><b>x</b></User></AuthHeader>`, whoAmI),
			status:   500, says: []string{"<faultcode>soap:Client</faultcode>", "User"}},
		{name: "foreign attributes kept and written back", h: open, action: "Renew",
			envelope: hdrEnvelope11("", `<AuthHeader xmlns="`+hdrNS+`" xmlns:q="urn:q" q:trace="on" plain="x" soap:mustUnderstand="1"><User>bob</User></AuthHeader>`,
				`<Renew xmlns="`+hdrNS+`"><days>3</days></Renew>`),
			status: 200, says: []string{`<soap:Header><AuthHeader soap:mustUnderstand="1" xmlns="` + hdrNS + `" xmlns:a1="urn:q" a1:trace="on" plain="x"><User>bob</User>`}},
		{name: "an InOut header the method leaves nil is not echoed", h: open, action: "Renew",
			envelope: hdrEnvelope11("", "", `<Renew xmlns="`+hdrNS+`"><days>3</days></Renew>`),
			status:   200, notSays: []string{"soap:Header"}},
		{name: "SOAP 1.2: an undeclared header with mustUnderstand", h: open, soap12: true,
			envelope: `<soap12:Envelope xmlns:soap12="http://www.w3.org/2003/05/soap-envelope"><soap12:Header>` +
				`<AuthHeader soap12:mustUnderstand="true" xmlns="` + hdrNS + `"><User>bob</User></AuthHeader></soap12:Header>` +
				`<soap12:Body><Ping xmlns="` + hdrNS + `"><n>1</n></Ping></soap12:Body></soap12:Envelope>`,
			status: 500, says: []string{`<soap12:NotUnderstood qname="h:AuthHeader" xmlns:h="` + hdrNS + `" />`, "MustUnderstand"}, notSays: []string{"TraceHeader"}},
		{name: "many blocks of a declared header: the first is taken", h: open, action: "WhoAmI",
			envelope: hdrEnvelope11(` xmlns:t="`+hdrNS+`"`, auth+strings.Repeat(`<t:AuthHeader />`, 300), whoAmI),
			status:   200, says: []string{"User=bob"}},
		{name: "an Out header sent in without mustUnderstand is ignored", h: open, action: "Ping",
			envelope: hdrEnvelope11("", `<TraceHeader xmlns="`+hdrNS+`"><Step>9</Step></TraceHeader>`, `<Ping xmlns="`+hdrNS+`"><n>1</n></Ping>`),
			status:   200, says: []string{"<RequestId>req-1</RequestId><Step>1</Step></TraceHeader></soap:Header>"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodPost, "/contactsync/v1/sync.asmx", bytes.NewReader([]byte(tt.envelope)))
			if tt.soap12 {
				req.Header.Set("Content-Type", "application/soap+xml; charset=utf-8")
			} else {
				req.Header.Set("Content-Type", "text/xml; charset=utf-8")
				if tt.action != "" {
					req.Header.Set("SOAPAction", `"`+hdrNS+tt.action+`"`)
				}
			}
			rec := httptest.NewRecorder()
			tt.h.ServeHTTP(rec, req)
			got := rec.Body.String()
			assert.Equal(t, tt.status, rec.Code, got)
			for _, s := range tt.says {
				assert.Contains(t, got, s)
			}
			for _, s := range tt.notSays {
				assert.NotContains(t, got, s)
			}
		})
	}
}

// TestHdrHelpPage: an operation's help page shows its headers in the SOAP samples only, in the request
// for In and InOut, in the response for Out and InOut, with custom-attribute="value" for a type with
// <s:anyAttribute /> (doc-op-Renew-msg, doc-op-WhoAmI-msg).
func TestHdrHelpPage(t *testing.T) {
	h, err := server.NewHandler(zoohdr.Bind(hdrService{}), server.Config{BaseURL: zooBaseURL})
	require.NoError(t, err)
	page := func(op string) string {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/contactsync/v1/sync.asmx?op="+op, nil))
		require.Equal(t, http.StatusOK, rec.Code)
		return html.UnescapeString(rec.Body.String())
	}
	block := `<AuthHeader custom-attribute="value" xmlns="` + hdrNS + `">`
	renew := page("Renew")
	assert.Equal(t, 4, strings.Count(renew, block), "InOut: in both SOAP requests and both SOAP responses")
	assert.Contains(t, renew, "<soap12:Header>")
	whoAmI := page("WhoAmI")
	assert.Equal(t, 2, strings.Count(whoAmI, block), "In: in the SOAP requests only")
	ping := page("Ping")
	assert.Equal(t, 2, strings.Count(ping, `<TraceHeader custom-attribute="value" xmlns="`+hdrNS+`">`), "Out: in the SOAP responses only")
	assert.Contains(t, ping, "<RequestId>string</RequestId>")
	assert.Contains(t, ping, "<Step>int</Step>")
}

// authBlock writes an AuthHeader block (wire.HeaderAppender), as call's --header does.
type authBlock string

func (a authBlock) AppendHeaders(b []byte, _, namespace string) []byte {
	return append(b, `<AuthHeader xmlns="`+namespace+`"><User>`+string(a)+`</User></AuthHeader>`...)
}

// TestHdrClientSendsHeaders: the bundled client's Headers reach the method on both SOAP bindings,
// beside a WS-Security header.
func TestHdrClientSendsHeaders(t *testing.T) {
	h, err := server.NewHandler(zoohdr.Bind(hdrService{}), server.Config{BaseURL: zooBaseURL})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	for _, b := range []client.Binding{client.SOAP11, client.SOAP12} {
		c := &client.Client{Endpoint: srv.URL + "/contactsync/v1/sync.asmx", Namespace: hdrNS, Binding: b, Headers: authBlock("erin"),
			User: "erin", Password: "pw", WSSecurity: true, PasswordText: true}
		resp := new(zoohdr.WhoAmIResponse)
		require.NoError(t, c.Invoke(context.Background(), zoohdr.Operations[0], new(zoohdr.WhoAmI), resp))
		assert.Equal(t, "AuthHeader User=erin;Token=;MustUnderstand=False;Actor=;DidUnderstand=True", resp.WhoAmIResult, b)
	}
}

// TestHdrJSONEndpoint: the JSON endpoint offers header operations as GET and POST do: In headers nil,
// Out headers dropped, no undeclared headers (ASP.NET AJAX has no SOAP headers; no captures).
func TestHdrJSONEndpoint(t *testing.T) {
	h, err := server.NewHandler(zoohdr.Bind(hdrService{}), server.Config{BaseURL: zooBaseURL,
		Protocols: []string{"soap11", "soap12", "get", "post", "json"}})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c := &client.Client{Endpoint: srv.URL + "/contactsync/v1/sync.asmx", Namespace: hdrNS, Binding: client.JSON}
	who := new(zoohdr.WhoAmIResponse)
	require.NoError(t, c.Invoke(context.Background(), zoohdr.Operations[0], new(zoohdr.WhoAmI), who))
	assert.Equal(t, "no AuthHeader", who.WhoAmIResult)
	ping := new(zoohdr.PingResponse)
	require.NoError(t, c.Invoke(context.Background(), zoohdr.Operations[2], &zoohdr.Ping{N: 5}, ping))
	assert.Equal(t, int32(6), ping.PingResult)
	list := new(zoohdr.ListUnknownHeadersResponse)
	require.NoError(t, c.Invoke(context.Background(), zoohdr.Operations[5], new(zoohdr.ListUnknownHeaders), list))
	assert.Equal(t, "Unknowns=null", list.ListUnknownHeadersResult)
}

// TestHdrClientRoundTrip: the generated request writes its In headers and the generated response reads
// the Out headers, so the bundled client (and the generated stub over it) carries both ways.
func TestHdrClientRoundTrip(t *testing.T) {
	h, err := server.NewHandler(zoohdr.Bind(hdrService{}), server.Config{BaseURL: zooBaseURL})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	for _, b := range []client.Binding{client.SOAP11, client.SOAP12} {
		c := &client.Client{Endpoint: srv.URL + "/contactsync/v1/sync.asmx", Namespace: hdrNS, Binding: b}
		renew := new(zoohdr.RenewResponse)
		require.NoError(t, c.Invoke(context.Background(), zoohdr.Operations[3], &zoohdr.Renew{Days: 3, AuthHeader: &zoohdr.AuthHeader{User: "erin", Token: "t"}}, renew))
		assert.Equal(t, "AuthHeader User=erin;Token=t;MustUnderstand=False;Actor=;DidUnderstand=True", renew.RenewResult, b)
		require.NotNil(t, renew.AuthHeader, b)
		assert.Equal(t, "t+3d", renew.AuthHeader.Token, b)
		assert.False(t, renew.AuthHeaderMustUnderstand, b)
		ping := new(zoohdr.PingResponse)
		require.NoError(t, c.Invoke(context.Background(), zoohdr.Operations[2], &zoohdr.Ping{N: 100}, ping))
		require.NotNil(t, ping.TraceHeader, b)
		assert.Equal(t, zoohdr.TraceHeader{RequestId: "req-100", Step: 100}, *ping.TraceHeader, b)
		assert.True(t, ping.TraceHeaderMustUnderstand, b)
	}
}

// TestHdrServedWSDLKeepsHeaderMessages: the served ?WSDL keeps the messages only a binding's
// soap:header names while a SOAP binding is served (a client importing it resolves them), and drops
// them with the SOAP bindings.
func TestHdrServedWSDLKeepsHeaderMessages(t *testing.T) {
	for _, tt := range []struct {
		protocols []string
		kept      bool
	}{
		{[]string{"soap11", "soap12", "get", "post", "docs"}, true},
		{[]string{"soap12", "docs"}, true},
		{[]string{"get", "post", "docs"}, false},
	} {
		h, err := server.NewHandler(zoohdr.Bind(hdrService{}), server.Config{BaseURL: zooBaseURL, Protocols: tt.protocols})
		require.NoError(t, err)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/contactsync/v1/sync.asmx?WSDL", nil))
		require.Equal(t, http.StatusOK, rec.Code)
		for _, m := range []string{"WhoAmIAuthHeader", "PingTraceHeader", "RenewAuthHeader", "AuditAuthHeader", "AuditTraceHeader"} {
			assert.Equal(t, tt.kept, strings.Contains(rec.Body.String(), `<wsdl:message name="`+m+`">`), "%s with %v", m, tt.protocols)
		}
	}
}
