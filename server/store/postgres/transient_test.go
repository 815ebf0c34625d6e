package postgres_test

import (
	"errors"
	"fmt"
	"net"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/assert"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/postgres"
)

// TestTransient: serve waits for a database that is not reachable yet or is starting up, and fails at
// once for what only a person can fix: a wrong password, a role that may not log in, a missing
// database, or a statement error.
func TestTransient(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"connection refused", fmt.Errorf("postgres: migrate: connect: %w", refused), true},
		{"classified unavailable", fmt.Errorf("postgres: open: %w: x", store.ErrUnavailable), true},
		{"starting up (57P03)", &pgconn.PgError{Code: "57P03"}, true},
		{"too many connections (53300)", &pgconn.PgError{Code: "53300"}, true},
		{"wrong password (28P01)", &pgconn.PgError{Code: "28P01"}, false},
		{"no such role (28000)", &pgconn.PgError{Code: "28000"}, false},
		{"no such database (3D000)", fmt.Errorf("explained: %w", &pgconn.PgError{Code: "3D000"}), false},
		{"no such database, classified", fmt.Errorf("postgres: %w: %w", store.ErrUnavailable, &pgconn.PgError{Code: "3D000"}), false},
		{"syntax error (42601)", &pgconn.PgError{Code: "42601"}, false},
		{"other", errors.New("schema too new"), false},
	} {
		assert.Equal(t, tc.want, postgres.Backend{}.Transient(tc.err), tc.name)
	}
}
