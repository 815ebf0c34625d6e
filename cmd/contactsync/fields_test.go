package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/backend"
	"github.com/contactsync/contactsync/server/store/postgres/pgtest"
	"github.com/contactsync/contactsync/server/store/stores"
	"github.com/contactsync/contactsync/wsdl"
)

// fieldStores are the stores the field tests run on.
var fieldStores = []struct {
	name string
	spec func(t *testing.T) string
}{
	{"sqlite", func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "c.db") }},
	{"postgres", func(t *testing.T) string { return pgtest.Schema(t) }},
}

// syncedBuffer is a bytes.Buffer safe for the concurrent writes of a logger.
type syncedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestFieldsCarried plays a contract edit that renamed a text field, renamed below (the contract's last
// text field: EmailAddress in contract 1.0; the stored records say OfficePhone, as if written by the
// contract before the rename) and removed a field Legacy, on both stores: serve
// starts, warning with both fields named and the command that counts them; TestUpdateContact keeps
// both in the records it rewrites; migrate --check counts the records holding each, and succeeds;
// --rename and --drop are refused for a field of the contract or one the store does not hold;
// migrate --rename OfficePhone=<renamed> --drop Legacy rewrites the records, after which every
// binding reads the renamed field's values.
func TestFieldsCarried(t *testing.T) {
	for _, tc := range fieldStores {
		t.Run(tc.name, func(t *testing.T) {
			texts := textFields(t)
			renamed, other := texts[len(texts)-1], texts[0]
			spec := tc.spec(t)
			st, _, err := stores.Registry.Open(t.Context(), spec, nil, backend.Write)
			require.NoError(t, err)
			// Records as the older contract wrote them: OfficePhone where the contract now has
			// renamed, and a Legacy field, recorded in record_fields as that contract would have.
			older := append(withoutField(contractFields(), renamed), store.Field{Path: "OfficePhone", Type: "xsd:string"}, store.Field{Path: "Legacy", Type: "complex:Legacy"})
			report, err := st.SyncFields(t.Context(), older)
			require.NoError(t, err)
			require.Equal(t, store.FieldsReport{}, report)
			for i, id := range []string{"a", "b", "c"} {
				c := service.TestContact(id)
				doc := service.ToRecord(c)
				doc.Doc = []byte(strings.Replace(string(doc.Doc), `"`+renamed+`":`, `"OfficePhone":`, 1))
				if i < 2 {
					doc.Doc = []byte(strings.Replace(string(doc.Doc), `{`, `{"Legacy":{"x":[1]},`, 1))
				}
				require.NoError(t, st.Put(t.Context(), doc))
			}
			require.NoError(t, st.Close())

			var log syncedBuffer
			opts := serveOptions{addr: "127.0.0.1:0", store: spec, baseURL: wsdl.DefaultBaseURL, shutdownTimeout: 5 * time.Second}
			addr, cancel, done := launchServe(t, opts, slog.New(slog.NewTextHandler(&log, nil)))
			c := &gen.SyncServiceSoapClient{Invoker: &client.Client{Endpoint: "http://" + addr.String() + wsdl.Path, Namespace: wsdl.DefaultNamespace, Binding: client.SOAP11}}
			_, err = c.TestUpdateContact(&gen.TestUpdateContact{Id: "a"})
			require.NoError(t, err)
			cancel()
			require.NoError(t, <-done)
			assert.Contains(t, log.String(), "level=WARN")
			assert.Contains(t, log.String(), `fields="Legacy, OfficePhone"`)
			assert.Contains(t, log.String(), "--check")
			st, _, err = stores.Registry.Open(t.Context(), spec, nil, backend.Write)
			require.NoError(t, err)
			got, err := st.Get(t.Context(), "a")
			require.NoError(t, err)
			// Record a now holds the renamed field (the update wrote it) and OfficePhone: the rename below would
			// be refused for it ("values at both"); this test renames the other records.
			_, err = st.Delete(t.Context(), "a")
			require.NoError(t, err)
			require.NoError(t, st.Close())
			var doc map[string]any
			require.NoError(t, json.Unmarshal(got.Doc, &doc))
			assert.Equal(t, "Updated", doc["FirstName"], "the update applied")
			assert.Equal(t, map[string]any{"x": []any{float64(1)}}, doc["Legacy"], "the update carried Legacy")
			var written map[string]any
			require.NoError(t, json.Unmarshal(service.ToRecord(service.TestContact("a")).Doc, &written))
			assert.Equal(t, written[renamed], doc["OfficePhone"], "the update carried OfficePhone")

			out, err := runCLI(t, "migrate", "--store", spec, "--check")
			require.NoError(t, err, "carried fields are not an error: %s", out)
			assert.Contains(t, out, "Legacy: not in the contract, carried; 1 records hold a value\n")
			assert.Contains(t, out, "OfficePhone: not in the contract, carried; 2 records hold a value\n")

			for _, args := range [][]string{
				{"--rename", renamed + "=OfficePhone"}, // from a field of the contract
				{"--rename", "OfficePhone=Nowhere"},    // to a field the contract lacks
				{"--rename", "Missing=" + other},       // from a field the store does not hold
				{"--rename", "OfficePhone"},
				{"--drop", other}, // a field of the contract, under its type
				{"--drop", "Missing"},
			} {
				_, err := runCLI(t, append([]string{"migrate", "--store", spec}, args...)...)
				assert.Error(t, err, "%v", args)
			}

			out, err = runCLI(t, "migrate", "--store", spec, "--rename", "OfficePhone="+renamed, "--drop", "Legacy", "--check")
			require.NoError(t, err)
			assert.Contains(t, out, "renamed OfficePhone to "+renamed+" in 2 records\n")
			assert.Contains(t, out, "dropped Legacy from 1 records\n")
			assert.Contains(t, out, "every field the stored records may hold is in the contract, with its type\n")

			endpoint := startServeOpts(t, serveOptions{store: spec})
			for _, binding := range []client.Binding{client.SOAP11, client.SOAP12, client.HTTPGet, client.HTTPPost} {
				c := &gen.SyncServiceSoapClient{Invoker: &client.Client{Endpoint: endpoint, Namespace: wsdl.DefaultNamespace, Binding: binding}}
				for _, id := range []string{"b", "c"} {
					got, err := c.ReadContact(&gen.ReadContact{Id: id})
					require.NoError(t, err, "%s %s", binding, id)
					// As the contract carries it: the record documents (an enumeration's zero value is
					// its first, a dateTime its lexical form).
					require.NotNil(t, got.ReadContactResult, "%s %s", binding, id)
					assert.Equal(t, string(service.TestContact(id).AppendRecord(nil)), string(got.ReadContactResult.AppendRecord(nil)), "%s %s", binding, id)
				}
			}
		})
	}
}

// TestFieldTypeChanged plays a contract edit that changed a field's type under the same name
// (records hold FirstName as an int, recorded so): serve, import to the store, copy from it and plain
// migrate refuse, naming the field, both types and the commands; migrate --check counts the records
// and fails; migrate --drop FirstName removes the values, after which serve starts.
func TestFieldTypeChanged(t *testing.T) {
	for _, tc := range fieldStores {
		t.Run(tc.name, func(t *testing.T) {
			spec := tc.spec(t)
			st, _, err := stores.Registry.Open(t.Context(), spec, nil, backend.Write)
			require.NoError(t, err)
			older := append(withoutField(contractFields(), "FirstName"), store.Field{Path: "FirstName", Type: "xsd:int"})
			_, err = st.SyncFields(t.Context(), older)
			require.NoError(t, err)
			for _, id := range []string{"a", "b"} {
				r := service.TestRecord(id)
				r.Doc = []byte(strings.Replace(string(r.Doc), `"FirstName":"Test"`, `"FirstName":7`, 1))
				require.NoError(t, st.Put(t.Context(), r))
			}
			require.NoError(t, st.Close())

			err = runServe(t.Context(), serveOptions{addr: "127.0.0.1:0", store: spec, baseURL: wsdl.DefaultBaseURL},
				slog.New(slog.NewTextHandler(io.Discard, nil)))
			var typeErr *FieldTypeError
			require.ErrorAs(t, err, &typeErr)
			assert.Equal(t, []store.TypeChange{{Path: "FirstName", Stored: "xsd:int", Contract: "xsd:string"}}, typeErr.Changed)
			for _, want := range []string{"FirstName (stored as xsd:int, the contract has xsd:string)", "migrate --store", "--check", "--drop Field"} {
				assert.Contains(t, err.Error(), want)
			}
			_, err = runCLIStdin(t, "", "import", "--store", spec)
			assert.ErrorAs(t, err, &typeErr, "import refuses too")
			_, err = runCLI(t, "copy", "--from", spec, "--to", "sqlite:"+filepath.Join(t.TempDir(), "copy.db"))
			assert.ErrorAs(t, err, &typeErr, "copy refuses such a source")
			_, err = runCLI(t, "migrate", "--store", spec)
			assert.ErrorAs(t, err, &typeErr, "migrate reports it before serve would")

			out, err := runCLI(t, "migrate", "--store", spec, "--check")
			require.Error(t, err)
			assert.Contains(t, out, "FirstName: stored as xsd:int, the contract has xsd:string; 2 records hold a value\n")

			out, err = runCLI(t, "migrate", "--store", spec, "--drop", "FirstName", "--check")
			require.NoError(t, err, out)
			assert.Contains(t, out, "dropped FirstName from 2 records\n")
			endpoint := startServeOpts(t, serveOptions{store: spec})
			c := &gen.SyncServiceSoapClient{Invoker: &client.Client{Endpoint: endpoint, Namespace: wsdl.DefaultNamespace, Binding: client.SOAP11}}
			got, err := c.ReadContact(&gen.ReadContact{Id: "a"})
			require.NoError(t, err)
			assert.Empty(t, got.ReadContactResult.FirstName)
		})
	}
}

// withoutField returns fields without f.
func withoutField(fields []store.Field, f string) []store.Field {
	var out []store.Field
	for _, x := range fields {
		if x.Path != f {
			out = append(out, x)
		}
	}
	return out
}

// TestServeWiringOffersTheWholeStore: the store as serve wires it (write health, observability, any
// test wrapper) is the whole store.Store, and every method reaches the backend: the service could
// list an account's records, scan, count or write a batch with no type assertion.
func TestServeWiringOffersTheWholeStore(t *testing.T) {
	var wired store.Store
	spec := "sqlite:" + filepath.Join(t.TempDir(), "c.db")
	startServeOpts(t, serveOptions{store: spec, wired: func(s store.Store) { wired = s }})
	require.NotNil(t, wired)
	ctx := context.Background()
	r := service.TestRecord("w-1")
	require.NoError(t, wired.Put(ctx, r))
	got, err := wired.Get(ctx, "w-1")
	require.NoError(t, err)
	assert.Equal(t, r.Index, got.Index)
	_, err = wired.Update(ctx, "w-1", func(x store.Record) (store.Record, error) { return x, nil })
	require.NoError(t, err)
	list, err := wired.ListByIndex(ctx, r.Index, "", 10)
	require.NoError(t, err)
	require.Len(t, list, 1)
	res, err := wired.WriteBatch(ctx, []store.Record{service.TestRecord("w-2")}, store.InsertOnly)
	require.NoError(t, err)
	assert.Equal(t, 1, res.Inserted)
	n, err := wired.Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, int64(2), n)
	var keys []string
	require.NoError(t, wired.Scan(ctx, func(x store.Record) error { keys = append(keys, x.Key); return nil }))
	assert.Equal(t, []string{"w-1", "w-2"}, keys)
	require.NoError(t, wired.Ping(ctx))
	require.NoError(t, wired.ProbeWrite(ctx))
	_, err = wired.Delete(ctx, "w-2")
	require.NoError(t, err)
	_, err = wired.Get(ctx, "w-2")
	assert.True(t, errors.Is(err, store.ErrNotFound))
}

// TestImportKeepsUnknownFields: a JSON Lines field the contract does not have is refused by import,
// kept with --keep-unknown (and recorded, so serve names it), kept without the flag once the store
// records it, and exported again; a CSV export refuses the record, naming the field.
func TestImportKeepsUnknownFields(t *testing.T) {
	clearSettingsEnv(t)
	spec := "sqlite:" + filepath.Join(t.TempDir(), "c.db")
	// Legacy is a field of no contract the suite's edits play.
	line := `{"Id":"k1","Legacy":"2001-02-03T00:00:00Z"}` + "\n"
	r := runData(t, line, "import", "--store", spec)
	require.Error(t, r.err)
	assert.Contains(t, r.stderr, `line 1: unknown field "Legacy"`)

	r = runData(t, line, "import", "--store", spec, "--keep-unknown")
	require.NoError(t, r.err, r.stderr)
	assert.Contains(t, r.stderr, "kept fields the contract does not have, as unknown fields: Legacy")
	// The record as the contract writes it, then the kept member.
	plain := "sqlite:" + filepath.Join(t.TempDir(), "plain.db")
	require.NoError(t, runData(t, `{"Id":"k1"}`+"\n", "import", "--store", plain).err)
	want := strings.TrimSuffix(exportOf(t, plain, "jsonl"), "}\n") + `,"Legacy":"2001-02-03T00:00:00Z"}` + "\n"
	assert.Equal(t, want, exportOf(t, spec, "jsonl"))
	r = runData(t, "", "export", "--store", spec, "--format", "csv")
	require.Error(t, r.err)
	assert.Contains(t, r.err.Error(), "(Legacy)")

	r = runData(t, `{"Id":"k2","Legacy":"2002-02-03T00:00:00Z"}`+"\n", "import", "--store", spec)
	require.NoError(t, r.err, "the store records Legacy: %s", r.stderr)
	assert.Contains(t, r.stderr, "warning: "+carriedWarning+": Legacy")
	st, _, err := stores.Registry.Open(t.Context(), spec, nil, backend.Write)
	require.NoError(t, err)
	defer st.Close()
	stored, err := st.StoredFields(t.Context())
	require.NoError(t, err)
	assert.Contains(t, stored, store.Field{Path: "Legacy"})
}
