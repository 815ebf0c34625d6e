// Package fulldisk gives tests a real, small file system they can fill up: a size-limited tmpfs
// mounted for the test. The disk-full tests use it rather than injected errors, so what they check is
// what SQLite and the kernel really do when space runs out.
//
// Mounting needs root (CI runs as root). Without it the test is skipped locally and fails under
// CI=true, like every test that needs something from outside Go.
package fulldisk

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// Mount mounts a tmpfs of size bytes on a fresh directory and returns the directory; it is unmounted
// when the test ends.
func Mount(t testing.TB, size int64) string {
	t.Helper()
	dir := t.TempDir()
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%d,mode=0700", size), "tmpfs", dir).CombinedOutput()
	if err != nil {
		msg := fmt.Sprintf("cannot mount a size-limited tmpfs (needs root): %v: %s", err, bytes.TrimSpace(out))
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	t.Cleanup(func() {
		// Lazy, so a file something still holds open (a store not closed after a failure) cannot keep
		// the mount, and the temporary directory under it, from going away.
		if out, err := exec.Command("umount", "-l", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, bytes.TrimSpace(out))
		}
	})
	return dir
}

// Fill writes a file in dir until the file system has no space left, and returns a function that
// removes it, freeing the space again.
func Fill(t testing.TB, dir string) (free func()) {
	t.Helper()
	name := filepath.Join(dir, "filler")
	f, err := os.Create(name)
	if err != nil {
		t.Fatalf("fill %s: %v", dir, err)
	}
	chunk := bytes.Repeat([]byte{0xA5}, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("fill %s: %v", dir, err)
			}
			break
		}
	}
	// The last chunk may have been written in part; smaller writes take what is left.
	for _, err := f.Write(chunk[:512]); err == nil; _, err = f.Write(chunk[:512]) {
	}
	if err := f.Close(); err != nil && !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("fill %s: %v", dir, err)
	}
	return func() {
		if err := os.Remove(name); err != nil {
			t.Fatalf("free %s: %v", dir, err)
		}
	}
}
