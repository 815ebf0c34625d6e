package server_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/xml"
	"html"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/docs"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/wsdl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// operationDocs reads each operation's wsdl:documentation straight from the contract text, independently
// of the server's parser.
func operationDocs(t *testing.T) map[string]string {
	t.Helper()
	re := regexp.MustCompile(`<wsdl:operation name="(\w+)">\s*<wsdl:documentation[^>]*>([^<]+)</wsdl:documentation>`)
	docs := map[string]string{}
	for _, m := range re.FindAllStringSubmatch(string(wsdl.Contract), -1) {
		docs[m[1]] = m[2]
	}
	require.Len(t, docs, len(operationNames()))
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
	for _, name := range operationNames() {
		t.Run(name, func(t *testing.T) {
			resp, body := ts.do(t, wireRequest{method: "GET", path: "?op=" + name})
			require.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
			assert.Contains(t, body, "<h1>"+name+"</h1>")
			assert.Contains(t, body, `<p class="lead">`+docs[name]+`</p>`)
			assert.Contains(t, body, `<form id="tryit" method="post" data-binding="post" action="sync.asmx/`+name+`">`)
			hasID := !strings.HasPrefix(name, "Version")
			assert.Equal(t, hasID, strings.Contains(body, `<label for="param-id">id</label>`), "a labelled id field exactly when the operation takes one")
			assert.Equal(t, hasID, strings.Contains(body, `<input id="param-id" name="id" type="text"`))
			for _, heading := range []string{"SOAP 1.1", "SOAP 1.2", "HTTP GET", "HTTP POST"} {
				assert.Contains(t, body, ">"+heading+"</h2>")
			}
			assert.Equal(t, 4, strings.Count(body, "<h3>Request</h3>"))
			assert.Equal(t, 4, strings.Count(body, "<h3>Response</h3>"))
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

// samples extracts the sample messages of an operation page: request, response, per binding.
func samples(t *testing.T, body string) [][2]string {
	t.Helper()
	pres := regexp.MustCompile(`(?s)<pre tabindex="0">(.*?)</pre>`).FindAllStringSubmatch(body, -1)
	require.Len(t, pres, 8)
	var out [][2]string
	for i := 0; i < len(pres); i += 2 {
		out = append(out, [2]string{html.UnescapeString(pres[i][1]), html.UnescapeString(pres[i+1][1])})
	}
	return out
}

// elementNames lists an XML document's element names in order, collapsing repeated siblings, so a
// sample and a real message can be compared by shape.
func elementNames(t *testing.T, doc string) []string {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(doc))
	var names []string
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		if se, ok := tok.(xml.StartElement); ok {
			name := se.Name.Space + " " + se.Name.Local
			if len(names) == 0 || names[len(names)-1] != name {
				names = append(names, name)
			}
		}
	}
	return names
}

// TestHelpSamplesAreReal sends every sample request, exactly as shown, to the server, and checks the
// answer has the shape of the sample response: the samples are the wire format, not a description.
func TestHelpSamplesAreReal(t *testing.T) {
	ts := newTestServer(t, "https://contacts.example.com")
	for _, name := range operationNames() {
		t.Run(name, func(t *testing.T) {
			_, body := ts.do(t, wireRequest{method: "GET", path: "?op=" + name})
			for i, s := range samples(t, body) {
				// The contact operations need the placeholder id "string" to exist.
				require.NoError(t, ts.store.Put(context.Background(), service.TestRecord("string")))

				head, reqBody, _ := strings.Cut(s[0], "\n\n")
				lines := strings.Split(head, "\n")
				method, target, ok := strings.Cut(strings.TrimSuffix(lines[0], " HTTP/1.1"), " ")
				require.True(t, ok, lines[0])
				req, err := http.NewRequest(method, ts.URL+target, strings.NewReader(reqBody))
				require.NoError(t, err)
				for _, l := range lines[1:] {
					k, v, _ := strings.Cut(l, ": ")
					if k != "Host" && k != "Content-Length" {
						req.Header.Set(k, v)
					}
				}
				assert.Equal(t, "Host: "+strings.TrimPrefix(ts.URL, "http://"), lines[1], "the Host is the one the page was reached at")
				resp, err := ts.Client().Do(req)
				require.NoError(t, err)
				got := readAll(t, resp)
				require.Equal(t, http.StatusOK, resp.StatusCode, "sample %d of %s: %s\n%s", i, name, s[0], got)

				respHead, respBody, _ := strings.Cut(s[1], "\n\n")
				assert.Contains(t, respHead, "HTTP/1.1 200 OK\nContent-Type: "+resp.Header.Get("Content-Type")+"\nContent-Length: length")
				assert.Equal(t, elementNames(t, respBody), elementNames(t, got), "sample response of %s has the real shape", name)
				assert.NotContains(t, respBody, "-2147483648")
			}
		})
	}
}

func readAll(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return string(b)
}

func TestHelpSamplesUsePlaceholders(t *testing.T) {
	ts := newTestServer(t, wsdl.DefaultBaseURL)
	_, body := ts.do(t, wireRequest{method: "GET", path: "?op=VersionMajor"})
	s := samples(t, body)
	assert.Contains(t, s[0][1], "<VersionMajorResult>int</VersionMajorResult>")
	assert.Contains(t, s[2][0], "GET /contactsync/v1/sync.asmx/VersionMajor HTTP/1.1")
	assert.Contains(t, s[2][1], ">int</int>")

	_, body = ts.do(t, wireRequest{method: "GET", path: "?op=TestUpdateContact"})
	s = samples(t, body)
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

	resp, body := ts.do(t, wireRequest{method: "GET", path: "?op=" + urlEscape(evil)})
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	assert.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
	assert.Contains(t, body, `<code class="missing">&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;</code>`)
	assert.NotContains(t, body, "<script")
	assert.NotContains(t, body, "<img")
	assert.Contains(t, body, `<a href="sync.asmx?op=ReadContact">ReadContact</a>`, "the 404 page lists the operations")

	resp, body = ts.do(t, wireRequest{method: "GET", path: "?op=ReadContact&id=" + urlEscape(`"`+evil)})
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, body, `value="&#34;&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"`)
	assert.NotContains(t, body, "<img")
	assert.Equal(t, 1, strings.Count(body, "<script"), "only the page's own script")

	resp, _ = ts.do(t, wireRequest{method: "GET", path: "?op=readcontact"})
	assert.Equal(t, http.StatusNotFound, resp.StatusCode, "operation names are case-sensitive, as in ASMX")
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

// TestDiscoEscapesAddress: whatever part of the request reaches an address is escaped.
func TestDiscoEscapesAddress(t *testing.T) {
	ts := newTestServer(t, wsdl.DefaultBaseURL)
	req, err := http.NewRequest("GET", ts.endpoint+"?disco", nil)
	require.NoError(t, err)
	req.Header.Set("X-Forwarded-Host", `x"><a`)
	resp, err := ts.Client().Do(req)
	require.NoError(t, err)
	body := readAll(t, resp)
	assert.NotContains(t, body, `"><a`)
	var d discoDoc
	require.NoError(t, xml.Unmarshal([]byte(body), &d), body)
}

func TestDisco(t *testing.T) {
	ts := newConfiguredServer(t, server.Config{BaseURL: "https://contacts.example.com", Addressing: docs.Addressing{TrustedProxies: loopbackProxy}})
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
			body := readAll(t, resp)
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
