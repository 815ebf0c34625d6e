package postgres_test

import (
	"encoding/json"
	"testing"
	"testing/fstest"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
	assert.ElementsMatch(t, []string{"Id", "AccountId", "FirstName", "LastName", "PhoneMobile", "PhoneWork", "EmailAddress", "RoleIds"}, fields)
}
