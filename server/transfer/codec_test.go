package transfer_test

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	frozen "github.com/contactsync/contactsync/server/internal/frozencontract"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/transfer"
)

// The formats are tested here on Contact as contract 1.0 has it (server/internal/frozencontract, which a
// contract edit leaves alone, so these expectations hold after one); tools/gowsdlgen/internal/zoo's
// TestTransferEveryType carries a record of every XSD type of the subset through both, and the
// command's tests the live contract's record.

func sample() []*frozen.Contact {
	return []*frozen.Contact{
		{Id: "c1", AccountId: "A1", FirstName: "Ann", LastName: "Lee", PhoneMobile: "+1 555", PhoneWork: "+1 556",
			EmailAddress: "ann@example.com", RoleIds: roles("r1", "r2")},
		{Id: "c2"},
		{Id: "ü🙂<&>\"'", FirstName: "line\nbreak, \"quoted\"", LastName: "\ttab", RoleIds: roles("роль", "", "a;b", `["x"]`)},
		{Id: "c4", RoleIds: &frozen.ArrayOfString{Astring: []*string{nil}}},
	}
}

func encode(t *testing.T, format transfer.Format, cs []*frozen.Contact) string {
	t.Helper()
	var buf bytes.Buffer
	enc, err := transfer.NewEncoder(&buf, format, schema)
	require.NoError(t, err)
	for _, c := range cs {
		require.NoError(t, enc.Encode(record(c)))
	}
	require.NoError(t, enc.Flush())
	return buf.String()
}

// decodeAll returns the records and the refusals (line: reason) of input.
func decodeAll(t *testing.T, format transfer.Format, input string, opts transfer.DecodeOptions) ([]*frozen.Contact, []string) {
	t.Helper()
	dec, err := transfer.NewDecoder(strings.NewReader(input), format, schema, opts)
	require.NoError(t, err)
	var cs []*frozen.Contact
	var refused []string
	for {
		rec, err := dec.Next()
		if errors.Is(err, io.EOF) {
			return cs, refused
		}
		require.NoError(t, err)
		if rec.Err != nil {
			refused = append(refused, strconv.Itoa(rec.Line)+": "+rec.Err.Error())
			continue
		}
		c, err := schema.Type.Decode(rec.Record.Doc, 1)
		require.NoError(t, err)
		require.Equal(t, c.RecordKey(), rec.Record.Key)
		require.Equal(t, c.RecordIndex(), rec.Record.Index)
		cs = append(cs, c.(*frozen.Contact))
	}
}

func TestJSONLGolden(t *testing.T) {
	got := encode(t, transfer.JSONL, sample()[:2])
	assert.Equal(t, `{"Id":"c1","AccountId":"A1","FirstName":"Ann","LastName":"Lee","PhoneMobile":"+1 555","PhoneWork":"+1 556","EmailAddress":"ann@example.com","RoleIds":["r1","r2"]}
{"Id":"c2","AccountId":"","FirstName":"","LastName":"","PhoneMobile":"","PhoneWork":"","EmailAddress":"","RoleIds":null}
`, got)
}

func TestCSVGolden(t *testing.T) {
	got := encode(t, transfer.CSV, sample()[:2])
	assert.Equal(t, "Id,AccountId,FirstName,LastName,PhoneMobile,PhoneWork,EmailAddress,RoleIds\n"+
		"c1,A1,Ann,Lee,+1 555,+1 556,ann@example.com,\"[\"\"r1\"\",\"\"r2\"\"]\"\n"+
		"c2,,,,,,,\n", got)
	assert.Equal(t, "Id,AccountId,FirstName,LastName,PhoneMobile,PhoneWork,EmailAddress,RoleIds\n",
		encode(t, transfer.CSV, nil), "an empty export is the header alone")
}

// TestRoundTrip decodes what the encoder wrote back to the same contacts, and re-encodes it to the
// same bytes, in both formats: every value, a role id holding ';' or looking like JSON, an empty
// one, a missing (nil) one, no roles.
func TestRoundTrip(t *testing.T) {
	for _, format := range []transfer.Format{transfer.JSONL, transfer.CSV} {
		t.Run(string(format), func(t *testing.T) {
			text := encode(t, format, sample())
			got, refused := decodeAll(t, format, text, transfer.DecodeOptions{})
			require.Empty(t, refused)
			require.Equal(t, sample(), got)
			assert.Equal(t, text, encode(t, format, got))
		})
	}
}

// TestOlderExports reads the formats of earlier versions: RoleIds as a ';'-separated CSV cell, an
// empty one for none, names in another case, and a field since renamed (--rename).
func TestOlderExports(t *testing.T) {
	csvInput := "\xEF\xBB\xBFID,AccountID,FirstName,LastName,PhoneMobile,PhoneOffice,EmailAddress,RoleIDs\r\n" +
		"a,A,\"Lee, Ann\",x,,555,,r1;r2\r\n" +
		"b,A,,,,,,\r\n"
	_, err := transfer.NewDecoder(strings.NewReader(csvInput), transfer.CSV, schema, transfer.DecodeOptions{})
	require.ErrorContains(t, err, `line 1: column "PhoneOffice": unknown field "PhoneOffice"; the known fields are Id, AccountId, FirstName, LastName, PhoneMobile, PhoneWork, EmailAddress, RoleIds`)
	renamed := transfer.DecodeOptions{Renames: map[string]string{"phoneoffice": "PhoneWork"}}
	got, refused := decodeAll(t, transfer.CSV, csvInput, renamed)
	require.Empty(t, refused)
	assert.Equal(t, []*frozen.Contact{{Id: "a", AccountId: "A", FirstName: "Lee, Ann", LastName: "x", PhoneWork: "555", RoleIds: roles("r1", "r2")},
		{Id: "b", AccountId: "A"}}, got)

	jsonInput := `{"Id":"a","PhoneOffice":"555","roleids":[]}` + "\n" + `{"Id":"b","PhoneWork":"1","PhoneOffice":"2"}`
	got, refused = decodeAll(t, transfer.JSONL, jsonInput, renamed)
	assert.Equal(t, []*frozen.Contact{{Id: "a", PhoneWork: "555", RoleIds: &frozen.ArrayOfString{}}}, got)
	assert.Equal(t, []string{`2: field "PhoneWork" appears twice`}, refused)
	_, refused = decodeAll(t, transfer.JSONL, jsonInput, transfer.DecodeOptions{})
	assert.Equal(t, []string{
		`1: unknown field "PhoneOffice"; the known fields are Id, AccountId, FirstName, LastName, PhoneMobile, PhoneWork, EmailAddress, RoleIds`,
		`2: unknown field "PhoneOffice"; the known fields are Id, AccountId, FirstName, LastName, PhoneMobile, PhoneWork, EmailAddress, RoleIds`}, refused)

	for _, c := range []struct {
		renames map[string]string
		want    string
	}{
		{map[string]string{"PhoneOffice": "Phone"}, "--rename PhoneOffice=Phone: Phone is not an element of the record type"},
		{map[string]string{"PhoneWork": "PhoneMobile"}, "--rename PhoneWork=PhoneMobile: PhoneWork is still an element of the record type"},
	} {
		_, err := transfer.NewDecoder(strings.NewReader(""), transfer.JSONL, schema, transfer.DecodeOptions{Renames: c.renames})
		require.ErrorContains(t, err, c.want)
	}
}

// TestDecodeRefusals lists the bad records each decoder refuses, with the line it reports and why,
// while the good records around them still decode.
func TestDecodeRefusals(t *testing.T) {
	for _, tc := range []struct {
		name    string
		format  transfer.Format
		input   string
		ids     []string
		refused []string
	}{
		{"JSONLBadLines", transfer.JSONL,
			"{\"Id\":\"a\"}\n" +
				"{\"Id\":\"b\",\"Nickname\":\"x\"}\n" +
				"{\"Id\":7}\n" +
				"{\"Id\":\"c\",\"RoleIds\":\"r1;r2\"}\n" +
				"\n" +
				"not json\n" +
				"{\"Id\":\"\"}\n" +
				"{\"Id\":\"d\"} {\"Id\":\"e\"}\n" +
				"{\"Id\":\"f\"\n" +
				"{\"Id\":\"g\",\"RoleIds\":null}\n" +
				"{\"Id\":\"h\xe9\"}\n",
			[]string{"a", "g"},
			[]string{`2: unknown field "Nickname"; the known fields are Id, AccountId, FirstName, LastName, PhoneMobile, PhoneWork, EmailAddress, RoleIds`,
				"3: Id: want a string, found a number",
				"4: RoleIds: want an array, found a string", "6: not a JSON object",
				"7: Id is required", "8: malformed JSON at offset 11: data after the document",
				"9: malformed JSON at offset 9: want ',' or '}'", "11: not valid UTF-8 (save the file as UTF-8)"}},
		{"JSONLWithBOMAndCRLF", transfer.JSONL, "\xEF\xBB\xBF{\"Id\":\"a\"}\r\n{\"Id\":\"b\"}\r\n", []string{"a", "b"}, nil},
		{"CSVFromSQLServer", transfer.CSV,
			"\xEF\xBB\xBFID,AccountID,FirstName,LastName,PhoneMobile,PhoneWork,EmailAddress,RoleIDs\r\n" +
				"a,A,\"Lee, Ann\",x,,,,r1;r2\r\n" +
				",A,,,,,,\r\n" +
				"b,A,\"multi\r\nline\",,,,,\r\n" +
				"c,A,too,few\r\n" +
				"d,A,,,,,,\r\n" +
				"e,\xff,,,,,,\r\n" +
				"f,A,,,,,,[1]\r\n" +
				"g,A,,,,,,\"[\"\"x\"\",\"\n",
			[]string{"a", "b", "d"},
			[]string{"3: Id is required", "6: wrong number of fields", "8: not valid UTF-8 (save the file as UTF-8)",
				"9: RoleIds[0]: want a string, found a number", "10: RoleIds: not JSON text: want a value, found the end of the document"}},
		{"CSVColumnsInAnyOrderAndMissing", transfer.CSV,
			"RoleIds,EmailAddress,id\n;x,,a\n",
			[]string{"a"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs, refused := decodeAll(t, tc.format, tc.input, transfer.DecodeOptions{})
			var ids []string
			for _, c := range cs {
				ids = append(ids, c.Id)
			}
			assert.Equal(t, tc.ids, ids)
			assert.Equal(t, tc.refused, refused)
		})
	}
}

func TestCSVHeaderErrors(t *testing.T) {
	for _, tc := range []struct{ input, want string }{
		{"", "the input is empty"},
		{"Id,Nickname\n", `column "Nickname": unknown field "Nickname"; the known fields are Id, AccountId,`},
		{"Id,AccountId,FirstName,LastName,PhoneMobile,PhoneWork,EmailAddress,RoleIds,id\n", `column "id" appears twice (as Id)`},
	} {
		_, err := transfer.NewDecoder(strings.NewReader(tc.input), transfer.CSV, schema, transfer.DecodeOptions{})
		require.Error(t, err, "%q", tc.input)
		assert.Contains(t, err.Error(), tc.want)
	}
}

func TestJSONLLongLineRefused(t *testing.T) {
	input := "{\"Id\":\"a\"}\n{\"Id\":\"" + strings.Repeat("x", transfer.MaxLine) + "\"}\n{\"Id\":\"b\"}"
	cs, refused := decodeAll(t, transfer.JSONL, input, transfer.DecodeOptions{})
	require.Len(t, cs, 2)
	assert.Equal(t, "b", cs[1].Id)
	assert.Equal(t, []string{"2: line longer than 1048576 bytes"}, refused)
}

// TestCSVUnclosedQuote checks that a quote never closed ends the input with an error once the record
// passes MaxLine, rather than reading the whole rest of the input into memory as one field.
func TestCSVUnclosedQuote(t *testing.T) {
	input := "Id,FirstName\n" + "a,\n" + "b,\"never closed" + strings.Repeat("x\n", transfer.MaxLine)
	dec, err := transfer.NewDecoder(strings.NewReader(input), transfer.CSV, schema, transfer.DecodeOptions{})
	require.NoError(t, err)
	rec, err := dec.Next()
	require.NoError(t, err)
	assert.Equal(t, "a", rec.Record.Key)
	_, err = dec.Next()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "a quote that is never closed?")
	assert.Less(t, dec.Offset(), int64(len(input)), "the decoder read the whole input")
}

// TestEncodeCarriesUnknownFields: a stored member the contract does not have (a field of a newer
// contract) is exported in JSON Lines after the known ones, and stops a CSV export, which has no
// column for it, naming it; a stored document the contract cannot read stops the export.
func TestEncodeCarriesUnknownFields(t *testing.T) {
	var buf bytes.Buffer
	enc, err := transfer.NewEncoder(&buf, transfer.JSONL, schema)
	require.NoError(t, err)
	require.NoError(t, enc.Encode(store.Record{Key: "x", Doc: []byte(`{"Nickname": "y","Id":"x"}`)}))
	require.NoError(t, enc.Flush())
	assert.Equal(t, `{"Id":"x","AccountId":"","FirstName":"","LastName":"","PhoneMobile":"","PhoneWork":"","EmailAddress":"","RoleIds":null,"Nickname":"y"}`+"\n", buf.String())

	enc, err = transfer.NewEncoder(io.Discard, transfer.CSV, schema)
	require.NoError(t, err)
	err = enc.Encode(store.Record{Key: "x", Doc: []byte(`{"Id":"x","Nickname":"y"}`)})
	require.ErrorContains(t, err, `record "x" holds fields the contract does not have (Nickname)`)
	require.ErrorContains(t, err, "--format jsonl")
	err = enc.Encode(store.Record{Key: "x", Doc: []byte(`{"Id":"x","FirstName":7}`)})
	require.ErrorContains(t, err, `stored record "x" does not match the contract's Contact`)
}

// TestDecodeKeepsUnknownFields: with Keep, the members it keeps are stored after the known ones
// (and reported by Kept); a member it does not keep refuses the record as without it.
func TestDecodeKeepsUnknownFields(t *testing.T) {
	input := `{"Id":"a","Birthday":"2001-02-03","firstname":"A"}` + "\n" + `{"Id":"b","Nickname":"n"}` + "\n"
	dec, err := transfer.NewDecoder(strings.NewReader(input), transfer.JSONL, schema,
		transfer.DecodeOptions{Keep: func(p string) bool { return p == "Birthday" }})
	require.NoError(t, err)
	rec, err := dec.Next()
	require.NoError(t, err)
	require.NoError(t, rec.Err)
	assert.Equal(t, `{"Id":"a","AccountId":"","FirstName":"A","LastName":"","PhoneMobile":"","PhoneWork":"","EmailAddress":"","RoleIds":null,"Birthday":"2001-02-03"}`, string(rec.Record.Doc))
	rec, err = dec.Next()
	require.NoError(t, err)
	require.ErrorContains(t, rec.Err, `unknown field "Nickname"; the known fields are Id,`)
	assert.Equal(t, []string{"Birthday"}, dec.Kept())
}

func TestParseFormat(t *testing.T) {
	f, err := transfer.ParseFormat("CSV")
	require.NoError(t, err)
	assert.Equal(t, transfer.CSV, f)
	_, err = transfer.ParseFormat("xml")
	require.Error(t, err)
}
