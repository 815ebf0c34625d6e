package contractevo_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// oneWay checks 12-one-way's TestUpdateContactLater, a one-way operation (no wsdl:output, ASMX's
// OneWay=true) that applies TestUpdateContact's change: over SOAP the call is acknowledged with 202 and
// an empty body, and the contact is updated after it; over GET and POST (and the JSON endpoint) it has
// been updated when the empty answer comes. An unknown id is their 404, but over SOAP a failure after
// the 202, which the service counts in contactsync_oneway_failures_total. zeep calls it over SOAP 1.1
// and 1.2; its HTTP binding cannot read the empty answer of any void operation (its http binding has
// no output to deserialize, an AttributeError), so it is not asked to over GET and POST.
func oneWay(t *testing.T, s *scratch) {
	const op = "TestUpdateContactLater"
	updated := func(id string) bool {
		return strings.Contains(s.call(t, "ReadContact", "soap11", "--param", "id="+id), "<FirstName>Updated</FirstName>")
	}
	for _, b := range s.offered(t, op) {
		id := "later-" + b
		s.call(t, "TestCreateContact", "soap11", "--id", id)
		out := s.call(t, op, b, "--param", "id="+id)
		assert.Contains(t, out, op+" is one-way: the service acknowledged the call", "call over %s", b)
		if b == "get" || b == "post" {
			assert.True(t, updated(id), "over %s the update has landed when the answer comes", b)
			continue
		}
		assert.Eventually(t, func() bool { return updated(id) }, 10*time.Second, 20*time.Millisecond, "over %s the update lands after the 202", b)
	}

	// The raw exchanges: SOAP's 202 without a body or a content type, GET's and POST's empty 200, and
	// JSON's {"d":null}.
	s.call(t, "TestCreateContact", "soap11", "--id", "later-raw")
	envelope := `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` +
		`<TestUpdateContactLater xmlns="` + s.namespace + `"><id>later-raw</id></TestUpdateContactLater></soap:Body></soap:Envelope>`
	status, header, body := s.post(t, s.endpoint, "text/xml; charset=utf-8", `"`+s.namespace+op+`"`, envelope)
	assert.Equal(t, http.StatusAccepted, status, body)
	assert.Empty(t, body)
	assert.Empty(t, header.Values("Content-Type"))
	assert.Eventually(t, func() bool { return updated("later-raw") }, 10*time.Second, 20*time.Millisecond)
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		status, body := s.http(t, method, op, url.Values{"id": {"later-raw"}})
		assert.Equal(t, http.StatusOK, status, body)
		assert.Empty(t, body, method)
		status, body = s.http(t, method, op, url.Values{"id": {"nobody"}})
		assert.Equal(t, http.StatusNotFound, status, body)
		assert.Contains(t, body, `Contact "nobody" does not exist.`, method)
	}
	status, _, body = s.post(t, s.endpoint+"/"+op, "application/json; charset=utf-8", "", `{"id":"later-raw"}`)
	assert.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, `{"d":null}`, body)

	// Over SOAP an unknown id is acknowledged like any call; its failure is counted.
	out := s.call(t, op, "soap11", "--param", "id=nobody")
	assert.Contains(t, out, "acknowledged")
	metrics := strings.TrimSuffix(s.endpoint, "/contactsync/v1/sync.asmx") + "/metrics"
	assert.Eventually(t, func() bool {
		_, body := s.get(t, metrics)
		return strings.Contains(body, `contactsync_oneway_failures_total{operation="`+op+`"} 1`)
	}, 10*time.Second, 20*time.Millisecond, "the failure after the 202 is counted")

	for _, b := range []string{"soap11", "soap12"} {
		id := "later-zeep-" + b
		s.call(t, "TestCreateContact", "soap11", "--id", id)
		assert.Nil(t, s.zeep(t, b, op, map[string]any{"id": id}), "zeep over %s: a one-way call has no result", b)
		assert.Eventually(t, func() bool { return updated(id) }, 10*time.Second, 20*time.Millisecond, "zeep over %s", b)
	}
}

// post sends body to u with the content type and, when not empty, the SOAPAction, and returns the
// status, the headers and the body of the answer.
func (s *scratch) post(t *testing.T, u, contentType, soapAction, body string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(s.ctx, http.MethodPost, u, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", contentType)
	if soapAction != "" {
		req.Header.Set("SOAPAction", soapAction)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, resp.Header, string(data)
}
