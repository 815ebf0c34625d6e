package sqlite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/contactsync/contactsync/server/store/backend"
)

// suffixes are the files SQLite keeps beside a database: the write-ahead log, its shared-memory
// index, and a rollback journal.
var suffixes = []string{"", "-wal", "-shm", "-journal"}

// files remembers which of a SQLite database's files existed before a command opened it, so a
// command that fails can remove the ones it created and leave the directory as it found it.
type files struct {
	path    string
	existed map[string]bool
}

// removeCreated removes the files that did not exist before the command opened the database. Call it
// only after the store is closed.
func (f *files) removeCreated() {
	for _, s := range suffixes {
		if !f.existed[f.path+s] {
			_ = os.Remove(f.path + s)
		}
	}
}

// checkPath checks, before SQLite opens it, that a database file can be used as use needs, so the
// error names the cause and what to do instead of SQLite's "unable to open database file (14)",
// which it gives for a missing directory and an unwritable one alike; a read-only file would
// otherwise open and fail at its first write. It returns what exists now.
func checkPath(path string, use backend.Use) (*files, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(abs)
	switch info, err := os.Stat(dir); {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("the directory %s does not exist: create it (mkdir -p %s), or name a file in an existing directory (sqlite:PATH)", dir, dir)
	case err != nil:
		return nil, fmt.Errorf("the directory %s cannot be used: %w", dir, err)
	case !info.IsDir():
		return nil, fmt.Errorf("%s is not a directory, so it cannot hold the database %s", dir, filepath.Base(abs))
	}
	found := &files{path: abs, existed: map[string]bool{}}
	for _, s := range suffixes {
		if _, err := os.Lstat(abs + s); err == nil {
			found.existed[abs+s] = true
		}
	}
	if !found.existed[abs] {
		if use == backend.Read {
			return nil, fmt.Errorf("the database file %s does not exist; check the path (a new, empty database is created only by serve, import, migrate and copy --to)", abs)
		}
	} else {
		f, err := os.OpenFile(abs, os.O_RDWR, 0)
		switch {
		case isReadOnly(err):
			return nil, fmt.Errorf("the database file %s is read-only for this user (%v): contactsync writes to it even to read (SQLite's -wal and -shm files); make it writable (chmod u+w %s), run as its owner, or copy it elsewhere with cp and use the copy", abs, err, abs)
		case err != nil:
			return nil, fmt.Errorf("the database file %s cannot be opened: %w", abs, err)
		}
		_ = f.Close()
	}
	// SQLite creates the database, its -wal and its -shm files in the directory: check that it may.
	probe, err := os.CreateTemp(dir, ".contactsync-probe-*")
	switch {
	case isReadOnly(err):
		return nil, fmt.Errorf("the directory %s is not writable for this user (%v): SQLite creates %s-wal and %s-shm beside the database; make it writable, or name a file in a writable directory (sqlite:PATH)", dir, err, filepath.Base(abs), filepath.Base(abs))
	case err != nil:
		return nil, fmt.Errorf("the directory %s cannot be used: %w", dir, err)
	}
	_ = probe.Close()
	_ = os.Remove(probe.Name())
	return found, nil
}

// isReadOnly reports whether err says a file or directory may not be written: permission denied, or a
// read-only file system.
func isReadOnly(err error) bool {
	return err != nil && (errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS))
}
