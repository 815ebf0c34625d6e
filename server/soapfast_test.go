package server

import (
	"os"
	"path/filepath"
	"testing"
)

// fastShapes are requests as real clients write them, each of which the fast path must take.
var fastShapes = []string{
	// .NET (the golden files' shape): declaration, indentation, xsi/xsd declared, default namespace.
	"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<soap:Envelope xmlns:xsi=\"" + nsXSI + "\" xmlns:xsd=\"" + nsXSD + "\" xmlns:soap=\"" + nsSOAP11 + "\">\n  <soap:Body>\n    <ReadContact xmlns=\"" + fuzzNS + "\"><id>golden-1</id></ReadContact>\n  </soap:Body>\n</soap:Envelope>\n",
	// zeep (lxml): single-quoted declaration, prefixed wrapper and id.
	"<?xml version='1.0' encoding='utf-8'?>\n<soap-env:Envelope xmlns:soap-env=\"" + nsSOAP11 + "\"><soap-env:Body><ns0:ReadContact xmlns:ns0=\"" + fuzzNS + "\"><ns0:id>42</ns0:id></ns0:ReadContact></soap-env:Body></soap-env:Envelope>",
	// JAX-WS: S prefix, a prefixed wrapper whose id inherits nothing but the prefix.
	`<S:Envelope xmlns:S="` + nsSOAP11 + `"><S:Body><ns2:ReadContact xmlns:ns2="` + fuzzNS + `"><ns2:id>x</ns2:id></ns2:ReadContact></S:Body></S:Envelope>`,
	// A parameterless operation written as an empty element, with a BOM.
	"\xEF\xBB\xBF<soap:Envelope xmlns:soap=\"" + nsSOAP11 + "\"><soap:Body><VersionMajor xmlns=\"" + fuzzNS + "\"/></soap:Body></soap:Envelope>",
	// Markup-free Unicode in the id, an empty id, attributes the service ignores.
	`<soap:Envelope xmlns:soap="` + nsSOAP11 + `" soap:encodingStyle="x"><soap:Body><ReadContact xmlns="` + fuzzNS + `" a='1'><id>Zoë 😀 ></id></ReadContact></soap:Body></soap:Envelope>`,
	`<soap:Envelope xmlns:soap="` + nsSOAP11 + `"><soap:Body><ReadContact xmlns="` + fuzzNS + `"><id></id></ReadContact></soap:Body></soap:Envelope>`,
}

// slowShapes must each go to the full decoder: things the fast path leaves alone by design.
var slowShapes = []string{
	`<soap:Envelope xmlns:soap="` + nsSOAP11 + `"><soap:Header/><soap:Body><ReadContact xmlns="` + fuzzNS + `"><id>1</id></ReadContact></soap:Body></soap:Envelope>`,
	`<soap:Envelope xmlns:soap="` + nsSOAP11 + `"><soap:Body><ReadContact xmlns="` + fuzzNS + `"><id>a&amp;b</id></ReadContact></soap:Body></soap:Envelope>`,
	`<soap:Envelope xmlns:soap="` + nsSOAP11 + `"><soap:Body><!-- c --><ReadContact xmlns="` + fuzzNS + `"><id>1</id></ReadContact></soap:Body></soap:Envelope>`,
	`<soap:Envelope xmlns:soap="` + nsSOAP11 + `"><soap:Body><ReadContact xmlns="` + fuzzNS + `"><id><![CDATA[1]]></id></ReadContact></soap:Body></soap:Envelope>`,
	`<soap:Envelope xmlns:soap="` + nsSOAP11 + `"><soap:Body><ReadContact xmlns="` + fuzzNS + `"><id>1</id><id>2</id></ReadContact></soap:Body></soap:Envelope>`,
	`<soap:Envelope xmlns:soap="` + nsSOAP11 + `"><soap:Body><ReadContact xmlns="` + fuzzNS + `"><id xsi:nil="true" xmlns:xsi="` + nsXSI + `"></id></ReadContact></soap:Body></soap:Envelope>`,
	`<soap:Envelope xmlns:soap="` + nsSOAP11 + `"><soap:Body><ReadContact xmlns="` + fuzzNS + `"><id>1</id></ReadContact></soap:Body></soap:Envelope>trailing`,
	`<?xml version="1.0" encoding="iso-8859-1"?><soap:Envelope xmlns:soap="` + nsSOAP11 + `"><soap:Body><ReadContact xmlns="` + fuzzNS + `"><id>1</id></ReadContact></soap:Body></soap:Envelope>`,
	`<soap:Envelope xmlns:soap="` + nsSOAP12 + `"><soap:Body><ReadContact xmlns="` + fuzzNS + `"><id>1</id></ReadContact></soap:Body></soap:Envelope>`,
	`<soap:Envelope xmlns:soap="` + nsSOAP11 + `"><soap:Body><ReadContact xmlns="` + fuzzNS + `"><id>1` + "\r\n" + `</id></ReadContact></soap:Body></soap:Envelope>`,
}

func TestFastEnvelopeShapes(t *testing.T) {
	limits := DefaultLimits()
	for _, body := range fastShapes {
		want, werr := decodeEnvelopeXML([]byte(body), nsSOAP11, fuzzNS, limits)
		if werr != nil {
			t.Fatalf("the full decoder refuses a fast shape: %v\n%s", werr, body)
		}
		got, ok := fastDecodeEnvelope([]byte(body), nsSOAP11, fuzzNS, limits)
		if !ok {
			t.Errorf("the fast path did not take\n%s", body)
			continue
		}
		if got != want {
			t.Errorf("fast path %+v, full decoder %+v\n%s", got, want, body)
		}
	}
	for _, body := range slowShapes {
		if env, ok := fastDecodeEnvelope([]byte(body), nsSOAP11, fuzzNS, limits); ok {
			t.Errorf("the fast path took %+v from\n%s", env, body)
		}
	}
	// Every golden request of both SOAP versions takes the fast path.
	for _, v := range []struct {
		dir, envNS string
	}{{"soap11", nsSOAP11}, {"soap12", nsSOAP12}} {
		files, _ := filepath.Glob(filepath.Join("testdata", v.dir, "*.request.xml"))
		if len(files) == 0 {
			t.Fatalf("no golden requests in testdata/%s", v.dir)
		}
		for _, f := range files {
			body, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := fastDecodeEnvelope(body, v.envNS, fuzzNS, limits); !ok {
				t.Errorf("%s does not take the fast path", f)
			}
		}
	}
}

// FuzzFastEnvelope is the fast path's differential property: whenever it accepts a document, the full
// decoder accepts it too and returns the same envelope.
func FuzzFastEnvelope(f *testing.F) {
	for _, s := range append(append(append([]string{}, fastShapes...), slowShapes...), fuzzEnvelopeSeeds...) {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, body []byte, version12 bool) {
		envNS := nsSOAP11
		if version12 {
			envNS = nsSOAP12
		}
		got, ok := fastDecodeEnvelope(body, envNS, fuzzNS, DefaultLimits())
		if !ok {
			return
		}
		want, err := decodeEnvelopeXML(body, envNS, fuzzNS, DefaultLimits())
		if err != nil {
			t.Fatalf("fast path accepted what the full decoder refuses (%v): %q", err, body)
		}
		if got != want {
			t.Fatalf("fast path %+v, full decoder %+v: %q", got, want, body)
		}
	})
}
