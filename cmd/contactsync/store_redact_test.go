package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store/postgres"
)

// TestUnknownStoreErrorHidesPassword: a --store value that is not recognised (a mistyped scheme, a
// key=value DSN) may still hold a database password; serve and migrate name the value in their error,
// which goes to the terminal and to process supervisors' logs, so the password must not be in it.
func TestUnknownStoreErrorHidesPassword(t *testing.T) {
	clearSettingsEnv(t)
	for _, spec := range []string{
		"postgress://u:s3cret@h/db",
		"Postgres://u:s3cret@h/db",
		"pg://u:s3cret@h:5432/db?sslmode=disable",
		"host=h user=u password=s3cret dbname=db",
		"u:s3cret@h/db",
		"postgres:u:s3cret@h/db",
	} {
		t.Run(spec, func(t *testing.T) {
			_, _, err := openStoreFor(t.Context(), spec, postgres.Options{}, writeStore)
			require.ErrorContains(t, err, "unknown store")
			assert.NotContains(t, err.Error(), "s3cret", "serve's error shows the password")
			_, err = runCLI(t, "migrate", "--store", spec)
			require.ErrorContains(t, err, "unknown store")
			assert.NotContains(t, err.Error(), "s3cret", "migrate's error shows the password")
			assert.NotContains(t, redactStore(spec), "s3cret")
		})
	}
	// What has no password is still named as given, so the mistake can be seen.
	assert.Equal(t, "mysql://x", redactStore("mysql://x"))
	assert.Equal(t, "sqlite:a.db", redactStore("sqlite:a.db"))
}
