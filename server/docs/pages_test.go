package docs_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/xml"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/binding"
	"github.com/contactsync/contactsync/server/binding/httpform"
	"github.com/contactsync/contactsync/server/binding/soap"
	"github.com/contactsync/contactsync/server/docs"
	"github.com/contactsync/contactsync/server/internal/testsupport"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/wsdl"
)

// These test the documents on their own: the help pages, their samples and DISCO, served by
// Documents with the bindings the service serves by default, as the handler builds them. The server
// root's tests reach the same pages through the assembled handler (routing, credentials, and
// TestHelpSamplesAreReal, which sends every sample to it).

// testServer serves the documents of one deployment at the endpoint.
type testServer struct {
	*httptest.Server
	endpoint string
}

// newTestServer serves the documents for the namespace baseURL fixes, with the default protocols.
func newTestServer(t *testing.T, baseURL string) *testServer {
	return newAddressedServer(t, baseURL, docs.Addressing{})
}

// newAddressedServer is newTestServer with the documents' addressing given.
func newAddressedServer(t *testing.T, baseURL string, addressing docs.Addressing) *testServer {
	t.Helper()
	ns := strings.TrimRight(baseURL, "/") + "/contactsync/v1/"
	protocols, err := binding.ParseProtocols(binding.DefaultProtocols)
	require.NoError(t, err)
	served := []binding.Binding{
		soap.New(false, ns, soap.DefaultLimits(), gen.Operations),
		soap.New(true, ns, soap.DefaultLimits(), gen.Operations),
		httpform.New(false, ns, gen.Operations),
		httpform.New(true, ns, gen.Operations),
	}
	d, err := docs.New(docs.Config{Contract: gen.Contract, Operations: gen.Operations, Path: wsdl.Path, Namespace: ns, Protocols: protocols, Addressing: addressing, Bindings: served,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	require.NoError(t, err)
	srv := httptest.NewServer(d)
	t.Cleanup(srv.Close)
	return &testServer{Server: srv, endpoint: srv.URL + wsdl.Path}
}

// wireRequest is a request for a document: the method and the endpoint-relative path ("?op=...").
type wireRequest struct {
	method string
	path   string
}

func (ts *testServer) do(t *testing.T, r wireRequest) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(r.method, ts.endpoint+r.path, nil)
	require.NoError(t, err)
	resp, err := ts.Client().Do(req)
	require.NoError(t, err)
	return resp, testsupport.ReadAll(t, resp)
}

var loopbackProxy = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}

// operationDocs reads each operation's wsdl:documentation straight from the contract text, independently
// of the server's parser.
func operationDocs(t *testing.T) map[string]string {
	t.Helper()
	re := regexp.MustCompile(`<wsdl:operation name="(\w+)">\s*<wsdl:documentation[^>]*>([^<]+)</wsdl:documentation>`)
	docs := map[string]string{}
	for _, m := range re.FindAllStringSubmatch(string(wsdl.Contract), -1) {
		docs[m[1]] = m[2]
	}
	require.Len(t, docs, len(testsupport.OperationNames(gen.Operations)))
	return docs
}

func TestHelpServicePage(t *testing.T) {
	ts := newTestServer(t, "https://contacts.example.com")
	resp, body := ts.do(t, wireRequest{method: "GET"})
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
	assert.Contains(t, resp.Header.Get("Content-Security-Policy"), "default-src 'none'")
	assert.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
	assert.Contains(t, body, `<html lang="en">`)
	assert.Contains(t, body, "<h1>SyncService</h1>")
	assert.Contains(t, body, "Contact Synchronization Service: synchronizes contact records and reports its version.")
	assert.Contains(t, body, "<code>https://contacts.example.com/contactsync/v1/</code>", "the configured namespace")
	assert.Contains(t, body, `<a href="sync.asmx?WSDL">`+ts.endpoint+`?WSDL</a>`)
	assert.Contains(t, body, `<a href="sync.asmx?disco">`+ts.endpoint+`?disco</a>`)
	for name, doc := range operationDocs(t) {
		assert.Contains(t, body, `<a href="sync.asmx?op=`+name+`">`+name+`</a><br><span class="doc">`+doc+`</span>`)
	}
	assert.NotContains(t, body, "<script", "the service page runs no script")

	head, headBody := ts.do(t, wireRequest{method: "HEAD"})
	assert.Equal(t, http.StatusOK, head.StatusCode)
	assert.Empty(t, headBody)
}

func TestHelpOperationPages(t *testing.T) {
	ts := newTestServer(t, wsdl.DefaultBaseURL)
	docs := operationDocs(t)
	for _, op := range gen.Operations {
		name := op.Name
		t.Run(name, func(t *testing.T) {
			resp, body := ts.do(t, wireRequest{method: "GET", path: "?op=" + name})
			require.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
			assert.Contains(t, body, "<h1>"+name+"</h1>")
			assert.Contains(t, body, `<p class="lead">`+docs[name]+`</p>`)
			// The sections and the form follow the generated table: a section per binding that offers
			// the operation, a labelled field per parameter.
			offered := 0
			for _, b := range []struct {
				bit     wire.Bindings
				heading string
			}{{wire.SOAP11, "SOAP 1.1"}, {wire.SOAP12, "SOAP 1.2"}, {wire.HTTPGet, "HTTP GET"}, {wire.HTTPPost, "HTTP POST"}} {
				if op.Bindings.Has(b.bit) {
					offered++
					assert.Contains(t, body, ">"+b.heading+"</h2>")
				} else {
					assert.NotContains(t, body, ">"+b.heading+"</h2>")
				}
			}
			assert.Equal(t, offered, strings.Count(body, "<h3>Request</h3>"))
			assert.Equal(t, offered, strings.Count(body, "<h3>Response</h3>"))
			hasID := slices.ContainsFunc(op.Params, func(p wire.Field) bool { return p.Name == "id" })
			assert.Equal(t, hasID, strings.Contains(body, `<label for="param-id">id</label>`), "a labelled id field exactly when the operation takes one")
			if op.Bindings.Has(wire.HTTPPost) {
				assert.Contains(t, body, `<form id="tryit" method="post" data-binding="post" action="sync.asmx/`+name+`">`)
				assert.Equal(t, hasID, strings.Contains(body, `<input id="param-id" name="id" type="text"`))
			}
		})
	}
}

// TestHelpInlineAssetsMatchCSP checks that the inline style and script are served byte for byte as
// hashed in the Content-Security-Policy, so the browser applies and runs them.
func TestHelpInlineAssetsMatchCSP(t *testing.T) {
	ts := newTestServer(t, wsdl.DefaultBaseURL)
	resp, body := ts.do(t, wireRequest{method: "GET", path: "?op=ReadContact"})
	require.Equal(t, http.StatusOK, resp.StatusCode)
	csp := resp.Header.Get("Content-Security-Policy")
	for _, tag := range []string{"style", "script"} {
		m := regexp.MustCompile(`(?s)<` + tag + `>(.*?)</` + tag + `>`).FindStringSubmatch(body)
		require.NotNil(t, m, tag)
		sum := sha256.Sum256([]byte(m[1]))
		assert.Contains(t, csp, tag+"-src 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
	}
}

func TestHelpSamplesUsePlaceholders(t *testing.T) {
	ts := newTestServer(t, wsdl.DefaultBaseURL)
	_, body := ts.do(t, wireRequest{method: "GET", path: "?op=VersionMajor"})
	s := testsupport.HelpSamples(t, body)
	assert.Contains(t, s[0][1], "<VersionMajorResult>int</VersionMajorResult>")
	assert.Contains(t, s[2][0], "GET /contactsync/v1/sync.asmx/VersionMajor HTTP/1.1")
	assert.Contains(t, s[2][1], ">int</int>")

	_, body = ts.do(t, wireRequest{method: "GET", path: "?op=TestUpdateContact"})
	s = testsupport.HelpSamples(t, body)
	assert.Contains(t, s[0][0], `SOAPAction: "`+wsdl.DefaultNamespace+`TestUpdateContact"`)
	assert.Contains(t, s[0][0], "      <id>string</id>\n")
	assert.Contains(t, s[0][1], "        <FirstName>string</FirstName>\n")
	assert.Contains(t, s[1][0], `Content-Type: application/soap+xml; action="`+wsdl.DefaultNamespace+`TestUpdateContact"; charset=utf-8`)
	assert.Contains(t, s[3][0], "Content-Type: application/x-www-form-urlencoded\nContent-Length: length\n\nid=string")
	assert.Contains(t, s[3][1], "  <RoleIds>\n    <string>string</string>\n    <string>string</string>\n  </RoleIds>")
}

// TestHelpEscapesMarkup: an unknown operation name and a prefilled id that hold markup are shown as text.
func TestHelpEscapesMarkup(t *testing.T) {
	ts := newTestServer(t, wsdl.DefaultBaseURL)
	const evil = `<script>alert("x")</script><img src=x onerror=alert(1)>`

	resp, body := ts.do(t, wireRequest{method: "GET", path: "?op=" + url.QueryEscape(evil)})
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	assert.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
	assert.Contains(t, body, `<code class="missing">&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;</code>`)
	assert.NotContains(t, body, "<script")
	assert.NotContains(t, body, "<img")
	assert.Contains(t, body, `<a href="sync.asmx?op=ReadContact">ReadContact</a>`, "the 404 page lists the operations")

	resp, body = ts.do(t, wireRequest{method: "GET", path: "?op=ReadContact&id=" + url.QueryEscape(`"`+evil)})
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, body, `value="&#34;&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"`)
	assert.NotContains(t, body, "<img")
	assert.Equal(t, 1, strings.Count(body, "<script"), "only the page's own script")

	resp, _ = ts.do(t, wireRequest{method: "GET", path: "?op=readcontact"})
	assert.Equal(t, http.StatusNotFound, resp.StatusCode, "operation names are case-sensitive, as in ASMX")
}

// TestDiscoEscapesAddress: whatever part of the request reaches an address is escaped.
func TestDiscoEscapesAddress(t *testing.T) {
	ts := newTestServer(t, wsdl.DefaultBaseURL)
	req, err := http.NewRequest("GET", ts.endpoint+"?disco", nil)
	require.NoError(t, err)
	req.Header.Set("X-Forwarded-Host", `x"><a`)
	resp, err := ts.Client().Do(req)
	require.NoError(t, err)
	body := testsupport.ReadAll(t, resp)
	assert.NotContains(t, body, `"><a`)
	var d discoDoc
	require.NoError(t, xml.Unmarshal([]byte(body), &d), body)
}

func TestDisco(t *testing.T) {
	ts := newAddressedServer(t, "https://contacts.example.com", docs.Addressing{TrustedProxies: loopbackProxy})
	for _, tc := range []struct {
		name    string
		query   string
		headers map[string]string
		address string
	}{
		{"as reached", "?disco", nil, ts.endpoint},
		{"any case", "?DISCO", nil, ts.endpoint},
		{"behind a proxy", "?disco", map[string]string{"X-Forwarded-Proto": "https", "X-Forwarded-Host": "edge.example.net"}, "https://edge.example.net" + wsdl.Path},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest("GET", ts.endpoint+tc.query, nil)
			require.NoError(t, err)
			for k, v := range tc.headers {
				req.Header.Set(k, v)
			}
			resp, err := ts.Client().Do(req)
			require.NoError(t, err)
			body := testsupport.ReadAll(t, resp)
			require.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Equal(t, "text/xml; charset=utf-8", resp.Header.Get("Content-Type"))
			var d discoDoc
			require.NoError(t, xml.Unmarshal([]byte(body), &d), body)
			assert.Equal(t, tc.address+"?wsdl", d.ContractRef.Ref)
			assert.Equal(t, tc.address, d.ContractRef.DocRef)
			require.Len(t, d.SOAP, 2)
			for i, binding := range []string{"SyncServiceSoap", "SyncServiceSoap12"} {
				assert.Equal(t, tc.address, d.SOAP[i].Address)
				prefix, local, _ := strings.Cut(d.SOAP[i].Binding, ":")
				assert.Equal(t, binding, local)
				assert.Contains(t, body, `xmlns:`+prefix+`="https://contacts.example.com/contactsync/v1/"`, "the binding is qualified by the service namespace")
			}
		})
	}
}

type discoDoc struct {
	XMLName     xml.Name `xml:"http://schemas.xmlsoap.org/disco/ discovery"`
	ContractRef struct {
		Ref    string `xml:"ref,attr"`
		DocRef string `xml:"docRef,attr"`
	} `xml:"http://schemas.xmlsoap.org/disco/scl/ contractRef"`
	SOAP []struct {
		Address string `xml:"address,attr"`
		Binding string `xml:"binding,attr"`
	} `xml:"http://schemas.xmlsoap.org/disco/soap/ soap"`
}
