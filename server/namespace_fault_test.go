package server_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestUnknownOperationFaultsNameTheNamespace: a client built from the WSDL of a deployment with
// another --base-url sends actions and elements in that deployment's namespace. The fault used to say
// only "Server did not recognize the value of the SOAP action: …"; every fault for an action or a
// request element that names no operation now says which namespace this service expects and that
// --base-url sets it, on both SOAP versions.
func TestUnknownOperationFaultsNameTheNamespace(t *testing.T) {
	const deployed = "https://contacts.example.com"
	const expected = "https://contacts.example.com/contactsync/v1/"
	const xml11, xml12 = "text/xml; charset=utf-8", "application/soap+xml; charset=utf-8"
	wantEnd := `This service expects the namespace &quot;` + expected + `&quot; (set by --base-url when the service was started); its ?WSDL gives every action and element in it.`
	other := ns // the default deployment's namespace: a client of the other deployment
	cases := []struct {
		name   string
		req    wireRequest
		starts string
	}{
		{"soap11 action of another deployment", wireRequest{method: "POST", contentType: xml11, soapAction: `"` + other + `VersionMinor"`,
			body: soapEnvelope(false, other, "VersionMinor", "")}, "Server did not recognize the value of the SOAP action: " + other + "VersionMinor. "},
		{"soap12 action of another deployment", wireRequest{method: "POST", contentType: xml12 + `; action="` + other + `VersionMinor"`,
			body: soapEnvelope(true, other, "VersionMinor", "")}, "Server did not recognize the value of the SOAP action: " + other + "VersionMinor. "},
		{"soap11 unknown action in the namespace", wireRequest{method: "POST", contentType: xml11, soapAction: `"` + expected + `Nope"`,
			body: soapEnvelope(false, expected, "VersionMinor", "")}, "Server did not recognize the value of the SOAP action: " + expected + "Nope. "},
		{"soap11 element of another deployment", wireRequest{method: "POST", contentType: xml11,
			body: soapEnvelope(false, other, "VersionMinor", "")}, "The body element VersionMinor in namespace &quot;" + other + "&quot; is not an operation of this service. "},
		{"soap12 element of another deployment", wireRequest{method: "POST", contentType: xml12,
			body: soapEnvelope(true, other, "VersionMinor", "")}, "The body element VersionMinor in namespace &quot;" + other + "&quot; is not an operation of this service. "},
		{"soap11 unknown element in the namespace", wireRequest{method: "POST", contentType: xml11,
			body: soapEnvelope(false, expected, "Nope", "")}, "The body element Nope is not an operation of this service. "},
	}
	ts := newTestServer(t, deployed)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := ts.do(t, tc.req)
			assert.Equal(t, 500, resp.StatusCode, body)
			assert.Contains(t, body, "UnknownOperation")
			assert.Contains(t, body, tc.starts+wantEnd)
			assert.True(t, strings.Count(body, expected) >= 1, body)
		})
	}
}
