// Package servelock keeps a SQLite database file to one serve: serve holds an exclusive lock on a
// file beside the database (PATH.lock) for as long as it runs, and a second serve of the same file
// refuses to start, naming the file and the process that holds it.
//
// Only serve takes the lock. backup, export and import open the database while it serves, as SQLite
// allows (WAL: one writer at a time, readers alongside): they are short, their writes are batches kept
// short on purpose, and they are documented to run beside serve. Two serve processes, each with its
// own group commit and write-health probe, would instead contend for the write lock on every request.
//
// The lock is an OS file lock (flock on Unix, LockFileEx on Windows, through github.com/gofrs/flock):
// the kernel releases it when the process ends, however it ends, so a crashed serve never leaves a
// stale lock behind; the file itself may stay, and is taken over. The holder writes its pid, host and
// start time into the file after the first byte, which is the one byte LockFileEx locks (Windows
// locks are mandatory: the locked byte cannot be read by another process).
package servelock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/gofrs/flock"
)

// Suffix is appended to the database file's path to name its lock file.
const Suffix = ".lock"

// Holder describes the process holding a lock, as it wrote itself into the lock file.
type Holder struct {
	PID     int
	Host    string
	Started time.Time
}

// String renders the holder for a message: "pid 1234 on host db1, serving since 2026-11-25T10:00:00Z".
func (h Holder) String() string {
	if h.PID == 0 {
		return "a process that did not say which"
	}
	s := "pid " + strconv.Itoa(h.PID)
	if h.Host != "" {
		s += " on host " + h.Host
	}
	if !h.Started.IsZero() {
		s += ", serving since " + h.Started.UTC().Format(time.RFC3339)
	}
	return s
}

// HeldError is returned by Acquire when another process holds the lock.
type HeldError struct {
	// Database is the database file the lock guards; Lock is the lock file.
	Database, Lock string
	Holder         Holder
}

func (e *HeldError) Error() string {
	return fmt.Sprintf("%s is already served by another contactsync serve (%s; lock file %s)", e.Database, e.Holder, e.Lock)
}

// Lock is a held lock. Release gives it up.
type Lock struct {
	fl   *flock.Flock
	path string
}

// Acquire takes the lock of the database file database (made absolute and, when it exists, resolved
// through symbolic links, so two spellings of one file share a lock), creating the lock file (mode 0600)
// if needed.
// It never waits: when another process holds the lock it returns a *HeldError naming it.
func Acquire(database string) (*Lock, error) {
	path, err := canonical(database)
	if err != nil {
		return nil, err
	}
	lockPath := path + Suffix
	// A lock file removed by a releasing holder between our open and our lock would leave us holding
	// a lock on a file no one else can find: after locking, check that the path still names the file
	// locked, and start again if not. Two rounds suffice unless processes race in a loop.
	for range 8 {
		// Mode 0600 like the database beside it: the file names the serving process and its host.
		fl := flock.New(lockPath, flock.SetFlag(os.O_CREATE|os.O_RDWR), flock.SetPermissions(0o600))
		ok, err := fl.TryLock()
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", lockPath, err)
		}
		if !ok {
			return nil, &HeldError{Database: path, Lock: lockPath, Holder: readHolder(lockPath)}
		}
		locked, err := fl.Stat()
		if err != nil {
			_ = fl.Unlock()
			return nil, fmt.Errorf("lock %s: %w", lockPath, err)
		}
		if named, err := os.Stat(lockPath); err != nil || !os.SameFile(locked, named) {
			_ = fl.Unlock()
			continue
		}
		l := &Lock{fl: fl, path: lockPath}
		if err := l.writeHolder(); err != nil {
			_ = l.Release()
			return nil, fmt.Errorf("lock %s: %w", lockPath, err)
		}
		return l, nil
	}
	return nil, fmt.Errorf("lock %s: the lock file keeps being replaced by other processes", lockPath)
}

// Path returns the lock file's path.
func (l *Lock) Path() string { return l.path }

// Release removes the lock file and gives up the lock. On Unix the file is removed while the lock is
// still held, so no other process can lock it and then lose it; Windows cannot remove an open file, so
// there the lock is given up first (Acquire's check covers a process that opened the file meanwhile).
func (l *Lock) Release() error {
	if l == nil || l.fl == nil {
		return nil
	}
	fl := l.fl
	l.fl = nil
	if runtime.GOOS == "windows" {
		err := fl.Unlock()
		if rerr := os.Remove(l.path); rerr != nil && !errors.Is(rerr, os.ErrNotExist) && err == nil {
			err = rerr
		}
		return err
	}
	err := os.Remove(l.path)
	if errors.Is(err, os.ErrNotExist) {
		err = nil
	}
	if uerr := fl.Unlock(); err == nil {
		err = uerr
	}
	return err
}

// writeHolder writes this process's description after the lock file's first byte.
func (l *Lock) writeHolder() error {
	f, err := os.OpenFile(l.path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	host, _ := os.Hostname()
	line := "\npid=" + strconv.Itoa(os.Getpid()) + " host=" + strings.ReplaceAll(host, " ", "_") +
		" started=" + time.Now().UTC().Format(time.RFC3339) + "\n"
	// Byte 0 is the one LockFileEx locks on Windows: it is never written through this handle.
	if _, err := f.WriteAt([]byte(line[1:]), 1); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Truncate(int64(len(line))); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

// readHolder reads the holder's description from a lock file; fields it cannot read stay zero.
func readHolder(lockPath string) Holder {
	var h Holder
	f, err := os.Open(lockPath)
	if err != nil {
		return h
	}
	defer f.Close()
	buf := make([]byte, 512)
	n, _ := f.ReadAt(buf, 1)
	for _, field := range strings.Fields(string(buf[:n])) {
		key, value, _ := strings.Cut(field, "=")
		switch key {
		case "pid":
			h.PID, _ = strconv.Atoi(value)
		case "host":
			h.Host = value
		case "started":
			h.Started, _ = time.Parse(time.RFC3339, value)
		}
	}
	return h
}

// canonical returns the absolute path of a database file, through its symbolic links when it exists.
func canonical(database string) (string, error) {
	abs, err := filepath.Abs(database)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real, nil
	}
	// A database not created yet: resolve its directory, so a symbolic link there still matches.
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(dir, filepath.Base(abs)), nil
	}
	return abs, nil
}
