package server

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/wsdl"
)

const fuzzNS = wsdl.DefaultNamespace

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
		req, err := newSOAPBinding(version12, fuzzNS, DefaultLimits(), gen.Operations).parse(body)
		if err == nil && (req.op == nil || req.msg == nil) {
			t.Fatalf("accepted a request without an operation element: %q", body)
		}
		if err != nil && err.Message == "" {
			t.Fatalf("error without a message for %q", body)
		}
	})
}

// FuzzHTTPBindings feeds arbitrary paths, queries and form bodies to the HTTP GET and POST decoders.
func FuzzHTTPBindings(f *testing.F) {
	for _, s := range [][2]string{{"ReadContact", "id=1"}, {"Version", ""}, {"ReadContact", "id=%zz"}, {"ReadContact", "id=1&id=2"}, {"Nope", "id=%F0%9F%98%80"}} {
		f.Add(s[0], s[1], false)
		f.Add(s[0], s[1], true)
	}
	f.Fuzz(func(t *testing.T, op, params string, post bool) {
		b := newHTTPBinding(post, fuzzNS, gen.Operations)
		target := endpointPath + "/" + op
		var r *http.Request
		if post {
			r = httptest.NewRequest(http.MethodPost, endpointPath+"/x", strings.NewReader(params))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		} else {
			r = httptest.NewRequest(http.MethodGet, endpointPath+"/x", nil)
			r.URL.RawQuery = params
		}
		r.URL.Path = target
		got, err := b.decode(r, []byte(params))
		if err == nil {
			if got.op == nil || got.op.Name != op {
				t.Fatalf("decoded %q as %v", op, got.op)
			}
			// The decoder only extracts; the service validates (an empty id is refused there). So on
			// success each string parameter must be exactly the one value the parameters hold.
			values, perr := url.ParseQuery(params)
			encoded := url.Values{}
			got.op.EncodeForm(got.msg, encoded)
			for _, p := range got.op.Params {
				if p.Type.Kind == wire.KindString && (perr != nil || len(values[p.Name]) > 1 || values.Get(p.Name) != encoded.Get(p.Name)) {
					t.Fatalf("decoded %s=%q from %q", p.Name, encoded.Get(p.Name), params)
				}
			}
		}
	})
}
