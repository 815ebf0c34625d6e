package contractevo_test

import (
	"net/http"
	"net/url"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// renamedResult checks 10-renamed-result's ReadContactEmail, whose names are not derived from the
// operation's: the response wrapper ReadContactEmailReply holds Email, and the parameter is contactId
// on SOAP and id on GET and POST. `contactsync call` reaches it on all four bindings and the JSON
// endpoint (by the schema's name there), the raw GET and POST take id and refuse contactId, and zeep,
// which reads the served WSDL, calls it on every binding.
func renamedResult(t *testing.T, s *scratch) {
	const op = "ReadContactEmail"
	s.call(t, "TestCreateContact", "soap11", "--id", "renamed-1")
	email := regexp.MustCompile(`<Email>(test\.[0-9a-f]{8}@example\.com)</Email>`)
	out := s.call(t, op, "soap11", "--param", "contactId=renamed-1")
	m := email.FindStringSubmatch(out)
	require.NotNil(t, m, out)
	for _, b := range s.offered(t, op) {
		out := s.call(t, op, b, "--param", "contactId=renamed-1")
		assert.Contains(t, out, "<Email>"+m[1]+"</Email>", "over %s", b)
		out = s.callFault(t, op, b, "--param", "contactId=nobody")
		assert.Contains(t, out, `Contact "nobody" does not exist.`, "over %s", b)
	}
	assert.Equal(t, m[1], s.callJSON(t, op, "--param", "contactId=renamed-1"))
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		status, body := s.http(t, method, op, url.Values{"id": {"renamed-1"}})
		require.Equal(t, http.StatusOK, status, body)
		assert.Regexp(t, `<string [^>]*xmlns="`+regexp.QuoteMeta(s.namespace)+`">`+regexp.QuoteMeta(m[1])+`</string>$`, body, method)
		status, body = s.http(t, method, op, url.Values{"contactId": {"renamed-1"}})
		assert.Equal(t, http.StatusBadRequest, status, body)
		assert.Contains(t, body, "The parameter id is required.", method)
	}
	for _, b := range s.offered(t, op) {
		params := map[string]any{"contactId": "renamed-1"}
		if b == "get" || b == "post" {
			params = map[string]any{"id": "renamed-1"}
		}
		got := s.zeep(t, b, op, params)
		assert.Equal(t, m[1], got, "zeep over %s", b)
	}
}
