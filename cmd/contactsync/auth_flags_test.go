package main

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/contactsync/contactsync/server/auth"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/bcrypt"
)

// TestAuthBcryptConcurrencySetting: --auth-bcrypt-concurrency reaches the authenticator; 0, its
// default, means half the CPUs (at least one).
func TestAuthBcryptConcurrencySetting(t *testing.T) {
	users := filepath.Join(t.TempDir(), "users")
	h, err := bcrypt.GenerateFromPassword([]byte("pw"), bcrypt.MinCost)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(users, []byte("alice:"+string(h)+"\n"), 0o600))
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, tc := range []struct{ set, want int }{{0, auth.DefaultBcryptConcurrency()}, {1, 1}, {3, 3}} {
		a, _, err := authOptions{usersFile: users, docs: "open", maxClockSkew: time.Minute, bcryptConcurrency: tc.set}.build(logger)
		require.NoError(t, err)
		assert.Equal(t, tc.want, a.BcryptConcurrency(), "set to %d", tc.set)
	}
	assert.GreaterOrEqual(t, auth.DefaultBcryptConcurrency(), 1)

	out, err := runCLI(t, "serve", "--help")
	require.NoError(t, err)
	assert.Contains(t, out, "--auth-bcrypt-concurrency")
}
