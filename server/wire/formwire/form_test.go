package formwire

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire/xsd"
)

// TestFormNames: parameter names match without regard to case, and an array parameter's values come
// in the order given, never split (asmx-typezoo/more get-EchoIds-name-case, get-EchoInt-name-case,
// get-EchoIds-comma).
func TestFormNames(t *testing.T) {
	form, err := Parse("IDS=a&ids=b&N=5&ids=c%2Cd&ids=&text=x&text=y")
	require.NoError(t, err)
	defer Put(form)

	assert.Equal(t, []string{"a", "b", "c,d", ""}, form.Values("ids"))
	assert.Nil(t, form.Values("counts"))
	v, err := Param(form, "n")
	require.NoError(t, err)
	assert.Equal(t, "5", v)
	_, err = Param(form, "when")
	require.ErrorContains(t, err, "The parameter when is required.")
	_, err = Param(form, "text")
	require.ErrorContains(t, err, "The parameter text is given more than once.")
}

// TestFormReaders: each reader names the parameter, or the item of an array parameter, in its error.
func TestFormReaders(t *testing.T) {
	n, err := Int("n", Scalar, " +7 ", "int", 32)
	require.NoError(t, err)
	assert.EqualValues(t, 7, n)
	_, err = Int("n", Scalar, "", "int", 32)
	require.ErrorContains(t, err, `The parameter n must be an xsd:int; "" is not.`)
	_, err = Int("counts", 1, "x", "int", 32)
	require.ErrorContains(t, err, `The item 2 of the parameter counts must be an xsd:int; "x" is not.`)

	d, err := Decimal("amount", Scalar, "12.50")
	require.NoError(t, err)
	assert.Equal(t, "12.50", d.String())
	for _, bad := range []string{"12,5", "1,000", "5-", "1E3", ""} { // get-MakeSampleNoKey-amount-comma, get-EchoAmount-*
		_, err = Decimal("amount", Scalar, bad)
		require.ErrorContains(t, err, `The parameter amount must be an xsd:decimal`, bad)
	}

	f, err := Double("ratio", Scalar, "Infinity", "double", 64)
	require.NoError(t, err)
	assert.Equal(t, "INF", FormatDouble(f))
	_, err = Double("ratio", Scalar, "1,5", "double", 64)
	require.ErrorContains(t, err, `The parameter ratio must be an xsd:double; "1,5" is not.`)

	tier := []string{"Bronze", "Silver", "Gold"}
	e, err := Enum("tier", Scalar, " Gold ", "Tier", tier)
	require.NoError(t, err)
	assert.Equal(t, "Gold", e)
	for _, bad := range []string{"gold", "2", "7", "Silver,Gold", "", "Purple"} { // get-EchoTier-*
		_, err = Enum("tier", Scalar, bad, "Tier", tier)
		require.ErrorContains(t, err, `The parameter tier must be an xsd:Tier`, bad)
	}

	b, err := Base64("data", Scalar, "+/8=")
	require.NoError(t, err)
	assert.Equal(t, []byte{0xfb, 0xff}, b)
	_, err = Base64("data", 0, "***")
	require.ErrorContains(t, err, `The item 1 of the parameter data must be an xsd:base64Binary`)

	_, err = DateTime("when", Scalar, "22.11.2026")
	require.ErrorContains(t, err, `The parameter when must be an xsd:dateTime; "22.11.2026" is not.`)
}

// TestParseFormBool: the xsd:boolean forms, and true/false in any case as Boolean.Parse reads them
// (asmx-typezoo/more get-EchoFlag-*).
func TestParseFormBool(t *testing.T) {
	for in, want := range map[string]bool{"true": true, "True": true, "TRUE": true, " false ": false, "False": false, "1": true, "0": false} {
		got, ok := xsd.ParseFormBool(in)
		assert.True(t, ok, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"yes", "", "t", "truee", "2"} {
		_, ok := xsd.ParseFormBool(in)
		assert.False(t, ok, in)
	}
}

// TestParseFormDateTime holds the GET/POST dateTime reader to asmx-typezoo/more's get-EchoWhen-* and
// post-EchoWhen-* captures, with the zone kept as sent where ASMX makes the value local time.
func TestParseFormDateTime(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"2026-01-02", "2026-01-02T00:00:00"},                                // date-only
		{"2026-11-22T10:15:30", "2026-11-22T10:15:30"},                       // no-offset
		{"2026-11-22T10:15:30Z", "2026-11-22T10:15:30Z"},                     // z: ASMX 11:15:30+01:00
		{"2026-11-22T10:15:30+02:00", "2026-11-22T10:15:30+02:00"},           // plus-0200: ASMX 09:15:30+01:00
		{"2026-11-22T10:15:30.123456789Z", "2026-11-22T10:15:30.1234568Z"},   // frac9
		{"2026-11-22T10:15:30.99999999Z", "2026-11-22T10:15:31Z"},            // frac8-rounds-up
		{"2026-11-22 10:15:30.250000+02:00", "2026-11-22T10:15:30.25+02:00"}, // python-str
		{"2026-11-22T10:15:30.250000+02:00", "2026-11-22T10:15:30.25+02:00"}, // python-isoformat
		{"2026-11-22 10:15:30", "2026-11-22T10:15:30"},                       // space
		{"2026-11-22 10:15:30+02:00", "2026-11-22T10:15:30+02:00"},           // Python's str() without a fraction
		{"2026-11-22 10:15:30Z", "2026-11-22T10:15:30Z"},                     //
		{"2026-11-22T10:15", "2026-11-22T10:15:00"},                          // no-seconds
		{"2026-11-22 10:15+02:00", "2026-11-22T10:15:00+02:00"},              //
		{"11/22/2026", "2026-11-22T00:00:00"},                                // us-date
		{"11/22/2026 10:15:30", "2026-11-22T10:15:30"},                       // .NET's Convert.ToString(DateTime)
		{"1/2/2026 9:05", "2026-01-02T09:05:00"},                             //
		{"11/22/2026 10:15:30.1234567", "2026-11-22T10:15:30.1234567"},       //
		{"Sun, 22 Nov 2026 10:15:30 GMT", "2026-11-22T10:15:30Z"},            // rfc1123: ASMX 11:15:30+01:00
		{" 2026-11-22 10:15:30 ", "2026-11-22T10:15:30"},                     //
	} {
		v, ok := xsd.ParseFormDateTime(tt.in)
		if assert.True(t, ok, tt.in) {
			assert.Equal(t, tt.want, v.String(), tt.in)
		}
	}
	for _, in := range []string{
		"22.11.2026",                // day-first
		"",                          // empty
		"2026-11-22T10:15:30 02:00", // unencoded-plus: the '+' of the offset came as a space
		"2026-11-22 10:15:30 02:00",
		"not-a-date",
		"13/22/2026",
		"11/22/26",
		"2026/11/22",
		"Sun, 22 Nov 2026 10:15:30 CET",
		"2026-11-22 10",
		"2026-11-22 10:15:3",
		"2026-11-22X10:15:30",
	} {
		_, ok := xsd.ParseFormDateTime(in)
		assert.False(t, ok, in)
	}
}

// FuzzFormValues holds the GET/POST readers to their promises on any input: every value ParseDateTime
// reads, ParseFormDateTime reads the same; an accepted value is written in an XSD form that reads back
// as itself on every binding, to within .NET's 100 ns ticks; ParseFormBool agrees with ParseBool on
// the XSD forms.
func FuzzFormValues(f *testing.F) {
	for _, s := range []string{"2026-11-22 10:15:30.250000+02:00", "11/22/2026 10:15:30", "Sun, 22 Nov 2026 10:15:30 GMT",
		"2026-11-22T10:15", "2026-01-02", "2026-11-22T10:15:30.99999999Z", "True", "22.11.2026", "2026-11-22T10:15:30 02:00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if b, ok := xsd.ParseBool(s); ok {
			fb, fok := xsd.ParseFormBool(s)
			require.True(t, fok)
			require.Equal(t, b, fb)
		}
		strict, strictOK := xsd.ParseDateTime(s)
		v, ok := xsd.ParseFormDateTime(s)
		if strictOK {
			require.True(t, ok, "%q is an xsd:dateTime", s)
			require.Equal(t, strict, v)
		}
		if !ok {
			return
		}
		require.Zero(t, v.Time.Nanosecond()%100, "%q is rounded to ticks", s)
		back, ok := xsd.ParseDateTime(v.String())
		require.True(t, ok, "%q (from %q) reads back", v.String(), s)
		require.True(t, back.Time.Equal(v.Time) && back.NoZone == v.NoZone, "%q (from %q) reads back as itself", v.String(), s)
		require.False(t, strings.ContainsAny(v.String(), " /"))
		require.LessOrEqual(t, v.Time.Year(), 9999)
		require.Equal(t, time.UTC == v.Time.Location(), strings.HasSuffix(v.String(), "Z") || v.NoZone)
	})
}

// TestSmallFormReaders: the GET/POST forms of the unsigned types, char, flags and byte[]
// (asmx-typezoo/shapes README §7, §11; each case names its capture).
func TestSmallFormReaders(t *testing.T) {
	perm := []string{"None", "Read", "Write", "Execute"}
	for _, tt := range []struct {
		name string
		read func() (any, error)
		want any
		err  string
	}{
		{"get-Unsigned-max ul", func() (any, error) { return Unsigned("ul", Scalar, "18446744073709551615", "unsignedLong", 64) }, uint64(18446744073709551615), ""},
		{"post-Unsigned-max b", func() (any, error) { return Unsigned("b", Scalar, "255", "unsignedByte", 8) }, uint64(255), ""},
		{"get-Unsigned-ui-negative", func() (any, error) { return Unsigned("ui", Scalar, "-1", "unsignedInt", 32) }, nil,
			`The parameter ui must be an xsd:unsignedInt; "-1" is not.`},
		{"get-EchoChar-letter", func() (any, error) { return Char("c", Scalar, "A") }, xsd.Char('A'), ""},
		{"get-EchoChar-65", func() (any, error) { return Char("c", Scalar, "65") }, nil, `The parameter c must be an xsd:char; "65" is not.`},
		{"get-EchoChar-two-letters", func() (any, error) { return Char("c", Scalar, "AB") }, nil, `The parameter c must be an xsd:char; "AB" is not.`},
		{"get-EchoPerm-comma", func() (any, error) { return Flags("p", Scalar, "Read, Write", "Perm", perm) }, uint64(3), ""},
		{"get-EchoPerm-read-write (accepted: deviation)", func() (any, error) { return Flags("p", Scalar, "Read Write", "Perm", perm) }, uint64(3), ""},
		{"get-EchoPerm-empty (accepted: deviation)", func() (any, error) { return Flags("p", Scalar, "", "Perm", perm) }, uint64(0), ""},
		{"get-EchoPerm-numeric (refused: deviation)", func() (any, error) { return Flags("p", Scalar, "3", "Perm", perm) }, nil,
			`The parameter p must be an xsd:Perm; "3" is not.`},
		{"get-EchoBytes-items", func() (any, error) { return Bytes("data", []string{"1", "2", "251", "255"}) }, []byte{1, 2, 251, 255}, ""},
		{"post-EchoBytes-items", func() (any, error) { return Bytes("data", []string{"1", "2", "251", "255"}) }, []byte{1, 2, 251, 255}, ""},
		{"get-EchoBytes-absent (empty: deviation)", func() (any, error) { return Bytes("data", nil) }, []byte{}, ""},
		{"get-EchoBytes-base64", func() (any, error) { return Bytes("data", []string{"AQL7/w=="}) }, nil,
			`The item 1 of the parameter data must be an xsd:unsignedByte; "AQL7/w==" is not.`},
		{"byte out of range, item named", func() (any, error) { return Bytes("data", []string{"1", "256"}) }, nil,
			`The item 2 of the parameter data must be an xsd:unsignedByte; "256" is not.`},
		{"get-EchoSBytes-items (Int, 8 bits)", func() (any, error) { return Int("data", 0, "-128", "byte", 8) }, int64(-128), ""},
	} {
		got, err := tt.read()
		if tt.err != "" {
			if assert.Error(t, err, tt.name) {
				assert.Equal(t, fault.InvalidArgument, fault.As(err).Code, tt.name)
				assert.Equal(t, tt.err, fault.As(err).Message, tt.name)
			}
			continue
		}
		if assert.NoError(t, err, tt.name) {
			assert.Equal(t, tt.want, got, tt.name)
		}
	}
	assert.Equal(t, []string{"1", "2", "251", "255"}, FormatBytes([]byte{1, 2, 251, 255}))
	assert.Equal(t, "18446744073709551615", FormatUint(18446744073709551615))
}
