package auth_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/auth"
)

// TestSetUsers: a reload of the users file takes effect at once: a changed password is refused even
// though the old one was cached, a removed user is refused, and a user added after a failed attempt is
// not refused for the failure remembered from before.
func TestSetUsers(t *testing.T) {
	f := newFixture(t)
	require.NoError(t, f.a.Verify("alice", "alice-pw"))
	require.ErrorIs(t, f.a.Verify("bob", "bob-pw"), auth.ErrBadCredentials, "bob is not a user yet")

	users, err := auth.ParseUsers(strings.NewReader("alice:" + hashOf(t, "new-pw") + "\nbob:" + hashOf(t, "bob-pw") + "\n"))
	require.NoError(t, err)
	f.a.SetUsers(users)

	assert.Same(t, users, f.a.Users())
	assert.ErrorIs(t, f.a.Verify("alice", "alice-pw"), auth.ErrBadCredentials, "the old password, cached before, is refused")
	assert.NoError(t, f.a.Verify("alice", "new-pw"))
	assert.NoError(t, f.a.Verify("bob", "bob-pw"), "the failure remembered from before bob was added is forgotten")
	assert.ErrorIs(t, f.a.Verify("dave", "dave-pw"), auth.ErrBadCredentials, "a removed user is refused")
}
