package zoo_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/zoohdr"
)

// FuzzHdrEnvelope holds the SOAP binding's header pass and the generated header decoders (the
// blocks recorded, re-read with the Envelope's namespace declarations, decoded into the request
// after routing) to what any envelope must get: an answer that is a success or the client's fault,
// never an internal error (a panic is one), and a well-formed document either way. Seeds: every
// captured SOAP 1.1 request of the header contract.
func FuzzHdrEnvelope(f *testing.F) {
	files, _ := filepath.Glob("testdata/hdr/captures/soap11-*.txt")
	for _, file := range files {
		c, err := parseCaptureFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(c.reqBody, c.request.Header.Get("SOAPAction"))
	}
	h, err := server.NewHandler(zoohdr.Bind(attrsService{}), server.Config{BaseURL: zooBaseURL})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte, action string) {
		req := httptest.NewRequest(http.MethodPost, "/contactsync/v1/sync.asmx", bytes.NewReader(body))
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

// parseCaptureFile reads one capture file.
func parseCaptureFile(file string) (*capture, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return parseCapture(strings.TrimSuffix(filepath.Base(file), ".txt"), data)
}
