package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/backend"
	"github.com/contactsync/contactsync/server/store/postgres/pgtest"
	"github.com/contactsync/contactsync/server/store/sqlite"
	"github.com/contactsync/contactsync/wsdl"
)

// cliResult is what one in-process run of the command tree wrote, and its error.
type cliResult struct {
	stdout, stderr string
	err            error
}

// runData runs the command tree in-process with args and stdin, keeping stdout and stderr apart.
func runData(t *testing.T, stdin string, args ...string) cliResult {
	t.Helper()
	cmd := newRootCommand()
	var out, errOut bytes.Buffer
	cmd.SetIn(strings.NewReader(stdin))
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	return cliResult{out.String(), errOut.String(), err}
}

// storeKinds are the stores the data commands are tested on; each returns a fresh, empty store spec.
var storeKinds = []struct {
	name string
	spec func(t *testing.T) string
}{
	{"sqlite", func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "contacts.db") }},
	{"postgres", func(t *testing.T) string { return pgtest.Schema(t) }},
}

// fill writes contacts into the store spec names: every kind of value a round trip must keep.
func fill(t *testing.T, spec string, n int) {
	t.Helper()
	st, _, err := openBulkStore(t.Context(), "store", spec, nil, backend.Write)
	require.NoError(t, err)
	defer st.Close()
	cs := make([]store.Record, n)
	for i := range cs {
		// The contract's text fields take these in schema order (FirstName … EmailAddress in
		// contract 1.0), its array of texts two items (none for every third).
		texts := []string{"Zoë 🙂", `O'Brien, "quoted" <&>`, "+1 555 0100", "line\nbreak", fmt.Sprintf("c%d@example.com", i)}
		items := []string{"role-a", "роль"}
		if i%3 == 0 {
			items = nil
		}
		cs[i] = service.ToRecord(sampleContact(t, fmt.Sprintf("id-%05d", i), "ACC-"+fmt.Sprint(i%7), texts, items...))
	}
	for _, id := range []string{"ünïcødé-ид-役割", "Z", "a"} {
		cs = append(cs, service.ToRecord(sampleContact(t, id, "", nil)))
	}
	_, err = st.WriteBatch(t.Context(), cs, store.Upsert)
	require.NoError(t, err)
}

// count returns how many contacts the store spec names holds.
func count(t *testing.T, spec string) int64 {
	t.Helper()
	st, _, err := openBulkStore(t.Context(), "store", spec, nil, backend.Write)
	require.NoError(t, err)
	defer st.Close()
	n, err := st.Count(t.Context())
	require.NoError(t, err)
	return n
}

// exportOf exports the store in format to standard output and returns it.
func exportOf(t *testing.T, spec, format string) string {
	t.Helper()
	r := runData(t, "", "export", "--store", spec, "--format", format)
	require.NoError(t, r.err, r.stderr)
	return r.stdout
}

// TestExportImportRoundTrip exports a store, imports the file into an empty store of every kind and
// exports that: the two exports are byte for byte equal, in both formats, across both stores.
func TestExportImportRoundTrip(t *testing.T) {
	clearSettingsEnv(t)
	for _, from := range storeKinds {
		for _, to := range storeKinds {
			for _, format := range []string{"jsonl", "csv"} {
				t.Run(from.name+"-to-"+to.name+"/"+format, func(t *testing.T) {
					src := from.spec(t)
					fill(t, src, 300)
					file := filepath.Join(t.TempDir(), "contacts."+format)
					r := runData(t, "", "export", "--store", src, "--out", file)
					require.NoError(t, r.err, r.stderr)
					assert.Contains(t, r.stderr, "exported 303 contacts")
					first, err := os.ReadFile(file)
					require.NoError(t, err)
					assert.Equal(t, exportOf(t, src, format), string(first), "--out and standard output carry the same")

					dst := to.spec(t)
					r = runData(t, "", "import", "--store", dst, "--in", file)
					require.NoError(t, r.err, r.stderr)
					assert.Equal(t, "read 303, inserted 303, updated 0, refused 0\n", r.stdout)
					assert.Equal(t, string(first), exportOf(t, dst, format))
				})
			}
		}
	}
}

// TestImportUpsertIsIdempotent imports one file twice: the second run updates every contact and
// changes nothing; under insert-only it refuses every contact and stops at the first.
func TestImportUpsertIsIdempotent(t *testing.T) {
	clearSettingsEnv(t)
	for _, kind := range storeKinds {
		t.Run(kind.name, func(t *testing.T) {
			src, dst := kind.spec(t), kind.spec(t)
			fill(t, src, 100)
			file := exportOf(t, src, "jsonl")
			for range 2 {
				r := runData(t, file, "import", "--store", dst)
				require.NoError(t, r.err, r.stderr)
			}
			r := runData(t, file, "import", "--store", dst, "--mode", "upsert")
			require.NoError(t, r.err, r.stderr)
			assert.Equal(t, "read 103, inserted 0, updated 103, refused 0\n", r.stdout)
			assert.Equal(t, file, exportOf(t, dst, "jsonl"))

			// insert-only keeps every stored contact, reports each refusal (the first 20 listed) and fails.
			r = runData(t, file, "import", "--store", dst, "--mode", "insert-only")
			require.Error(t, r.err)
			assert.Equal(t, "103 records were refused (the first 20 are listed above) and 0 written: the refused ones are contacts the store holds already, which --mode insert-only keeps; --mode upsert would replace them", r.err.Error())
			assert.Equal(t, "read 103, inserted 0, updated 0, refused 103\n", r.stdout)
			assert.Contains(t, r.stderr, `line 1: record "Z" already exists (--mode insert-only)`)
			assert.Equal(t, maxReportedRefusals, strings.Count(r.stderr, "already exists"))
			assert.Equal(t, file, exportOf(t, dst, "jsonl"), "insert-only changed a stored contact")
		})
	}
}

// TestImportBadLine puts a bad record at line 5: it is reported with its line number, and under
// --max-errors 0 the store is left exactly as it was, whether the input is a file or standard input;
// with --max-errors 2 the good records are written.
func TestImportBadLine(t *testing.T) {
	clearSettingsEnv(t)
	good := func(id string) string { return `{"Id":"` + id + `","FirstName":"new"}` + "\n" }
	input := good("n1") + good("n2") + good("n3") + good("n4") +
		`{"Id":"n5","FirstName":7}` + "\n" + // line 5
		good("n6") + good("existing")
	for _, kind := range storeKinds {
		t.Run(kind.name, func(t *testing.T) {
			spec := kind.spec(t)
			fill(t, spec, 10)
			r := runData(t, good("existing"), "import", "--store", spec)
			require.NoError(t, r.err)
			before := exportOf(t, spec, "jsonl")
			file := filepath.Join(t.TempDir(), "in.jsonl")
			require.NoError(t, os.WriteFile(file, []byte(input), 0o600))

			for _, args := range [][]string{{"--in", file}, {"--in", "-"}, {"--in", file, "--max-errors", "0"}} {
				r := runData(t, input, append([]string{"import", "--store", spec}, args...)...)
				require.Error(t, r.err, "%v", args)
				assert.Contains(t, r.err.Error(), "nothing was written")
				assert.Equal(t, "line 5: FirstName: want a string, found a number\n", r.stderr)
				assert.Equal(t, "read 7, inserted 0, updated 0, refused 1\n", r.stdout)
				assert.Equal(t, before, exportOf(t, spec, "jsonl"), "the store changed under --max-errors 0 (%v)", args)
			}

			r = runData(t, input, "import", "--store", spec, "--max-errors", "2")
			require.NoError(t, r.err, r.stderr)
			assert.Equal(t, "line 5: FirstName: want a string, found a number\n", r.stderr)
			assert.Equal(t, "read 7, inserted 5, updated 1, refused 1\n", r.stdout)
			assert.Equal(t, int64(13+1+5), count(t, spec), "the filled contacts, existing, and n1-n4 and n6")

			r = runData(t, input, "import", "--store", spec, "--max-errors", "1", "--mode", "insert-only")
			require.Error(t, r.err)
			assert.Contains(t, r.err.Error(), "stopped at line 1, the refusal that reached --max-errors 1")
		})
	}
}

// TestImportCSVFromSQLServer imports the CSV a SQL Server shop exports (byte order mark, CRLF, the
// key's column name in other case, quoted commas, a ';' list) and exports it again as CSV: the
// contract's columns, RoleIds as a JSON array (testdata/import-sqlserver.csv).
func TestImportCSVFromSQLServer(t *testing.T) {
	clearSettingsEnv(t)
	spec := storeKinds[0].spec(t)
	// The columns of the contract's key (as ID), indexed field, text fields and array of texts.
	texts := textFields(t)
	header := append([]string{strings.ToUpper(gen.ContactRecord.Key), gen.ContactRecord.Index}, texts...)
	array := textArrayField()
	if array != "" {
		header = append(header, array)
	}
	row := func(quote bool, id string, values []string, items string) string {
		cells := append([]string{id, "ACC-1"}, make([]string, len(texts))...)
		copy(cells[2:], values)
		if array != "" {
			cells = append(cells, items)
		}
		for i, c := range cells {
			if quote {
				cells[i] = `"` + c + `"`
			} else if strings.Contains(c, ",") {
				cells[i] = `"` + c + `"`
			}
		}
		return strings.Join(cells, ",") + "\r\n"
	}
	csvOf := func(quote bool) string {
		head := slices.Clone(header)
		if quote {
			for i, h := range head {
				head[i] = `"` + h + `"`
			}
		}
		return "\xEF\xBB\xBF" + strings.Join(head, ",") + "\r\n" +
			row(quote, "42", []string{"Ann", "Lee, Jr.", "+1 555 0100", "", "ann@example.com"}, "admin;sales") +
			row(quote, "43", []string{"Bob", "Smith"}, "")
	}
	file := filepath.Join(t.TempDir(), "export.csv")
	require.NoError(t, os.WriteFile(file, []byte(csvOf(false)), 0o600))
	r := runData(t, "", "import", "--store", spec, "--in", file)
	require.NoError(t, r.err, r.stderr)
	assert.Equal(t, "read 2, inserted 2, updated 0, refused 0\n", r.stdout)
	golden(t, filepath.Join("testdata", "import-sqlserver.csv"), exportOf(t, spec, "csv"))

	// The same contacts as PowerShell's Export-Csv writes them (the README's example): every value
	// quoted. Importing them changes nothing.
	before := exportOf(t, spec, "csv")
	r = runData(t, csvOf(true), "import", "--store", spec, "--format", "csv")
	require.NoError(t, r.err, r.stderr)
	assert.Equal(t, "read 2, inserted 0, updated 2, refused 0\n", r.stdout)
	assert.Equal(t, before, exportOf(t, spec, "csv"))
}

// TestImportChecksAsTheService checks that import refuses what the service would refuse or could not
// return: the id rules of the operations, and text XML cannot carry.
func TestImportChecksAsTheService(t *testing.T) {
	clearSettingsEnv(t)
	spec := storeKinds[0].spec(t)
	input := `{"Id":""}` + "\n" +
		`{"Id":"` + strings.Repeat("x", 257) + `"}` + "\n" +
		`{"Id":"a\u0007b"}` + "\n" +
		`{"Id":"ok","FirstName":"bell\u0007"}` + "\n" +
		`{"Id":"ok","RoleIds":["fine","\ufffe"]}` + "\n" +
		`{"Id":"ok","LastName":"tab\tnew\nline\r","RoleIds":["x"]}` + "\n"
	r := runData(t, input, "import", "--store", spec, "--max-errors", "10")
	require.NoError(t, r.err)
	assert.Equal(t, "line 1: Id is not a valid contact id: The parameter id is required and must not be empty.\n"+
		"line 2: Id is not a valid contact id: The parameter id is longer than 256 characters.\n"+
		"line 3: Id is not a valid contact id: The parameter id contains a control character (U+0007).\n"+
		"line 4: FirstName holds a character XML cannot carry (U+0007)\n"+
		"line 5: RoleIds[1] holds a character XML cannot carry (U+FFFE)\n", r.stderr)
	assert.Equal(t, "read 6, inserted 1, updated 0, refused 5\n", r.stdout)
}

// TestCopyVerifies copies between stores and checks the verification: it passes on a faithful copy,
// fails when one field of one row differs in the target, and a non-empty target is refused without
// --upsert.
func TestCopyVerifies(t *testing.T) {
	clearSettingsEnv(t)
	for _, tc := range []struct{ from, to int }{{0, 1}, {0, 0}, {1, 0}} {
		from, to := storeKinds[tc.from], storeKinds[tc.to]
		t.Run(from.name+"-to-"+to.name, func(t *testing.T) {
			src, dst := from.spec(t), to.spec(t)
			fill(t, src, 500)
			r := runData(t, "", "copy", "--from", src, "--to", dst)
			require.NoError(t, r.err, r.stderr)
			assert.Contains(t, r.stdout, "read 503, inserted 503, updated 0, refused 0")
			assert.Contains(t, r.stdout, "verified: both stores hold 503 contacts, sha256 ")
			assert.Equal(t, exportOf(t, src, "jsonl"), exportOf(t, dst, "jsonl"))

			r = runData(t, "", "copy", "--from", src, "--to", dst)
			require.Error(t, r.err)
			assert.Contains(t, r.err.Error(), "holds 503 contacts")

			// Merging into a target with contacts of its own: verified contact by contact.
			extra := to.spec(t)
			require.NoError(t, runData(t, `{"Id":"extra"}`+"\n"+`{"Id":"id-00001"}`, "import", "--store", extra).err)
			r = runData(t, "", "copy", "--from", src, "--to", extra, "--upsert")
			require.NoError(t, r.err, r.stderr)
			assert.Contains(t, r.stdout, "read 503, inserted 502, updated 1, refused 0")
			assert.Contains(t, r.stdout, "holds all 503 contacts")
			assert.Equal(t, int64(504), count(t, extra))
			var out, errOut bytes.Buffer
			err := runCopy(t.Context(), copyOptions{from: src, to: extra, upsert: true, beforeVerify: func(st store.Store) {
				_, err := st.Delete(t.Context(), "id-00499")
				require.NoError(t, err)
			}}, &out, &errOut)
			require.ErrorContains(t, err, `record "id-00499" is missing from the target`)

			// A row changed between the copy and the verification: the verification must fail.
			other := to.spec(t)
			out.Reset()
			err = runCopy(t.Context(), copyOptions{from: src, to: other, beforeVerify: func(st store.Store) {
				require.NoError(t, st.Put(t.Context(), service.ToRecord(&gen.Contact{Id: "id-00250", FirstName: "changed"})))
			}}, &out, &errOut)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "verification failed")
		})
	}
}

// TestBackupUnderServe takes a backup with the command while serve answers writes on the same file,
// then serves the backup (the restore): every write acknowledged before the backup started is there.
func TestBackupUnderServe(t *testing.T) {
	clearSettingsEnv(t)
	dir := t.TempDir()
	spec := "sqlite:" + filepath.Join(dir, "contacts.db")
	endpoint, _ := startServe(t, spec)

	var (
		mu    sync.Mutex
		acked []string
	)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 3 {
		wg.Go(func() {
			c := &gen.SyncServiceSoapClient{Invoker: &client.Client{Endpoint: endpoint, Namespace: wsdl.DefaultNamespace}}
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				id := fmt.Sprintf("w%d-%d", w, i)
				if _, err := c.TestCreateContact(&gen.TestCreateContact{Id: id}); err != nil {
					t.Errorf("create %s: %v", id, err)
					return
				}
				mu.Lock()
				acked = append(acked, id)
				mu.Unlock()
			}
		})
	}
	time.Sleep(200 * time.Millisecond)
	mu.Lock()
	before := append([]string(nil), acked...)
	mu.Unlock()
	backup := filepath.Join(dir, "backup.db")
	r := runData(t, "", "backup", "--store", spec, "--to", backup)
	time.Sleep(50 * time.Millisecond)
	close(stop)
	wg.Wait()
	require.NoError(t, r.err, r.stderr)
	require.NotEmpty(t, before)
	assert.Contains(t, r.stdout, "integrity ok")

	restored, _ := startServe(t, "sqlite:"+backup)
	c := &gen.SyncServiceSoapClient{Invoker: &client.Client{Endpoint: restored, Namespace: wsdl.DefaultNamespace}}
	for _, id := range before {
		_, err := c.ReadContact(&gen.ReadContact{Id: id})
		require.NoError(t, err, "acknowledged before the backup, missing from it: %s", id)
	}
}

// TestImportBesideServe imports into the SQLite file a running serve writes to: the service's writes
// keep succeeding while the import runs (it keeps its transactions short and leaves the lock free
// between them), and both end up in the store.
func TestImportBesideServe(t *testing.T) {
	clearSettingsEnv(t)
	dir := t.TempDir()
	spec := "sqlite:" + filepath.Join(dir, "contacts.db")
	endpoint, _ := startServe(t, spec)
	src := "sqlite:" + filepath.Join(dir, "src.db")
	fill(t, src, 20000)
	file := exportOf(t, src, "jsonl")

	var created int
	var longest time.Duration
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		c := &gen.SyncServiceSoapClient{Invoker: &client.Client{Endpoint: endpoint, Namespace: wsdl.DefaultNamespace}}
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			start := time.Now()
			if _, err := c.TestCreateContact(&gen.TestCreateContact{Id: fmt.Sprintf("served-%d", i)}); err != nil {
				t.Errorf("create beside the import: %v", err)
				return
			}
			created++
			longest = max(longest, time.Since(start))
		}
	}()
	r := runData(t, file, "import", "--store", spec)
	close(stop)
	<-done
	require.NoError(t, r.err, r.stderr)
	assert.Equal(t, "read 20003, inserted 20003, updated 0, refused 0\n", r.stdout)
	t.Logf("%d creates beside the import, the longest %s", created, longest)
	assert.Positive(t, created)
	assert.Equal(t, int64(20003+created), count(t, spec))
}

// TestDataCommandsHidePasswords checks that no data command prints a DSN's password, whether the
// store is unreachable, refused or mistyped.
func TestDataCommandsHidePasswords(t *testing.T) {
	clearSettingsEnv(t)
	dsn := "postgres://u:s3cret@127.0.0.1:1/db?sslmode=disable&connect_timeout=1"
	for _, args := range [][]string{
		{"backup", "--store", dsn, "--to", filepath.Join(t.TempDir(), "b.db")},
		{"export", "--store", dsn},
		{"import", "--store", dsn, "--in", "-"},
		{"copy", "--from", dsn, "--to", "sqlite:" + filepath.Join(t.TempDir(), "c.db")},
		{"copy", "--from", "sqlite:" + filepath.Join(t.TempDir(), "c.db"), "--to", dsn},
		{"export", "--store", "postgress://u:s3cret@h/db"},
		{"copy", "--from", dsn, "--to", dsn},
	} {
		r := runData(t, "", args...)
		require.Error(t, r.err, "%v", args)
		assert.NotContains(t, r.err.Error()+r.stdout+r.stderr, "s3cret", "%v", args)
	}
	r := runData(t, "", "backup", "--store", dsn, "--to", "x.db")
	assert.Contains(t, r.err.Error(), "pg_dump")
}

// TestDataCommandsTakeSettings checks the store settings come from the environment and the config
// file like every other setting.
func TestDataCommandsTakeSettings(t *testing.T) {
	clearSettingsEnv(t)
	dir := t.TempDir()
	src := "sqlite:" + filepath.Join(dir, "src.db")
	fill(t, src, 5)
	t.Setenv("CONTACTSYNC_STORE", src)
	r := runData(t, "", "export")
	require.NoError(t, r.err)
	assert.Equal(t, 8, strings.Count(r.stdout, "\n"))

	dst := "sqlite:" + filepath.Join(dir, "dst.db")
	config := filepath.Join(dir, "config.yaml")
	require.NoError(t, os.WriteFile(config, []byte("from: "+src+"\nto: "+dst+"\n"), 0o600))
	r = runData(t, "", "copy", "--config", config)
	require.NoError(t, r.err, r.stderr)
	assert.Contains(t, r.stdout, "verified")
	assert.Equal(t, int64(8), count(t, dst))

	// A backup made through the environment's store, refused for a missing --to.
	r = runData(t, "", "backup")
	require.ErrorContains(t, r.err, "--to is required")
	r = runData(t, "", "backup", "--to", filepath.Join(dir, "b.db"))
	require.NoError(t, r.err)
	_, err := sqlite.Open(t.Context(), filepath.Join(dir, "b.db"))
	require.NoError(t, err)
}

// TestImportRename imports an export made before a field was renamed: without --rename the old
// field is refused, naming the contract's fields; with --rename Old=New its values land in New
// (the export: testdata/import-rename.jsonl). New is the contract's last text field, Old its name
// before a rename that never was.
func TestImportRename(t *testing.T) {
	clearSettingsEnv(t)
	spec := storeKinds[0].spec(t)
	texts := textFields(t)
	field := texts[len(texts)-1]
	former := "Former" + field
	old := `{"` + gen.ContactRecord.Key + `":"r1","` + former + `":"kept under its new name"}` + "\n"
	r := runData(t, old, "import", "--store", spec)
	require.Error(t, r.err)
	assert.Contains(t, r.stderr, `line 1: unknown field "`+former+`"; the known fields are `+knownFields()+"\n")

	r = runData(t, old, "import", "--store", spec, "--rename", former+"="+field)
	require.NoError(t, r.err, r.stderr)
	assert.Equal(t, "read 1, inserted 1, updated 0, refused 0\n", r.stdout)
	golden(t, filepath.Join("testdata", "import-rename.jsonl"), exportOf(t, spec, "jsonl"))

	for _, c := range []struct{ rename, want string }{
		{former, `--rename "` + former + `": use Old=New`},
		{former + "=Nowhere", "--rename " + former + "=Nowhere: Nowhere is not an element of the record type"},
		{field + "=" + texts[0], field + " is still an element of the record type"},
	} {
		r := runData(t, old, "import", "--store", spec, "--rename", c.rename)
		require.Error(t, r.err, c.rename)
		assert.Contains(t, r.err.Error(), c.want)
	}
}
