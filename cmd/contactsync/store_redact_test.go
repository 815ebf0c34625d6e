package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store/backend"
	"github.com/contactsync/contactsync/server/store/stores"
)

// TestUnknownStoreErrorHidesPassword: a --store value that is not recognised (a mistyped scheme, a
// URL without its scheme) may still hold a database password; serve and migrate name the value in
// their error, which goes to the terminal and to process supervisors' logs, so the password must not
// be in it.
func TestUnknownStoreErrorHidesPassword(t *testing.T) {
	clearSettingsEnv(t)
	for _, spec := range []string{
		"postgress://u:s3cret@h/db",
		"Postgres://u:s3cret@h/db",
		"pg://u:s3cret@h:5432/db?sslmode=disable",
		"hots=h user=u password=s3cret dbname=db",
		"u:s3cret@h/db",
		"postgres:u:s3cret@h/db",
	} {
		t.Run(spec, func(t *testing.T) {
			_, _, err := stores.Registry.Open(t.Context(), spec, nil, backend.Write)
			require.ErrorContains(t, err, "unknown store")
			assert.NotContains(t, err.Error(), "s3cret", "serve's error shows the password")
			_, err = runCLI(t, "migrate", "--store", spec)
			require.ErrorContains(t, err, "unknown store")
			assert.NotContains(t, err.Error(), "s3cret", "migrate's error shows the password")
			assert.NotContains(t, stores.Registry.Redact(spec), "s3cret")
		})
	}
	// What has no password is still named as given, so the mistake can be seen.
	assert.Equal(t, "mysql://x", stores.Registry.Redact("mysql://x"))
	assert.Equal(t, "sqlite:a.db", stores.Registry.Redact("sqlite:a.db"))
}

// TestKeywordDSNIsPostgres: libpq's key=value DSN, which has no scheme (a replicated PostgreSQL is
// often named host=a,b …), is recognised by the PostgreSQL backend, and its password is masked
// wherever the value is shown, even when the database cannot be reached.
func TestKeywordDSNIsPostgres(t *testing.T) {
	clearSettingsEnv(t)
	for _, tc := range []struct{ spec, redacted string }{
		{"host=a,b dbname=db target_session_attrs=read-write", "host=a,b dbname=db target_session_attrs=read-write"},
		{"  dbname = db password=s3cret host=h", "dbname=db password=xxxxx host=h"},
		{"user=u password='s3 cret\\'s' host=h", "user=u password=xxxxx host=h"},
		{"host=h password='s3cret", "…"}, // an unclosed quote: not shown at all
	} {
		t.Run(tc.spec, func(t *testing.T) {
			assert.Equal(t, "postgres", stores.Registry.Kind(tc.spec))
			assert.Equal(t, tc.redacted, stores.Registry.Redact(tc.spec))
		})
	}
	spec := "host=127.0.0.1 port=1 user=u password=s3cret dbname=db sslmode=disable connect_timeout=1"
	_, err := runCLI(t, "migrate", "--store", spec)
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "unknown store", "the key=value DSN is PostgreSQL's")
	assert.NotContains(t, err.Error(), "s3cret")
	assert.Contains(t, err.Error(), "password=xxxxx")
}

// TestStoreSettingMessages: a store setting's error names the setting it came from (copy's --from, not
// --store), shows an empty value as empty (not as "…", which reads as a hidden password), and a backup
// into a missing directory names the directory, not the temporary file made in it.
func TestStoreSettingMessages(t *testing.T) {
	clearSettingsEnv(t)
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "c.db")
	_, err := runCLI(t, "migrate", "--store", db)
	require.NoError(t, err)
	missing := "sqlite:" + filepath.Join(dir, "missing.db")
	to := "sqlite:" + filepath.Join(dir, "to.db")
	const empty = `the value is empty: name a store; use sqlite:PATH or postgres://…`
	cases := []struct {
		name   string
		args   []string
		want   string
		absent string // what the message must not say
	}{
		{"backup, empty --store", []string{"backup", "--store", "", "--to", filepath.Join(dir, "b.db")}, `--store "": ` + empty, "…:"},
		{"migrate, empty --store", []string{"migrate", "--store", ""}, `--store "": ` + empty, "…:"},
		{"export, empty --store", []string{"export", "--store", ""}, `--store "": ` + empty, "…:"},
		{"import, empty --store", []string{"import", "--store", ""}, `--store "": ` + empty, "…:"},
		{"copy, empty --from", []string{"copy", "--from", "", "--to", to}, `--from "": ` + empty, "--store"},
		{"copy, empty --to", []string{"copy", "--from", db, "--to", ""}, "--to is required", "--store"},
		{"copy from a missing file", []string{"copy", "--from", missing, "--to", to},
			"--from " + missing + ": the database file " + filepath.Join(dir, "missing.db") + " does not exist; check the path", "--store"},
		{"export from a missing file", []string{"export", "--store", missing},
			"--store " + missing + ": the database file " + filepath.Join(dir, "missing.db") + " does not exist; check the path", "--from"},
		{"backup into a missing directory", []string{"backup", "--store", db, "--to", filepath.Join(dir, "nodir", "b.db")},
			"the directory " + filepath.Join(dir, "nodir") + " does not exist: create it (mkdir -p " + filepath.Join(dir, "nodir") + ")", ".tmp"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := runData(t, "", tc.args...)
			require.Error(t, r.err)
			assert.Contains(t, r.err.Error(), tc.want)
			assert.NotContains(t, r.err.Error(), tc.absent)
		})
	}
	assert.NoFileExists(t, filepath.Join(dir, "missing.db"))
	assert.NoFileExists(t, filepath.Join(dir, "to.db"))
}
