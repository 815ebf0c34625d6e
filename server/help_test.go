package server_test

import (
	"context"
	"encoding/xml"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/internal/testsupport"
	"github.com/contactsync/contactsync/server/service"
)

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
	for _, name := range testsupport.OperationNames(gen.Operations) {
		t.Run(name, func(t *testing.T) {
			_, body := ts.do(t, wireRequest{method: "GET", path: "?op=" + name})
			for i, s := range testsupport.HelpSamples(t, body) {
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
				got := testsupport.ReadAll(t, resp)
				require.Equal(t, http.StatusOK, resp.StatusCode, "sample %d of %s: %s\n%s", i, name, s[0], got)

				respHead, respBody, _ := strings.Cut(s[1], "\n\n")
				assert.Contains(t, respHead, "HTTP/1.1 200 OK\nContent-Type: "+resp.Header.Get("Content-Type")+"\nContent-Length: length")
				assert.Equal(t, elementNames(t, respBody), elementNames(t, got), "sample response of %s has the real shape", name)
				assert.NotContains(t, respBody, "-2147483648")
			}
		})
	}
}
