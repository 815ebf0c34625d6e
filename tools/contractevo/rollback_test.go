package contractevo_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store/postgres/pgtest"
)

// Issue 34: a contract edit never strands data. This commit's code is built twice, the "older" binary
// with today's contract and the "newer" one with 01-contact-fields (six fields of several types, set
// by TestCreateContact), as a rollback or a rolling upgrade runs them on one store; then a third time
// with PhoneWork renamed, whose new stores must serve.

// newerFields are what ReadContact answers for the fields only the newer contract has, as
// TestCreateContact writes them.
var newerFields = []string{
	"<Modified>2026-11-23T14:05:06.7+01:30</Modified>", "<Active>true</Active>", "<RoleCount>2</RoleCount>",
	"<Verified>true</Verified>", "<Score>20</Score>",
}

// callWith runs `bin call op --binding soap11 --url endpoint args...` and returns what it prints.
func (s *scratch) callWith(t *testing.T, bin, endpoint, op string, args ...string) string {
	t.Helper()
	argv := append([]string{"call", op, "--binding", "soap11", "--url", endpoint}, args...)
	out, err := s.command(bin, argv...).CombinedOutput()
	require.NoError(t, err, "%s %s:\n%s", filepath.Base(filepath.Dir(bin)), strings.Join(argv, " "), out)
	return string(out)
}

// exportWith exports store as JSON Lines with bin and returns the file's content.
func (s *scratch) exportWith(t *testing.T, bin, store string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "export.jsonl")
	s.run(t, bin, "export", "--store", store, "--out", file)
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	return string(data)
}

// assertUpdatedWithNewerFields checks a ReadContact answer of the newer binary: the older binary's
// update applied, and the newer fields still hold what the newer binary wrote.
func assertUpdatedWithNewerFields(t *testing.T, out, what string) {
	t.Helper()
	assert.Contains(t, out, "<FirstName>Updated</FirstName>", "%s: the older binary's update", what)
	for _, w := range newerFields {
		assert.Contains(t, out, w, "%s: a field only the newer contract has", what)
	}
}

// assertCarriedWarning checks that an older binary's log warns about the newer fields, naming them.
func assertCarriedWarning(t *testing.T, log string) {
	t.Helper()
	assert.Regexp(t, `level=WARN msg="the stored records may hold fields the contract does not have[^"]*" fields="Active, Birthday, Modified, RoleCount, Score, Verified" check="contactsync migrate --store \S+ --check"`, log)
}

// TestRollbackKeepsUnknownFields: the newer binary writes a contact, the older one starts on the store
// (warning, naming the fields it carries), updates the contact, and the newer one finds the update and
// its own fields' values, on SQLite (a rollback, one server at a time) and PostgreSQL (both versions
// serving side by side); the older binary's export, import --keep-unknown and copy carry the fields
// too. Then, with PhoneWork renamed PhoneOffice, a new empty SQLite store, the target of import
// --rename and the PostgreSQL target of copy all serve.
func TestRollbackKeepsUnknownFields(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the service three times; skipped with -short")
	}
	for _, tool := range []string{"go", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			missing(t, tool+" is not installed")
		}
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	files := gitFiles(t, root)
	ctx, cancel := context.WithTimeout(context.Background(), 2*patchTimeout)
	defer cancel()
	s := &scratch{ctx: ctx, dir: t.TempDir(), goFlags: scratchGoFlags(t)}
	copyFiles(t, root, s.dir, files)
	start := time.Now()
	older := filepath.Join(s.dir, "older", "contactsync")
	s.run(t, "go", "build", "-o", older, "./cmd/contactsync")
	patchDir := filepath.Join(root, "tools", "contractevo", "testdata", "patches", "01-contact-fields")
	s.run(t, "git", "apply", "-p1", filepath.Join(patchDir, "wsdl.patch"))
	s.run(t, "go", "generate", "./gen/...")
	addServiceCode(t, s, patchDir)
	newer := filepath.Join(s.dir, "newer", "contactsync")
	s.run(t, "go", "build", "-o", newer, "./cmd/contactsync")
	t.Logf("two builds: %s", time.Since(start).Round(100*time.Millisecond))

	t.Run("sqlite", func(t *testing.T) {
		store := "sqlite:" + filepath.Join(t.TempDir(), "c.db")
		srv := s.serveWith(t, newer, store)
		s.callWith(t, newer, srv.endpoint, "TestCreateContact", "--id", "r1")
		srv.stop()

		srv = s.serveWith(t, older, store) // the rollback
		out := s.callWith(t, older, srv.endpoint, "TestUpdateContact", "--id", "r1")
		assert.Contains(t, out, "<FirstName>Updated</FirstName>")
		srv.stop()
		assertCarriedWarning(t, srv.log())

		// The older binary's data commands carry the newer fields too.
		file := filepath.Join(t.TempDir(), "older.jsonl")
		require.NoError(t, os.WriteFile(file, []byte(s.exportWith(t, older, store)), 0o600))
		imported := "sqlite:" + filepath.Join(t.TempDir(), "imported.db")
		s.run(t, older, "import", "--store", imported, "--in", file, "--keep-unknown")
		copied := "sqlite:" + filepath.Join(t.TempDir(), "copied.db")
		s.run(t, older, "copy", "--from", store, "--to", copied)

		srv = s.serveWith(t, newer, store) // the roll forward
		assertUpdatedWithNewerFields(t, s.callWith(t, newer, srv.endpoint, "ReadContact", "--id", "r1"), "after the rollback")
		srv.stop()
		want := s.exportWith(t, newer, store)
		assert.Equal(t, want, s.exportWith(t, newer, imported), "the older binary's export and import")
		assert.Equal(t, want, s.exportWith(t, newer, copied), "the older binary's copy")
	})

	t.Run("postgres", func(t *testing.T) {
		store := pgtest.Schema(t)
		newSrv := s.serveWith(t, newer, store)
		s.callWith(t, newer, newSrv.endpoint, "TestCreateContact", "--id", "r1")
		oldSrv := s.serveWith(t, older, store) // a rolling upgrade, both versions at once
		s.callWith(t, older, oldSrv.endpoint, "TestUpdateContact", "--id", "r1")
		assertUpdatedWithNewerFields(t, s.callWith(t, newer, newSrv.endpoint, "ReadContact", "--id", "r1"), "side by side")
		s.callWith(t, older, oldSrv.endpoint, "TestUpdateContact", "--id", "r1") // again, on its own write
		oldSrv.stop()
		assertCarriedWarning(t, oldSrv.log())
		assertUpdatedWithNewerFields(t, s.callWith(t, newer, newSrv.endpoint, "ReadContact", "--id", "r1"), "updated twice")
		newSrv.stop()

		copied := pgtest.Schema(t)
		s.run(t, older, "copy", "--from", store, "--to", copied)
		assert.Equal(t, s.exportWith(t, newer, store), s.exportWith(t, newer, copied), "the older binary's copy between PostgreSQL schemas")
	})

	t.Run("rename", func(t *testing.T) {
		// PhoneWork renamed PhoneOffice in the contract and the service's test data, on today's
		// contract (a fresh copy).
		r := &scratch{ctx: ctx, dir: t.TempDir(), goFlags: s.goFlags}
		copyFiles(t, root, r.dir, files)
		for _, f := range []string{"wsdl/contactsync.wsdl", "server/service/service.go"} {
			path := filepath.Join(r.dir, f)
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			require.Contains(t, string(data), "PhoneWork")
			require.NoError(t, os.WriteFile(path, []byte(strings.ReplaceAll(string(data), "PhoneWork", "PhoneOffice")), 0o600))
		}
		r.run(t, "go", "generate", "./gen/...")
		renamed := filepath.Join(r.dir, "renamed", "contactsync")
		r.run(t, "go", "build", "-o", renamed, "./cmd/contactsync")

		// A brand-new empty store.
		fresh := "sqlite:" + filepath.Join(t.TempDir(), "fresh.db")
		srv := r.serveWith(t, renamed, fresh)
		assert.Contains(t, r.callWith(t, renamed, srv.endpoint, "TestCreateContact", "--id", "n1"), "<PhoneOffice>")
		srv.stop()
		assert.NotContains(t, srv.log(), "level=WARN", "a fresh store follows its contract")

		// An export made before the rename, imported with --rename into a new store, copied to a new
		// PostgreSQL schema: both serve.
		before := "sqlite:" + filepath.Join(t.TempDir(), "before.db")
		srv = s.serveWith(t, older, before)
		s.callWith(t, older, srv.endpoint, "TestCreateContact", "--id", "o1")
		srv.stop()
		file := filepath.Join(t.TempDir(), "before.jsonl")
		require.NoError(t, os.WriteFile(file, []byte(s.exportWith(t, older, before)), 0o600))
		imported := "sqlite:" + filepath.Join(t.TempDir(), "imported.db")
		r.run(t, renamed, "import", "--store", imported, "--in", file, "--rename", "PhoneWork=PhoneOffice")
		copied := pgtest.Schema(t)
		r.run(t, renamed, "copy", "--from", imported, "--to", copied)
		for _, store := range []string{imported, copied} {
			srv := r.serveWith(t, renamed, store)
			out := r.callWith(t, renamed, srv.endpoint, "ReadContact", "--id", "o1")
			assert.Regexp(t, `<PhoneOffice>\+1-555-\d{4}</PhoneOffice>`, out)
			srv.stop()
			assert.NotContains(t, srv.log(), "level=WARN", "the import and copy targets record what they hold")
		}
	})
	t.Logf("in all: %s", time.Since(start).Round(100*time.Millisecond))
}
