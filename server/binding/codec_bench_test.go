package binding_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/binding"
	"github.com/contactsync/contactsync/server/binding/httpform"
	"github.com/contactsync/contactsync/server/binding/soap"
	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/wsdl"
)

// These benchmarks time each binding's decoder and encoder on their own, without the handler, the
// store or net/http, to show which layer of the hot path costs what; they sit here, beside the
// interface every binding implements, to show the bindings side by side. The fixtures are the server
// root's golden request and response files (server/testdata/<binding>/ReadContact.*, which its
// TestGoldenWire keeps); each benchmark checks its result once before timing.

// codecFixture is one binding with its ReadContact request and expected response.
type codecFixture struct {
	name    string
	opName  string // what the path names, for the bindings that take it from there
	binding binding.Binding
	req     *http.Request
	body    []byte
	want    []byte // the golden ReadContact response
}

func codecFixtures(tb testing.TB) []codecFixture {
	tb.Helper()
	limits := soap.DefaultLimits()
	ns := wsdl.DefaultNamespace
	read := func(binding, file string) []byte {
		b, err := os.ReadFile(filepath.Join("..", "testdata", binding, file))
		if err != nil {
			tb.Fatal(err)
		}
		return b
	}
	soap11Req, _ := http.NewRequest("POST", "http://localhost:8080"+wsdl.Path, nil)
	soap11Req.Header.Set("Content-Type", "text/xml; charset=utf-8")
	soap11Req.Header.Set("SOAPAction", `"`+ns+`ReadContact"`)
	soap12Req, _ := http.NewRequest("POST", "http://localhost:8080"+wsdl.Path, nil)
	soap12Req.Header.Set("Content-Type", `application/soap+xml; charset=utf-8; action="`+ns+`ReadContact"`)
	getReq, _ := http.NewRequest("GET", "http://localhost:8080"+wsdl.Path+"/ReadContact?id=golden-1", nil)
	postReq, _ := http.NewRequest("POST", "http://localhost:8080"+wsdl.Path+"/ReadContact", nil)
	postReq.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return []codecFixture{
		{"soap11", "", soap.New(false, ns, limits, gen.Operations), soap11Req, read("soap11", "ReadContact.request.xml"), read("soap11", "ReadContact.response.xml")},
		{"soap12", "", soap.New(true, ns, limits, gen.Operations), soap12Req, read("soap12", "ReadContact.request.xml"), read("soap12", "ReadContact.response.xml")},
		{"get", "ReadContact", httpform.New(false, ns, gen.Operations), getReq, nil, read("get", "ReadContact.response.xml")},
		{"post", "ReadContact", httpform.New(true, ns, gen.Operations), postReq, []byte("id=golden-1"), read("post", "ReadContact.response.xml")},
	}
}

func BenchmarkDecode(b *testing.B) {
	for _, f := range codecFixtures(b) {
		b.Run(f.name+"/ReadContact", func(b *testing.B) {
			req, err := f.binding.Decode(f.req, f.opName, f.body)
			if err != nil || req.Op.Name != "ReadContact" || req.Msg.(*gen.ReadContact).Id != "golden-1" {
				b.Fatalf("decode: %v, %+v", err, req)
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(f.body)))
			for b.Loop() {
				_, _ = f.binding.Decode(f.req, f.opName, f.body)
			}
		})
	}
}

// bodyWriter is a reusable ResponseWriter for the encoder benchmarks.
type bodyWriter struct {
	header http.Header
	body   []byte
}

func (w *bodyWriter) Header() http.Header { return w.header }
func (w *bodyWriter) WriteHeader(int)     {}
func (w *bodyWriter) Write(p []byte) (int, error) {
	w.body = append(w.body, p...)
	return len(p), nil
}

func BenchmarkEncode(b *testing.B) {
	op := wire.Lookup(gen.Operations, "ReadContact")
	res := &gen.ReadContactResponse{ReadContactResult: service.TestContact("golden-1")}
	for _, f := range codecFixtures(b) {
		b.Run(f.name+"/ReadContact", func(b *testing.B) {
			w := &bodyWriter{header: http.Header{}}
			f.binding.WriteResult(w, op, res)
			if string(w.body) != string(f.want) {
				b.Fatalf("encoded response differs from the golden file:\n%s", w.body)
			}
			b.ReportAllocs()
			for b.Loop() {
				w.body = w.body[:0]
				f.binding.WriteResult(w, op, res)
			}
		})
	}
}

// BenchmarkEncodeFault measures the error path, which clients hit on every unknown id.
func BenchmarkEncodeFault(b *testing.B) {
	e := fault.Errorf(fault.NotFound, "Contact %q does not exist.", "golden-1")
	for _, f := range codecFixtures(b) {
		b.Run(f.name+"/NotFound", func(b *testing.B) {
			w := &bodyWriter{header: http.Header{}}
			f.binding.WriteError(w, e)
			if !strings.Contains(string(w.body), "does not exist") {
				b.Fatalf("fault body: %s", w.body)
			}
			b.ReportAllocs()
			for b.Loop() {
				w.body = w.body[:0]
				f.binding.WriteError(w, e)
			}
		})
	}
}

// TestCodecFixtures runs the codec benchmarks' checks as a test.
func TestCodecFixtures(t *testing.T) {
	op := wire.Lookup(gen.Operations, "ReadContact")
	res := &gen.ReadContactResponse{ReadContactResult: service.TestContact("golden-1")}
	for _, f := range codecFixtures(t) {
		t.Run(f.name, func(t *testing.T) {
			req, err := f.binding.Decode(f.req, f.opName, f.body)
			if err != nil || req.Op != op || req.Msg.(*gen.ReadContact).Id != "golden-1" {
				t.Fatalf("decode: %v, %+v", err, req)
			}
			w := &bodyWriter{header: http.Header{}}
			f.binding.WriteResult(w, op, res)
			if string(w.body) != string(f.want) {
				t.Fatalf("encoded response differs from the golden file:\n%s", w.body)
			}
		})
	}
}
