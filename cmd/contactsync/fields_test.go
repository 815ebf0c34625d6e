package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

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

// TestFieldsGone plays a contract edit that renamed a text field, renamed below (the contract's last
// text field: EmailAddress in contract 1.0; the stored records say OfficePhone, as if written by the
// contract before the rename) and removed a field Legacy, on both stores: serve
// refuses to start, naming both fields and the commands; migrate --check counts the records holding
// each; --rename and --drop are refused for a field of the contract or one the store does not hold;
// migrate --rename OfficePhone=<renamed> --drop Legacy rewrites the records, after which serve
// starts and every binding reads the renamed field's values.
func TestFieldsGone(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "c.db") }},
		{"postgres", func(t *testing.T) string { return pgtest.Schema(t) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			texts := textFields(t)
			renamed, other := texts[len(texts)-1], texts[0]
			spec := tc.spec(t)
			st, _, err := stores.Registry.Open(t.Context(), spec, nil, backend.Write)
			require.NoError(t, err)
			// Records as the older contract wrote them: OfficePhone where the contract now has
			// renamed, and a Legacy field, recorded in record_fields as that contract would have.
			_, err = st.DropField(t.Context(), renamed) // the older contract had none
			require.NoError(t, err)
			gone, err := st.SyncFields(t.Context(), append(withoutField(contractFields(), renamed), "OfficePhone", "Legacy"))
			require.NoError(t, err)
			require.Empty(t, gone)
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

			err = runServe(t.Context(), serveOptions{addr: "127.0.0.1:0", store: spec, baseURL: wsdl.DefaultBaseURL},
				slog.New(slog.NewTextHandler(io.Discard, nil)))
			var goneErr *FieldsGoneError
			require.ErrorAs(t, err, &goneErr)
			assert.Equal(t, []string{"Legacy", "OfficePhone"}, goneErr.Gone)
			for _, want := range []string{"Legacy, OfficePhone", "migrate", "--check", "--rename Old=New", "--drop Field"} {
				assert.Contains(t, err.Error(), want)
			}

			out, err := runCLI(t, "migrate", "--store", spec, "--check")
			require.Error(t, err, "--check fails while fields are gone")
			assert.Contains(t, out, "Legacy: not in the contract; 2 records hold a value\n")
			assert.Contains(t, out, "OfficePhone: not in the contract; 3 records hold a value\n")

			for _, args := range [][]string{
				{"--rename", renamed + "=OfficePhone"}, // from a field of the contract
				{"--rename", "OfficePhone=Nowhere"},    // to a field the contract lacks
				{"--rename", "Missing=" + other},       // from a field the store does not hold
				{"--rename", "OfficePhone"},
				{"--drop", other}, // a field of the contract
				{"--drop", "Missing"},
			} {
				_, err := runCLI(t, append([]string{"migrate", "--store", spec}, args...)...)
				assert.Error(t, err, "%v", args)
			}

			out, err = runCLI(t, "migrate", "--store", spec, "--rename", "OfficePhone="+renamed, "--drop", "Legacy", "--check")
			require.NoError(t, err)
			assert.Contains(t, out, "renamed OfficePhone to "+renamed+" in 3 records\n")
			assert.Contains(t, out, "dropped Legacy from 2 records\n")
			assert.Contains(t, out, "every field the stored records may hold is in the contract\n")

			endpoint := startServeOpts(t, serveOptions{store: spec})
			for _, binding := range []client.Binding{client.SOAP11, client.SOAP12, client.HTTPGet, client.HTTPPost} {
				c := &gen.SyncServiceSoapClient{Invoker: &client.Client{Endpoint: endpoint, Namespace: wsdl.DefaultNamespace, Binding: binding}}
				for _, id := range []string{"a", "b", "c"} {
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

// withoutField returns fields without f.
func withoutField(fields []string, f string) []string {
	var out []string
	for _, x := range fields {
		if x != f {
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
