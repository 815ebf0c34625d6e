package zoo_test

import (
	"bytes"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/backend"
	"github.com/contactsync/contactsync/server/store/postgres/pgtest"
	"github.com/contactsync/contactsync/server/store/stores"
	"github.com/contactsync/contactsync/server/transfer"
	"github.com/contactsync/contactsync/server/wire/recordwire"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/attrs"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/hierattrs"
)

// TestTaggedRecordStores: a record holding attributes ("@Code", "@rev", "@When": [XmlAttribute]) and
// text ("$text" of Price and Remark: [XmlText]) goes export -> import into SQLite -> copy to
// PostgreSQL -> export unchanged, in both record formats, as the data commands move it: each step
// reads the documents back through the record codec, so PostgreSQL's jsonb key order does not
// matter, and the last export is the first byte for byte. migrate --check's field count reaches the
// "@" and "$" keys on both stores (SQLite's quoted JSON path, PostgreSQL's text[] path).
func TestTaggedRecordStores(t *testing.T) {
	plain := &attrs.Tagged{Name: "plain"}
	var recs []store.Record
	for _, v := range []*attrs.Tagged{fullTagged(), plain} {
		recs = append(recs, store.Record{Key: v.RecordKey(), Index: v.RecordIndex(), Doc: v.AppendRecord(nil)})
	}
	checkRecordStores(t, attrs.TaggedRecord, recs, map[string]int64{"@Code": 2, "@When": 1, "Price.$text": 1, "Remark.@Lang": 1})
}

// TestShelfRecordStores: a record holding derived values with attributes (zoo/hierattrs: "$type",
// then the base chain's "@Id" and "@rev" and the derived type's own) moves through both formats and
// both stores unchanged, as TestTaggedRecordStores; migrate --check's count reaches the base's and
// a derived type's attributes of a polymorphic field.
func TestShelfRecordStores(t *testing.T) {
	var recs []store.Record
	for main := range shelfItems() {
		v := makeShelf(main)
		v.Id = v.Id + string(rune('a'+main))
		recs = append(recs, store.Record{Key: v.RecordKey(), Index: v.RecordIndex(), Doc: v.AppendRecord(nil)})
	}
	checkRecordStores(t, hierattrs.ShelfRecord, recs, map[string]int64{"Main.@rev": 3, "Main.@Sharp": 1, "Main.@Lid": 1, "Spare.@Sharp": 3})
}

// checkRecordStores moves recs export -> import into SQLite -> copy to PostgreSQL -> export in both
// record formats and requires them unchanged; counts are migrate --check's counts of records holding
// each field path, on both stores.
func checkRecordStores(t *testing.T, rt *recordwire.Type, recs []store.Record, counts map[string]int64) {
	t.Helper()
	types := rt.FieldTypes()
	fields := make([]store.Field, len(rt.Fields))
	for i, p := range rt.Fields {
		fields[i] = store.Field{Path: p, Type: types[i]}
	}
	schema := transfer.Schema{Type: rt}
	export := func(t *testing.T, format transfer.Format, rs []store.Record) []byte {
		var buf bytes.Buffer
		enc, err := transfer.NewEncoder(&buf, format, schema)
		require.NoError(t, err)
		for _, r := range rs {
			require.NoError(t, enc.Encode(r))
		}
		require.NoError(t, enc.Flush())
		return buf.Bytes()
	}
	// scan reads a store's records in key order, each through the record codec as export reads it.
	scan := func(t *testing.T, st backend.Store) []store.Record {
		var out []store.Record
		require.NoError(t, st.Scan(t.Context(), func(r store.Record) error {
			v, err := rt.Decode(r.Doc, recordwire.Lenient)
			require.NoError(t, err, "%s", r.Doc)
			out = append(out, store.Record{Key: r.Key, Index: r.Index, Doc: v.AppendRecord(nil)})
			return nil
		}))
		sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
		return out
	}
	open := func(t *testing.T, spec string) backend.Store {
		st, _, err := stores.Registry.Open(t.Context(), spec, nil, backend.Write)
		require.NoError(t, err)
		t.Cleanup(func() { _ = st.Close() })
		_, err = st.SyncFields(t.Context(), fields)
		require.NoError(t, err)
		return st
	}
	for _, format := range []transfer.Format{transfer.JSONL, transfer.CSV} {
		t.Run(string(format), func(t *testing.T) {
			first := export(t, format, recs)
			sqlite := open(t, "sqlite:"+filepath.Join(t.TempDir(), "tagged.db"))
			dec, err := transfer.NewDecoder(bytes.NewReader(first), format, schema, transfer.DecodeOptions{})
			require.NoError(t, err)
			for range recs {
				got, err := dec.Next()
				require.NoError(t, err)
				require.NoError(t, got.Err)
				require.NoError(t, sqlite.Put(t.Context(), got.Record))
			}
			postgres := open(t, pgtest.Schema(t))
			for _, r := range scan(t, sqlite) {
				require.NoError(t, postgres.Put(t.Context(), r))
			}
			copied := scan(t, postgres)
			want := append([]store.Record(nil), recs...)
			sort.Slice(want, func(i, j int) bool { return want[i].Key < want[j].Key })
			require.Len(t, copied, len(want))
			for i := range want {
				assert.Equal(t, string(want[i].Doc), string(copied[i].Doc))
				assert.Equal(t, want[i].Index, copied[i].Index)
			}
			assert.Equal(t, string(export(t, format, want)), string(export(t, format, copied)), "the last export is the first")
			for name, st := range map[string]backend.Store{"sqlite": sqlite, "postgres": postgres} {
				for path, n := range counts {
					got, err := st.CountField(t.Context(), path)
					require.NoError(t, err, "%s %s", name, path)
					assert.Equal(t, n, got, "%s: records holding %s", name, path)
				}
			}
		})
	}
}
