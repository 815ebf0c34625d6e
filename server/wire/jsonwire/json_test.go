package jsonwire

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/wire/xsd"
)

func TestAppendJSONString(t *testing.T) {
	assert.Equal(t, `"a\"b\\c\n\r\t\u003c\u003e\u0026\u0027\u0001é😀\u2028`+"\uFFFD\"", string(AppendString(nil, "a\"b\\c\n\r\t<>&'\x01é😀\u2028\xff")))
	var back string
	require.NoError(t, json.Unmarshal(AppendString(nil, "a\"b\\c\n<>&'é😀\u2028"), &back))
	assert.Equal(t, "a\"b\\c\n<>&'é😀\u2028", back)
}

func TestJSONNumbersAndDates(t *testing.T) {
	assert.Equal(t, `"NaN"`, string(AppendDouble(nil, math.NaN())))
	assert.Equal(t, `"-Infinity"`, string(AppendDouble(nil, math.Inf(-1))))
	assert.Equal(t, `1E+21`, string(AppendDouble(nil, 1e21)))
	v, ok := xsd.ParseDateTime("2026-11-22T10:15:30.123+01:00")
	require.True(t, ok)
	assert.Equal(t, `"\/Date(1795338930123)\/"`, string(AppendDateTime(nil, v)))
	back, err := DateTime(str("/Date(1795338930123)/"), "element When")
	require.NoError(t, err)
	assert.True(t, back.Time.Equal(v.Time))
	_, err = Int(num("9223372036854775808"), "parameter n", "long", 64)
	assert.ErrorContains(t, err, "must be an xsd:long")
	_, err = Int(num("1e3"), "parameter n", "int", 32)
	assert.Error(t, err, "an int is written without exponent or fraction")
}

// TestJSONUnsigned: the unsigned types as JSON numbers, exact to uint64's maximum, range checked.
func TestJSONUnsigned(t *testing.T) {
	for _, c := range []struct {
		text string
		bits int
		want uint64
		ok   bool
	}{
		{"18446744073709551615", 64, math.MaxUint64, true}, {"18446744073709551616", 64, 0, false},
		{"255", 8, 255, true}, {"256", 8, 0, false}, {"-1", 32, 0, false}, {"-0", 32, 0, false}, {"1e2", 32, 0, false},
	} {
		got, err := Unsigned(num(c.text), "parameter ul", "unsignedLong", c.bits)
		if c.ok {
			assert.NoError(t, err, c.text)
			assert.Equal(t, c.want, got, c.text)
		} else {
			assert.ErrorContains(t, err, "must be an xsd:unsignedLong", c.text)
		}
	}
	_, err := Unsigned(str("1"), "parameter ul", "unsignedLong", 64)
	assert.ErrorContains(t, err, "must be a number")
}

// TestJSONDepthLimit: nesting beyond the limit is refused while skipping or reading values.
func TestJSONDepthLimit(t *testing.T) {
	deep := `{"a":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}`
	r := NewReader([]byte(deep), 32)
	_, err := r.Object()
	require.NoError(t, err)
	_, ok, err := r.Key()
	require.True(t, ok)
	require.NoError(t, err)
	tok, err := r.Token()
	require.NoError(t, err)
	assert.ErrorContains(t, r.Skip(tok), "nested deeper than 32")

	shallow := NewReader([]byte(`{"a":[[1,{"b":[]}]]}`), 32)
	_, err = shallow.Object()
	require.NoError(t, err)
	_, _, _ = shallow.Key()
	tok, err = shallow.Token()
	require.NoError(t, err)
	require.NoError(t, shallow.Skip(tok))
	_, ok, err = shallow.Key()
	assert.False(t, ok)
	assert.NoError(t, err)
	assert.NoError(t, shallow.End())
}

// TestJSONDecimalAndGUID covers the JSON forms: a decimal is a number with its scale (a string
// holding one is read too), a guid a lower-case string.
func TestJSONDecimalAndGUID(t *testing.T) {
	d := xsd.MustParseDecimal("-0.0100")
	assert.Equal(t, "-0.0100", string(AppendDecimal(nil, d)))
	for _, tok := range []Token{num("-0.0100"), str("-0.0100"), str(" -0.0100 ")} {
		got, err := Decimal(tok, "element Amount")
		require.NoError(t, err, tok)
		assert.Equal(t, d, got)
	}
	_, err := Decimal(num("1e3"), "element Amount")
	require.ErrorContains(t, err, `The element Amount must be an xsd:decimal; "1e3" is not.`)
	_, err = Decimal(Token{kind: 't'}, "element Amount")
	require.Error(t, err)

	g := xsd.MustParseGUID("0f8fad5b-d9cb-469f-a165-70867728950e")
	assert.Equal(t, `"0f8fad5b-d9cb-469f-a165-70867728950e"`, string(AppendGUID(nil, g)))
	got, err := GUID(str("0F8FAD5B-D9CB-469F-A165-70867728950E"), "element Key")
	require.NoError(t, err)
	assert.Equal(t, g, got)
	_, err = GUID(str("x"), "element Key")
	require.ErrorContains(t, err, `The element Key must be an xsd:guid; "x" is not.`)
	_, err = GUID(num("1"), "element Key")
	require.Error(t, err)
}

// num and str make the tokens a Reader reads for a number and a string.
func num(text string) Token { return Token{kind: '0', text: text} }
func str(s string) Token    { return Token{kind: '"', text: s} }
