package server_test

import (
	"testing"

	"github.com/contactsync/contactsync/wsdl"
)

const ns = wsdl.DefaultNamespace

// TestDispatch covers how each binding finds the operation: SOAPAction quoted or not, missing, empty,
// unknown or contradicting the body; the SOAP 1.2 action parameter; the WS-Addressing Action header
// .NET sends with mustUnderstand; routing by path, method and content type.
func TestDispatch(t *testing.T) {
	versionMinor11 := soapEnvelope(false, ns, "VersionMinor", "")
	versionMinor12 := soapEnvelope(true, ns, "VersionMinor", "")
	wsaHeader11 := `<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:a="http://www.w3.org/2005/08/addressing">
  <soap:Header><a:Action soap:mustUnderstand="1">` + ns + `VersionMinor</a:Action><a:To soap:mustUnderstand="1">http://localhost/</a:To></soap:Header>
  <soap:Body><VersionMinor xmlns="` + ns + `" /></soap:Body>
</soap:Envelope>`
	wsaHeader12 := `<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope" xmlns:a="http://www.w3.org/2005/08/addressing">
  <s:Header><a:Action s:mustUnderstand="1">` + ns + `VersionMinor</a:Action></s:Header>
  <s:Body><VersionMinor xmlns="` + ns + `" /></s:Body>
</s:Envelope>`
	unknownHeader11 := `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">
  <soap:Header><x:Secret xmlns:x="urn:other" soap:mustUnderstand="1">1</x:Secret></soap:Header>
  <soap:Body><VersionMinor xmlns="` + ns + `" /></soap:Body>
</soap:Envelope>`
	optionalHeader11 := `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">
  <soap:Header><x:Hint xmlns:x="urn:other">1</x:Hint></soap:Header>
  <soap:Body><VersionMinor xmlns="` + ns + `" /></soap:Body>
</soap:Envelope>`
	otherActorHeader11 := `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">
  <soap:Header><x:Hint xmlns:x="urn:other" soap:mustUnderstand="1" soap:actor="urn:someone-else">1</x:Hint></soap:Header>
  <soap:Body><VersionMinor xmlns="` + ns + `" /></soap:Body>
</soap:Envelope>`
	unknownHeader12 := `<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope">
  <s:Header><x:Secret xmlns:x="urn:other" s:mustUnderstand="true">1</x:Secret></s:Header>
  <s:Body><VersionMinor xmlns="` + ns + `" /></s:Body>
</s:Envelope>`
	unqualifiedID := soapEnvelope(false, ns, "ReadContact", `<id xmlns="">x</id>`)
	const xml11, xml12 = "text/xml; charset=utf-8", "application/soap+xml; charset=utf-8"

	cases := []struct {
		name        string
		req         wireRequest
		status      int
		contentType string
		contains    []string
	}{
		{"soap11 quoted action", wireRequest{method: "POST", contentType: xml11, soapAction: `"` + ns + `VersionMinor"`, body: versionMinor11}, 200, xml11, []string{"<VersionMinorResult>0</VersionMinorResult>"}},
		{"soap11 unquoted action", wireRequest{method: "POST", contentType: xml11, soapAction: ns + "VersionMinor", body: versionMinor11}, 200, xml11, []string{"<VersionMinorResult>0</VersionMinorResult>"}},
		{"soap11 no action uses body", wireRequest{method: "POST", contentType: xml11, body: versionMinor11}, 200, xml11, []string{"<VersionMinorResult>0</VersionMinorResult>"}},
		{"soap11 empty action uses body", wireRequest{method: "POST", contentType: xml11, soapAction: `""`, body: versionMinor11}, 200, xml11, []string{"<VersionMinorResult>0</VersionMinorResult>"}},
		{"soap11 unknown action", wireRequest{method: "POST", contentType: xml11, soapAction: `"` + ns + `Nope"`, body: versionMinor11}, 500, xml11, []string{"<faultcode>soap:Client</faultcode>", "UnknownOperation", "Nope"}},
		{"soap11 action from other namespace", wireRequest{method: "POST", contentType: xml11, soapAction: `"urn:x/VersionMinor"`, body: versionMinor11}, 500, xml11, []string{"soap:Client", "UnknownOperation"}},
		{"soap11 action contradicts body", wireRequest{method: "POST", contentType: xml11, soapAction: `"` + ns + `Version"`, body: versionMinor11}, 500, xml11, []string{"soap:Client", "UnknownOperation", "names Version but the body holds VersionMinor"}},
		{"soap11 UTF-8 byte order mark", wireRequest{method: "POST", contentType: xml11, body: "\xEF\xBB\xBF" + versionMinor11}, 200, xml11, []string{"<VersionMinorResult>0</VersionMinorResult>"}},
		{"soap12 UTF-8 byte order mark", wireRequest{method: "POST", contentType: xml12, body: "\xEF\xBB\xBF" + versionMinor12}, 200, xml12, []string{"<VersionMinorResult>0</VersionMinorResult>"}},
		{"soap11 WS-Addressing mustUnderstand accepted", wireRequest{method: "POST", contentType: xml11, body: wsaHeader11}, 200, xml11, []string{"<VersionMinorResult>0</VersionMinorResult>"}},
		{"soap11 unknown mustUnderstand header", wireRequest{method: "POST", contentType: xml11, body: unknownHeader11}, 500, xml11, []string{"<faultcode>soap:MustUnderstand</faultcode>", "Secret"}},
		{"soap11 optional unknown header ignored", wireRequest{method: "POST", contentType: xml11, body: optionalHeader11}, 200, xml11, []string{"<VersionMinorResult>0</VersionMinorResult>"}},
		{"soap11 header for another actor ignored", wireRequest{method: "POST", contentType: xml11, body: otherActorHeader11}, 200, xml11, []string{"<VersionMinorResult>0</VersionMinorResult>"}},
		{"soap11 envelope sent as soap12", wireRequest{method: "POST", contentType: xml12, body: versionMinor11}, 500, xml12, []string{"soap12:VersionMismatch"}},
		{"soap11 unqualified id", wireRequest{method: "POST", contentType: xml11, body: unqualifiedID}, 500, xml11, []string{"soap:Client", "InvalidArgument", "must be in the namespace"}},
		{"soap12 action parameter", wireRequest{method: "POST", contentType: xml12 + `; action="` + ns + `VersionMinor"`, body: versionMinor12}, 200, xml12, []string{"<VersionMinorResult>0</VersionMinorResult>"}},
		{"soap12 no action uses body", wireRequest{method: "POST", contentType: xml12, body: versionMinor12}, 200, xml12, []string{"<VersionMinorResult>0</VersionMinorResult>"}},
		{"soap12 unknown action", wireRequest{method: "POST", contentType: xml12 + `; action="` + ns + `Nope"`, body: versionMinor12}, 500, xml12, []string{"soap12:Sender", "cs:UnknownOperation"}},
		{"soap12 WS-Addressing mustUnderstand accepted", wireRequest{method: "POST", contentType: xml12, body: wsaHeader12}, 200, xml12, []string{"<VersionMinorResult>0</VersionMinorResult>"}},
		{"soap12 unknown mustUnderstand header", wireRequest{method: "POST", contentType: xml12, body: unknownHeader12}, 500, xml12, []string{"soap12:MustUnderstand"}},
		{"soap12 envelope sent as soap11", wireRequest{method: "POST", contentType: xml11, body: versionMinor12}, 500, xml11, []string{"<faultcode>soap:VersionMismatch</faultcode>"}},
		{"get operation", wireRequest{method: "GET", path: "/VersionMajor"}, 200, xml11, []string{"<int ", ">1</int>"}},
		{"get operation name is case-sensitive", wireRequest{method: "GET", path: "/versionmajor"}, 404, "text/plain; charset=utf-8", []string{"does not exist"}},
		{"get unknown operation", wireRequest{method: "GET", path: "/Nope"}, 404, "text/plain; charset=utf-8", []string{`"Nope" does not exist`}},
		{"get missing id", wireRequest{method: "GET", path: "/ReadContact"}, 400, "text/plain; charset=utf-8", []string{"id is required"}},
		{"get unknown contact", wireRequest{method: "GET", path: "/ReadContact?id=nobody"}, 404, "text/plain; charset=utf-8", []string{`"nobody" does not exist`}},
		{"post form", wireRequest{method: "POST", path: "/Version", contentType: "application/x-www-form-urlencoded"}, 200, xml11, []string{"<string ", ">1.0</string>"}},
		{"post wrong content type", wireRequest{method: "POST", path: "/Version", contentType: "text/plain", body: "x"}, 415, "text/plain; charset=utf-8", []string{"application/x-www-form-urlencoded"}},
		{"put on operation", wireRequest{method: "PUT", path: "/Version"}, 405, "text/plain; charset=utf-8", []string{"PUT"}},
		{"delete on endpoint", wireRequest{method: "DELETE"}, 405, "text/plain; charset=utf-8", []string{"DELETE"}},
		{"endpoint post with form content type", wireRequest{method: "POST", contentType: "application/x-www-form-urlencoded", body: "id=1"}, 415, "text/plain; charset=utf-8", []string{"text/xml"}},
		{"endpoint get lists operations", wireRequest{method: "GET"}, 200, "text/html; charset=utf-8", []string{"ReadContact", "?WSDL"}},
	}
	ts := newTestServer(t, wsdl.DefaultBaseURL)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := ts.do(t, tc.req)
			assertAnswer(t, resp, body, tc.status, tc.contentType, tc.contains)
		})
	}
}
