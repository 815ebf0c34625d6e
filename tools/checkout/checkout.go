// Package checkout gives tests a clean checkout of the repository: a copy of the files git tracks,
// as they are in the working tree, in a fresh directory with nothing else (no bin/, no database, no
// .git). The tests that walk the README's first steps and build the release archives and the container
// image run in one, as a new user's fresh clone would be, and leave the working tree alone.
package checkout

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Root returns the repository's root, found from the test's working directory (its package
// directory) by git.
func Root(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Fatalf("git rev-parse --show-toplevel: %v (the tests that need a clean checkout run in a git checkout)", err)
	}
	return string(bytes.TrimSpace(out))
}

// Clean copies every file git tracks (modified or not, deleted ones left out) and every new file it
// does not ignore into a fresh temporary directory, keeping modes, and returns the directory.
func Clean(t testing.TB) string {
	t.Helper()
	root := Root(t)
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	dst := t.TempDir()
	for _, name := range bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0}) {
		rel := filepath.FromSlash(string(name))
		src := filepath.Join(root, rel)
		info, err := os.Lstat(src)
		if err != nil {
			if os.IsNotExist(err) {
				continue // deleted in the working tree, not yet in the index
			}
			t.Fatal(err)
		}
		target := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			t.Fatal(err)
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			link, err := os.Readlink(src)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(link, target); err != nil {
				t.Fatal(err)
			}
			continue
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(target, data, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// Need returns the path of the command name, or ends the test: skipped when it is missing, failed
// under CI=true, where every tool a test needs is installed by .ci/run.
func Need(t testing.TB, name, install string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	msg := name + " is not installed (" + install + ")"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}
