package patching

import (
	"context"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCopyFiles(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "a", "b"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "a", "b", "plain.txt"), []byte("plain"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "run.sh"), []byte("#!/bin/sh"), 0o755))
	require.NoError(t, CopyFiles(root, dir, []string{"a/b/plain.txt", "run.sh", "deleted.go"}))
	for _, tc := range []struct {
		file string
		data string
		mode os.FileMode
	}{
		{"a/b/plain.txt", "plain", 0o644},
		{"run.sh", "#!/bin/sh", 0o755},
	} {
		data, err := os.ReadFile(filepath.Join(dir, tc.file))
		require.NoError(t, err, tc.file)
		assert.Equal(t, tc.data, string(data), tc.file)
		info, err := os.Stat(filepath.Join(dir, tc.file))
		require.NoError(t, err)
		assert.Equal(t, tc.mode, info.Mode().Perm(), tc.file)
	}
	// A tracked file deleted from the work tree is left out.
	_, err := os.Stat(filepath.Join(dir, "deleted.go"))
	assert.True(t, errors.Is(err, os.ErrNotExist), "deleted.go: %v", err)
}

func TestAddServiceCode(t *testing.T) {
	for _, tc := range []struct {
		name      string
		files     map[string]string
		wantGo    []string
		wantApply []string
		wantErr   string
	}{
		{name: "a method file", files: map[string]string{"wsdl.patch": "x", "greet.go": "package service"}, wantGo: []string{"greet.go"}},
		{name: "lines of the service", files: map[string]string{"wsdl.patch": "x", "service.patch": "y"}, wantApply: []string{"service.patch"}},
		{name: "both", files: map[string]string{"service.patch": "y", "a.go": "package service", "b.go": "package service"},
			wantGo: []string{"a.go", "b.go"}, wantApply: []string{"service.patch"}},
		{name: "none", files: map[string]string{"wsdl.patch": "x", "README": "z"}, wantErr: "holds no service code"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			patchDir, dir := t.TempDir(), t.TempDir()
			require.NoError(t, os.MkdirAll(filepath.Join(dir, "server", "service"), 0o755))
			for name, data := range tc.files {
				require.NoError(t, os.WriteFile(filepath.Join(patchDir, name), []byte(data), 0o644))
			}
			has, err := HasServiceCode(patchDir)
			require.NoError(t, err)
			assert.Equal(t, tc.wantErr == "", has)
			var applied []string
			err = AddServiceCode(dir, patchDir, func(f string) error {
				applied = append(applied, filepath.Base(f))
				return nil
			})
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.wantApply, applied)
			for _, f := range tc.wantGo {
				data, err := os.ReadFile(filepath.Join(dir, "server", "service", f))
				require.NoError(t, err, f)
				assert.Equal(t, tc.files[f], string(data))
			}
		})
	}
}

func TestReadList(t *testing.T) {
	file := filepath.Join(t.TempDir(), "patches")
	require.NoError(t, os.WriteFile(file, []byte("# comment\n09-out-ref\n\n  13-header-op  # the header op\n"), 0o644))
	got, err := ReadList(file)
	require.NoError(t, err)
	assert.Equal(t, []string{"09-out-ref", "13-header-op"}, got)
}

// TestInteropPatchesApply applies the interop suite's patches (tools/interop/patches) to the contract
// together, as its patched build does, and checks that the result is well-formed XML declaring every
// operation each patch adds; the suite itself then generates, builds and calls it.
func TestInteropPatchesApply(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("git is not installed: %v", err)
	}
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	require.NoError(t, err)
	patches, err := ReadList(filepath.Join(root, "tools", "interop", "patches"))
	require.NoError(t, err)
	require.NotEmpty(t, patches)
	dir := t.TempDir()
	require.NoError(t, CopyFiles(root, dir, []string{"wsdl/contactsync.wsdl"}))
	b := &Build{Root: root, Dir: dir, Patches: patches}
	require.NoError(t, b.ApplyContractPatches(context.Background()))
	data, err := os.ReadFile(filepath.Join(dir, "wsdl", "contactsync.wsdl"))
	require.NoError(t, err)
	dec := xml.NewDecoder(strings.NewReader(string(data)))
	for {
		_, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err, "the patched contract is not well-formed XML")
	}
	// Every line a patch adds is in the patched contract, as often as the patches add it.
	contract := string(data)
	added := map[string]int{}
	for _, p := range patches {
		patch, err := os.ReadFile(filepath.Join(root, PatchesDir, p, "wsdl.patch"))
		require.NoError(t, err)
		for _, line := range strings.Split(string(patch), "\n") {
			if text, ok := strings.CutPrefix(line, "+"); ok && !strings.HasPrefix(line, "+++") {
				added[text+"\n"]++
			}
		}
	}
	require.NotEmpty(t, added)
	for line, n := range added {
		assert.GreaterOrEqual(t, strings.Count(contract, line), n, "the patched contract lacks the line %q", line)
	}
}
