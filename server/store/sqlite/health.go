package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/contactsync/contactsync/server/store"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// classify adds store.ErrNotWritable to an error whose SQLite result code says the database cannot
// write for a reason of the server's (SQLITE_FULL: disk full; SQLITE_READONLY: read-only file, file
// system or database; SQLITE_IOERR: the operating system failed a read or write; SQLITE_CANTOPEN: a
// file it needs, such as the write-ahead log, cannot be opened), so the caller gets 503 with
// Retry-After instead of an internal error. Extended codes (SQLITE_IOERR_WRITE, …) carry the primary
// code in their low byte. Other errors are returned unchanged.
func classify(err error) error {
	var e *sqlite.Error
	if err == nil || !errors.As(err, &e) {
		return err
	}
	switch e.Code() & 0xff {
	case sqlite3.SQLITE_FULL, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN:
		return fmt.Errorf("%w: %w", store.ErrNotWritable, err)
	}
	return err
}

// probeSpace is how much free space ProbeWrite requires beside the database: about what a batch of
// group-committed writes appends to the write-ahead log (256 writes of a page or two each).
const probeSpace = 1 << 20

const probeSQL = `INSERT INTO write_probe (id, probed_at) VALUES (1, ?)
ON CONFLICT (id) DO UPDATE SET probed_at = excluded.probed_at`

var _ store.WriteProber = (*Store)(nil)

// ProbeWrite checks that the store can write now, in two steps:
//
//  1. Space: it writes probeSpace bytes to a file beside the database (the database's name followed by
//     "-probe"), then removes it. A small write alone does not prove there is room: in WAL mode SQLite
//     reuses the write-ahead log's space after a checkpoint, so a write can succeed on a full disk
//     until the log or the database file has to grow, and then every larger write fails.
//  2. The database: a committed write of the write_probe table's single row, through the same
//     connection and group commit as every other write, which proves the file is writable, the write
//     lock can be had and the commit (with its fsync) works.
//
// It returns nil, or an error wrapping store.ErrNotWritable (or the write's own error).
func (s *Store) ProbeWrite(ctx context.Context) error {
	if err := s.probeSpace(); err != nil {
		return fmt.Errorf("sqlite: probe: %w: %w", store.ErrNotWritable, err)
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.Exec(probeSQL, time.Now().UTC().Format(time.RFC3339Nano))
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: probe: %w", err)
	}
	return nil
}

// zeros is what probeSpace writes; the file's content does not matter, only that its blocks are
// allocated (writing them, rather than creating a sparse file, makes the file system allocate them).
var zeros = make([]byte, 64<<10)

func (s *Store) probeSpace() (err error) {
	s.probeMu.Lock()
	defer s.probeMu.Unlock()
	name := s.path + "-probe"
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	defer func() {
		err = errors.Join(err, f.Close(), os.Remove(name))
	}()
	for written := 0; written < probeSpace; written += len(zeros) {
		if _, err := f.Write(zeros); err != nil {
			return err
		}
	}
	return nil
}
