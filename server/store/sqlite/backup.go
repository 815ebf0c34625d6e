package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	moderncsqlite "modernc.org/sqlite"
)

// BackupResult describes a finished backup.
type BackupResult struct {
	// Contacts is how many contacts the backup holds: those of the snapshot it was taken from.
	Contacts int64
	// Bytes is the size of the backup file.
	Bytes int64
}

// Backup writes a consistent copy of the store's database file at src to dst while the store may be
// in use, by this process or another (a running `serve`): never a file copy, which in WAL mode would
// miss the acknowledged writes still in the -wal file, or catch a checkpoint half done.
//
// It opens a read transaction on src, counts the contacts, and copies every page of that same
// snapshot with SQLite's online backup API (sqlite3_backup_step with -1, in one step), so the copy
// holds exactly the writes committed before it started, and the count is the copy's. Writers are not
// blocked meanwhile (WAL). The copy goes to a temporary file beside dst, is switched to the rollback
// journal (a single self-contained file, which the store switches back to WAL when it opens it), then
// verified: PRAGMA integrity_check must answer ok and the contacts counted again in it must match.
// Only then is it fsynced and renamed over dst, and the directory fsynced, so dst is either the
// previous file or the complete, verified backup, never something in between.
func Backup(ctx context.Context, src, dst string) (BackupResult, error) {
	absSrc, err := filepath.Abs(src)
	if err != nil {
		return BackupResult{}, fmt.Errorf("sqlite: backup: %w", err)
	}
	absDst, err := filepath.Abs(dst)
	if err != nil {
		return BackupResult{}, fmt.Errorf("sqlite: backup: %w", err)
	}
	if absSrc == absDst {
		return BackupResult{}, fmt.Errorf("sqlite: backup: %s: the backup must not replace the database itself", absDst)
	}
	if _, err := os.Stat(absSrc); err != nil {
		// Opening a missing file would create an empty database and back that up.
		return BackupResult{}, fmt.Errorf("sqlite: backup: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(absDst), filepath.Base(absDst)+".*.tmp")
	if errors.Is(err, fs.ErrNotExist) {
		// Said of the directory the operator named, not of the temporary file's made-up name in it.
		dir := filepath.Dir(absDst)
		return BackupResult{}, fmt.Errorf("sqlite: backup: the directory %s does not exist: create it (mkdir -p %s), or write the backup into an existing directory", dir, dir)
	}
	if err != nil {
		return BackupResult{}, fmt.Errorf("sqlite: backup: %w", err)
	}
	tmpPath := tmp.Name()
	_ = tmp.Close()
	ok := false
	defer func() {
		if !ok {
			for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
				_ = os.Remove(tmpPath + suffix)
			}
		}
	}()

	n, err := copySnapshot(ctx, absSrc, tmpPath)
	if err != nil {
		return BackupResult{}, fmt.Errorf("sqlite: backup %s: %w", absSrc, err)
	}
	if err := verifyBackup(ctx, tmpPath, n); err != nil {
		return BackupResult{}, fmt.Errorf("sqlite: backup %s: verify: %w", absSrc, err)
	}
	size, err := syncFile(tmpPath)
	if err != nil {
		return BackupResult{}, fmt.Errorf("sqlite: backup: %w", err)
	}
	if err := os.Rename(tmpPath, absDst); err != nil {
		return BackupResult{}, fmt.Errorf("sqlite: backup: %w", err)
	}
	ok = true
	if err := syncDir(filepath.Dir(absDst)); err != nil {
		return BackupResult{}, fmt.Errorf("sqlite: backup: %s is in place but its directory could not be synced: %w", absDst, err)
	}
	return BackupResult{Contacts: n, Bytes: size}, nil
}

// backupper is the modernc.org/sqlite connection's online backup entry point.
type backupper interface {
	NewBackup(dstURI string) (*moderncsqlite.Backup, error)
}

// copySnapshot copies the database at src to the file at dst from one read transaction, and returns
// how many contacts that snapshot holds.
func copySnapshot(ctx context.Context, src, dst string) (int64, error) {
	db, err := sql.Open("sqlite", dsn(src, busyTimeout, "_pragma=query_only(1)"))
	if err != nil {
		return 0, err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
		return 0, err
	}
	defer func() { _, _ = conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK") }()
	var n int64
	// The first read starts the snapshot the backup step below reads too.
	if err := conn.QueryRowContext(ctx, countSQL).Scan(&n); err != nil {
		return 0, fmt.Errorf("count contacts (is it a contactsync database?): %w", err)
	}
	err = conn.Raw(func(driverConn any) error {
		b, ok := driverConn.(backupper)
		if !ok {
			return errors.New("the SQLite driver offers no online backup")
		}
		bk, err := b.NewBackup(dsn(dst))
		if err != nil {
			return err
		}
		// -1 copies every page in one step, inside the read transaction opened above.
		if _, err := bk.Step(-1); err != nil {
			_ = bk.Finish()
			return err
		}
		return bk.Finish()
	})
	if err != nil {
		return 0, fmt.Errorf("copy: %w", err)
	}
	return n, nil
}

// verifyBackup turns the copy at path into a single-file (rollback journal) database and checks it:
// integrity_check must answer ok and it must hold want contacts.
func verifyBackup(ctx context.Context, path string, want int64) error {
	db, err := sql.Open("sqlite", dsn(path, busyTimeout))
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	var mode string
	if err := db.QueryRowContext(ctx, "PRAGMA journal_mode=DELETE").Scan(&mode); err != nil {
		return fmt.Errorf("journal mode: %w", err)
	}
	rows, err := db.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return fmt.Errorf("integrity check: %w", err)
	}
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			rows.Close()
			return fmt.Errorf("integrity check: %w", err)
		}
		problems = append(problems, line)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("integrity check: %w", err)
	}
	if len(problems) != 1 || problems[0] != "ok" {
		return fmt.Errorf("integrity check failed: %q", problems)
	}
	var n int64
	if err := db.QueryRowContext(ctx, countSQL).Scan(&n); err != nil {
		return fmt.Errorf("count contacts: %w", err)
	}
	if n != want {
		return fmt.Errorf("the copy holds %d contacts, its snapshot %d", n, want)
	}
	return db.Close()
}

// syncFile fsyncs the file at path and returns its size.
func syncFile(path string) (int64, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return 0, err
	}
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	return st.Size(), f.Close()
}

// syncDir fsyncs a directory, so a rename in it survives a crash.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
