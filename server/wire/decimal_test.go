package wire

import (
	"encoding/json"
	"encoding/xml"
	"math/big"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDecimal holds ParseDecimal and the written form to what ASMX reads and writes, as captured in
// the type zoo (soap11-EchoSample, soap11-ListSamples-n12-edge-values, soap11-err-bad-decimal).
func TestDecimal(t *testing.T) {
	for _, tt := range []struct {
		in, want string // want "" means refused
	}{
		{"12345.6789", "12345.6789"},
		{"1.10", "1.10"}, // the scale is kept
		{"1.000", "1.000"},
		{"-0.0100", "-0.0100"},
		{"+1.50", "1.50"},
		{"0", "0"},
		{"-0.5", "-0.5"},
		{"100", "100"},
		{"1000000", "1000000"},
		{"7", "7"},
		{"79228162514264337593543950335", "79228162514264337593543950335"},
		{"-79228162514264337593543950335", "-79228162514264337593543950335"},
		{"0.0000000000000000000000000001", "0.0000000000000000000000000001"},
		{" 42.0 ", "42.0"},
		{"007.50", "7.50"},
		{".5", "0.5"},
		{"5.", "5"},
		{"-0", "0"},         // a zero is written without a sign
		{"-0.000", "0.000"}, // ... and keeps its scale
		{"79228162514264337593543950335.00", "79228162514264337593543950335"},
		{"0.00000000000000000000000000010", "0.0000000000000000000000000001"},
		{"12,5", ""}, // soap11-err-bad-decimal
		{"1E+3", ""},
		{"1e3", ""},
		{"", ""},
		{" ", ""},
		{".", ""},
		{"+", ""},
		{"--1", ""},
		{"+-1", ""},
		{"1.2.3", ""},
		{"NaN", ""},
		{"INF", ""},
		{"0x10", ""},
		{"1_000", ""},
		{"79228162514264337593543950336", ""},   // 2^96
		{"0.00000000000000000000000000001", ""}, // 29 fraction digits
		{"٣", ""},                               // only ASCII digits
	} {
		d, ok := ParseDecimal(tt.in)
		if tt.want == "" {
			assert.False(t, ok, "%q must be refused", tt.in)
			continue
		}
		if assert.True(t, ok, "%q must be accepted", tt.in) {
			assert.Equal(t, tt.want, d.String(), "%q", tt.in)
			assert.Equal(t, tt.want, string(AppendDecimal(nil, "a", d)[3:3+len(tt.want)]))
			want, _ := new(big.Rat).SetString(strings.TrimSpace(tt.in))
			assert.Zero(t, want.Cmp(d.Rat()), "%q keeps its value", tt.in)
		}
	}
	assert.Equal(t, "0", Decimal{}.String(), "the zero value is 0")
	assert.Equal(t, Decimal{}, MustParseDecimal("0"), "0 is the zero value")
	assert.NotEqual(t, MustParseDecimal("1.1"), MustParseDecimal("1.10"), "the scale is part of the value")
	assert.Panics(t, func() { MustParseDecimal("x") })
}

func TestGUID(t *testing.T) {
	for _, tt := range []struct {
		in, want string // want "" means refused
	}{
		{"0f8fad5b-d9cb-469f-a165-70867728950e", "0f8fad5b-d9cb-469f-a165-70867728950e"},
		{"0F8FAD5B-D9CB-469F-A165-70867728950E", "0f8fad5b-d9cb-469f-a165-70867728950e"}, // soap11-EchoSample
		{" 03020100-0504-0706-0809-0a0b0c0d0e0f\n", "03020100-0504-0706-0809-0a0b0c0d0e0f"},
		{"00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000000"},
		{"not-a-guid", ""}, // soap11-err-bad-guid
		{"", ""},
		{"0f8fad5bd9cb469fa16570867728950e", ""}, // .NET's N form is outside the schema's pattern
		{"{0f8fad5b-d9cb-469f-a165-70867728950e}", ""}, // B form
		{"0f8fad5b-d9cb-469f-a165-70867728950", ""},
		{"0f8fad5b-d9cb-469f-a165-70867728950e0", ""},
		{"0f8fad5bd-9cb-469f-a165-70867728950e", ""},
		{"0f8fad5b-d9cb-469f-a165-7086772895g0", ""},
		{"+f8fad5b-d9cb-469f-a165-70867728950e", ""},
	} {
		g, ok := ParseGUID(tt.in)
		if tt.want == "" {
			assert.False(t, ok, "%q must be refused", tt.in)
			continue
		}
		if assert.True(t, ok, "%q must be accepted", tt.in) {
			assert.Equal(t, tt.want, g.String())
			assert.Equal(t, "<k>"+tt.want+"</k>", string(AppendGUID(nil, "k", g)))
		}
	}
	assert.Equal(t, "00000000-0000-0000-0000-000000000000", GUID{}.String())
	g := MustParseGUID("0f8fad5b-d9cb-469f-a165-70867728950e")
	assert.Equal(t, GUID{0x0f, 0x8f, 0xad, 0x5b, 0xd9, 0xcb, 0x46, 0x9f, 0xa1, 0x65, 0x70, 0x86, 0x77, 0x28, 0x95, 0x0e}, g,
		"bytes in the order the text writes them")
	assert.Panics(t, func() { MustParseGUID("x") })
}

// TestFormDecimalAndGUID covers the form readers: a bad value is an InvalidArgument naming the
// parameter, where ASMX reads amount=12,5 as 125 (get-MakeSampleNoKey-amount-comma).
func TestFormDecimalAndGUID(t *testing.T) {
	form, err := ParseForm("amount=12.50&bad=12%2C5&key=0F8FAD5B-D9CB-469F-A165-70867728950E&nokey=x")
	require.NoError(t, err)
	defer PutForm(form)

	d, err := FormDecimal(form, "amount")
	require.NoError(t, err)
	assert.Equal(t, "12.50", d.String())
	_, err = FormDecimal(form, "bad")
	require.ErrorContains(t, err, `The parameter bad must be an xsd:decimal; "12,5" is not.`)
	_, err = FormDecimal(form, "missing")
	require.ErrorContains(t, err, "The parameter missing is required.")

	g, err := FormGUID(form, "key")
	require.NoError(t, err)
	assert.Equal(t, "0f8fad5b-d9cb-469f-a165-70867728950e", g.String())
	_, err = FormGUID(form, "nokey")
	require.ErrorContains(t, err, `The parameter nokey must be an xsd:guid; "x" is not.`)
	_, err = FormGUID(form, "missing")
	require.ErrorContains(t, err, "The parameter missing is required.")
}

// FuzzParseDecimal holds ParseDecimal to its promises on any input: an accepted value is written in
// canonical form (no '+', no exponent), reads back as itself, and has the value of the input.
func FuzzParseDecimal(f *testing.F) {
	for _, s := range []string{"1.10", "+1.50", "-0.0100", "12,5", "79228162514264337593543950335", "0.0000000000000000000000000001", " 7 ", "-0", ".5", "1e3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, ok := ParseDecimal(s)
		if !ok {
			return
		}
		text := d.String()
		require.NotContains(t, text, "+")
		require.NotContains(t, text, "E")
		back, ok := ParseDecimal(text)
		require.True(t, ok, "%q (from %q) reads back", text, s)
		require.Equal(t, d, back)
		want, ok := new(big.Rat).SetString(strings.TrimSpace(s))
		require.True(t, ok, "big.Rat reads every decimal ParseDecimal accepts: %q", s)
		require.Zero(t, want.Cmp(d.Rat()), "%q keeps the value of %q", text, s)
	})
}

// FuzzParseGUID: an accepted guid is written in lower case and reads back as itself; the text equals
// the input up to case and surrounding white space.
func FuzzParseGUID(f *testing.F) {
	for _, s := range []string{"0f8fad5b-d9cb-469f-a165-70867728950e", "0F8FAD5B-D9CB-469F-A165-70867728950E", "not-a-guid", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, ok := ParseGUID(s)
		if !ok {
			return
		}
		text := g.String()
		require.Equal(t, strings.ToLower(strings.TrimSpace(s)), text)
		back, ok := ParseGUID(text)
		require.True(t, ok)
		require.Equal(t, g, back)
	})
}

// TestJSONDecimalAndGUID covers the JSON forms: a decimal is a number with its scale (a string
// holding one is read too), a guid a lower-case string.
func TestJSONDecimalAndGUID(t *testing.T) {
	d := MustParseDecimal("-0.0100")
	assert.Equal(t, "-0.0100", string(AppendJSONDecimal(nil, d)))
	for _, tok := range []json.Token{json.Number("-0.0100"), "-0.0100", " -0.0100 "} {
		got, err := JSONDecimal(tok, "element Amount")
		require.NoError(t, err, tok)
		assert.Equal(t, d, got)
	}
	_, err := JSONDecimal(json.Number("1e3"), "element Amount")
	require.ErrorContains(t, err, `The element Amount must be an xsd:decimal; "1e3" is not.`)
	_, err = JSONDecimal(true, "element Amount")
	require.Error(t, err)

	g := MustParseGUID("0f8fad5b-d9cb-469f-a165-70867728950e")
	assert.Equal(t, `"0f8fad5b-d9cb-469f-a165-70867728950e"`, string(AppendJSONGUID(nil, g)))
	got, err := JSONGUID("0F8FAD5B-D9CB-469F-A165-70867728950E", "element Key")
	require.NoError(t, err)
	assert.Equal(t, g, got)
	_, err = JSONGUID("x", "element Key")
	require.ErrorContains(t, err, `The element Key must be an xsd:guid; "x" is not.`)
	_, err = JSONGUID(json.Number("1"), "element Key")
	require.Error(t, err)
}

// TestTextMarshaling: encoding/xml (gowsdl's client) and encoding/json see the lexical forms.
func TestTextMarshaling(t *testing.T) {
	type sample struct {
		Amount Decimal `xml:"Amount" json:"amount"`
		Key    GUID    `xml:"Key" json:"key"`
	}
	in := sample{MustParseDecimal("1.10"), MustParseGUID("0F8FAD5B-D9CB-469F-A165-70867728950E")}
	x, err := xml.Marshal(in)
	require.NoError(t, err)
	assert.Equal(t, `<sample><Amount>1.10</Amount><Key>0f8fad5b-d9cb-469f-a165-70867728950e</Key></sample>`, string(x))
	var back sample
	require.NoError(t, xml.Unmarshal(x, &back))
	assert.Equal(t, in, back)

	j, err := json.Marshal(in)
	require.NoError(t, err)
	assert.Equal(t, `{"amount":"1.10","key":"0f8fad5b-d9cb-469f-a165-70867728950e"}`, string(j))
	back = sample{}
	require.NoError(t, json.Unmarshal(j, &back))
	assert.Equal(t, in, back)

	require.Error(t, xml.Unmarshal([]byte(`<sample><Amount>1e3</Amount></sample>`), &back))
	require.Error(t, xml.Unmarshal([]byte(`<sample><Key>x</Key></sample>`), &back))
}
