package xsd

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
		{"79228162514264337593543950336", ""}, // 2^96
		{"٣", ""},                             // only ASCII digits
		// More digits than System.Decimal holds are rounded, half away from zero, to the largest scale
		// that fits (asmx-typezoo/more soap11-EchoAmount-many-digits and get-, post-).
		{"0.12345678901234567890123456789012", "0.1234567890123456789012345679"},
		{"-0.12345678901234567890123456789012", "-0.1234567890123456789012345679"},
		{"0.00000000000000000000000000001", "0.0000000000000000000000000000"}, // 29 digits round to a zero of scale 28
		{"0.00000000000000000000000000005", "0.0000000000000000000000000001"},
		{"9.9999999999999999999999999999", "10.000000000000000000000000000"}, // 29 nines: the mantissa overflows at scale 28
		{"79228162514264337593543950335.4", "79228162514264337593543950335"},
		{"79228162514264337593543950335.5", ""}, // rounds to 2^96
		{"1" + strings.Repeat("0", 29) + ".5", ""},
		{"1." + strings.Repeat("4", 100000), "1.4444444444444444444444444444"},
	} {
		d, ok := ParseDecimal(tt.in)
		if tt.want == "" {
			assert.False(t, ok, "%q must be refused", tt.in)
			continue
		}
		if assert.True(t, ok, "%q must be accepted", tt.in) {
			assert.Equal(t, tt.want, d.String(), "%q", tt.in)
			assert.Equal(t, tt.want, string(d.AppendText(nil)))
			assertRounded(t, tt.in, d)
		}
	}
	assert.Equal(t, "0", Decimal{}.String(), "the zero value is 0")
	assert.Equal(t, Decimal{}, MustParseDecimal("0"), "0 is the zero value")
	assert.NotEqual(t, MustParseDecimal("1.1"), MustParseDecimal("1.10"), "the scale is part of the value")
	assert.Panics(t, func() { MustParseDecimal("x") })
}

// assertRounded checks that d is the value of the decimal text in: exactly when in has at most 28
// digits, else within half a unit of d's last digit (in rounded to d's scale).
func assertRounded(t *testing.T, in string, d Decimal) {
	t.Helper()
	want, ok := new(big.Rat).SetString(strings.TrimSpace(in))
	require.True(t, ok, "big.Rat reads every decimal ParseDecimal accepts: %q", in)
	diff := new(big.Rat).Sub(want, d.rat())
	digits := strings.TrimLeft(strings.Trim(strings.TrimSpace(in), "+-"), "0")
	if len(strings.ReplaceAll(digits, ".", "")) <= decimalMaxScale {
		assert.Zero(t, diff.Sign(), "%q keeps its value, %s", in, d)
		return
	}
	_, frac, _ := strings.Cut(d.String(), ".")
	unit := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(len(frac))), nil))
	assert.LessOrEqual(t, new(big.Rat).Mul(diff.Abs(diff), big.NewRat(2, 1)).Cmp(unit), 0, "%s is %q rounded to its scale", d, in)
}

// TestGUID holds ParseGUID to what ASMX reads (asmx-typezoo/more soap11-EchoKey-*): every form of
// .NET's Guid constructor, written back in the D form, lower case.
func TestGUID(t *testing.T) {
	const want = "0f8fad5b-d9cb-469f-a165-70867728950e"
	for _, tt := range []struct {
		in, want string // want "" means refused
	}{
		{"0f8fad5b-d9cb-469f-a165-70867728950e", want},                                 // soap11-EchoKey-lower
		{"0F8FAD5B-D9CB-469F-A165-70867728950E", want},                                 // soap11-EchoKey-upper
		{"{0f8fad5b-d9cb-469f-a165-70867728950e}", want},                               // -braces (B)
		{"0f8fad5bd9cb469fa16570867728950e", want},                                     // -no-dashes (N)
		{"(0f8fad5b-d9cb-469f-a165-70867728950e)", want},                               // -parens (P)
		{"{0x0f8fad5b,0xd9cb,0x469f,{0xa1,0x65,0x70,0x86,0x77,0x28,0x95,0x0e}}", want}, // -hex-struct (X)
		{"{0xf8fad5b,0XD9CB,0x469f,{0xa1,0x65,0x70,0x86,0x77,0x28,0x95,0xe}}", want},   // leading zeros left out
		{" 0f8fad5b-d9cb-469f-a165-70867728950e ", want},                               // -spaces
		{" 03020100-0504-0706-0809-0a0b0c0d0e0f\n", "03020100-0504-0706-0809-0a0b0c0d0e0f"},
		{"00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000000"},
		{"not-a-guid", ""}, // soap11-err-bad-guid, soap11-EchoKey-bad
		{"", ""},           // soap11-EchoKey-empty
		{"0f8fad5b-d9cb-469f-a165-70867728950", ""}, // soap11-EchoKey-short
		{"0f8fad5b-d9cb-469f-a165-70867728950e0", ""},
		{"0f8fad5bd-9cb-469f-a165-70867728950e", ""},
		{"0f8fad5b-d9cb-469f-a165-7086772895g0", ""},
		{"+f8fad5b-d9cb-469f-a165-70867728950e", ""},
		{"{0f8fad5b-d9cb-469f-a165-70867728950e)", ""},
		{"[0f8fad5b-d9cb-469f-a165-70867728950e]", ""},
		{"0f8fad5bd9cb469fa16570867728950", ""},
		{"{0x0f8fad5b,0xd9cb,0x469f,{0xa1,0x65,0x70,0x86,0x77,0x28,0x95}}", ""},       // seven bytes
		{"{0x0f8fad5b,0xd9cb,0x469f,{0xa1,0x65,0x70,0x86,0x77,0x28,0x95,0x100}}", ""}, // a byte of three digits
		{"{0x0f8fad5b,0xd9cb,0x469f,0xa1,0x65,0x70,0x86,0x77,0x28,0x95,0x0e}}", ""},   // no inner brace
		{"{0x,0xd9cb,0x469f,{0xa1,0x65,0x70,0x86,0x77,0x28,0x95,0x0e}}", ""},
		{"{00x0f8fad5b,0xd9cb,0x469f,{0xa1,0x65,0x70,0x86,0x77,0x28,0x95,0x0e}}", ""},
	} {
		g, ok := ParseGUID(tt.in)
		if tt.want == "" {
			assert.False(t, ok, "%q must be refused", tt.in)
			continue
		}
		if assert.True(t, ok, "%q must be accepted", tt.in) {
			assert.Equal(t, tt.want, g.String())
			assert.Equal(t, tt.want, string(g.AppendText(nil)))
		}
	}
	assert.Equal(t, "00000000-0000-0000-0000-000000000000", GUID{}.String())
	g := MustParseGUID("0f8fad5b-d9cb-469f-a165-70867728950e")
	assert.Equal(t, GUID{0x0f, 0x8f, 0xad, 0x5b, 0xd9, 0xcb, 0x46, 0x9f, 0xa1, 0x65, 0x70, 0x86, 0x77, 0x28, 0x95, 0x0e}, g,
		"bytes in the order the text writes them")
	assert.Panics(t, func() { MustParseGUID("x") })
}

// FuzzParseDecimal holds ParseDecimal to its promises on any input: an accepted value is written in
// canonical form (no '+', no exponent), reads back as itself, and has the value of the input, rounded
// to its scale when the input has more digits than System.Decimal holds.
func FuzzParseDecimal(f *testing.F) {
	for _, s := range []string{"1.10", "+1.50", "-0.0100", "12,5", "79228162514264337593543950335", "0.0000000000000000000000000001",
		" 7 ", "-0", ".5", "1e3", "0.12345678901234567890123456789012", "9.9999999999999999999999999999", "79228162514264337593543950335.5"} {
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
		assertRounded(t, s, d)
	})
}

// FuzzParseGUID: an accepted guid is written in lower case and reads back as itself; in every form
// but X, its hex digits are the input's, in order.
func FuzzParseGUID(f *testing.F) {
	for _, s := range []string{"0f8fad5b-d9cb-469f-a165-70867728950e", "0F8FAD5B-D9CB-469F-A165-70867728950E", "not-a-guid", "",
		"{0f8fad5b-d9cb-469f-a165-70867728950e}", "(0f8fad5b-d9cb-469f-a165-70867728950e)", "0f8fad5bd9cb469fa16570867728950e",
		"{0x0f8fad5b,0xd9cb,0x469f,{0xa1,0x65,0x70,0x86,0x77,0x28,0x95,0x0e}}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, ok := ParseGUID(s)
		if !ok {
			return
		}
		text := g.String()
		back, ok := ParseGUID(text)
		require.True(t, ok)
		require.Equal(t, g, back)
		in := strings.ToLower(strings.TrimSpace(s))
		if !strings.Contains(in, "0x") {
			digits := strings.NewReplacer("-", "", "{", "", "}", "", "(", "", ")", "").Replace(in)
			require.Equal(t, strings.ReplaceAll(text, "-", ""), digits)
		}
	})
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
