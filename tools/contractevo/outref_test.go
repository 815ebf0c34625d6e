package contractevo_test

import (
	"net/http"
	"net/url"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// outRef checks 09-out-ref's SplitContactName, an operation with out and ref parameters (its response
// wrapper holds the result, then lastName and calls): `contactsync call` over SOAP 1.1 and 1.2 prints
// all three, the JSON endpoint answers them as one object, GET and POST do not offer it (as ASMX), and
// zeep, which reads the served WSDL, gets all three over both SOAP bindings.
func outRef(t *testing.T, s *scratch) {
	const op = "SplitContactName"
	s.call(t, "TestCreateContact", "soap11", "--id", "outref-1")
	lastName := regexp.MustCompile(`<lastName>(Contact [0-9a-f]{6})</lastName>`)
	offered := s.offered(t, op)
	assert.Equal(t, []string{"soap11", "soap12"}, offered, "GET and POST do not offer an operation with out or ref parameters")
	for _, b := range offered {
		out := s.call(t, op, b, "--param", "id=outref-1", "--param", "calls=4")
		assert.Regexp(t, `(?s)<SplitContactNameResult>Test</SplitContactNameResult>\s*<lastName>Contact [0-9a-f]{6}</lastName>\s*<calls>5</calls>`, out, "over %s", b)
		out = s.callFault(t, op, b, "--param", "id=nobody", "--param", "calls=1")
		assert.Contains(t, out, `Contact "nobody" does not exist.`, "over %s", b)
	}
	out := s.call(t, op, "soap11", "--param", "id=outref-1", "--param", "calls=0")
	m := lastName.FindStringSubmatch(out)
	require.NotNil(t, m, out)
	assert.Equal(t, map[string]any{"SplitContactNameResult": "Test", "lastName": m[1], "calls": float64(1)},
		s.callJSON(t, op, "--param", "id=outref-1", "--param", "calls=0"))
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		status, body := s.http(t, method, op, url.Values{"id": {"outref-1"}, "calls": {"1"}})
		assert.Equal(t, http.StatusNotFound, status, "%s: %s", method, body)
	}
	for _, b := range offered {
		got := s.zeep(t, b, op, map[string]any{"id": "outref-1", "calls": 7})
		assert.Equal(t, map[string]any{"SplitContactNameResult": "Test", "lastName": m[1], "calls": float64(8)}, got, "zeep over %s", b)
	}
}
