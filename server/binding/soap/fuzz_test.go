package soap

import (
	"testing"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
	"github.com/contactsync/contactsync/wsdl"
)

const fuzzNS = wsdl.DefaultNamespace

// Namespaces the tests write envelopes with.
const (
	nsSOAP11 = EnvelopeNS11
	nsSOAP12 = EnvelopeNS12
	nsXSI    = xmlwire.NSXSI
	nsXSD    = xmlwire.NSXSD
)

// fuzzEnvelopeSeeds are valid and near-valid SOAP requests of both versions; the committed corpus
// under testdata/fuzz adds the hostile shapes found so far.
var fuzzEnvelopeSeeds = []string{
	`<soap:Envelope xmlns:soap="` + nsSOAP11 + `"><soap:Body><ReadContact xmlns="` + fuzzNS + `"><id>1</id></ReadContact></soap:Body></soap:Envelope>`,
	`<s:Envelope xmlns:s="` + nsSOAP12 + `"><s:Header><a:Action xmlns:a="http://www.w3.org/2005/08/addressing" s:mustUnderstand="1">x</a:Action></s:Header><s:Body><VersionMinor xmlns="` + fuzzNS + `"/></s:Body></s:Envelope>`,
	"\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"" + nsSOAP11 + "\"><soap:Body><Version xmlns=\"" + fuzzNS + "\"/></soap:Body></soap:Envelope>",
	`<!DOCTYPE x [<!ENTITY a "aaaa">]><soap:Envelope xmlns:soap="` + nsSOAP11 + `"><soap:Body>&a;</soap:Body></soap:Envelope>`,
	`<?xml version="1.0" encoding="ISO-8859-1"?><a/>`,
	`<soap:Envelope xmlns:soap="` + nsSOAP11 + `"><soap:Body><ReadContact xmlns="` + fuzzNS + `"><id xsi:nil="true" xmlns:xsi="` + nsXSI + `"/></ReadContact></soap:Body>`,
	``,
}

// FuzzDecodeEnvelope feeds arbitrary bytes to the SOAP decoder of both versions: it must never panic,
// and when it accepts a request it must have found an operation wrapper.
func FuzzDecodeEnvelope(f *testing.F) {
	for _, s := range fuzzEnvelopeSeeds {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, body []byte, version12 bool) {
		req, err := New(version12, fuzzNS, DefaultLimits(), gen.Operations).parse(body, nil)
		if err == nil && (req.op == nil || req.msg == nil) {
			t.Fatalf("accepted a request without an operation element: %q", body)
		}
		if err != nil && err.Message == "" {
			t.Fatalf("error without a message for %q", body)
		}
	})
}
