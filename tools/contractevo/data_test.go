package contractevo_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store/postgres/pgtest"
)

// The data patches: a contract edit reaches the store, the record formats and copy (issue 22).
// 06-contact-data gives Contact a field of each kind of type (dateTime with an offset and a
// sub-millisecond fraction, decimal, boolean, int, an enumeration, a nested complex type holding an
// array) and adds SaveContact(Contact) → Contact and FindContacts(accountId, max) → ArrayOfContact,
// served from the store's account index; 07-rename-field renames one of those fields on top of it.

// savedContacts are the contacts 06's check saves, as SaveContact's contact parameter; the second
// leaves Address nil and holds zero-like values (0.000 keeps its scale).
var savedContacts = map[string]string{
	"data-1": `<contact><Id>data-1</Id><AccountId>acct-data</AccountId><FirstName>Zoë &amp; Ann</FirstName>` +
		`<RoleIds><string>r1</string><string>r;2</string></RoleIds>` +
		`<Seen>2026-11-22T10:15:30.1234567+05:45</Seen><Balance>-1234.50</Balance><Vip>true</Vip><Visits>42</Visits><Tier>Gold</Tier>` +
		`<Address><Street>1 Main St</Street><City>Springfield</City><Lines><string>Flat 2</string><string>c/o "Ann"</string></Lines></Address></contact>`,
	"data-2": `<contact><Id>data-2</Id><AccountId>acct-data</AccountId>` +
		`<Seen>2026-01-02T03:04:05Z</Seen><Balance>0.000</Balance><Vip>false</Vip><Visits>-7</Visits><Tier>Silver</Tier></contact>`,
}

// savedXML is what ReadContact must answer for each saved contact, over every binding.
var savedXML = map[string][]string{
	"data-1": {"<Id>data-1</Id>", "<FirstName>Zoë &amp; Ann</FirstName>", "<string>r;2</string>",
		"<Seen>2026-11-22T10:15:30.1234567+05:45</Seen>", "<Balance>-1234.50</Balance>", "<Vip>true</Vip>", "<Visits>42</Visits>",
		"<Tier>Gold</Tier>", "<Street>1 Main St</Street>", "<City>Springfield</City>", "<string>c/o &quot;Ann&quot;</string>"},
	"data-2": {"<Id>data-2</Id>", "<Seen>2026-01-02T03:04:05Z</Seen>", "<Balance>0.000</Balance>", "<Vip>false</Vip>",
		"<Visits>-7</Visits>", "<Tier>Silver</Tier>"},
}

// savedJSONL is the export of the saved contacts: their canonical documents, in id order.
const savedJSONL = `{"Id":"data-1","AccountId":"acct-data","FirstName":"Zoë & Ann","LastName":"","PhoneMobile":"","PhoneWork":"","EmailAddress":"","RoleIds":["r1","r;2"],` +
	`"Seen":"2026-11-22T10:15:30.1234567+05:45","Balance":"-1234.50","Vip":true,"Visits":42,"Tier":"Gold",` +
	`"Address":{"Street":"1 Main St","City":"Springfield","Lines":["Flat 2","c/o \"Ann\""]}}` + "\n" +
	`{"Id":"data-2","AccountId":"acct-data","FirstName":"","LastName":"","PhoneMobile":"","PhoneWork":"","EmailAddress":"","RoleIds":null,` +
	`"Seen":"2026-01-02T03:04:05Z","Balance":"0.000","Vip":false,"Visits":-7,"Tier":"Silver","Address":null}` + "\n"

// saveContacts writes the saved contacts through SaveContact, each over one SOAP binding.
func saveContacts(t *testing.T, s *scratch) {
	t.Helper()
	bindings := s.offered(t, "SaveContact")
	require.Equal(t, []string{"soap11", "soap12"}, bindings, "SaveContact takes a complex parameter: SOAP only")
	for i, id := range []string{"data-1", "data-2"} {
		file := filepath.Join(s.dir, id+".xml")
		require.NoError(t, os.WriteFile(file, []byte(savedContacts[id]), 0o600))
		out := s.call(t, "SaveContact", bindings[i%len(bindings)], "--param-file", "contact="+file)
		for _, w := range savedXML[id] {
			assert.Contains(t, out, w, "SaveContact %s", id)
		}
	}
}

// contactsync runs the scratch binary with args, which must succeed, and returns its output.
func (s *scratch) contactsync(t *testing.T, args ...string) string {
	t.Helper()
	return s.run(t, filepath.Join(s.dir, "bin", "contactsync"), args...)
}

// contactsyncFails runs the scratch binary with args, which must fail within 30 s, and returns its
// output.
func (s *scratch) contactsyncFails(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(s.ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(s.dir, "bin", "contactsync"), args...)
	cmd.Dir, cmd.Env = s.dir, s.env()
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "contactsync %s should fail:\n%s", strings.Join(args, " "), out)
	require.NoError(t, ctx.Err(), "contactsync %s did not end", strings.Join(args, " "))
	return string(out)
}

// exportOf exports a store as JSON Lines and returns the file's content.
func (s *scratch) exportOf(t *testing.T, store string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "export.jsonl")
	s.contactsync(t, "export", "--store", store, "--out", file)
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	return string(data)
}

// contactData is 06-contact-data's check: every field written through SaveContact survives a restart,
// reads back on every binding, lists through FindContacts, and is carried by export (JSON Lines and
// CSV), import (into SQLite and PostgreSQL) and copy (SQLite to PostgreSQL), compared field for field.
func contactData(t *testing.T, s *scratch) {
	saveContacts(t, s)
	s.restart(t)
	for _, b := range s.offered(t, "ReadContact") {
		for id, want := range savedXML {
			out := s.call(t, "ReadContact", b, "--param", "id="+id)
			for _, w := range want {
				assert.Contains(t, out, w, "ReadContact %s over %s after a restart", id, b)
			}
			if id == "data-2" {
				assert.NotContains(t, out, "<Address>", "a nil Address stays nil")
			}
		}
	}
	// The JSON endpoint (JavaScriptSerializer's forms: a decimal is a number, a dateTime \/Date(ms)\/).
	d, ok := s.callJSON(t, "ReadContact", "--param", "id=data-1").(map[string]any)
	require.True(t, ok)
	assert.EqualValues(t, -1234.5, d["Balance"])
	assert.Equal(t, "Gold", d["Tier"])
	assert.EqualValues(t, 42, d["Visits"])
	assert.Equal(t, map[string]any{"Street": "1 Main St", "City": "Springfield", "Lines": []any{"Flat 2", `c/o "Ann"`}}, d["Address"])
	for _, b := range s.offered(t, "FindContacts") {
		out := s.call(t, "FindContacts", b, "--param", "accountId=acct-data", "--param", "max=10")
		assert.Regexp(t, `(?s)<Id>data-1</Id>.*<Tier>Gold</Tier>.*<Id>data-2</Id>.*<Tier>Silver</Tier>`, out, "FindContacts over %s", b)
		out = s.call(t, "FindContacts", b, "--param", "accountId=acct-data", "--param", "max=1")
		assert.Equal(t, 1, strings.Count(out, "<Contact>"), "FindContacts max=1 over %s: %s", b, out)
		out = s.call(t, "FindContacts", b, "--param", "accountId=nobody", "--param", "max=5")
		assert.NotContains(t, out, "<Contact>", "over %s", b)
	}

	// The data commands, beside the running server.
	src := "sqlite:" + filepath.Join(s.dir, "evo.db")
	assert.Equal(t, savedJSONL, s.exportOf(t, src), "the export holds every field, canonical")
	csvFile := filepath.Join(s.dir, "contacts.csv")
	s.contactsync(t, "export", "--store", src, "--out", csvFile)
	csv, err := os.ReadFile(csvFile)
	require.NoError(t, err)
	assert.Equal(t, "Id,AccountId,FirstName,LastName,PhoneMobile,PhoneWork,EmailAddress,RoleIds,Seen,Balance,Vip,Visits,Tier,Address\n"+
		`data-1,acct-data,Zoë & Ann,,,,,"[""r1"",""r;2""]",2026-11-22T10:15:30.1234567+05:45,-1234.50,true,42,Gold,"{""Street"":""1 Main St"",""City"":""Springfield"",""Lines"":[""Flat 2"",""c/o \""Ann\""""]}"`+"\n"+
		"data-2,acct-data,,,,,,,2026-01-02T03:04:05Z,0.000,false,-7,Silver,\n", string(csv))
	jsonlFile := filepath.Join(s.dir, "contacts.jsonl")
	require.NoError(t, os.WriteFile(jsonlFile, []byte(savedJSONL), 0o600))
	for _, in := range []string{jsonlFile, csvFile} {
		dst := "sqlite:" + filepath.Join(t.TempDir(), "imported.db")
		s.contactsync(t, "import", "--store", dst, "--in", in)
		assert.Equal(t, savedJSONL, s.exportOf(t, dst), "import of %s into SQLite", filepath.Base(in))
	}
	t.Run("postgres", func(t *testing.T) {
		dst := pgtest.Schema(t)
		s.contactsync(t, "import", "--store", dst, "--in", jsonlFile)
		assert.Equal(t, savedJSONL, s.exportOf(t, dst), "import into PostgreSQL")
		to := pgtest.Schema(t)
		out := s.contactsync(t, "copy", "--from", src, "--to", to)
		assert.Contains(t, out, "verified: both stores hold 2 contacts, sha256 ")
		assert.Equal(t, savedJSONL, s.exportOf(t, to), "copy from SQLite to PostgreSQL")
	})
}

// beforeRename writes a contact with the base contract (06-contact-data, whose Visits the rename
// patch renames VisitCount) and exports it, as a deployment would before the edit.
func beforeRename(t *testing.T, s *scratch) {
	s.serve(t)
	s.table = map[string][]string{"SaveContact": {"soap11", "soap12"}}
	saveContacts(t, s)
	s.stop()
	src := "sqlite:" + filepath.Join(s.dir, "evo.db")
	s.contactsync(t, "export", "--store", src, "--out", filepath.Join(s.dir, "before.jsonl"))
	s.contactsync(t, "export", "--store", src, "--out", filepath.Join(s.dir, "before.csv"))
}

// renameField is 07-rename-field's check: serve starts on the store whose contacts hold the field the
// contract lost, carrying it and warning with its name and the command that counts it; migrate --check
// counts them and --rename moves their values; an export made before the rename imports with import
// --rename, to the same contacts.
func renameField(t *testing.T, s *scratch) {
	src := "sqlite:" + filepath.Join(s.dir, "evo.db")
	srv := s.serveWith(t, filepath.Join(s.dir, "bin", "contactsync"), src)
	srv.stop()
	assert.Regexp(t, `level=WARN .*fields=Visits .*migrate --store \S+ --check`, srv.log(), "serve names the field the contract lost, which it carries")
	out := s.contactsync(t, "migrate", "--store", src, "--check")
	assert.Regexp(t, `Visits\D+2\b`, out, "migrate --check counts the contacts holding Visits")
	out = s.contactsync(t, "migrate", "--store", src, "--rename", "Visits=VisitCount")
	assert.Contains(t, out, "renamed Visits to VisitCount in 2 records")
	s.contactsync(t, "migrate", "--store", src, "--check")

	s.serve(t)
	for _, b := range s.offered(t, "ReadContact") {
		out := s.call(t, "ReadContact", b, "--param", "id=data-1")
		assert.Contains(t, out, "<VisitCount>42</VisitCount>", "over %s", b)
		assert.NotContains(t, out, "<Visits>", "over %s", b)
	}
	renamed := strings.ReplaceAll(savedJSONL, `"Visits":`, `"VisitCount":`)
	assert.Equal(t, renamed, s.exportOf(t, src), "the store after migrate --rename")

	for _, file := range []string{"before.jsonl", "before.csv"} {
		in := filepath.Join(s.dir, file)
		dst := "sqlite:" + filepath.Join(t.TempDir(), "imported.db")
		out := s.contactsyncFails(t, "import", "--store", dst, "--in", in)
		assert.Regexp(t, regexp.MustCompile(`unknown field "Visits"; the known fields are .*VisitCount`), out, "import of %s without --rename", file)
		s.contactsync(t, "import", "--store", dst, "--in", in, "--rename", "Visits=VisitCount")
		assert.Equal(t, renamed, s.exportOf(t, dst), "import of %s with --rename", file)
	}
}
