// Package deploy holds what a deployment installs besides the binary: the systemd unit and the example
// config file. Its only Go is this test, which checks them and the packaging around them (make
// release, the Containerfile) as CI runs them: each on a clean checkout, with the real tools.
package deploy

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"debug/elf"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/tools/checkout"
)

// testVersion is stamped into the binaries these tests build, to see the stamp arrive.
const testVersion = "0.0.0-deploytest"

// unitSettings reads a unit file's Key=Value lines (comments and section headers left out); a key
// given several times keeps every value.
func unitSettings(t *testing.T, path string) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	settings := map[string][]string{}
	for line := range strings.SplitSeq(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "[") {
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		require.True(t, ok, "not a Key=Value line: %q", line)
		settings[key] = append(settings[key], value)
	}
	return settings
}

// TestSystemdUnit checks deploy/contactsync.service with systemd-analyze verify (which refuses an
// unknown key or a bad value only with a warning, so any output fails the test) and its offline
// security assessment, and that it has what a production unit needs: a dynamic user, a state
// directory, a read-only system, restart on failure, the users file as a credential and a reload.
func TestSystemdUnit(t *testing.T) {
	analyze := checkout.Need(t, "systemd-analyze", "Debian package systemd")
	unit := "contactsync.service"
	s := unitSettings(t, unit)
	for key, want := range map[string]string{
		"DynamicUser": "yes", "StateDirectory": "contactsync", "ProtectSystem": "strict", "Restart": "on-failure",
		"LoadCredential": "users:/etc/contactsync/users", "WorkingDirectory": "%S/contactsync", "NoNewPrivileges": "yes",
		"Environment": "CONTACTSYNC_CONFIG=/etc/contactsync/contactsync.yaml",
		"ExecReload":  "/bin/kill -HUP $MAINPID", // systemctl reload: serve reloads on SIGHUP
	} {
		assert.Equal(t, []string{want}, s[key], key)
	}
	require.Len(t, s["ExecStart"], 1)
	exec0 := strings.Fields(s["ExecStart"][0])
	assert.Equal(t, []string{"/usr/local/bin/contactsync", "serve", "--users-file=${CREDENTIALS_DIRECTORY}/users"}, exec0)

	// verify checks that ExecStart's program exists: point it at an executable here, and nothing else.
	dir := t.TempDir()
	program := filepath.Join(dir, "contactsync")
	require.NoError(t, os.WriteFile(program, []byte("#!/bin/sh\n"), 0o755))
	data, err := os.ReadFile(unit)
	require.NoError(t, err)
	copied := filepath.Join(dir, unit)
	require.NoError(t, os.WriteFile(copied, bytes.ReplaceAll(data, []byte(exec0[0]), []byte(program)), 0o644))
	out, err := exec.Command(analyze, "verify", copied).CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Empty(t, string(out), "systemd-analyze verify warns")

	// The exposure level, 0 (locked down) to 10: "OK" up to about 2.5 (--threshold counts tenths).
	out, err = exec.Command(analyze, "security", "--offline=true", "--threshold=25", copied).CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Regexp(t, `Overall exposure level for contactsync.service: [0-2]\.\d`, string(out))
}

// build runs make in the clean checkout dir with args, failing the test with make's output.
func build(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("make", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "make %s:\n%s", strings.Join(args, " "), out)
}

// TestReleaseArchive runs make release for this machine's platform (CI builds one target; the others
// take minutes each from a cold cache, and the lock code of every target is compiled by
// server/store/sqlite/servelock's test) and checks the archive: its checksum, its files, and a binary
// that says its version, commit and build date.
func TestReleaseArchive(t *testing.T) {
	checkout.Need(t, "make", "Debian package make")
	dir := checkout.Clean(t)
	build(t, dir, "release", "RELEASE_TARGETS=linux/amd64", "VERSION="+testVersion, "COMMIT=0123456789abcdef", "DATE=2026-11-25T10:00:00Z")
	out := filepath.Join(dir, "bin", "release")
	name := "contactsync-" + testVersion + "-linux-amd64.tar.gz"
	archive, err := os.ReadFile(filepath.Join(out, name))
	require.NoError(t, err)
	sums, err := os.ReadFile(filepath.Join(out, "SHA256SUMS"))
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprintf("%x  %s\n", sha256.Sum256(archive), name), string(sums))

	gz, err := gzip.NewReader(bytes.NewReader(archive))
	require.NoError(t, err)
	tr := tar.NewReader(gz)
	files := map[string][]byte{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		assert.Equal(t, "2026-11-25T10:00:00Z", h.ModTime.UTC().Format(time.RFC3339), "entries are dated with the build, for reproducible archives")
		if h.Typeflag == tar.TypeReg {
			files[h.Name], err = io.ReadAll(tr)
			require.NoError(t, err)
		}
	}
	base := "contactsync-" + testVersion + "-linux-amd64/"
	for _, want := range []string{"contactsync", "README.md", "CHANGELOG.md", "docs/operations.md", "deploy/contactsync.service", "deploy/contactsync.example.yaml"} {
		assert.Contains(t, files, base+want)
	}
	for name := range files {
		assert.False(t, strings.HasSuffix(name, ".go"), "%s: an archive holds the binary, the docs and deploy/, no source", name)
	}
	installFromArchive(t, files[base+"README.md"], out, testVersion)
	binary := filepath.Join(t.TempDir(), "contactsync")
	require.NoError(t, os.WriteFile(binary, files[base+"contactsync"], 0o755))
	assertStatic(t, binary)
	version, err := exec.Command(binary, "--version").Output()
	require.NoError(t, err)
	assert.Equal(t, "contactsync "+testVersion+" (commit 0123456789abcdef, built 2026-11-25T10:00:00Z, "+
		strings.TrimSpace(goVersion(t))+", linux/amd64)\nservice contract version 1.0\n", string(version))
}

// installFromArchive runs the archive's README's release-archive block as written, in the directory
// holding the archive, but for where the binary goes (a directory of the test's instead of
// /usr/local/bin, and without sudo: CI runs as root, a developer may not), and checks that the installed
// binary runs.
func installFromArchive(t *testing.T, readme []byte, dir, version string) {
	t.Helper()
	var block string
	for _, m := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(string(readme), -1) {
		if strings.Contains(m[1], "tar -xzf") {
			block = m[1]
		}
	}
	require.NotEmpty(t, block, "the archive's README says how to install the binary from the archive")
	bin := t.TempDir()
	script := strings.NewReplacer("VERSION", version, "sudo ", "", "/usr/local/bin", bin, "contactsync --version", bin+"/contactsync --version").Replace(block)
	cmd := exec.Command("sh", "-ec", script)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s\n%s", script, out)
	assert.Contains(t, string(out), "contactsync "+version+" (", "the installed binary says its version")
}

func goVersion(t *testing.T) string {
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	require.NoError(t, err)
	return string(out)
}

// assertStatic checks that an ELF binary has no interpreter: it needs no C library, as FROM scratch
// requires.
func assertStatic(t *testing.T, path string) {
	t.Helper()
	f, err := elf.Open(path)
	require.NoError(t, err)
	defer f.Close()
	for _, p := range f.Progs {
		assert.NotEqual(t, elf.PT_INTERP, p.Type, "%s is dynamically linked", path)
	}
}

// imageConfig is the part of `podman image inspect` the test reads.
type imageConfig struct {
	Config struct {
		User         string
		ExposedPorts map[string]struct{}
		Env          []string
		Entrypoint   []string
		Cmd          []string
		Volumes      map[string]struct{}
		WorkingDir   string
	}
	// Healthcheck is podman's report of the image's HEALTHCHECK, beside Config.
	Healthcheck struct {
		Test     []string
		Interval time.Duration
	}
}

// TestContainerImage builds the image with make image (podman, without a registry) and checks its
// configuration and its file system. The sandbox these tests run in refuses `podman run`, so the
// image's own binary is run from its mounted root file system instead: as the image's non-root user,
// with the image's environment, serving from a data directory that user owns, while the image's
// HEALTHCHECK command, run as the image has it, finds it healthy.
func TestContainerImage(t *testing.T) {
	podman := checkout.Need(t, "podman", "apt-get install podman")
	if os.Geteuid() != 0 {
		msg := "mounting an image's file system and running its binary as its user need root"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	dir := checkout.Clean(t)
	image := fmt.Sprintf("localhost/contactsync-deploytest:%d", os.Getpid())
	build(t, dir, "image", "IMAGE="+image, "VERSION="+testVersion)
	t.Cleanup(func() { _ = exec.Command(podman, "rmi", "--force", image).Run() })

	out, err := exec.Command(podman, "image", "inspect", image).Output()
	require.NoError(t, err)
	var inspected []imageConfig
	require.NoError(t, json.Unmarshal(out, &inspected))
	require.Len(t, inspected, 1)
	c := inspected[0].Config
	assert.Equal(t, "65532:65532", c.User)
	assert.Contains(t, c.ExposedPorts, "8080/tcp")
	assert.Contains(t, c.Volumes, "/data")
	assert.Equal(t, "/data", c.WorkingDir)
	assert.Equal(t, []string{"/usr/local/bin/contactsync"}, c.Entrypoint)
	assert.Equal(t, []string{"serve"}, c.Cmd)
	require.Equal(t, []string{"CMD", "/usr/local/bin/contactsync", "health"}, inspected[0].Healthcheck.Test, "podman kept the HEALTHCHECK (--format docker)")
	env := map[string]string{}
	for _, kv := range c.Env {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	assert.Equal(t, "sqlite:/data/contactsync.db", env["CONTACTSYNC_STORE"])
	assert.Equal(t, ":8080", env["CONTACTSYNC_ADDR"])

	mounted, err := exec.Command(podman, "image", "mount", image).Output()
	require.NoError(t, err)
	root := strings.TrimSpace(string(mounted))
	t.Cleanup(func() { _ = exec.Command(podman, "image", "unmount", image).Run() })
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.ElementsMatch(t, []string{"data", "etc", "usr"}, names, "nothing but the binary, the CA bundle and /data")
	certs, err := os.ReadFile(filepath.Join(root, "etc/ssl/certs/ca-certificates.crt"))
	require.NoError(t, err)
	assert.Contains(t, string(certs), "-----BEGIN CERTIFICATE-----")
	data, err := os.Stat(filepath.Join(root, "data"))
	require.NoError(t, err)
	assert.Equal(t, uint32(65532), data.Sys().(*syscall.Stat_t).Uid, "/data belongs to the service's user")
	binary := filepath.Join(root, c.Entrypoint[0])
	assertStatic(t, binary)
	version, err := exec.Command(binary, "--version").Output()
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(version), "contactsync "+testVersion+" ("), "%s", version)

	// Run the image as a container would, but for the sandbox's refusal: chrooted into its root file
	// system, as its user, in its working directory, with its environment, entrypoint and command, and a
	// writable volume on /data (the image's is read-only here; a named volume would be a copy of it,
	// owned by the same user). Only the port differs from the image's, as a -p mapping would: 8080 may
	// be taken on this machine. Then run its HEALTHCHECK command the same way.
	volume, err := os.MkdirTemp("", "contactsync-volume-*")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(volume) })
	require.NoError(t, os.Chown(volume, 65532, 65532))
	out, err = exec.Command("mount", "--bind", volume, filepath.Join(root, "data")).CombinedOutput()
	require.NoError(t, err, "mount the volume: %s", out)
	t.Cleanup(func() { _ = exec.Command("umount", filepath.Join(root, "data")).Run() }) // before the image's unmount
	port := freePort(t)
	runEnv := append(append([]string{}, c.Env...), "CONTACTSYNC_ADDR=127.0.0.1:"+port)
	inImage := func(args ...string) *exec.Cmd {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env, cmd.Dir = runEnv, c.WorkingDir
		cmd.SysProcAttr = &syscall.SysProcAttr{Chroot: root, Credential: &syscall.Credential{Uid: 65532, Gid: 65532}}
		return cmd
	}
	serve := inImage(append(append([]string{}, c.Entrypoint...), c.Cmd...)...)
	logs, err := serve.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, serve.Start())
	t.Cleanup(func() { _ = serve.Process.Kill(); _ = serve.Wait() })
	listening := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(logs)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "contactsync listening") {
				listening <- sc.Text()
			}
		}
	}()
	select {
	case line := <-listening:
		assert.Contains(t, line, "version="+testVersion)
		assert.Contains(t, line, "store=sqlite:/data/contactsync.db")
	case <-time.After(30 * time.Second):
		t.Fatal("the image's binary did not start serving within 30 s")
	}
	health := inImage(inspected[0].Healthcheck.Test[1:]...)
	out, err = health.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Regexp(t, regexp.MustCompile(`^healthy: http://127\.0\.0\.1:`+port+`/readyz answered 200 OK: ok\n$`), string(out))
	info, err := os.Stat(filepath.Join(volume, "contactsync.db"))
	require.NoError(t, err)
	assert.Equal(t, uint32(65532), info.Sys().(*syscall.Stat_t).Uid, "the database belongs to the image's user")

	// The example config file starts the real binary (outside the image, which does not carry it):
	// every value in it is one serve accepts.
	withExample := exec.Command(binary, "serve")
	withExample.Env = []string{"CONTACTSYNC_CONFIG=" + filepath.Join(dir, "deploy", "contactsync.example.yaml"),
		"CONTACTSYNC_ADDR=127.0.0.1:" + freePort(t), "CONTACTSYNC_STORE=sqlite:" + filepath.Join(t.TempDir(), "c.db")}
	exampleLogs, err := withExample.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, withExample.Start())
	t.Cleanup(func() { _ = withExample.Process.Kill(); _ = withExample.Wait() })
	sc := bufio.NewScanner(exampleLogs)
	started := false
	for !started && sc.Scan() {
		started = strings.Contains(sc.Text(), "contactsync listening")
	}
	assert.True(t, started, "serve with the example config did not start")
}

// freePort returns a port that was free on loopback a moment ago.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	_, port, err := net.SplitHostPort(l.Addr().String())
	require.NoError(t, err)
	return port
}
