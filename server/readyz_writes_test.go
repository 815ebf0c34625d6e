package server_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"

	"github.com/contactsync/contactsync/server/observe"
	"github.com/contactsync/contactsync/server/store"
	"github.com/stretchr/testify/assert"
)

// writesFunc is an OpsConfig.Writes answering with a function.
type writesFunc func(ctx context.Context) error

func (f writesFunc) Writable(ctx context.Context) error { return f(ctx) }

// TestReadyzStoreNotWritable: /readyz fails with "store not writable" while the store's write health
// says so, never showing the cause, and is ready again as soon as it does not.
func TestReadyzStoreNotWritable(t *testing.T) {
	st := openSQLite(t)
	var writable error
	ops := observe.NewOps(observe.OpsConfig{Store: st, Writes: writesFunc(func(context.Context) error { return writable })})
	for _, tc := range []struct {
		name     string
		writable error
		status   int
		body     string
	}{
		{"writable", nil, 200, "ok\n"},
		{"disk full", errors.Join(store.ErrNotWritable, errors.New("database or disk is full /secret/path")), 503, "not ready: store not writable\n"},
		{"writable again", nil, 200, "ok\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			writable = tc.writable
			rec := httptest.NewRecorder()
			ops.ServeHTTP(rec, httptest.NewRequest("GET", observe.ReadyzPath, nil))
			assert.Equal(t, tc.status, rec.Code)
			assert.Equal(t, tc.body, rec.Body.String())
			if tc.status == 503 {
				assert.Equal(t, "1", rec.Header().Get("Retry-After"))
			}
		})
	}
}
