package sqlite_test

import (
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/migrate"
	"github.com/contactsync/contactsync/server/store/sqlite"
)

// migrationsUpTo returns the embedded migrations of versions up to v.
func migrationsUpTo(t *testing.T, all fs.FS, v int) fs.FS {
	t.Helper()
	ms, err := migrate.Load(all)
	require.NoError(t, err)
	out := fstest.MapFS{}
	for _, m := range ms {
		if m.Version <= v {
			out[m.File] = &fstest.MapFile{Data: []byte(m.SQL)}
		}
	}
	return out
}

// TestMigrationToDocuments writes contacts in version 3's columns, then opens the store, which
// converts them to documents (migration 0004): every field is kept, in the canonical form (keys in
// schema order, the role ids as an array), and record_fields names the eight fields.
func TestMigrationToDocuments(t *testing.T) {
	path := tempPath(t)
	db := rawDB(t, path)
	_, err := migrate.Up(t.Context(), db, migrationsUpTo(t, sqlite.Migrations(), 3), migrate.QuestionMark)
	require.NoError(t, err)
	_, err = db.ExecContext(t.Context(), `INSERT INTO contacts VALUES
		('c1', 'acc-1', 'Zoë', 'O''Brien "x"', '+1', '+2', 'z@example.com', '["r1","r\"2","<&>"]'),
		('c2', 'acc-1', '', '', '', '', '', '[]'),
		('ид', 'acc-2', 'line
break', '', '', '', '', '[]')`)
	require.NoError(t, err)
	require.NoError(t, db.Close())

	s := open(t, path)
	for key, want := range map[string]string{
		"c1": `{"Id":"c1","AccountId":"acc-1","FirstName":"Zoë","LastName":"O'Brien \"x\"","PhoneMobile":"+1","PhoneWork":"+2","EmailAddress":"z@example.com","RoleIds":["r1","r\"2","<&>"]}`,
		"c2": `{"Id":"c2","AccountId":"acc-1","FirstName":"","LastName":"","PhoneMobile":"","PhoneWork":"","EmailAddress":"","RoleIds":[]}`,
		"ид": `{"Id":"ид","AccountId":"acc-2","FirstName":"line\nbreak","LastName":"","PhoneMobile":"","PhoneWork":"","EmailAddress":"","RoleIds":[]}`,
	} {
		got, err := s.Get(t.Context(), key)
		require.NoError(t, err)
		assert.Equal(t, want, string(got.Doc), "%s: keys in schema order, compact", key)
	}
	list, err := s.ListByIndex(t.Context(), "acc-1", "", 10)
	require.NoError(t, err)
	require.Len(t, list, 2)
	assert.Equal(t, "c1", list[0].Key)
	fields, err := s.StoredFields(t.Context())
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"Id", "AccountId", "FirstName", "LastName", "PhoneMobile", "PhoneWork", "EmailAddress", "RoleIds"}, store.Paths(fields))
}

// TestMigrationIndexValue writes records in version 4's layout, then opens the store, which renames
// the indexed column and rebuilds its index under the new name (migration 0005): every record reads
// back unchanged, the list query finds them, and no index of the old name is left.
func TestMigrationIndexValue(t *testing.T) {
	path := tempPath(t)
	db := rawDB(t, path)
	_, err := migrate.Up(t.Context(), db, migrationsUpTo(t, sqlite.Migrations(), 4), migrate.QuestionMark)
	require.NoError(t, err)
	_, err = db.ExecContext(t.Context(), `INSERT INTO contacts (id, account_id, doc) VALUES
		('c1', 'acc-1', '{"Id":"c1","AccountId":"acc-1"}'), ('c2', 'acc-1', '{"Id":"c2","AccountId":"acc-1"}'),
		('c3', 'acc-2', '{"Id":"c3","AccountId":"acc-2"}')`)
	require.NoError(t, err)
	require.NoError(t, db.Close())

	s := open(t, path)
	got, err := s.Get(t.Context(), "c3")
	require.NoError(t, err)
	assert.Equal(t, store.Record{Key: "c3", Index: "acc-2", Doc: []byte(`{"Id":"c3","AccountId":"acc-2"}`)}, got)
	list, err := s.ListByIndex(t.Context(), "acc-1", "", 10)
	require.NoError(t, err)
	require.Len(t, list, 2)
	assert.Equal(t, []string{"c1", "c2"}, []string{list[0].Key, list[1].Key})
	require.NoError(t, s.Close())

	db = rawDB(t, path)
	var indexes []string
	rows, err := db.QueryContext(t.Context(), `SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'contacts' AND sql IS NOT NULL ORDER BY name`)
	require.NoError(t, err)
	for rows.Next() {
		var name string
		require.NoError(t, rows.Scan(&name))
		indexes = append(indexes, name)
	}
	require.NoError(t, rows.Err())
	assert.Equal(t, []string{"contacts_by_index"}, indexes)
}

// TestMigrationFieldTypes: migration 0006 keeps version 5's recorded fields, their types not known
// yet, on a store holding records, and empties them on an empty store (which version 4 seeded with
// the eight fields of its day), so a fresh store follows its contract.
func TestMigrationFieldTypes(t *testing.T) {
	for _, withRecords := range []bool{false, true} {
		path := tempPath(t)
		db := rawDB(t, path)
		_, err := migrate.Up(t.Context(), db, migrationsUpTo(t, sqlite.Migrations(), 5), migrate.QuestionMark)
		require.NoError(t, err)
		if withRecords {
			_, err = db.ExecContext(t.Context(), `INSERT INTO contacts (id, index_value, doc) VALUES ('c1', 'acc-1', '{"Id":"c1"}')`)
			require.NoError(t, err)
		}
		require.NoError(t, db.Close())

		s := open(t, path)
		fields, err := s.StoredFields(t.Context())
		require.NoError(t, err)
		if !withRecords {
			assert.Empty(t, fields, "an empty store records nothing")
			continue
		}
		assert.Len(t, fields, 8)
		for _, f := range fields {
			assert.Empty(t, f.Type, "%s: not known yet", f.Path)
		}
		report, err := s.SyncFields(t.Context(), []store.Field{{Path: "Id", Type: "xsd:string"}})
		require.NoError(t, err)
		assert.Len(t, report.Carried, 7)
		fields, err = s.StoredFields(t.Context())
		require.NoError(t, err)
		assert.Contains(t, fields, store.Field{Path: "Id", Type: "xsd:string"}, "filled in by the first sync")
	}
}
