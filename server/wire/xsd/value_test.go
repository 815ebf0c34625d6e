package xsd

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestDoubleRoundTripFormat holds AppendDouble to the forms .NET Framework's "R" format writes,
// as captured in ../shared/reference/asmx-typezoo (soap11-ListSamples-n12-edge-values, soap11-MakeSample).
func TestDoubleRoundTripFormat(t *testing.T) {
	tenth := 0.1 // a variable, so the sum is computed in float64, not as an exact constant
	for _, tt := range []struct {
		in   float64
		want string
	}{
		{0.1, "0.1"},
		{1.0 / 3, "0.33333333333333331"},
		{tenth + 2*tenth, "0.30000000000000004"},
		{1e21, "1E+21"},
		{123456789012345678, "1.2345678901234568E+17"},
		{1e-7, "1E-07"},
		{-1.5e-10, "-1.5E-10"},
		{math.MaxFloat64, "1.7976931348623157E+308"},
		{4.94065645841247e-324, "4.94065645841247E-324"},
		{1000000, "1000000"},
		{0.0001, "0.0001"},
		{12.5, "12.5"},
		{math.NaN(), "NaN"},
		{math.Inf(1), "INF"},
		{math.Inf(-1), "-INF"},
		{math.Copysign(0, -1), "-0"},
		{0, "0"},
	} {
		assert.Equal(t, tt.want, string(AppendDouble(nil, tt.in)), "%v", tt.in)
		if !math.IsNaN(tt.in) {
			back, ok := ParseDouble(tt.want, 64)
			assert.True(t, ok, tt.want)
			assert.Equal(t, tt.in, back, "%s reads back", tt.want)
		}
	}
}

func TestFloatRoundTripFormat(t *testing.T) {
	for _, tt := range []struct {
		in   float32
		want string
	}{
		{1.5, "1.5"},
		{0.1, "0.1"},
		{1.0 / 3, "0.333333343"},
		{math.MaxFloat32, "3.40282347E+38"},
		{math.SmallestNonzeroFloat32, "1.401298E-45"},
		{16777216, "16777216"},
		{1e10, "1E+10"},
		{1e-7, "1E-07"},
	} {
		assert.Equal(t, tt.want, string(AppendFloat(nil, tt.in)), "%v", tt.in)
	}
}

func TestParseLexicalForms(t *testing.T) {
	for _, s := range []string{" 42 ", "+5", "-0", "2147483647"} {
		_, ok := ParseInt(s, 32)
		assert.True(t, ok, s)
	}
	for _, s := range []string{"abc", "2147483648", "", "1_000", "0x10", "++1", "+-1"} {
		_, ok := ParseInt(s, 32)
		assert.False(t, ok, s)
	}
	for s, want := range map[string]bool{"true": true, "1": true, " false ": false, "0": false} {
		got, ok := ParseBool(s)
		assert.True(t, ok, s)
		assert.Equal(t, want, got, s)
	}
	for _, s := range []string{"True", "yes", ""} {
		_, ok := ParseBool(s)
		assert.False(t, ok, s)
	}
	for _, s := range []string{"Inf", "infinity", "0x1p-2", "1_0", "12,5", "", "1e400", "+-1"} {
		_, ok := ParseDouble(s, 64)
		assert.False(t, ok, s)
	}
	_, ok := ParseDouble("1e39", 32)
	assert.False(t, ok, "1e39 is beyond a float (asmx-typezoo/more *-EchoApprox-1e39)")
	// .NET's invariant names of the infinities, which XmlConvert and ASMX's URL reader read
	// (soap11-EchoRatio-Infinity, get-EchoRatio-Infinity), besides XSD's INF.
	for s, want := range map[string]float64{"INF": math.Inf(1), "-INF": math.Inf(-1), "Infinity": math.Inf(1), " -Infinity ": math.Inf(-1), "1E3": 1000} {
		got, ok := ParseDouble(s, 64)
		assert.True(t, ok, s)
		assert.Equal(t, want, got, s)
	}
}

// TestDateTimeForms holds DateTime to XmlSerializer's forms (asmx-typezoo: *-Now-utc-true,
// soap11-ListSamples-n12-edge-values, soap11-MakeSample-no-offset), except that an offset is kept as
// sent rather than converted to the server's local time.
func TestDateTimeForms(t *testing.T) {
	for _, s := range []string{
		"2026-11-22T10:15:30.123Z",
		"2026-11-22T10:15:30.5+01:00",
		"2026-11-22T10:15:30.01Z",
		"2026-11-22T10:15:30.0000001Z",
		"0001-01-01T00:00:00",
		"9999-12-31T23:59:59.9999999Z",
		"2026-11-22T05:45:30.1234567+05:30",
		"2026-11-22T10:15:30-08:00",
		"2026-11-22T10:15:30+00:00",
	} {
		v, ok := ParseDateTime(s)
		if assert.True(t, ok, s) {
			assert.Equal(t, s, v.String(), "round trip")
		}
	}
	v, ok := ParseDateTime(" 2026-11-22T10:15:30.120Z ")
	assert.True(t, ok)
	assert.Equal(t, "2026-11-22T10:15:30.12Z", v.String(), "trailing zeros of the fraction are dropped")
	assert.Equal(t, time.UTC, v.Time.Location())
	// What XmlSerializer reads besides (asmx-typezoo/more soap11-EchoWhen-*): a date alone, and more
	// than seven fraction digits, rounded to .NET's 100 ns ticks, half up.
	for in, want := range map[string]string{
		"2026-01-02":                     "2026-01-02T00:00:00",
		"2026-01-02Z":                    "2026-01-02T00:00:00Z",
		"2026-01-02+02:00":               "2026-01-02T00:00:00+02:00",
		"2026-11-22T10:15:30.123456789Z": "2026-11-22T10:15:30.1234568Z",
		"2026-11-22T10:15:30.12345674Z":  "2026-11-22T10:15:30.1234567Z",
		"2026-11-22T10:15:30.12345675Z":  "2026-11-22T10:15:30.1234568Z",
		"2026-11-22T10:15:30.99999999Z":  "2026-11-22T10:15:31Z",
		"2026-12-31T23:59:59.99999999":   "2027-01-01T00:00:00",
	} {
		v, ok := ParseDateTime(in)
		if assert.True(t, ok, in) {
			assert.Equal(t, want, v.String(), in)
		}
	}
	for _, s := range []string{"2026-11-22 10:15:30", "not-a-date", "2026-13-01T00:00:00Z", "2026-11-22T10:15:30+1:00",
		"2026-11-22T10:15", "2026-11-22 10:15:30.250000+02:00", "9999-12-31T23:59:59.99999999Z", "2026-1-02", "", "2026-01-02T"} {
		_, ok := ParseDateTime(s)
		assert.False(t, ok, s)
	}
}
