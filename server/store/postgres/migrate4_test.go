package postgres_test

import (
	"encoding/json"
	"testing"
	"testing/fstest"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/migrate"
	"github.com/contactsync/contactsync/server/store/postgres"
	"github.com/contactsync/contactsync/server/store/postgres/pgtest"
)

// TestMigrationToDocuments writes contacts in version 3's columns, then opens the store, which
// converts them to documents (migration 0004): every field is kept, the role ids as an array, and
// record_fields names the eight fields.
func TestMigrationToDocuments(t *testing.T) {
	dsn := pgtest.Schema(t)
	cfg, err := pgx.ParseConfig(dsn)
	require.NoError(t, err)
	db := stdlib.OpenDB(*cfg)
	defer db.Close()
	ms, err := migrate.Load(postgres.Migrations())
	require.NoError(t, err)
	upTo3 := fstest.MapFS{}
	for _, m := range ms {
		if m.Version <= 3 {
			upTo3[m.File] = &fstest.MapFile{Data: []byte(m.SQL)}
		}
	}
	_, err = migrate.Up(t.Context(), db, upTo3, migrate.Dollar)
	require.NoError(t, err)
	_, err = db.ExecContext(t.Context(), `INSERT INTO contacts VALUES
		('c1', 'acc-1', 'Zoë', 'O''Brien "x"', '+1', '+2', 'z@example.com', ARRAY['r1', 'r"2', '<&>']),
		('c2', 'acc-1', '', '', '', '', '', '{}'),
		('ид', 'acc-2', E'line\nbreak', '', '', '', '', '{}')`)
	require.NoError(t, err)

	s := open(t, dsn, postgres.Options{})
	for key, want := range map[string]string{
		"c1": `{"Id":"c1","AccountId":"acc-1","FirstName":"Zoë","LastName":"O'Brien \"x\"","PhoneMobile":"+1","PhoneWork":"+2","EmailAddress":"z@example.com","RoleIds":["r1","r\"2","<&>"]}`,
		"c2": `{"Id":"c2","AccountId":"acc-1","FirstName":"","LastName":"","PhoneMobile":"","PhoneWork":"","EmailAddress":"","RoleIds":[]}`,
		"ид": `{"Id":"ид","AccountId":"acc-2","FirstName":"line\nbreak","LastName":"","PhoneMobile":"","PhoneWork":"","EmailAddress":"","RoleIds":[]}`,
	} {
		got, err := s.Get(t.Context(), key)
		require.NoError(t, err)
		var w, g any
		require.NoError(t, json.Unmarshal([]byte(want), &w))
		require.NoError(t, json.Unmarshal(got.Doc, &g), "%s", got.Doc)
		assert.Equal(t, w, g, key)
		assert.Equal(t, w.(map[string]any)["AccountId"], got.Index)
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
// the indexed column and its index (migration 0005): every record reads back unchanged, the list
// query finds them, and the index carries its new name only.
func TestMigrationIndexValue(t *testing.T) {
	dsn := pgtest.Schema(t)
	cfg, err := pgx.ParseConfig(dsn)
	require.NoError(t, err)
	db := stdlib.OpenDB(*cfg)
	defer db.Close()
	ms, err := migrate.Load(postgres.Migrations())
	require.NoError(t, err)
	upTo4 := fstest.MapFS{}
	for _, m := range ms {
		if m.Version <= 4 {
			upTo4[m.File] = &fstest.MapFile{Data: []byte(m.SQL)}
		}
	}
	_, err = migrate.Up(t.Context(), db, upTo4, migrate.Dollar)
	require.NoError(t, err)
	_, err = db.ExecContext(t.Context(), `INSERT INTO contacts (id, account_id, doc) VALUES
		('c1', 'acc-1', '{"Id":"c1","AccountId":"acc-1"}'), ('c2', 'acc-1', '{"Id":"c2","AccountId":"acc-1"}'),
		('c3', 'acc-2', '{"Id":"c3","AccountId":"acc-2"}')`)
	require.NoError(t, err)

	s := open(t, dsn, postgres.Options{})
	got, err := s.Get(t.Context(), "c3")
	require.NoError(t, err)
	assert.Equal(t, "acc-2", got.Index)
	assert.JSONEq(t, `{"Id":"c3","AccountId":"acc-2"}`, string(got.Doc))
	list, err := s.ListByIndex(t.Context(), "acc-1", "", 10)
	require.NoError(t, err)
	require.Len(t, list, 2)
	assert.Equal(t, []string{"c1", "c2"}, []string{list[0].Key, list[1].Key})

	var indexes []string
	rows, err := db.QueryContext(t.Context(), `SELECT indexname FROM pg_indexes
		WHERE schemaname = current_schema() AND tablename = 'contacts' ORDER BY indexname`)
	require.NoError(t, err)
	for rows.Next() {
		var name string
		require.NoError(t, rows.Scan(&name))
		indexes = append(indexes, name)
	}
	require.NoError(t, rows.Err())
	assert.Equal(t, []string{"contacts_by_index", "contacts_id_bytes", "contacts_pkey"}, indexes)
}

// TestMigrationFieldTypes: migration 0006 keeps version 5's recorded fields, their types not known
// yet, on a store holding records, and empties them on an empty store (which version 4 seeded with
// the eight fields of its day), so a fresh store follows its contract.
func TestMigrationFieldTypes(t *testing.T) {
	ms, err := migrate.Load(postgres.Migrations())
	require.NoError(t, err)
	upTo5 := fstest.MapFS{}
	for _, m := range ms {
		if m.Version <= 5 {
			upTo5[m.File] = &fstest.MapFile{Data: []byte(m.SQL)}
		}
	}
	for _, withRecords := range []bool{false, true} {
		dsn := pgtest.Schema(t)
		cfg, err := pgx.ParseConfig(dsn)
		require.NoError(t, err)
		db := stdlib.OpenDB(*cfg)
		_, err = migrate.Up(t.Context(), db, upTo5, migrate.Dollar)
		require.NoError(t, err)
		if withRecords {
			_, err = db.ExecContext(t.Context(), `INSERT INTO contacts (id, index_value, doc) VALUES ('c1', 'acc-1', '{"Id":"c1"}')`)
			require.NoError(t, err)
		}
		require.NoError(t, db.Close())

		s := open(t, dsn, postgres.Options{})
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
