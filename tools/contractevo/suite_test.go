package contractevo_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// suiteTimeout bounds one patch's suite run end to end (copy, generate, make update-golden, go test of
// the packages below), from the moment it gets one of the patchSlots. The two patches took 92 s and
// 112 s of wall time, side by side (112 s for the test), about 50 s of CPU in all, on a warm build
// cache on a 2-core machine whose load average was 15 to 19 from other work; the bound leaves a loaded
// machine room.
const suiteTimeout = 8 * time.Minute

// suiteEdit is one contract edit after which the project's own tests must pass once its service code
// is in and make update-golden has run: nothing else written by hand.
type suiteEdit struct {
	dir string // under testdata/patches/: wsdl.patch and the service code (service.patch, .go files)
	// packages are the go test patterns run once the goldens are refreshed: the packages a contract
	// edit can touch (the contract and its generated code, the server, its bindings, wire runtime,
	// record formats, help pages, service and client, and the command).
	packages []string
}

// editedPackages are the packages whose tests read the contract, its generated code or what the
// service makes of it. server/store/... is not among them: the stores know nothing of the wire (the
// import rules) and their tests use a contact type of their own. docs/ (the README's walk-through,
// minutes long) and the race detector are make test's.
var editedPackages = []string{
	"./wsdl", "./gen", "./server", "./server/binding/...", "./server/client", "./server/docs",
	"./server/service", "./server/transfer/...", "./server/wire/...", "./cmd/contactsync",
}

var suiteEdits = []suiteEdit{
	// A typed-field addition: dateTime, boolean and int fields, optional and nillable, on Contact.
	{dir: "01-contact-fields", packages: editedPackages},
	// A rename, PhoneWork to PhoneOffice: a fresh store follows the contract it is created with, so
	// the command's tests serve new stores of the renamed contract too.
	{dir: "08-rename-phonework", packages: editedPackages},
}

// TestSuiteSurvivesContractEdit plays a contract edit as its author would: patch the WSDL, make
// generate, write the service code, make update-golden; then the tests of the packages a contract
// edit can touch must pass with nothing else changed, for a typed-field addition and for a rename.
// Tests that pin today's contract are goldens (which make update-golden rewrites); every other test
// takes its operations, fields and sample values from the generated table and the contract.
func TestSuiteSurvivesContractEdit(t *testing.T) {
	if testing.Short() {
		t.Skip("the suite after a contract edit builds and tests the module twice; skipped with -short")
	}
	for _, tool := range []string{"go", "git", "make"} {
		if _, err := exec.LookPath(tool); err != nil {
			missing(t, tool+" is not installed")
		}
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	files := gitFiles(t, root)
	goFlags := scratchGoFlags(t)
	for _, ed := range suiteEdits {
		t.Run(ed.dir, func(t *testing.T) {
			t.Parallel()
			patchSlots <- struct{}{}
			defer func() { <-patchSlots }()
			start, last := time.Now(), time.Now()
			lap := func(what string) {
				t.Logf("%s: %s", what, time.Since(last).Round(100*time.Millisecond))
				last = time.Now()
			}
			ctx, cancel := context.WithTimeout(context.Background(), suiteTimeout)
			defer cancel()
			s := &scratch{ctx: ctx, dir: t.TempDir(), goFlags: goFlags}
			copyFiles(t, root, s.dir, files)
			patchDir := filepath.Join(root, "tools", "contractevo", "testdata", "patches", ed.dir)
			s.run(t, "git", "apply", "-p1", filepath.Join(patchDir, "wsdl.patch"))
			s.run(t, "make", "generate")
			addServiceCode(t, s, patchDir)
			lap("patch, generate and the service code")

			s.run(t, "make", "update-golden")
			changed := changedFiles(t, root, s.dir, files, "/testdata/")
			t.Logf("make update-golden rewrote %d files: %s", len(changed), strings.Join(changed, ", "))
			assert.NotEmpty(t, changed, "the edit changes what the goldens pin, so make update-golden rewrites some")
			lap("make update-golden")

			// The suite as make test runs it, less the race detector and the long tests (-short), in an
			// environment that has no PostgreSQL or CI setting: the tests that need one skip here and
			// run in make test itself.
			cmd := s.command("go", append([]string{"test", "-count=1", "-short", "-parallel", "4"}, ed.packages...)...)
			cmd.Env = slices.DeleteFunc(cmd.Env, func(kv string) bool { return strings.HasPrefix(kv, "CI=") })
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "after %s, make generate, its service code and make update-golden, go test fails:\n%s",
				ed.dir, failures(string(out)))
			lap("go test " + strings.Join(ed.packages, " "))
			t.Logf("%s: %s in all", ed.dir, time.Since(start).Round(time.Second))
		})
	}
}

// changedFiles lists the tracked files whose path holds part that differ between root and dir (or
// are gone from dir).
func changedFiles(t *testing.T, root, dir string, files []string, part string) []string {
	t.Helper()
	var changed []string
	for _, f := range files {
		if !strings.Contains("/"+f, part) {
			continue
		}
		a, err := os.ReadFile(filepath.Join(root, f))
		if os.IsNotExist(err) {
			continue
		}
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || !bytes.Equal(a, b) {
			changed = append(changed, f)
		}
	}
	return changed
}

// failures keeps, of go test's output, the lines that say what failed (FAIL, the failing tests'
// messages, build errors), so a failure's report names them rather than every ok package.
func failures(out string) string {
	var keep []string
	for line := range strings.Lines(out) {
		if strings.HasPrefix(line, "ok ") || strings.HasPrefix(line, "?") {
			continue
		}
		keep = append(keep, line)
	}
	return strings.Join(keep, "")
}
