package contractevo_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bareOp checks 14-bare-op's ReadContactName, a document/literal bare operation of two parts
// (contactId, maxLength; shapes §8): `contactsync call` reaches it on all four bindings and the JSON
// endpoint, a SOAP body holding the two parts without a SOAPAction is refused asking for one (as
// ASMX does, since two parts name no operation), and zeep, which reads the served WSDL, calls it on
// every binding.
func bareOp(t *testing.T, s *scratch) {
	const op = "ReadContactName"
	s.call(t, "TestCreateContact", "soap11", "--id", "bare-1")
	for _, b := range s.offered(t, op) {
		out := s.call(t, op, b, "--param", "contactId=bare-1", "--param", "maxLength=6")
		assert.Contains(t, out, ">Test C<", "over %s", b)
		out = s.callFault(t, op, b, "--param", "contactId=nobody", "--param", "maxLength=0")
		assert.Contains(t, out, `Contact "nobody" does not exist.`, "over %s", b)
	}
	assert.Equal(t, "Test", s.callJSON(t, op, "--param", "contactId=bare-1", "--param", "maxLength=4"))
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		status, body := s.http(t, method, op, url.Values{"contactId": {"bare-1"}, "maxLength": {"2"}})
		require.Equal(t, http.StatusOK, status, body)
		assert.Contains(t, body, ">Te</string>", method)
	}
	ns := s.namespace
	envelope := `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` +
		`<contactId xmlns="` + ns + `">bare-1</contactId><maxLength xmlns="` + ns + `">3</maxLength></soap:Body></soap:Envelope>`
	for _, action := range []string{"", `"` + ns + op + `"`} {
		req, err := http.NewRequestWithContext(s.ctx, http.MethodPost, s.endpoint, strings.NewReader(envelope))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "text/xml; charset=utf-8")
		if action != "" {
			req.Header.Set("SOAPAction", action)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		if action == "" {
			assert.Equal(t, http.StatusInternalServerError, resp.StatusCode, string(body))
			assert.Contains(t, string(body), "Please supply a valid soap action.")
			continue
		}
		assert.Equal(t, http.StatusOK, resp.StatusCode, string(body))
		assert.Contains(t, string(body), `<soap:Body><ReadContactNameResult xmlns="`+ns+`">Tes</ReadContactNameResult></soap:Body>`)
	}
	for _, b := range s.offered(t, op) {
		got := s.zeep(t, b, op, map[string]any{"contactId": "bare-1", "maxLength": 5})
		assert.Equal(t, "Test ", got, "zeep over %s", b)
	}
}
