package recordwire_test

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	frozen "github.com/contactsync/contactsync/server/internal/frozencontract"
	"github.com/contactsync/contactsync/server/wire/recordwire"
	"github.com/contactsync/contactsync/server/wire/xsd"
)

// The generated record codecs are tested on every XSD type in tools/gowsdlgen/internal/zoo
// (record_test.go: the property test, golden documents, FuzzRecordDecoders); these tests cover the
// runtime's scanner and writers on their own, and time Contact as contract 1.0 has it
// (server/internal/frozencontract, which a contract edit leaves alone) on the store's read path.

func TestAppendRecordString(t *testing.T) {
	for _, s := range []string{"", "plain", `"quoted" \ back`, "\x00\x01\b\f\n\r\t\x1f\x7f", "<&>'", "café 😀 \u2028", "\xff bad \xc3"} {
		b := recordwire.AppendString(nil, s)
		require.True(t, json.Valid(b), "%q", b)
		var back string
		require.NoError(t, json.Unmarshal(b, &back))
		if utf8.ValidString(s) {
			assert.Equal(t, s, back)
		} else {
			assert.Equal(t, strings.ToValidUTF8(s, "\uFFFD"), back, "invalid UTF-8 becomes U+FFFD")
		}
	}
	assert.Equal(t, `"<&>\"\\\n\u0001é"`, string(recordwire.AppendString(nil, "<&>\"\\\n\x01é")), "only what JSON requires is escaped")
}

func TestAppendRecordDouble(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), `"-0"`}, {math.NaN(), `"NaN"`}, {math.Inf(1), `"INF"`}, {math.Inf(-1), `"-INF"`},
		{1.0 / 3, "0.3333333333333333"}, {1e21, "1e+21"}, {1e-7, "1e-07"}, {math.MaxFloat64, "1.7976931348623157e+308"},
		{5e-324, "5e-324"}, {-2.5, "-2.5"},
	} {
		assert.Equal(t, c.want, string(recordwire.AppendDouble(nil, c.f)))
	}
	assert.Equal(t, "0.1", string(recordwire.AppendFloat(nil, 0.1)), "float's shortest form is float32's")
	assert.Equal(t, "3.4028235e+38", string(recordwire.AppendFloat(nil, math.MaxFloat32)))
}

// TestRecordReaderValues reads each kind of value from its canonical and other spellings.
func TestRecordReaderValues(t *testing.T) {
	read := func(doc string, fn func(r *recordwire.Reader) error) error {
		r := recordwire.NewReader([]byte(doc), recordwire.Strict)
		if err := fn(r); err != nil {
			return err
		}
		return r.End()
	}
	for _, c := range []struct {
		doc  string
		bits int
		want int64
		ok   bool
	}{
		{"0", 32, 0, true}, {"-0", 32, 0, true}, {"2147483647", 32, math.MaxInt32, true}, {"2147483648", 32, 0, false},
		{"-2147483648", 32, math.MinInt32, true}, {"9223372036854775807", 64, math.MaxInt64, true},
		{"-9223372036854775808", 64, math.MinInt64, true}, {"9223372036854775808", 64, 0, false},
		{"1e2", 16, 100, true}, {"1.5e1", 16, 15, true}, {"150e-1", 16, 15, true}, {"1.25e1", 16, 0, false},
		{"0.000e10", 16, 0, true}, {"1e19", 64, 0, false}, {"1e-1000000", 64, 0, false}, {"01", 32, 0, false},
		{"+1", 32, 0, false}, {"1.", 32, 0, false}, {"null", 32, 0, true},
	} {
		var got int64
		err := read(c.doc, func(r *recordwire.Reader) (err error) { got, err = r.Int("int", c.bits); return })
		if c.ok {
			assert.NoError(t, err, c.doc)
			assert.Equal(t, c.want, got, c.doc)
		} else {
			assert.Error(t, err, c.doc)
		}
	}
	for _, c := range []struct {
		doc  string
		want float64
		ok   bool
	}{
		{"1E300", 1e300, true}, {`"INF"`, math.Inf(1), true}, {`"-0"`, math.Copysign(0, -1), true}, {"-0", math.Copysign(0, -1), true},
		{`"Infinity"`, 0, false}, {"1e400", 0, false}, {".5", 0, false}, {"0x10", 0, false}, {`"1"`, 0, false},
	} {
		var got float64
		err := read(c.doc, func(r *recordwire.Reader) (err error) { got, err = r.Double("double", 64); return })
		if c.ok {
			assert.NoError(t, err, c.doc)
			assert.Equal(t, math.Float64bits(c.want), math.Float64bits(got), c.doc)
		} else {
			assert.Error(t, err, c.doc)
		}
	}
	var when xsd.DateTime
	require.NoError(t, read(`"2026-11-22T10:15:30.1234567-03:30"`, func(r *recordwire.Reader) (err error) { when, err = r.DateTime(); return }))
	assert.Equal(t, "2026-11-22T10:15:30.1234567-03:30", when.String())
	var data []byte
	require.NoError(t, read(`""`, func(r *recordwire.Reader) (err error) { data, err = r.Base64(); return }))
	assert.Equal(t, []byte{}, data)
	require.NoError(t, read(`null`, func(r *recordwire.Reader) (err error) { data, err = r.Base64(); return }))
	assert.Nil(t, data)
}

// TestRecordReaderUnsigned: the unsigned types (and char, 16 bits) read as JSON numbers of any spelling,
// uint64 exact to its maximum (asmx-typezoo/shapes soap11-GetSmalls-max's values), negatives and
// values out of range refused.
func TestRecordReaderUnsigned(t *testing.T) {
	for _, c := range []struct {
		doc  string
		bits int
		want uint64
		ok   bool
	}{
		{"255", 8, 255, true}, {"256", 8, 0, false}, {"65535", 16, 65535, true}, {"4294967295", 32, math.MaxUint32, true},
		{"18446744073709551615", 64, math.MaxUint64, true}, {"18446744073709551616", 64, 0, false},
		{"1.8446744073709551615e19", 64, math.MaxUint64, true}, {"1e19", 64, 10000000000000000000, true}, {"1e20", 64, 0, false},
		{"-1", 32, 0, false}, {"-0", 32, 0, true}, {"2.5", 8, 0, false}, {"1e2", 8, 100, true}, {"null", 64, 0, true},
		{`"1"`, 8, 0, false}, {"01", 8, 0, false},
	} {
		r := recordwire.NewReader([]byte(c.doc), recordwire.Strict)
		got, err := r.Unsigned("unsignedLong", c.bits)
		if err == nil {
			err = r.End()
		}
		if c.ok {
			assert.NoError(t, err, c.doc)
			assert.Equal(t, c.want, got, c.doc)
		} else {
			assert.Error(t, err, c.doc)
		}
	}
	assert.Equal(t, "18446744073709551615", string(recordwire.AppendUint(nil, math.MaxUint64)))
}

// FuzzRecordUnsigned: Unsigned accepts a JSON number exactly when its value is an integer from 0 to
// 2^64−1 (exponents beyond ±1000 aside, which it refuses), and reads that value exactly.
func FuzzRecordUnsigned(f *testing.F) {
	for _, s := range []string{"18446744073709551615", "18446744073709551616", "1.8446744073709551615e19", "-0", "1e2", "2.5", "0.000e10", "-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var probe json.Number
		if json.Unmarshal([]byte(s), &probe) != nil || strings.TrimSpace(s) != s || s[0] != '-' && (s[0] < '0' || s[0] > '9') {
			return
		}
		if i := strings.IndexAny(s, "eE"); i >= 0 {
			if e, err := strconv.Atoi(s[i+1:]); err != nil || e > 1000 || e < -1000 {
				return
			}
		}
		r := recordwire.NewReader([]byte(s), recordwire.Strict)
		got, err := r.Unsigned("unsignedLong", 64)
		want, ok := new(big.Rat).SetString(s)
		require.True(t, ok, s)
		fits := want.IsInt() && want.Sign() >= 0 && want.Num().IsUint64()
		require.Equal(t, fits, err == nil, "%s: %v", s, err)
		if fits {
			require.Equal(t, want.Num().Uint64(), got, s)
		}
	})
}

// FuzzRecordReader holds the scanner to JSON's grammar: it accepts a document (skipping it as an
// unknown value) exactly when encoding/json finds it valid, unless it nests deeper than the limit, and
// reads a string as encoding/json reads it.
func FuzzRecordReader(f *testing.F) {
	for _, s := range []string{`{"a":[1,-0.5e+3,true,false,null,"\u00e9\ud83d\ude00"]}`, `"\ud800x"`, `[]`, `{}`, `1`, `{"a" : { } , "b":[ ] }`, "\"a\xffb\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		r := recordwire.NewReader(doc, recordwire.Lenient)
		raw, err := r.RawValue()
		if err == nil {
			err = r.End()
		}
		valid := json.Valid(doc)
		switch {
		case err == nil && !valid:
			t.Fatalf("accepted invalid JSON %q", doc)
		case err != nil && valid && !strings.Contains(err.Error(), "nested deeper") && utf8.Valid(doc):
			t.Fatalf("refused valid JSON %q: %v", doc, err)
		case err == nil && len(raw) > 0 && raw[0] == '"':
			var want string
			require.NoError(t, json.Unmarshal(raw, &want))
			got, err := recordwire.NewReader(raw, recordwire.Strict).String()
			require.NoError(t, err)
			if got != want {
				t.Fatalf("read %q as %q, encoding/json as %q", raw, got, want)
			}
		}
	})
}

// benchContact is a contact as the store's read path decodes it.
func benchContact() *frozen.Contact {
	r1, r2 := "role-admin", "role-sales"
	return &frozen.Contact{Id: "c-00000042", AccountId: "acct-7", FirstName: "Ada", LastName: "Lovelace", PhoneMobile: "+44 20 7946 0000",
		PhoneWork: "+44 20 7946 0001", EmailAddress: "ada@example.com", RoleIds: &frozen.ArrayOfString{Astring: []*string{&r1, &r2}}}
}

// BenchmarkContactRecordDecode is the store's read path: one document decoded per ReadContact, its
// strings copied once (lenient) or aliasing the document (the service's Alias).
func BenchmarkContactRecordDecode(b *testing.B) {
	doc := benchContact().AppendRecord(nil)
	for _, mode := range []struct {
		name string
		mode recordwire.Mode
	}{{"copy", recordwire.Lenient}, {"alias", recordwire.Lenient | recordwire.Alias}} {
		b.Run(mode.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				c := new(frozen.Contact)
				if err := c.UnmarshalRecord(doc, mode.mode); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// The document as PostgreSQL's jsonb gives it back: keys by length, then bytes; a space after
	// every ':' and ','.
	jsonb := []byte(`{"Id": "c-00000042", "RoleIds": ["role-admin", "role-sales"], "LastName": "Lovelace", "AccountId": "acct-7", ` +
		`"FirstName": "Ada", "PhoneWork": "+44 20 7946 0001", "PhoneMobile": "+44 20 7946 0000", "EmailAddress": "ada@example.com"}`)
	b.Run("jsonb", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c := new(frozen.Contact)
			if err := c.UnmarshalRecord(jsonb, recordwire.Lenient|recordwire.Alias); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkContactRecordAppend(b *testing.B) {
	c := benchContact()
	buf := make([]byte, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		buf = c.AppendRecord(buf[:0])
	}
	b.SetBytes(int64(len(buf)))
}

// BenchmarkContactJSONDecode is encoding/json on the same document, for comparison.
func BenchmarkContactJSONDecode(b *testing.B) {
	doc := []byte(`{"Id":"c-00000042","AccountId":"acct-7","FirstName":"Ada","LastName":"Lovelace","PhoneMobile":"+44 20 7946 0000",` +
		`"PhoneWork":"+44 20 7946 0001","EmailAddress":"ada@example.com","RoleIds":["role-admin","role-sales"]}`)
	type contact struct {
		Id, AccountId, FirstName, LastName, PhoneMobile, PhoneWork, EmailAddress string
		RoleIds                                                                  []*string
	}
	b.ReportAllocs()
	for b.Loop() {
		var c contact
		if err := json.Unmarshal(doc, &c); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRecordAlias: under Alias a string without escapes shares the document's memory, one with
// escapes is decoded into its own; without it, no string shares the document.
func TestRecordAlias(t *testing.T) {
	doc := []byte(`{"Id":"abc","FirstName":"x\ny","RoleIds":["r1",null,"r2"]}`)
	c := new(frozen.Contact)
	require.NoError(t, c.UnmarshalRecord(doc, recordwire.Lenient|recordwire.Alias))
	assert.Equal(t, "x\ny", c.FirstName)
	copy(doc[7:10], "XYZ")
	assert.Equal(t, "XYZ", c.Id, "the id aliases the document")
	assert.Equal(t, []string{"r1", "<nil>", "r2"}, rolesOf(c))

	doc = []byte(`{"Id":"abc"}`)
	c = new(frozen.Contact)
	require.NoError(t, c.UnmarshalRecord(doc, recordwire.Lenient))
	copy(doc[7:10], "XYZ")
	assert.Equal(t, "abc", c.Id, "a copy")
	err := c.UnmarshalRecord([]byte(`{"Nickname":1}`), recordwire.Strict|recordwire.Alias)
	assert.EqualError(t, err, `record: unknown field "Nickname"; the known fields are Id, AccountId, FirstName, LastName, PhoneMobile, PhoneWork, EmailAddress, RoleIds`)
}

func rolesOf(c *frozen.Contact) []string {
	var out []string
	for _, r := range c.RoleIds.Astring {
		if r == nil {
			out = append(out, "<nil>")
		} else {
			out = append(out, *r)
		}
	}
	return out
}

func TestEachRecordString(t *testing.T) {
	var got []string
	err := recordwire.EachString([]byte(`{"Id":"a","N":1,"Home":{"Lines":["x",null,"y\n"]},"Tags":[{"K":"v"}]}`), func(path, s string) error {
		got = append(got, path+"="+s)
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"Id=a", "Home.Lines[0]=x", "Home.Lines[2]=y\n", "Tags[0].K=v"}, got)
	assert.Error(t, recordwire.EachString([]byte(`{"a":"b"} x`), func(string, string) error { return nil }))
}

// TestPlainStrings: the word-at-a-time scan stops at every byte that needs a look, wherever it is
// in the word, and the strings read are encoding/json's.
func TestPlainStrings(t *testing.T) {
	for _, special := range []string{`"`, `\\`, "\x00", "\x1f", "é", "\x7f"} {
		for pos := range 17 {
			s := strings.Repeat("a", pos) + special + strings.Repeat("b", 16-pos)
			doc := recordwire.AppendString(nil, s)
			got, err := recordwire.NewReader(doc, recordwire.Strict).String()
			require.NoError(t, err, "%q", doc)
			assert.Equal(t, s, got, "%q", doc)
		}
	}
	_, err := recordwire.NewReader([]byte("\"aaaaaaaa\x01bbbbbbbb\""), recordwire.Strict).String()
	assert.ErrorContains(t, err, "control character")
	_, err = recordwire.NewReader([]byte("\"aaaaaaaaaaaaaaaa"), recordwire.Strict).String()
	assert.ErrorContains(t, err, "unterminated string")
}
