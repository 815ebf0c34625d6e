package sqlite_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/sqlite"
	"github.com/contactsync/contactsync/server/store/storetest"
	"github.com/contactsync/contactsync/server/store/storetest/fulldisk"
)

// TestFullDisk runs the store on a real file system that runs out of space (a 4 MiB tmpfs, filled
// up): writes fail with ErrNotWritable (so the server answers 503), the probe sees it, reads go on,
// nothing acknowledged is lost, and once space is freed the probe and the writes succeed again, with
// no restart.
func TestFullDisk(t *testing.T) {
	ctx := context.Background()
	dir := fulldisk.Mount(t, 4<<20)
	path := filepath.Join(dir, "contacts.db")
	s, err := sqlite.Open(ctx, path)
	require.NoError(t, err)
	defer func() { _ = s.Close() }()

	contact := func(i int) store.Record {
		return storetest.RecIn(fmt.Sprint("c", i), "acc", strings.Repeat("f", 200))
	}
	acked := map[string]store.Record{}
	for i := range 20 {
		require.NoError(t, s.Put(ctx, contact(i)))
		acked[contact(i).Key] = contact(i)
	}
	require.NoError(t, s.ProbeWrite(ctx))

	free := fulldisk.Fill(t, dir)
	failed := 0
	for i := 100; i < 400; i++ {
		err := s.Put(ctx, contact(i))
		if err == nil { // a write may still fit in space SQLite already holds
			acked[contact(i).Key] = contact(i)
			continue
		}
		require.ErrorIs(t, err, store.ErrNotWritable)
		require.ErrorIs(t, err, store.ErrUnavailable, "so the server answers 503")
		failed++
	}
	require.Positive(t, failed, "no write failed on a full disk")
	_, err = s.Update(ctx, "c1", func(r store.Record) (store.Record, error) { return storetest.WithText(r, "changed"), nil })
	assert.ErrorIs(t, err, store.ErrNotWritable)
	assert.ErrorIs(t, s.ProbeWrite(ctx), store.ErrNotWritable, "the probe sees the full disk")
	_, err = os.Stat(path + "-probe")
	assert.ErrorIs(t, err, os.ErrNotExist, "the probe's file is removed even when it failed")
	require.NoError(t, s.Ping(ctx), "reads still work")
	for id, want := range acked {
		got, err := s.Get(ctx, id)
		require.NoError(t, err, id)
		require.Equal(t, want, got)
	}

	free()
	require.NoError(t, s.ProbeWrite(ctx), "the probe sees the space")
	for i := 400; i < 420; i++ {
		require.NoError(t, s.Put(ctx, contact(i)), "writes resume by themselves")
		acked[contact(i).Key] = contact(i)
	}
	require.NoError(t, s.Close())

	s2, err := sqlite.Open(ctx, path)
	require.NoError(t, err)
	defer func() { _ = s2.Close() }()
	for id, want := range acked {
		got, err := s2.Get(ctx, id)
		require.NoError(t, err, "acknowledged %s lost", id)
		require.Equal(t, want, got)
	}
	got, err := s2.Get(ctx, "c1")
	require.NoError(t, err)
	assert.Equal(t, acked["c1"], got, "the failed update changed nothing")
}
