package sqlite

import (
	"io/fs"
	"os"
)

// databaseFileMode is the mode of a database file the store creates: readable and writable by the
// service's user only, like backups and exports. The file holds every contact, and SQLite's own
// default (0644 less the umask) would let every local user read it wherever the service does not run
// under systemd's UMask=0077.
//
// SQLite creates the -wal and -shm files with the database file's permissions (and owner), whatever
// the umask, so creating the database file first is enough for all three (TestNewDatabaseFilesPrivate
// checks it).
const databaseFileMode fs.FileMode = 0o600

// CreateFile creates an empty database file at path with mode 0600, unless a file (or anything else)
// is there already: an existing database keeps its mode, which its owner may have chosen. SQLite takes
// an empty file for an empty database, so opening it afterwards creates the schema as it would in a
// file of its own making. Open calls it; so must any other code that lets SQLite create a database
// file (migrate does).
//
// It reports no error: when the file can be neither found nor created (a missing or read-only
// directory, no permission), SQLite fails the same way when it opens the path, and its error is the
// one callers of Open already explain.
func CreateFile(path string) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, databaseFileMode)
	if err != nil {
		return // fs.ErrExist (the file keeps its mode), or a failure SQLite reports itself
	}
	// A failed close of a new, empty file loses nothing: SQLite opens the path again.
	_ = f.Close()
}
