package contractevo_test

import (
	"bytes"
	"encoding/csv"
	"html"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store/postgres/pgtest"
)

// The polymorphic patch (issue 33, the store follows): 15-polymorphic-contact gives Contact a field Pet
// of type Animal, from which Dog and the abstract Bird derive (Parrot from Bird), an object field Extra
// (xsd:anyType), a raw XML field Note (XmlElement) and a field Nickname of simple content (a class
// with an [XmlAttribute] Lang and an [XmlText] string), and adds SavePolymorphicContact(Contact) →
// Contact, which stores the whole contact. A derived value keeps its type on every binding (xsi:type,
// the JSON endpoint's __type) and in the store and the record formats ("$type"), an object its type and
// value, raw XML its canonical text, and the nickname its attribute and text (the XML start tag, the
// JSON endpoint's "Lang" and "Value", the record form's "@Lang" and "$text"), through call's
// --param-file, export, import and copy to PostgreSQL. (Attributes on a derived type or on a base are
// not generated yet: docs/xsd-types.md.)

// xsiNS declares the xsi prefix on the element carrying xsi:type, as a client writes it, and xsdNS the
// xsd prefix of a built-in type's name.
const (
	xsiNS = `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"`
	xsdNS = `xmlns:xsd="http://www.w3.org/2001/XMLSchema"`
)

// polyContacts are the contacts the check saves, as SavePolymorphicContact's contact parameter: a Dog,
// a Parrot (derived through the abstract Bird), a plain Animal and no Pet; nicknames with an attribute
// (one whose value needs escaping, a tab included, which an XML reader would turn into a space unless
// it is written as a character reference) and without.
var polyContacts = map[string]string{
	"poly-1": `<contact><Id>poly-1</Id><AccountId>acct-poly</AccountId><Pet ` + xsiNS + ` xsi:type="Dog"><Name>Rex</Name><Barks>3</Barks></Pet>` +
		`<Extra ` + xsiNS + ` ` + xsdNS + ` xsi:type="xsd:int">42</Extra><Note><b xmlns="urn:note">hi &amp; bye</b></Note><Nickname Lang="fr">Rexou</Nickname></contact>`,
	"poly-2": `<contact><Id>poly-2</Id><AccountId>acct-poly</AccountId><Pet ` + xsiNS + ` xsi:type="Parrot"><Name>Polly</Name><Wings>2</Wings><Words>hello &amp; bye</Words></Pet>` +
		`<Nickname Lang="en &amp; &quot;pt&quot;&#x9;br">Pol &lt;ly&gt;</Nickname></contact>`,
	"poly-3": `<contact><Id>poly-3</Id><AccountId>acct-poly</AccountId><Pet><Name>Generic</Name></Pet><Nickname>Gen</Nickname></contact>`,
	"poly-4": `<contact><Id>poly-4</Id><AccountId>acct-poly</AccountId><Extra ` + xsiNS + ` xsi:type="Dog"><Name>Fido</Name><Barks>1</Barks></Extra></contact>`,
}

// polyXML is what ReadContact must answer for each saved contact, over every binding.
var polyXML = map[string][]string{
	"poly-1": {`xsi:type="Dog"`, "<Name>Rex</Name>", "<Barks>3</Barks>", `xsi:type="xsd:int">42</Extra>`, `hi &amp; bye</b>`, `<Nickname Lang="fr">Rexou</Nickname>`},
	"poly-2": {`xsi:type="Parrot"`, "<Name>Polly</Name>", "<Wings>2</Wings>", "<Words>hello &amp; bye</Words>",
		`<Nickname Lang="en &amp; &quot;pt&quot;&#x9;br">Pol &lt;ly&gt;</Nickname>`},
	"poly-3": {"<Name>Generic</Name>", "<Nickname>Gen</Nickname>"},
	"poly-4": {"<Id>poly-4</Id>", `<Extra xsi:type="Dog">`, "<Name>Fido</Name>", "<Barks>1</Barks>"},
}

// polyJSONL is the export of the saved contacts: "$type" first in a derived value's object, none on a
// value of the declared type; an object's type and value; raw XML's canonical text; the nickname's
// attribute as "@Lang" and its text as "$text".
const polyJSONL = `{"Id":"poly-1","AccountId":"acct-poly","FirstName":"","LastName":"","PhoneMobile":"","PhoneWork":"","EmailAddress":"","RoleIds":null,` +
	`"Pet":{"$type":"Dog","Name":"Rex","Barks":3},"Extra":{"$type":"xsd:int","$value":"42"},"Note":{"$xml":"<b xmlns=\"urn:note\">hi &amp; bye</b>"},"Nickname":{"@Lang":"fr","$text":"Rexou"}}` + "\n" +
	`{"Id":"poly-2","AccountId":"acct-poly","FirstName":"","LastName":"","PhoneMobile":"","PhoneWork":"","EmailAddress":"","RoleIds":null,` +
	`"Pet":{"$type":"Parrot","Name":"Polly","Wings":2,"Words":"hello & bye"},"Extra":null,"Note":null,` +
	`"Nickname":{"@Lang":"en & \"pt\"\tbr","$text":"Pol <ly>"}}` + "\n" +
	`{"Id":"poly-3","AccountId":"acct-poly","FirstName":"","LastName":"","PhoneMobile":"","PhoneWork":"","EmailAddress":"","RoleIds":null,` +
	`"Pet":{"Name":"Generic"},"Extra":null,"Note":null,"Nickname":{"@Lang":"","$text":"Gen"}}` + "\n" +
	`{"Id":"poly-4","AccountId":"acct-poly","FirstName":"","LastName":"","PhoneMobile":"","PhoneWork":"","EmailAddress":"","RoleIds":null,` +
	`"Pet":null,"Extra":{"$type":"Dog","Name":"Fido","Barks":1},"Note":null,"Nickname":null}` + "\n"

// savePolyContacts writes the polymorphic contacts through SavePolymorphicContact, each over one SOAP
// binding.
func savePolyContacts(t *testing.T, s *scratch) {
	t.Helper()
	bindings := s.offered(t, "SavePolymorphicContact")
	require.Equal(t, []string{"soap11", "soap12"}, bindings, "SavePolymorphicContact takes a complex parameter: SOAP only")
	for i, id := range []string{"poly-1", "poly-2", "poly-3", "poly-4"} {
		file := filepath.Join(s.dir, id+".xml")
		require.NoError(t, os.WriteFile(file, []byte(polyContacts[id]), 0o600))
		out := s.call(t, "SavePolymorphicContact", bindings[i%len(bindings)], "--param-file", "contact="+file)
		for _, w := range polyXML[id] {
			assert.Contains(t, out, w, "SavePolymorphicContact %s", id)
		}
	}
}

// polymorphicContact is 15-polymorphic-contact's check.
func polymorphicContact(t *testing.T, s *scratch) {
	// The help page's sample messages show the attribute with its placeholder, in the start tag (SOAP)
	// and as a member beside "Value" (the JSON endpoint).
	status, page := s.get(t, s.endpoint+"?op=SavePolymorphicContact")
	require.Equal(t, http.StatusOK, status, page)
	page = html.UnescapeString(page)
	assert.Contains(t, page, `<Nickname Lang="string">string</Nickname>`, "the SOAP sample")
	assert.Regexp(t, `"Nickname":\s*\{\s*"Lang":\s*"string",\s*"Value":\s*"string"\s*\}`, page, "the JSON sample")

	savePolyContacts(t, s)
	// The abstract Bird has no value of its own: a client fault.
	file := filepath.Join(s.dir, "bird.xml")
	require.NoError(t, os.WriteFile(file, []byte(`<contact><Id>poly-5</Id><Pet `+xsiNS+` xsi:type="Bird"><Wings>2</Wings></Pet></contact>`), 0o600))
	assert.Contains(t, s.callFault(t, "SavePolymorphicContact", "soap11", "--param-file", "contact="+file), "abstract")

	s.restart(t)
	for _, b := range s.offered(t, "ReadContact") {
		for id, want := range polyXML {
			out := s.call(t, "ReadContact", b, "--param", "id="+id)
			for _, w := range want {
				assert.Contains(t, out, w, "ReadContact %s over %s after a restart", id, b)
			}
		}
		assert.NotContains(t, s.call(t, "ReadContact", b, "--param", "id=poly-3"), "xsi:type", "a value of the declared type over %s", b)
		out := s.call(t, "ReadContact", b, "--param", "id=poly-4")
		assert.NotContains(t, out, "<Pet", "no Pet over %s", b)
		assert.NotContains(t, out, "<Nickname", "no Nickname over %s", b)
	}
	d, ok := s.callJSON(t, "ReadContact", "--param", "id=poly-1").(map[string]any)
	require.True(t, ok)
	assert.Equal(t, map[string]any{"__type": "Dog", "Name": "Rex", "Barks": float64(3)}, d["Pet"], "the JSON endpoint's __type")
	// The JSON endpoint writes an attribute under its XML name and the text as "Value"; an optional
	// string attribute that was absent is "" there (a Go string has no null).
	for id, want := range map[string]any{
		"poly-1": map[string]any{"Lang": "fr", "Value": "Rexou"},
		"poly-2": map[string]any{"Lang": "en & \"pt\"\tbr", "Value": "Pol <ly>"},
		"poly-3": map[string]any{"Lang": "", "Value": "Gen"},
		"poly-4": nil,
	} {
		d, ok := s.callJSON(t, "ReadContact", "--param", "id="+id).(map[string]any)
		require.True(t, ok)
		assert.Equal(t, want, d["Nickname"], "the JSON endpoint's Nickname of %s", id)
	}
	for _, b := range s.offered(t, "ReadContact") {
		got := s.zeep(t, b, "ReadContact", map[string]any{"id": "poly-2"})
		c, ok := got.(map[string]any)
		require.True(t, ok, "zeep result %v", got)
		pet, ok := c["Pet"].(map[string]any)
		require.True(t, ok, "zeep over %s: %v", b, got)
		assert.Equal(t, "Polly", pet["Name"], "zeep over %s", b)
		assert.EqualValues(t, 2, pet["Wings"], "zeep over %s: the Parrot's fields", b)
		assert.Equal(t, "hello & bye", pet["Words"], "zeep over %s", b)
		// zeep holds simple content's text as _value_1 and the attribute under its name.
		assert.Equal(t, map[string]any{"_value_1": "Pol <ly>", "Lang": "en & \"pt\"\tbr"}, c["Nickname"], "zeep over %s: the Nickname", b)
	}

	// The data commands, beside the running server: every value compared, field for field.
	src := "sqlite:" + filepath.Join(s.dir, "evo.db")
	assert.Equal(t, polyJSONL, s.exportOf(t, src), "the export keeps every Pet's type")
	csvFile := filepath.Join(s.dir, "contacts.csv")
	s.contactsync(t, "export", "--store", src, "--out", csvFile)
	// CSV holds a complex value as the JSON text of its record form, attributes and text included.
	data, err := os.ReadFile(csvFile)
	require.NoError(t, err)
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 5, "a header and four contacts")
	col := slices.Index(rows[0], "Nickname")
	require.NotEqual(t, -1, col, "the CSV header %v", rows[0])
	assert.Equal(t, []string{`{"@Lang":"fr","$text":"Rexou"}`, `{"@Lang":"en & \"pt\"\tbr","$text":"Pol <ly>"}`, `{"@Lang":"","$text":"Gen"}`, ""},
		[]string{rows[1][col], rows[2][col], rows[3][col], rows[4][col]}, "the Nickname column")
	jsonlFile := filepath.Join(s.dir, "contacts.jsonl")
	require.NoError(t, os.WriteFile(jsonlFile, []byte(polyJSONL), 0o600))
	for _, in := range []string{jsonlFile, csvFile} {
		dst := "sqlite:" + filepath.Join(t.TempDir(), "imported.db")
		s.contactsync(t, "import", "--store", dst, "--in", in)
		assert.Equal(t, polyJSONL, s.exportOf(t, dst), "import of %s into SQLite", filepath.Base(in))
	}
	out := s.contactsync(t, "migrate", "--store", src, "--check")
	assert.Contains(t, out, "every field the stored records may hold is in the contract", "the derived rows match the contract")
	t.Run("postgres", func(t *testing.T) {
		dst := pgtest.Schema(t)
		s.contactsync(t, "import", "--store", dst, "--in", csvFile)
		assert.Equal(t, polyJSONL, s.exportOf(t, dst), "import into PostgreSQL")
		to := pgtest.Schema(t)
		out := s.contactsync(t, "copy", "--from", src, "--to", to)
		assert.Contains(t, out, "verified: both stores hold 4 contacts, sha256 ")
		assert.Equal(t, polyJSONL, s.exportOf(t, to), "copy from SQLite to PostgreSQL")
	})
}

// beforeDropDerived writes the polymorphic contacts (a Parrot among them) with the contract of
// 15-polymorphic-contact, as a deployment would before the edit that drops Parrot.
func beforeDropDerived(t *testing.T, s *scratch) {
	s.serve(t)
	s.table = map[string][]string{"SavePolymorphicContact": {"soap11", "soap12"}}
	savePolyContacts(t, s)
	s.stop()
}

// dropDerivedType is 16-drop-derived-type's check: the contract dropped Parrot (and its abstract base
// Bird), which a stored contact's Pet holds, and which no contact's object Extra holds. serve starts,
// warning with the elements and the type and the command that counts them; migrate --check counts the
// contacts; the Pet reads as its declared Animal on every binding, and an update carries its "$type"
// and the members Animal lacks, so the value is as stored when a contract with Parrot reads it again.
func dropDerivedType(t *testing.T, s *scratch) {
	src := "sqlite:" + filepath.Join(s.dir, "evo.db")
	srv := s.serveWith(t, filepath.Join(s.dir, "bin", "contactsync"), src)
	srv.stop()
	assert.Regexp(t, `level=WARN .*derived types the contract no longer has.*Pet \(\$type Parrot\).*migrate --store \S+ --check`, srv.log(),
		"serve names the derived type the contract lost")
	out := s.contactsync(t, "migrate", "--store", src, "--check")
	assert.Contains(t, out, "Pet: $type Parrot, a derived type the contract no longer has; 1 records hold a value of it")
	// Extra, an object, could hold a Parrot too, which could not be read: no contact's does, so the
	// commands serve (warning) where they would refuse one that did.
	assert.Contains(t, out, "Extra: $type Parrot, a type the contract no longer has, in an object, which cannot be read (drop: --drop Extra); 0 records hold a value of it")
	assert.Regexp(t, `level=WARN .*no stored record holds one.*Extra \(\$type Parrot, in an object\)`, srv.log(),
		"serve names the type an object can no longer hold")

	s.serve(t)
	for _, b := range s.offered(t, "ReadContact") {
		out := s.call(t, "ReadContact", b, "--param", "id=poly-2")
		assert.Contains(t, out, "<Name>Polly</Name>", "over %s", b)
		assert.NotContains(t, out, "Parrot", "over %s: the Pet reads as an Animal", b)
	}
	s.call(t, "TestUpdateContact", "soap11", "--param", "id=poly-2")
	assert.Regexp(t, `"Id":"poly-2".*"Pet":\{"Name":"Polly","\$type":"Parrot","Wings":2,"Words":"hello & bye"\}`, s.exportOf(t, src),
		"the update carried the Parrot's type and members")
}
