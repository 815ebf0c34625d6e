package transfer_test

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/transfer"
)

// TestFieldsFollowTheContract checks the fields are gen.Contact's elements in declaration order, and
// that exactly the array of strings is a list.
func TestFieldsFollowTheContract(t *testing.T) {
	fs, err := transfer.Fields()
	require.NoError(t, err)
	typ := reflect.TypeFor[gen.Contact]()
	require.Len(t, fs, typ.NumField())
	for i, f := range fs {
		sf := typ.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("xml"), ",")
		assert.Equal(t, name, f.Name)
		assert.Equal(t, sf.Type == reflect.TypeFor[*gen.ArrayOfString](), f.List, f.Name)
	}
	assert.Equal(t, []string{"Id", "AccountId", "FirstName", "LastName", "PhoneMobile", "PhoneWork", "EmailAddress", "RoleIds"},
		transfer.Names(), "the names as the WSDL spells them")
}

func sample() []Contact {
	return []Contact{
		{ID: "c1", AccountID: "A1", FirstName: "Ann", LastName: "Lee", PhoneMobile: "+1 555", PhoneWork: "+1 556",
			EmailAddress: "ann@example.com", RoleIDs: []string{"r1", "r2"}},
		{ID: "c2"},
		{ID: "ü🙂<&>\"'", FirstName: "line\nbreak, \"quoted\"", LastName: "\ttab", RoleIDs: []string{"роль", ""}},
	}
}

func encode(t *testing.T, format transfer.Format, cs []Contact) string {
	t.Helper()
	var buf bytes.Buffer
	enc, err := transfer.NewEncoder(&buf, format, conv)
	require.NoError(t, err)
	for _, c := range cs {
		require.NoError(t, enc.Encode(c.rec()))
	}
	require.NoError(t, enc.Flush())
	return buf.String()
}

// decodeAll returns the contacts and the refusals (line: reason) of input.
func decodeAll(t *testing.T, format transfer.Format, input string) ([]Contact, []string) {
	t.Helper()
	dec, err := transfer.NewDecoder(strings.NewReader(input), format, conv)
	require.NoError(t, err)
	var cs []Contact
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
		cs = append(cs, fromRec(rec.Contact))
	}
}

func TestJSONLGolden(t *testing.T) {
	got := encode(t, transfer.JSONL, sample()[:2])
	assert.Equal(t, `{"Id":"c1","AccountId":"A1","FirstName":"Ann","LastName":"Lee","PhoneMobile":"+1 555","PhoneWork":"+1 556","EmailAddress":"ann@example.com","RoleIds":["r1","r2"]}
{"Id":"c2","AccountId":"","FirstName":"","LastName":"","PhoneMobile":"","PhoneWork":"","EmailAddress":"","RoleIds":[]}
`, got)
}

func TestCSVGolden(t *testing.T) {
	got := encode(t, transfer.CSV, sample()[:2])
	assert.Equal(t, "Id,AccountId,FirstName,LastName,PhoneMobile,PhoneWork,EmailAddress,RoleIds\n"+
		"c1,A1,Ann,Lee,+1 555,+1 556,ann@example.com,r1;r2\n"+
		"c2,,,,,,,\n", got)
	assert.Equal(t, "Id,AccountId,FirstName,LastName,PhoneMobile,PhoneWork,EmailAddress,RoleIds\n",
		encode(t, transfer.CSV, nil), "an empty export is the header alone")
}

// TestRoundTrip decodes what the encoder wrote back to the same contacts, and re-encodes it to the
// same bytes, in both formats.
func TestRoundTrip(t *testing.T) {
	for _, format := range []transfer.Format{transfer.JSONL, transfer.CSV} {
		t.Run(string(format), func(t *testing.T) {
			cs := sample()
			if format == transfer.CSV {
				cs[2].RoleIDs = []string{"роль", "", "x"} // a lone empty value is not CSV-safe
			}
			text := encode(t, format, cs)
			got, refused := decodeAll(t, format, text)
			require.Empty(t, refused)
			require.Equal(t, cs, got)
			assert.Equal(t, text, encode(t, format, got))
		})
	}
}

func TestCSVRefusesAmbiguousLists(t *testing.T) {
	for _, roles := range [][]string{{"a;b"}, {""}} {
		enc, err := transfer.NewEncoder(io.Discard, transfer.CSV, conv)
		require.NoError(t, err)
		err = enc.Encode(Contact{ID: "x", RoleIDs: roles}.rec())
		require.Error(t, err, "%q", roles)
		assert.Contains(t, err.Error(), "jsonl")
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
			[]string{`2: unknown field "Nickname"`, "3: Id must be a string, not a JSON number",
				"4: RoleIds must be an array of strings, not a JSON string", "6: not a JSON object",
				"7: Id is required", "8: more than one JSON value on the line",
				"9: invalid JSON: the object is not closed", "11: not valid UTF-8 (save the file as UTF-8)"}},
		{"JSONLWithBOMAndCRLF", transfer.JSONL, "\xEF\xBB\xBF{\"Id\":\"a\"}\r\n{\"Id\":\"b\"}\r\n", []string{"a", "b"}, nil},
		{"CSVFromSQLServer", transfer.CSV,
			"\xEF\xBB\xBFID,AccountID,FirstName,LastName,PhoneMobile,PhoneWork,EmailAddress,RoleIDs\r\n" +
				"a,A,\"Lee, Ann\",x,,,,r1;r2\r\n" +
				",A,,,,,,\r\n" +
				"b,A,\"multi\r\nline\",,,,,\r\n" +
				"c,A,too,few\r\n" +
				"d,A,,,,,,\r\n" +
				"e,\xff,,,,,,\r\n",
			[]string{"a", "b", "d"},
			[]string{"3: Id is required", "6: wrong number of fields", "8: not valid UTF-8 (save the file as UTF-8)"}},
		{"CSVColumnsInAnyOrder", transfer.CSV,
			"RoleIds,EmailAddress,PhoneWork,PhoneMobile,LastName,FirstName,AccountId,Id\n;x,,,,,,,a\n",
			[]string{"a"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs, refused := decodeAll(t, tc.format, tc.input)
			var ids []string
			for _, c := range cs {
				ids = append(ids, c.ID)
			}
			assert.Equal(t, tc.ids, ids)
			assert.Equal(t, tc.refused, refused)
		})
	}
}

func TestCSVHeaderErrors(t *testing.T) {
	for _, tc := range []struct{ input, want string }{
		{"", "the input is empty"},
		{"Id,Nickname\n", `unknown column "Nickname"`},
		{"Id,AccountId,FirstName,LastName,PhoneMobile,PhoneWork,EmailAddress,RoleIds,id\n", `column "id" appears twice`},
		{"Id,FirstName\n", "lacks the column(s) AccountId, LastName, PhoneMobile, PhoneWork, EmailAddress, RoleIds"},
	} {
		_, err := transfer.NewDecoder(strings.NewReader(tc.input), transfer.CSV, conv)
		require.Error(t, err, "%q", tc.input)
		assert.Contains(t, err.Error(), tc.want)
	}
}

func TestJSONLLongLineRefused(t *testing.T) {
	input := "{\"Id\":\"a\"}\n{\"Id\":\"" + strings.Repeat("x", transfer.MaxLine) + "\"}\n{\"Id\":\"b\"}"
	cs, refused := decodeAll(t, transfer.JSONL, input)
	require.Len(t, cs, 2)
	assert.Equal(t, "b", cs[1].ID)
	assert.Equal(t, []string{"2: line longer than 1048576 bytes"}, refused)
}

// TestCSVUnclosedQuote checks that a quote never closed ends the input with an error once the record
// passes MaxLine, rather than reading the whole rest of the input into memory as one field.
func TestCSVUnclosedQuote(t *testing.T) {
	input := strings.Join(transfer.Names(), ",") + "\n" + "a,,,,,,,\n" + "b,\"never closed" + strings.Repeat("x\n", transfer.MaxLine)
	dec, err := transfer.NewDecoder(strings.NewReader(input), transfer.CSV, conv)
	require.NoError(t, err)
	rec, err := dec.Next()
	require.NoError(t, err)
	assert.Equal(t, "a", rec.Contact.Key)
	_, err = dec.Next()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "a quote that is never closed?")
	assert.Less(t, dec.Offset(), int64(len(input)), "the decoder read the whole input")
}

func TestParseFormat(t *testing.T) {
	f, err := transfer.ParseFormat("CSV")
	require.NoError(t, err)
	assert.Equal(t, transfer.CSV, f)
	_, err = transfer.ParseFormat("xml")
	require.Error(t, err)
}
