// Command release builds contactsync's release archives: for each GOOS/GOARCH target given as an
// argument, a static binary (CGO_ENABLED=0, -trimpath) stamped with the version, commit and date
// through -ldflags -X, packed with the README, the CHANGELOG and the deploy/ files into
// contactsync-VERSION-OS-ARCH.tar.gz (.zip for Windows), and a SHA256SUMS file over the archives in
// the format sha256sum -c reads. `make release` runs it; nothing is uploaded anywhere.
//
// The archives are reproducible from the same inputs: entries are sorted, owned by root, and dated
// with -date (the build's stamp), not with the files' modification times.
package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// included are the files every archive carries beside the binary, as patterns relative to the
// repository root: the documentation README links to, and the systemd unit and example config. Go
// files that the patterns match (deploy/deploy_test.go, the tests of the packaging) are left out: an
// archive is for installing the binary, not for building it (isSource).
var included = []string{"README.md", "CHANGELOG.md", "BENCHMARKS.md", "docs/*.md", "docs/*.png", "deploy/*"}

// isSource reports whether a matched file is source code of the repository rather than something an
// installed service uses.
func isSource(name string) bool { return strings.HasSuffix(name, ".go") }

func main() {
	out := flag.String("out", "bin/release", "directory the archives and SHA256SUMS are written to (emptied of earlier archives)")
	version := flag.String("version", "devel", "version stamped into the binaries and named in the archives")
	ldflags := flag.String("ldflags", "", "go build -ldflags, with the -X stamps (the Makefile's LDFLAGS)")
	date := flag.String("date", "", "the build's date (RFC 3339), also the archive entries' time; default now")
	goCmd := flag.String("go", "go", "the go command")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("release: ")
	targets := flag.Args()
	if len(targets) == 0 {
		log.Fatal("name at least one GOOS/GOARCH target, e.g. linux/amd64")
	}
	when := time.Now().UTC().Truncate(time.Second)
	if *date != "" {
		t, err := time.Parse(time.RFC3339, *date)
		if err != nil {
			log.Fatalf("-date %q: %v", *date, err)
		}
		when = t.UTC()
	}
	if strings.ContainsAny(*version, "/\\ ") || *version == "" {
		log.Fatalf("-version %q cannot name a file", *version)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	old, _ := filepath.Glob(filepath.Join(*out, "contactsync-*"))
	for _, f := range old {
		_ = os.RemoveAll(f)
	}
	var names []string
	for _, target := range targets {
		goos, goarch, ok := strings.Cut(target, "/")
		if !ok || goos == "" || goarch == "" {
			log.Fatalf("target %q: want GOOS/GOARCH, e.g. linux/amd64", target)
		}
		name, err := buildArchive(*goCmd, *out, *version, *ldflags, goos, goarch, when)
		if err != nil {
			log.Fatalf("%s: %v", target, err)
		}
		names = append(names, name)
		fmt.Println(filepath.Join(*out, name))
	}
	if err := writeSums(*out, names); err != nil {
		log.Fatal(err)
	}
	fmt.Println(filepath.Join(*out, "SHA256SUMS"))
}

// buildArchive builds the binary of one target and packs it; it returns the archive's file name.
func buildArchive(goCmd, out, version, ldflags, goos, goarch string, when time.Time) (string, error) {
	base := "contactsync-" + version + "-" + goos + "-" + goarch
	exe := "contactsync"
	if goos == "windows" {
		exe += ".exe"
	}
	tmp, err := os.MkdirTemp("", "contactsync-release-*")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	binary := filepath.Join(tmp, exe)
	build := exec.Command(goCmd, "build", "-trimpath", "-ldflags", ldflags, "-o", binary, "./cmd/contactsync")
	build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch)
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return "", fmt.Errorf("go build: %w", err)
	}
	files := []entry{{name: base + "/" + exe, path: binary, mode: 0o755}}
	for _, pattern := range included {
		matches, err := filepath.Glob(filepath.FromSlash(pattern))
		if err != nil || len(matches) == 0 {
			return "", fmt.Errorf("%s: no such file (run make release at the repository root)", pattern)
		}
		for _, m := range matches {
			if isSource(m) {
				continue
			}
			files = append(files, entry{name: base + "/" + filepath.ToSlash(m), path: m, mode: 0o644})
		}
	}
	slices.SortFunc(files, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	var buf bytes.Buffer
	name := base + ".tar.gz"
	if goos == "windows" {
		name = base + ".zip"
		err = writeZip(&buf, files, when)
	} else {
		err = writeTarGz(&buf, files, when)
	}
	if err != nil {
		return "", err
	}
	return name, os.WriteFile(filepath.Join(out, name), buf.Bytes(), 0o644)
}

// entry is one file of an archive: its name in the archive, where it is read from, and its mode.
type entry struct {
	name string
	path string
	mode int64
}

func writeTarGz(w io.Writer, files []entry, when time.Time) error {
	gz, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	gz.ModTime = when
	tw := tar.NewWriter(gz)
	// Each directory is written once, before the files in it (the names are sorted).
	written := map[string]bool{}
	for _, f := range files {
		var parents []string
		for dir := path.Dir(f.name); dir != "." && !written[dir]; dir = path.Dir(dir) {
			parents = append(parents, dir)
		}
		for _, dir := range slices.Backward(parents) {
			written[dir] = true
			if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: dir + "/", Mode: 0o755, ModTime: when, Format: tar.FormatPAX}); err != nil {
				return err
			}
		}
	}
	for _, f := range files {
		data, err := os.ReadFile(f.path)
		if err != nil {
			return err
		}
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: f.name, Mode: f.mode, Size: int64(len(data)), ModTime: when, Format: tar.FormatPAX}); err != nil {
			return err
		}
		if _, err := tw.Write(data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func writeZip(w io.Writer, files []entry, when time.Time) error {
	zw := zip.NewWriter(w)
	for _, f := range files {
		data, err := os.ReadFile(f.path)
		if err != nil {
			return err
		}
		h := &zip.FileHeader{Name: f.name, Method: zip.Deflate, Modified: when}
		h.SetMode(os.FileMode(f.mode))
		fw, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := fw.Write(data); err != nil {
			return err
		}
	}
	return zw.Close()
}

// writeSums writes SHA256SUMS for the archives, one "HASH  NAME" line each, as sha256sum writes them.
func writeSums(out string, names []string) error {
	var b strings.Builder
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%x  %s\n", sha256.Sum256(data), name)
	}
	return os.WriteFile(filepath.Join(out, "SHA256SUMS"), []byte(b.String()), 0o644)
}
