package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/postgres/pgtest"
	"github.com/contactsync/contactsync/server/transfer"
)

// record is line i of a generated import file.
func record(i int) string {
	return fmt.Sprintf("{\"Id\":\"gen-%07d\",\"FirstName\":\"First %d\",\"LastName\":\"Last\",\"RoleIds\":[\"r1\",\"r2\"]}\n", i, i)
}

// endless is standard input that never ends: generated records, one after another. It closes
// reached once it has produced n records, so a test can interrupt an import known to be in progress.
type endless struct {
	next    int
	n       int
	reached chan struct{}
	buf     []byte
}

func newEndless(n int) *endless { return &endless{n: n, reached: make(chan struct{})} }

func (e *endless) Read(p []byte) (int, error) {
	for len(e.buf) < len(p) {
		e.buf = append(e.buf, record(e.next)...)
		e.next++
		if e.next == e.n {
			close(e.reached)
		}
	}
	n := copy(p, e.buf)
	e.buf = e.buf[n:]
	return n, nil
}

// interruptAfter runs runImport and cancels its context once reached is closed, as Ctrl-C would; it
// returns the standard output, how long the import took to answer the interrupt, and the error.
func interruptAfter(t *testing.T, opts importOptions, in io.Reader, reached <-chan struct{}) (string, time.Duration, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- runImport(ctx, opts, transfer.JSONL, false, in, &stdout, &stderr) }()
	select {
	case <-reached:
	case err := <-done:
		t.Fatalf("the import ended before the interrupt: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	interrupted := time.Now()
	cancel()
	select {
	case err := <-done:
		return stdout.String(), time.Since(interrupted), err
	case <-time.After(30 * time.Second):
		t.Fatal("the import did not answer the interrupt within 30 s")
	}
	return "", 0, nil
}

// TestImportInterrupt: Ctrl-C used to be ignored during the check pass (12.7 s on 93 MB) and, in the
// write pass, to end with "context canceled" alone. Now the import answers at once in either pass and
// says what it wrote and how to finish; the store holds exactly what it says, and rerunning the same
// command completes the import. The time to answer is printed: it is well under the 1 s goal on an idle
// machine; the assertion allows a loaded one far more, since timing goals belong in benchmarks.
func TestImportInterrupt(t *testing.T) {
	clearSettingsEnv(t)
	for _, kind := range storeKinds {
		t.Run(kind.name, func(t *testing.T) {
			spec := kind.spec(t)
			base := importOptions{store: spec, in: "-", mode: "upsert", batchSize: 512}

			// The check pass, on input that never ends: nothing is written.
			src := newEndless(4000)
			_, took, err := interruptAfter(t, base, src, src.reached)
			t.Logf("check pass answered the interrupt in %s", took)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "interrupted while checking - (")
			assert.Contains(t, err.Error(), "nothing was written; run the same command again")
			assert.Less(t, took, 5*time.Second)
			assert.Equal(t, int64(0), count(t, spec))

			// The write pass (--no-check): what it says it wrote is what the store holds.
			src = newEndless(4000)
			opts := base
			opts.noCheck = true
			_, took, err = interruptAfter(t, opts, src, src.reached)
			t.Logf("write pass answered the interrupt in %s", took)
			require.Error(t, err)
			assert.Less(t, took, 5*time.Second)
			held := count(t, spec)
			require.Positive(t, held)
			assert.Contains(t, err.Error(), fmt.Sprintf("interrupted: %d records were written (inserted %d, updated 0), every good one up to line %d of - and none after it", held, held, held))
			assert.Contains(t, err.Error(), "running the same command again (--mode upsert) completes it")

			// Input interrupted half way through its write pass under insert-only, then imported
			// again with --mode upsert, as the message says: the store ends up with every record.
			var input strings.Builder
			const total = 8000
			for i := range total {
				input.WriteString(record(i))
			}
			half := &halfway{r: strings.NewReader(input.String()), at: input.Len() / 2, reached: make(chan struct{})}
			opts = base
			opts.store = kind.spec(t)
			opts.mode = "insert-only"
			opts.noCheck = true
			stdout, _, err := interruptAfter(t, opts, half, half.reached)
			require.Error(t, err)
			held = count(t, opts.store)
			require.Positive(t, held)
			require.Less(t, held, int64(total))
			assert.Contains(t, err.Error(), fmt.Sprintf("interrupted: %d records were written (inserted %d, updated 0)", held, held))
			assert.Contains(t, err.Error(), "running it again with --mode upsert completes it")
			assert.Contains(t, stdout, fmt.Sprintf("inserted %d, updated 0, refused 0", held))

			r := runData(t, input.String(), "import", "--store", opts.store, "--mode", "upsert")
			require.NoError(t, r.err, r.stderr)
			assert.Equal(t, fmt.Sprintf("read %d, inserted %d, updated %d, refused 0\n", total, total-held, held), r.stdout)
			assert.Equal(t, int64(total), count(t, opts.store))
		})
	}
}

// halfway reads r and closes reached once at bytes have been read.
type halfway struct {
	r       io.Reader
	at      int
	read    int
	reached chan struct{}
}

func (h *halfway) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if h.read < h.at && h.read+n >= h.at {
		close(h.reached)
	}
	h.read += n
	return n, err
}

// TestImportFileInTheOtherFormat: a CSV file not named .csv was refused line by line ("not a JSON
// object", 385 times for 385 lines) with no word of --format; now it is refused at once, saying so,
// and nothing is created.
func TestImportFileInTheOtherFormat(t *testing.T) {
	clearSettingsEnv(t)
	dir := t.TempDir()
	csv := filepath.Join(dir, "contacts.txt")
	// A CSV header of the contract's key, indexed and text fields, and two rows.
	texts := textFields(t)
	header := strings.Join(append([]string{gen.ContactRecord.Key, gen.ContactRecord.Index}, texts...), ",")
	empty := strings.Repeat(",", len(texts)-1)
	require.NoError(t, os.WriteFile(csv, []byte(header+"\n1,,Ann"+empty+"\n2,,Bob"+empty+"\n"), 0o600))
	spec := "sqlite:" + filepath.Join(dir, "new.db")
	r := runData(t, "", "import", "--store", spec, "--in", csv)
	require.Error(t, r.err)
	assert.Equal(t, "--in "+csv+": the first line is not a JSON object but looks like a CSV header row (the format comes from the file name: csv for a .csv file, else jsonl); pass --format csv to read CSV", r.err.Error())
	assert.Empty(t, r.stderr)
	assert.Equal(t, []string{"contacts.txt"}, dirEntries(t, dir))

	r = runData(t, "", "import", "--store", spec, "--in", csv, "--format", "csv")
	require.NoError(t, r.err, r.stderr)
	assert.Equal(t, "read 2, inserted 2, updated 0, refused 0\n", r.stdout)

	jsonl := filepath.Join(dir, "contacts.csv")
	require.NoError(t, os.WriteFile(jsonl, []byte(`{"Id":"3"}`+"\n"), 0o600))
	r = runData(t, "", "import", "--store", spec, "--in", jsonl)
	require.ErrorContains(t, r.err, "the first line is a JSON object, not a CSV header row (the format comes from the file name: csv for a .csv file, else jsonl); pass --format jsonl")

	// Many bad lines: the first 20 are listed, the report counts all.
	var bad strings.Builder
	for i := range 385 {
		fmt.Fprintf(&bad, "{\"Id\":\"\",\"FirstName\":\"%d\"}\n", i)
	}
	r = runData(t, bad.String(), "import", "--store", spec)
	require.Error(t, r.err)
	assert.Equal(t, maxReportedRefusals, strings.Count(r.stderr, "\n"))
	assert.Contains(t, r.err.Error(), "385 of 385 records refused (the first 20 are listed above); nothing was written")
}

// TestFailedDataCommandsLeaveNoFile: an import that fails having written nothing removes the database
// it created, and export and copy refuse a SQLite source that does not exist instead of creating an
// empty one to read nothing from.
func TestFailedDataCommandsLeaveNoFile(t *testing.T) {
	clearSettingsEnv(t)
	dir := t.TempDir()
	spec := "sqlite:" + filepath.Join(dir, "new.db")
	r := runData(t, `{"Id":""}`+"\n", "import", "--store", spec)
	require.Error(t, r.err)
	assert.Empty(t, dirEntries(t, dir))

	r = runData(t, "", "export", "--store", spec)
	require.Error(t, r.err)
	assert.Contains(t, r.err.Error(), "--store "+spec+": the database file "+filepath.Join(dir, "new.db")+" does not exist; check the path")
	r = runData(t, "", "copy", "--from", spec, "--to", "sqlite:"+filepath.Join(dir, "to.db"))
	require.ErrorContains(t, r.err, "--from "+spec+": ")
	assert.Empty(t, dirEntries(t, dir))

	// A copy that fails after creating its SQLite target removes it: here its verification fails,
	// because a contact reaches the target during the copy.
	from := "sqlite:" + filepath.Join(dir, "from.db")
	r = runData(t, `{"Id":"1"}`+"\n", "import", "--store", from)
	require.NoError(t, r.err, r.stderr)
	var out bytes.Buffer
	err := runCopy(t.Context(), copyOptions{from: from, to: "sqlite:" + filepath.Join(dir, "to.db"),
		beforeVerify: func(dst store.Store) { require.NoError(t, dst.Put(t.Context(), service.TestRecord("intruder"))) }}, &out, &out)
	require.ErrorContains(t, err, "verification failed")
	assert.Equal(t, []string{"from.db"}, dirEntries(t, dir))
}

// TestPostgresMessagesSayWhatToDo: a DSN whose search_path names no existing schema used to fail with
// PostgreSQL's raw "no schema has been selected to create in (SQLSTATE 3F000)"; the error now says
// to create the schema or name an existing one, and a database that does not exist says to create it.
func TestPostgresMessagesSayWhatToDo(t *testing.T) {
	clearSettingsEnv(t)
	base := pgtest.DSN(t)
	src := "sqlite:" + filepath.Join(t.TempDir(), "src.db")
	r := runData(t, `{"Id":"1"}`+"\n", "import", "--store", src)
	require.NoError(t, r.err, r.stderr)

	r = runData(t, "", "copy", "--from", src, "--to", pgtest.WithParam(t, base, "search_path", "no_such_schema_for_contactsync"))
	require.Error(t, r.err)
	assert.Contains(t, r.err.Error(), "SQLSTATE 3F000")
	assert.Contains(t, r.err.Error(), "no schema of the connection's search_path exists, so there is nowhere to create the tables: create it (CREATE SCHEMA name;) or name an existing one in the DSN (…&search_path=public)")

	u, err := url.Parse(base)
	require.NoError(t, err)
	u.Path = "/no_such_database_for_contactsync"
	r = runData(t, "", "copy", "--from", src, "--to", u.String())
	require.Error(t, r.err)
	assert.Contains(t, r.err.Error(), "the database named in the DSN does not exist: create it")
}
