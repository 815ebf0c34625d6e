package server_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/wsdl"
)

// TestRoutingMatrix pins how the assembled handler answers every kind of request, under every set of
// protocols --protocols can serve: which binding takes it, or the status, Allow, content type and
// message of the 404, 405 and 415 answered when none does. testdata/routing.golden was written by the
// handler before the bindings declared their own routes (issue 25), so a difference is a change of
// behaviour; -update rewrites it.
func TestRoutingMatrix(t *testing.T) {
	names := []string{"soap11", "soap12", "get", "post", "json", "docs"}
	soap11 := soapEnvelope(false, ns, "VersionMinor", "")
	soap12 := soapEnvelope(true, ns, "VersionMinor", "")
	type request struct{ method, path, contentType, body string }
	requests := []request{
		{"GET", "", "", ""},
		{"HEAD", "?WSDL", "", ""},
		{"GET", "?disco", "", ""},
		{"POST", "", "text/xml; charset=utf-8", soap11},
		{"POST", "", "TEXT/XML", soap11},
		{"POST", "", "text/xml; charset", soap11},
		{"POST", "", "application/soap+xml; charset=utf-8", soap12},
		{"POST", "", "application/json", "{}"},
		{"POST", "", "application/x-www-form-urlencoded", "id=1"},
		{"POST", "", "", soap11},
		{"DELETE", "", "", ""},
		{"PUT", "", "text/xml", soap11},
		{"OPTIONS", "", "", ""},
		{"GET", "/VersionMajor", "", ""},
		{"HEAD", "/VersionMajor", "", ""},
		{"GET", "/VersionMajor", "application/json", ""},
		{"GET", "/VersionMajor", "text/plain", ""},
		{"POST", "/VersionMajor", "application/x-www-form-urlencoded", ""},
		{"POST", "/VersionMajor", "application/json; charset=utf-8", "{}"},
		{"POST", "/VersionMajor", "Application/JSON", "{}"},
		{"POST", "/VersionMajor", "application/json; charset", "{}"},
		{"POST", "/VersionMajor", "application/json; charset=utf-16", "{}"},
		{"POST", "/VersionMajor", "text/plain", "x"},
		{"POST", "/VersionMajor", "", ""},
		{"PUT", "/VersionMajor", "", ""},
		{"PUT", "/VersionMajor", "application/json", "{}"},
		{"DELETE", "/VersionMajor", "application/x-www-form-urlencoded", ""},
		{"GET", "/Nope", "", ""},
		{"POST", "/Nope", "application/json", "{}"},
		{"GET", "/", "", ""},
		{"GET", "/../elsewhere", "", ""},
	}
	var out strings.Builder
	for set := 1; set < 1<<len(names); set++ {
		var protocols []string
		for i, n := range names {
			if set&(1<<i) != 0 {
				protocols = append(protocols, n)
			}
		}
		h, err := server.NewHandler(gen.Bind(service.New(nil)), server.Config{BaseURL: wsdl.DefaultBaseURL, Protocols: protocols,
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		require.NoError(t, err)
		fmt.Fprintf(&out, "--protocols %s\n", strings.Join(protocols, ","))
		for _, q := range requests {
			r := httptest.NewRequest(q.method, "http://example.com"+wsdl.Path+q.path, strings.NewReader(q.body))
			if q.contentType != "" {
				r.Header.Set("Content-Type", q.contentType)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			body := w.Body.String()
			if len(body) > 200 {
				sum := sha256.Sum256(w.Body.Bytes())
				body = fmt.Sprintf("%d bytes, sha256 %s", len(body), hex.EncodeToString(sum[:8]))
			}
			fmt.Fprintf(&out, "  %s %s [%s] -> %d Allow=%q Content-Type=%q jsonerror=%q %q\n", q.method, q.path, q.contentType,
				w.Code, w.Header().Get("Allow"), w.Header().Get("Content-Type"), w.Header().Get("jsonerror"), body)
		}
	}
	golden(t, filepath.Join("testdata", "routing.golden"), out.String())
}
