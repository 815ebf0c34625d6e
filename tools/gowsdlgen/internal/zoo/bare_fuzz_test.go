package zoo_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/bare"
)

// FuzzBareEnvelope holds the SOAP binding's reading of bare bodies (routed by the SOAPAction, or
// without one by the first body element and read again as that operation, package server/bare) to
// what any envelope must get: a success or the client's fault, never an internal error (a panic is
// one), and a well-formed answer either way. Seeds: every captured SOAP 1.1 request of the bare
// contract, with and without their action.
func FuzzBareEnvelope(f *testing.F) {
	files, _ := filepath.Glob("testdata/bare/captures/soap11-*.txt")
	for _, file := range files {
		c, err := parseCaptureFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(c.reqBody, c.request.Header.Get("SOAPAction"))
		f.Add(c.reqBody, "")
	}
	h, err := server.NewHandler(bare.Bind(bareTwin{}), server.Config{BaseURL: zooBaseURL})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte, action string) {
		req := httptest.NewRequest(http.MethodPost, bare.Contract.Path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "text/xml; charset=utf-8")
		req.Header.Set("SOAPAction", strings.ToValidUTF8(strings.Map(func(r rune) rune {
			if r < 0x20 || r == 0x7f {
				return -1
			}
			return r
		}, action), ""))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		got := rec.Body.String()
		if rec.Code != http.StatusOK && (strings.Contains(got, "<faultcode>soap:Server</faultcode>") || rec.Code != http.StatusInternalServerError) {
			t.Fatalf("%d %s for %q", rec.Code, got, body)
		}
		d := xml.NewDecoder(strings.NewReader(got))
		for {
			_, err := d.Token()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("the answer is not well-formed (%v): %s", err, got)
			}
		}
	})
}
