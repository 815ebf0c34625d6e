package server_test

import (
	"context"
	"encoding/xml"
	"net/http"
	"regexp"
	"slices"
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

// placeholderValues are values of the XSD types whose help samples show the type's name.
var placeholderValues = map[string]string{
	"int": "42", "long": "42", "short": "7", "boolean": "true", "double": "1.5", "float": "0.25",
	"decimal": "-1234.5670", "dateTime": "2026-01-02T03:04:05Z", "guid": "0f8fad5b-d9cb-469f-a165-70867728950e",
	"base64Binary": "AAH+/w==",
}

// placeholder matches a type's name as an element's text (>int<) or a form or query value (=int).
var placeholder = regexp.MustCompile(`(>|=)(int|long|short|boolean|double|float|decimal|dateTime|guid|base64Binary)(<|&|\n|$| )`)

// enumPlaceholder matches an enumeration's sample, its values joined by " or " (>Bronze or Silver<).
var enumPlaceholder = regexp.MustCompile(`(>|=)([A-Za-z0-9_]+)(?: or [A-Za-z0-9_]+)+(<|&|\n|$)`)

// fillPlaceholders replaces the type names a sample shows for values with values of those types, and
// an enumeration's list of values with its first.
func fillPlaceholders(sample string) string {
	sample = enumPlaceholder.ReplaceAllString(sample, "$1$2$3")
	for range 2 { // adjacent placeholders share a delimiter: a second pass finds the one the first skipped
		sample = placeholder.ReplaceAllStringFunc(sample, func(m string) string {
			sub := placeholder.FindStringSubmatch(m)
			return sub[1] + placeholderValues[sub[2]] + sub[3]
		})
	}
	return sample
}

// firstMet keeps each name of list where it first appears.
func firstMet(list []string) []string {
	var out []string
	for _, x := range list {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// isSubsequence reports whether every element of sub appears in list, in the same order.
func isSubsequence(sub, list []string) bool {
	i := 0
	for _, x := range list {
		if i < len(sub) && sub[i] == x {
			i++
		}
	}
	return i == len(sub)
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

				// The samples write a value of a type other than string as the type's name, as ASMX's
				// do (<max>int</max>, ?asOf=dateTime); the request sent has a value of that type there.
				head, reqBody, _ := strings.Cut(fillPlaceholders(s[0]), "\n\n")
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
				// The real answer has the sample's shape: its elements are the sample's, first met in the
				// same order; the sample shows every optional element (a nested type's too) and two items
				// of an array, and the answer may leave out those its values do not have (a nil Address)
				// or hold another number of items.
				sample, real := firstMet(elementNames(t, respBody)), firstMet(elementNames(t, got))
				require.NotEmpty(t, real)
				assert.True(t, isSubsequence(real, sample), "sample response of %s has the real shape:\nsample %q\nreal   %q", name, sample, real)
				assert.NotContains(t, respBody, "-2147483648")
			}
		})
	}
}
