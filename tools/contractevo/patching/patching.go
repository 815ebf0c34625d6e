// Package patching builds a scratch copy of the module with contract-evolution patches applied (the
// directories under tools/contractevo/testdata/patches/): the module's tracked files are copied, each
// patch's wsdl.patch is applied in turn, gen/ is regenerated, each patch's service code is added, and
// the command is built. The contract-evolution test copies and adds service code through it, and the
// interop suite builds its patched server with it (cmd/patched), so both play the same edit.
//
// It imports only the standard library; it runs git and go as a user editing the contract would.
package patching

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// PatchesDir is where the patches live, relative to the module root.
var PatchesDir = filepath.Join("tools", "contractevo", "testdata", "patches")

// Tracked lists the module's tracked files (git ls-files), as a scratch copy holds them.
func Tracked(root string) ([]string, error) {
	out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files in %s: %w", root, err)
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	return files, nil
}

// CopyFiles copies files (paths relative to root) from root to dir, keeping their permission bits; a
// tracked file deleted from the work tree is left out, as it would be from a commit of the work tree.
func CopyFiles(root, dir string, files []string) error {
	for _, f := range files {
		src := filepath.Join(root, f)
		data, err := os.ReadFile(src)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		info, err := os.Stat(src)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, data, info.Mode().Perm()); err != nil {
			return err
		}
	}
	return nil
}

// HasServiceCode reports whether a patch directory holds service code (service.patch or .go files).
func HasServiceCode(patchDir string) (bool, error) {
	entries, err := os.ReadDir(patchDir)
	if err != nil {
		return false, err
	}
	for _, e := range entries {
		if isServiceCode(e.Name()) {
			return true, nil
		}
	}
	return false, nil
}

func isServiceCode(name string) bool {
	return name == "service.patch" || strings.HasSuffix(name, ".go")
}

// AddServiceCode writes a patch's service code into the scratch copy dir: every .go file is copied
// into server/service/, and service.patch is handed to apply (which applies it in dir, with the
// caller's environment). A patch directory without service code is an error.
func AddServiceCode(dir, patchDir string, apply func(patchFile string) error) error {
	entries, err := os.ReadDir(patchDir)
	if err != nil {
		return err
	}
	added := 0
	for _, e := range entries {
		switch {
		case e.Name() == "service.patch":
			if err := apply(filepath.Join(patchDir, e.Name())); err != nil {
				return err
			}
		case strings.HasSuffix(e.Name(), ".go"):
			data, err := os.ReadFile(filepath.Join(patchDir, e.Name()))
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dir, "server", "service", e.Name()), data, 0o644); err != nil {
				return err
			}
		default:
			continue
		}
		added++
	}
	if added == 0 {
		return fmt.Errorf("%s holds no service code", patchDir)
	}
	return nil
}

// Build is one patched build of the module.
type Build struct {
	Root    string   // the module root the tracked files are copied from
	Dir     string   // the scratch copy, an empty or absent directory
	Patches []string // patch directories under PatchesDir, applied in this order
	Out     string   // where the patched contactsync binary is written
	// Log, when set, receives what each command prints.
	Log *bytes.Buffer
}

// Run copies the module into b.Dir, applies every patch's wsdl.patch in order, regenerates gen/, adds
// every patch's service code and builds cmd/contactsync into b.Out.
//
// Each wsdl.patch is written against the unpatched contract, so a later patch's context lines may no
// longer all be next to its insertion point (two patches that add operations add them at the same
// places). git apply is therefore allowed to match on one line of context each side (-C1), and it still
// tries the full context first; a patch that cannot be placed even so fails the build, naming it.
func (b *Build) Run(ctx context.Context) error {
	if len(b.Patches) == 0 {
		return errors.New("no patch to apply")
	}
	files, err := Tracked(b.Root)
	if err != nil {
		return err
	}
	if !slices.Contains(files, "wsdl/contactsync.wsdl") {
		return fmt.Errorf("%s has no tracked wsdl/contactsync.wsdl", b.Root)
	}
	if err := os.MkdirAll(b.Dir, 0o755); err != nil {
		return err
	}
	if err := CopyFiles(b.Root, b.Dir, files); err != nil {
		return err
	}
	if err := b.ApplyContractPatches(ctx); err != nil {
		return err
	}
	// Only gen/ follows the contract; the zoo packages' go:generate lines are the generator's tests.
	if err := b.run(ctx, "go", "generate", "./gen"); err != nil {
		return err
	}
	for _, p := range b.Patches {
		err := AddServiceCode(b.Dir, b.patchDir(p), func(patchFile string) error {
			return b.run(ctx, "git", "apply", "-p1", patchFile)
		})
		if err != nil {
			return fmt.Errorf("patch %s: %w", p, err)
		}
	}
	out, err := filepath.Abs(b.Out)
	if err != nil {
		return err
	}
	return b.run(ctx, "go", "build", "-o", out, "./cmd/contactsync")
}

// ApplyContractPatches applies every patch's wsdl.patch to the contract in b.Dir, in order (see Run).
func (b *Build) ApplyContractPatches(ctx context.Context) error {
	for _, p := range b.Patches {
		if err := b.run(ctx, "git", "apply", "-p1", "-C1", filepath.Join(b.patchDir(p), "wsdl.patch")); err != nil {
			return fmt.Errorf("patch %s: %w", p, err)
		}
	}
	return nil
}

// ReadList reads a list of patches, one directory name a line; blank lines and # comments are skipped.
func ReadList(file string) ([]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var patches []string
	for _, line := range strings.Split(string(data), "\n") {
		line, _, _ = strings.Cut(line, "#")
		if line = strings.TrimSpace(line); line != "" {
			patches = append(patches, line)
		}
	}
	return patches, nil
}

func (b *Build) patchDir(patch string) string {
	return filepath.Join(b.Root, PatchesDir, patch)
}

// run runs a command in the scratch copy with Env's environment; its output goes to b.Log, and into
// the error when it fails.
func (b *Build) run(ctx context.Context, name string, args ...string) error {
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = b.Dir
	cmd.Env = Env(b.Dir)
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if b.Log != nil {
		b.Log.Write(out.Bytes())
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, out.String())
	}
	return nil
}

// Env is the environment of the commands run in a scratch copy dir: the caller's, so the Go build and
// module caches are shared, less the service's own settings (CONTACTSYNC_*, which would change e.g.
// the contract's namespace), with GOFLAGS' -trimpath added (a package is then cached by its import
// path and content, not by the scratch directory, so every package a patch leaves alone is found in
// the build cache), and no git repository looked for above the copy.
func Env(dir string) []string {
	goFlags := os.Getenv("GOFLAGS")
	if goFlags == "" {
		if out, err := exec.Command("go", "env", "GOFLAGS").Output(); err == nil {
			goFlags = strings.TrimSpace(string(out))
		}
	}
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "CONTACTSYNC_") || strings.HasPrefix(kv, "GOFLAGS=")
	})
	return append(env, "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir), "GOWORK=off",
		"GOFLAGS="+strings.TrimSpace(goFlags+" -trimpath"))
}
