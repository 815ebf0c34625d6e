package migrate_test

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	_ "modernc.org/sqlite"

	"github.com/contactsync/contactsync/server/store/migrate"
)

// newDB returns an empty SQLite database in a temporary file.
func newDB(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "test.db"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// files builds a migration file system from name → SQL pairs.
func files(kv ...string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for i := 0; i < len(kv); i += 2 {
		fsys[kv[i]] = &fstest.MapFile{Data: []byte(kv[i+1])}
	}
	return fsys
}

// versions lists the versions of ms.
func versions(ms []migrate.Migration) []int {
	vs := []int{}
	for _, m := range ms {
		vs = append(vs, m.Version)
	}
	return vs
}

// recorded lists the versions in db's schema_migrations table, in order.
func recorded(t *testing.T, db *sql.DB) []int {
	t.Helper()
	rows, err := db.QueryContext(t.Context(), `SELECT version FROM schema_migrations ORDER BY version`)
	require.NoError(t, err)
	defer rows.Close()
	vs := []int{}
	for rows.Next() {
		var v int
		require.NoError(t, rows.Scan(&v))
		vs = append(vs, v)
	}
	require.NoError(t, rows.Err())
	return vs
}

// tableExists reports whether db has a table called name.
func tableExists(t *testing.T, db *sql.DB, name string) bool {
	t.Helper()
	var n int
	require.NoError(t, db.QueryRowContext(t.Context(),
		`SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?`, name).Scan(&n))
	return n == 1
}

func TestPlaceholders(t *testing.T) {
	for _, tc := range []struct {
		ph   migrate.Placeholder
		n    int
		want string
	}{
		{migrate.QuestionMark, 1, "?"},
		{migrate.QuestionMark, 2, "?"},
		{migrate.Dollar, 1, "$1"},
		{migrate.Dollar, 12, "$12"},
	} {
		assert.Equal(t, tc.want, tc.ph(tc.n))
	}
}

func TestLoad(t *testing.T) {
	for _, tc := range []struct {
		name    string
		fsys    fstest.MapFS
		want    []int
		wantErr string
	}{
		{
			name: "NumericOrder",
			fsys: files("10_ten.sql", "", "0002_two.sql", "", "9_nine.sql", "", "0001_one.sql", ""),
			want: []int{1, 2, 9, 10},
		},
		{
			name: "OtherFilesIgnored",
			fsys: files("0001_one.sql", "", "README.md", "", "0002_two.sql.orig", "", "sub/0003_x.sql", ""),
			want: []int{1},
		},
		{name: "Empty", fsys: files(), want: []int{}},
		{name: "BadName", fsys: files("create.sql", ""), wantErr: "create.sql: name is not NNNN_name.sql"},
		{name: "NoName", fsys: files("0001.sql", ""), wantErr: "0001.sql: name is not NNNN_name.sql"},
		{name: "VersionZero", fsys: files("0000_zero.sql", ""), wantErr: "version must be a positive integer"},
		{
			name:    "DuplicateVersion",
			fsys:    files("0001_a.sql", "", "1_b.sql", ""),
			wantErr: "have the same version 1",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ms, err := migrate.Load(tc.fsys)
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, versions(ms))
		})
	}
}

func TestLoadKeepsFileAndSQL(t *testing.T) {
	ms, err := migrate.Load(files("0003_add_things.sql", "CREATE TABLE things (x);"))
	require.NoError(t, err)
	require.Len(t, ms, 1)
	assert.Equal(t, migrate.Migration{Version: 3, File: "0003_add_things.sql", SQL: "CREATE TABLE things (x);"}, ms[0])
}

func TestUpAppliesInOrder(t *testing.T) {
	db := newDB(t)
	// Each migration depends on the one before it, so any other order fails.
	fsys := files(
		"0010_c.sql", `INSERT INTO t (a, b) VALUES (1, 2);`,
		"0002_b.sql", `ALTER TABLE t ADD COLUMN b INTEGER;`,
		"0001_a.sql", `CREATE TABLE t (a INTEGER); CREATE INDEX t_a ON t (a);`,
	)
	applied, err := migrate.Up(t.Context(), db, fsys, migrate.QuestionMark)
	require.NoError(t, err)
	assert.Equal(t, []int{1, 2, 10}, versions(applied))
	assert.Equal(t, []int{1, 2, 10}, recorded(t, db))

	var b int
	require.NoError(t, db.QueryRowContext(t.Context(), `SELECT b FROM t WHERE a = 1`).Scan(&b))
	assert.Equal(t, 2, b)
}

func TestUpIsIdempotent(t *testing.T) {
	db := newDB(t)
	fsys := files(
		"0001_a.sql", `CREATE TABLE t (a INTEGER);`,
		"0002_b.sql", `INSERT INTO t VALUES (1);`,
	)
	_, err := migrate.Up(t.Context(), db, fsys, migrate.QuestionMark)
	require.NoError(t, err)
	var appliedAt string
	require.NoError(t, db.QueryRowContext(t.Context(),
		`SELECT applied_at FROM schema_migrations WHERE version = 2`).Scan(&appliedAt))

	for range 2 {
		applied, err := migrate.Up(t.Context(), db, fsys, migrate.QuestionMark)
		require.NoError(t, err)
		assert.Empty(t, applied)
	}
	var n int
	require.NoError(t, db.QueryRowContext(t.Context(), `SELECT count(*) FROM t`).Scan(&n))
	assert.Equal(t, 1, n, "the INSERT ran once")
	var again string
	require.NoError(t, db.QueryRowContext(t.Context(),
		`SELECT applied_at FROM schema_migrations WHERE version = 2`).Scan(&again))
	assert.Equal(t, appliedAt, again)
}

func TestUpAppliesOnlyNewMigrations(t *testing.T) {
	db := newDB(t)
	one := files("0001_a.sql", `CREATE TABLE t (a INTEGER);`)
	_, err := migrate.Up(t.Context(), db, one, migrate.QuestionMark)
	require.NoError(t, err)

	two := files("0001_a.sql", `CREATE TABLE t (a INTEGER);`, "0002_b.sql", `CREATE TABLE u (b INTEGER);`)
	applied, err := migrate.Up(t.Context(), db, two, migrate.QuestionMark)
	require.NoError(t, err)
	assert.Equal(t, []int{2}, versions(applied))
	assert.True(t, tableExists(t, db, "u"))
}

func TestUpAppliesLateMigrationBelowMaximum(t *testing.T) {
	db := newDB(t)
	_, err := migrate.Up(t.Context(), db, files(
		"0001_a.sql", `CREATE TABLE t (a INTEGER);`,
		"0003_c.sql", `CREATE TABLE v (c INTEGER);`,
	), migrate.QuestionMark)
	require.NoError(t, err)

	applied, err := migrate.Up(t.Context(), db, files(
		"0001_a.sql", `CREATE TABLE t (a INTEGER);`,
		"0002_b.sql", `CREATE TABLE u (b INTEGER);`,
		"0003_c.sql", `CREATE TABLE v (c INTEGER);`,
	), migrate.QuestionMark)
	require.NoError(t, err)
	assert.Equal(t, []int{2}, versions(applied))
	assert.Equal(t, []int{1, 2, 3}, recorded(t, db))
}

func TestUpFailureRollsBackThatMigration(t *testing.T) {
	db := newDB(t)
	broken := files(
		"0001_good.sql", `CREATE TABLE t (a INTEGER);`,
		// The first statement succeeds; the second fails, so the whole file must be undone.
		"0002_broken.sql", `CREATE TABLE u (b INTEGER); INSERT INTO no_such_table VALUES (1);`,
		"0003_later.sql", `CREATE TABLE v (c INTEGER);`,
	)
	applied, err := migrate.Up(t.Context(), db, broken, migrate.QuestionMark)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "0002_broken.sql", "the error names the failing file")
	assert.Contains(t, err.Error(), "no_such_table", "the error keeps the driver's reason")
	assert.Equal(t, []int{1}, versions(applied), "Up reports what it did apply")

	assert.Equal(t, []int{1}, recorded(t, db))
	assert.True(t, tableExists(t, db, "t"), "the migration before the failure stays applied")
	assert.False(t, tableExists(t, db, "u"), "the failing migration was rolled back")
	assert.False(t, tableExists(t, db, "v"), "migrations after the failure did not run")

	fixed := files(
		"0001_good.sql", `CREATE TABLE t (a INTEGER);`,
		"0002_broken.sql", `CREATE TABLE u (b INTEGER);`,
		"0003_later.sql", `CREATE TABLE v (c INTEGER);`,
	)
	applied, err = migrate.Up(t.Context(), db, fixed, migrate.QuestionMark)
	require.NoError(t, err)
	assert.Equal(t, []int{2, 3}, versions(applied))
	assert.Equal(t, []int{1, 2, 3}, recorded(t, db))
}

func TestUpRefusesNewerDatabase(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fsys  fstest.MapFS
		known int
	}{
		{"OlderBinary", files("0001_a.sql", `CREATE TABLE t (a INTEGER);`), 1},
		{"NoMigrations", files(), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := newDB(t)
			_, err := migrate.Up(t.Context(), db, files(
				"0001_a.sql", `CREATE TABLE t (a INTEGER);`,
				"0002_b.sql", `CREATE TABLE u (b INTEGER);`,
			), migrate.QuestionMark)
			require.NoError(t, err)

			applied, err := migrate.Up(t.Context(), db, tc.fsys, migrate.QuestionMark)
			require.Error(t, err)
			assert.Empty(t, applied)
			var tooNew *migrate.SchemaTooNewError
			require.ErrorAs(t, err, &tooNew)
			assert.Equal(t, &migrate.SchemaTooNewError{Database: 2, Known: tc.known}, tooNew)
			assert.EqualError(t, err,
				fmt.Sprintf("database schema version 2 is newer than this binary knows (%d)", tc.known))
		})
	}
}

func TestUpBadFileSystem(t *testing.T) {
	_, err := migrate.Up(t.Context(), newDB(t), files("bad.sql", ""), migrate.QuestionMark)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "bad.sql")
}
