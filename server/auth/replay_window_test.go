package auth_test

import (
	"encoding/base64"
	"fmt"
	"testing"
	"time"

	"github.com/contactsync/contactsync/server/auth"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReplayAtTheEdgeOfTheWindow: a token is fresh up to and including the instant its Created time is
// MaxClockSkew old, so its nonce must be remembered up to and including that instant too; otherwise the
// token can be replayed exactly then.
func TestReplayAtTheEdgeOfTheWindow(t *testing.T) {
	for _, replayAfter := range []time.Duration{0, time.Minute, 5*time.Minute - time.Nanosecond, 5 * time.Minute} {
		t.Run(replayAfter.String(), func(t *testing.T) {
			f := newFixture(t)
			created := f.now.Format(time.RFC3339Nano)
			nonce := []byte(fmt.Sprint("nonce-", replayAfter))
			tok := &auth.UsernameToken{Username: "dave", Password: auth.Digest(nonce, created, "dave-pw"), PasswordType: auth.PasswordDigest,
				Nonce: base64.StdEncoding.EncodeToString(nonce), HasNonce: true, Created: created, HasCreated: true}
			require.NoError(t, f.a.VerifyToken(tok))
			f.now = f.now.Add(replayAfter)
			err := f.a.VerifyToken(tok)
			require.Error(t, err, "the token was accepted twice")
			assert.ErrorIs(t, err, auth.ErrReplayed)
		})
	}
}
