package soap

import (
	"mime"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/binding"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
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
	// xsi:nil on a parameter, declared on the element itself.
	`<soap:Envelope xmlns:soap="` + nsSOAP11 + `"><soap:Body><ReadContact xmlns="` + fuzzNS + `"><id xsi:nil="true" xmlns:xsi="` + nsXSI + `"></id></ReadContact></soap:Body></soap:Envelope>`,
}

// slowShapes must each go to the full decoder: things the fast path leaves alone by design.
var slowShapes = []string{
	`<soap:Envelope xmlns:soap="` + nsSOAP11 + `"><soap:Header/><soap:Body><ReadContact xmlns="` + fuzzNS + `"><id>1</id></ReadContact></soap:Body></soap:Envelope>`,
	`<soap:Envelope xmlns:soap="` + nsSOAP11 + `"><soap:Body><ReadContact xmlns="` + fuzzNS + `"><id>a&amp;b</id></ReadContact></soap:Body></soap:Envelope>`,
	`<soap:Envelope xmlns:soap="` + nsSOAP11 + `"><soap:Body><!-- c --><ReadContact xmlns="` + fuzzNS + `"><id>1</id></ReadContact></soap:Body></soap:Envelope>`,
	`<soap:Envelope xmlns:soap="` + nsSOAP11 + `"><soap:Body><ReadContact xmlns="` + fuzzNS + `"><id><![CDATA[1]]></id></ReadContact></soap:Body></soap:Envelope>`,
	`<soap:Envelope xmlns:soap="` + nsSOAP11 + `"><soap:Body><ReadContact xmlns="` + fuzzNS + `"><id>1</id><id>2</id></ReadContact></soap:Body></soap:Envelope>`,
	`<soap:Envelope xmlns:soap="` + nsSOAP11 + `"><soap:Body><ReadContact xmlns="` + fuzzNS + `"><id>1</id></ReadContact></soap:Body></soap:Envelope>trailing`,
	`<?xml version="1.0" encoding="iso-8859-1"?><soap:Envelope xmlns:soap="` + nsSOAP11 + `"><soap:Body><ReadContact xmlns="` + fuzzNS + `"><id>1</id></ReadContact></soap:Body></soap:Envelope>`,
	`<soap:Envelope xmlns:soap="` + nsSOAP12 + `"><soap:Body><ReadContact xmlns="` + fuzzNS + `"><id>1</id></ReadContact></soap:Body></soap:Envelope>`,
	`<soap:Envelope xmlns:soap="` + nsSOAP11 + `"><soap:Body><ReadContact xmlns="` + fuzzNS + `"><id>1` + "\r\n" + `</id></ReadContact></soap:Body></soap:Envelope>`,
}

// fastParse and fullParse decode an envelope with one mode of the reader each.
func fastParse(body []byte, version12 bool) (request, error) {
	b := New(version12, fuzzNS, DefaultLimits(), gen.Operations)
	return b.parseWith(xmlwire.NewReader(body, fuzzNS, b.limits, true), nil)
}

func fullParse(body []byte, version12 bool) (request, error) {
	b := New(version12, fuzzNS, DefaultLimits(), gen.Operations)
	return b.parseWith(xmlwire.NewReader(body, fuzzNS, b.limits, false), nil)
}

func TestFastEnvelopeShapes(t *testing.T) {
	for _, body := range fastShapes {
		want, werr := fullParse([]byte(body), false)
		if werr != nil {
			t.Fatalf("the full decoder refuses a fast shape: %v\n%s", werr, body)
		}
		got, err := fastParse([]byte(body), false)
		if err != nil {
			t.Errorf("the fast path did not take (%v)\n%s", err, body)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("fast path %+v, full decoder %+v\n%s", got, want, body)
		}
	}
	for _, body := range slowShapes {
		if req, err := fastParse([]byte(body), false); err == nil {
			t.Errorf("the fast path took %+v from\n%s", req, body)
		}
	}
	// Every golden request of both SOAP versions (server/testdata, the root package's golden files)
	// takes the fast path.
	for _, v := range []struct {
		dir       string
		version12 bool
	}{{"soap11", false}, {"soap12", true}} {
		files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", v.dir, "*.request.xml"))
		if len(files) == 0 {
			t.Fatalf("no golden requests in testdata/%s", v.dir)
		}
		for _, f := range files {
			body, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := fastParse(body, v.version12); err != nil {
				t.Errorf("%s does not take the fast path: %v", f, err)
			}
		}
	}
}

// FuzzFastEnvelope is the fast path's differential property: whenever it accepts a document, the full
// decoder accepts it too and decodes the same request (operation, generated request value, security
// header).
func FuzzFastEnvelope(f *testing.F) {
	for _, s := range append(append(append([]string{}, fastShapes...), slowShapes...), fuzzEnvelopeSeeds...) {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, body []byte, version12 bool) {
		got, err := fastParse(body, version12)
		want, fullErr := fullParse(body, version12)
		if err != nil {
			// Errors of the document's meaning (a repeated parameter, a bad value) are found alike by
			// both modes; everything else makes the fast path step aside.
			if err != xmlwire.ErrFallback && (fullErr == nil || err.Error() != fullErr.Error()) {
				t.Fatalf("the fast path reported %v, the full decoder %v: %q", err, fullErr, body)
			}
			return
		}
		// The parse budget is checked only when the fast path steps aside, so the fast path must never
		// accept a document the budget refuses.
		if berr := checkXMLBudget(body, DefaultLimits()); berr != nil {
			t.Fatalf("the fast path accepted a document over the parse budget (%v): %q", berr, body)
		}
		if err = fullErr; err != nil {
			t.Fatalf("fast path accepted what the full decoder refuses (%v): %q", err, body)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("fast path %+v, full decoder %+v: %q", got, want, body)
		}
	})
}

// TestSOAPMediaTypeFastPath checks that the SOAP content types binding.ReadContentType recognises
// without mime.ParseMediaType get the media type mime.ParseMediaType gives, which routes them.
func TestSOAPMediaTypeFastPath(t *testing.T) {
	for _, ct := range []string{
		"text/xml; charset=utf-8", "text/xml; charset=UTF-8", "text/xml;charset=utf-8", "text/xml",
		"TEXT/XML; charset=utf-8", "application/soap+xml; charset=utf-8; action=\"x\"", "text/xml; charset", "", "text/plain",
	} {
		want, _, _ := mime.ParseMediaType(ct)
		if got := binding.ReadContentType(ct).MediaType; got != want {
			t.Errorf("ReadContentType(%q).MediaType = %q, mime.ParseMediaType says %q", ct, got, want)
		}
	}
}
