package server_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/store/sqlite"
	"github.com/contactsync/contactsync/wsdl"
)

// BenchmarkHandlerJSON is BenchmarkHandler for the JSON endpoint: one request through server.Handler
// per iteration, the endpoint served beside the four bindings, each answer checked once against its
// golden file.
func BenchmarkHandlerJSON(b *testing.B) {
	st, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "contacts.db"))
	require.NoError(b, err)
	b.Cleanup(func() { _ = st.Close() })
	require.NoError(b, st.Put(context.Background(), service.TestRecord(benchID)))
	h, err := server.NewHandler(gen.Bind(service.New(st)), server.Config{BaseURL: wsdl.DefaultBaseURL, Protocols: allProtocols,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	require.NoError(b, err)
	for _, op := range benchOperations {
		b.Run(op, func(b *testing.B) {
			body := []byte(`{}`)
			if op != "VersionMajor" {
				body = []byte(`{"id":"` + benchID + `"}`)
			}
			rd := bytes.NewReader(body)
			req, err := http.NewRequestWithContext(b.Context(), http.MethodPost, "http://localhost:8080"+wsdl.Path+"/"+op, rd)
			require.NoError(b, err)
			req.Header.Set("Content-Type", "application/json; charset=utf-8")
			w := &discardWriter{header: http.Header{}}
			serve := func() {
				rd.Reset(body)
				req.Body = io.NopCloser(rd)
				req.ContentLength = int64(len(body))
				w.reset()
				h.ServeHTTP(w, req)
			}
			serve()
			require.Equal(b, http.StatusOK, w.status, "%s", w.body)
			want, err := os.ReadFile(filepath.Join("testdata", "json", op+".response.json"))
			require.NoError(b, err)
			require.Equal(b, string(want), string(w.body))
			b.ReportAllocs()
			for b.Loop() {
				serve()
			}
		})
	}
}
