package xsd

import (
	"encoding/base64"
	"math"
	"strconv"
	"strings"
	"time"
)

// The lexical forms of the XSD simple types, as ASMX (XmlSerializer and XmlConvert) writes and reads
// them; ../shared/reference/asmx-typezoo holds the captures each rule is taken from.

// AppendDouble appends f as .NET Framework's "R" format writes an xsd:double: 15 significant
// digits when they round-trip, 17 otherwise; fixed notation for decimal exponents from -5 to 14
// (16 with 17 digits), else E notation with a sign and at least two exponent digits (1E+21, 1E-07);
// NaN, INF, -INF and -0 for the special values. Go's shortest form (strconv 'g', -1) differs, e.g.
// 0.33333333333333331 is written by .NET where Go writes 0.3333333333333333.
func AppendDouble(b []byte, f float64) []byte {
	return appendRoundTrip(b, f, 64, 15, 17)
}

// AppendFloat appends f as .NET Framework's "R" format writes an xsd:float: 7 significant digits
// when they round-trip, 9 otherwise, with the rules of AppendDouble.
func AppendFloat(b []byte, f float32) []byte {
	return appendRoundTrip(b, float64(f), 32, 7, 9)
}

func appendRoundTrip(b []byte, f float64, bits, short, long int) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "NaN"...)
	case math.IsInf(f, 1):
		return append(b, "INF"...)
	case math.IsInf(f, -1):
		return append(b, "-INF"...)
	case f == 0:
		if math.Signbit(f) {
			return append(b, "-0"...)
		}
		return append(b, '0')
	}
	var scratch [32]byte
	precision := short
	e := strconv.AppendFloat(scratch[:0], f, 'e', short-1, bits)
	if back, err := strconv.ParseFloat(string(e), bits); err != nil || back != f {
		precision = long
		e = strconv.AppendFloat(scratch[:0], f, 'e', long-1, bits)
	}
	return appendGeneral(b, e, precision)
}

// appendGeneral turns Go's 'e' form (-d.ddde±dd) into .NET's "G<precision>" form: trailing zeros of
// the mantissa dropped, fixed notation when -5 <= exponent < precision.
func appendGeneral(b []byte, e []byte, precision int) []byte {
	s := string(e)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, expText, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expText)
	digits := strings.Replace(mant, ".", "", 1)
	digits = strings.TrimRight(digits, "0")
	if digits == "" {
		digits = "0"
	}
	if neg {
		b = append(b, '-')
	}
	if exp >= -5 && exp < precision {
		switch {
		case exp < 0:
			b = append(b, "0."...)
			for i := 0; i < -exp-1; i++ {
				b = append(b, '0')
			}
			return append(b, digits...)
		case len(digits) <= exp+1:
			b = append(b, digits...)
			for i := len(digits); i <= exp; i++ {
				b = append(b, '0')
			}
			return b
		default:
			b = append(b, digits[:exp+1]...)
			b = append(b, '.')
			return append(b, digits[exp+1:]...)
		}
	}
	b = append(b, digits[0])
	if len(digits) > 1 {
		b = append(b, '.')
		b = append(b, digits[1:]...)
	}
	b = append(b, 'E')
	if exp < 0 {
		b = append(b, '-')
		exp = -exp
	} else {
		b = append(b, '+')
	}
	if exp < 10 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, int64(exp), 10)
}

// ParseDouble reads an xsd:double as XmlConvert does: surrounding white space allowed, INF, -INF and
// NaN for the special values (case-sensitive), decimal or E notation. Infinity and -Infinity, .NET's
// invariant names of the infinities, are read too, as XmlConvert.ToDouble (which falls back to
// Double.Parse) and ASMX's URL reader read them (asmx-typezoo/more: soap11-EchoRatio-Infinity,
// get-EchoRatio-Infinity): they are what .NET's own HTTP GET/POST client sends for an infinity.
func ParseDouble(s string, bits int) (float64, bool) {
	s = strings.TrimSpace(s)
	switch s {
	case "INF", "+INF", "Infinity":
		return math.Inf(1), true
	case "-INF", "-Infinity":
		return math.Inf(-1), true
	case "NaN":
		return math.NaN(), true
	case "":
		return 0, false
	}
	for i := 0; i < len(s); i++ { // refuse Go-only forms: hex floats, underscores, "Inf", "infinity"
		c := s[i]
		if !(c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(s, bits)
	if err != nil {
		return 0, false
	}
	return f, true
}

// ParseInt reads an xsd:int, long, short or byte (bits 32, 64, 16, 8; xsd:byte is C#'s sbyte):
// optional surrounding white space and sign, decimal digits only, as XmlConvert accepts " 42 ", "+5"
// and "-0"; out of range is refused (soap11-EchoSBytes-overflow: 200 is no xsd:byte).
func ParseInt(s string, bits int) (int64, bool) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "+") {
		s = s[1:]
		if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, bits)
	if err != nil || strings.Contains(s, "_") {
		return 0, false
	}
	return n, true
}

// ParseBool reads an xsd:boolean: true, false, 1 or 0, surrounding white space allowed, case-sensitive
// (XML Schema Part 2 §3.2.2; XmlConvert refuses "True").
func ParseBool(s string) (bool, bool) {
	switch strings.TrimSpace(s) {
	case "true", "1":
		return true, true
	case "false", "0":
		return false, true
	}
	return false, false
}

// ParseBase64 reads an xsd:base64Binary: the standard alphabet, padding required, white space (line
// breaks included) ignored.
func ParseBase64(s string) ([]byte, bool) {
	s = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, s)
	v, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, false
	}
	if v == nil {
		v = []byte{}
	}
	return v, true
}

// DateTime is an xsd:dateTime that keeps what the lexical form said about its zone, which time.Time
// alone cannot: a value written without a zone ("Unspecified" in .NET) is read and written back
// without one. Time's location is UTC for a Z suffix and a fixed zone for an offset.
//
// Unlike ASMX, which converts a value with an offset to the server's local time, the service keeps
// the offset the client sent (docs/contract.md).
type DateTime struct {
	Time time.Time
	// NoZone marks a value without a zone suffix; Time's location is then UTC and meaningless.
	NoZone bool
}

// AppendText appends the value as XmlSerializer writes an xsd:dateTime: up to seven fraction digits
// (.NET's 100 ns ticks) with trailing zeros dropped and no dot when the fraction is zero, then Z for
// UTC, +hh:mm / -hh:mm for an offset, nothing for NoZone.
func (v DateTime) AppendText(b []byte) []byte {
	t := v.Time
	b = t.AppendFormat(b, "2006-01-02T15:04:05")
	if frac := t.Nanosecond() / 100; frac != 0 {
		var digits [7]byte
		for i := 6; i >= 0; i-- {
			digits[i] = byte('0' + frac%10)
			frac /= 10
		}
		n := 7
		for n > 0 && digits[n-1] == '0' {
			n--
		}
		b = append(b, '.')
		b = append(b, digits[:n]...)
	}
	switch {
	case v.NoZone:
		return b
	case t.Location() == time.UTC:
		return append(b, 'Z')
	default:
		return t.AppendFormat(b, "-07:00")
	}
}

// String returns the lexical form.
func (v DateTime) String() string { return string(v.AppendText(nil)) }

// ParseDateTime reads an xsd:dateTime as XmlSerializer does (XmlConvert's AllXsd forms that clients
// send): yyyy-mm-ddThh:mm:ss, an optional fraction, and an optional zone (Z or ±hh:mm); or a date
// alone, yyyy-mm-dd with an optional zone, which is midnight of that date. Surrounding white space is
// allowed. A fraction beyond .NET's seven digits (100 ns ticks) is rounded to seven, half up, as ASMX
// rounds it: .123456789 is read as .1234568, and .99999999 as the next second (asmx-typezoo/more:
// soap11-EchoWhen-frac9, -frac8-rounds-up, -date-only).
func ParseDateTime(s string) (DateTime, bool) {
	if v, ok := parseDateTimeCommon(s); ok {
		return v, true
	}
	return parseDateTimeSlow(s)
}

// parseDateTimeSlow is ParseDateTime's general reader, on time.Parse.
func parseDateTimeSlow(s string) (DateTime, bool) {
	s = strings.TrimSpace(s)
	if len(s) < 10 {
		return DateTime{}, false
	}
	dateOnly := len(s) == 10 || s[10] != 'T'
	if !dateOnly && len(s) < 19 {
		return DateTime{}, false
	}
	zone := ""
	switch {
	case strings.HasSuffix(s, "Z"):
		zone, s = "Z", s[:len(s)-1]
	case len(s) >= 16 && (s[len(s)-6] == '+' || s[len(s)-6] == '-') && s[len(s)-3] == ':':
		zone, s = s[len(s)-6:], s[:len(s)-6]
	}
	layout := "2006-01-02T15:04:05.999999999"
	if dateOnly {
		layout = "2006-01-02"
	}
	t, err := time.Parse(layout, s)
	if err != nil {
		return DateTime{}, false
	}
	switch {
	case zone == "":
		return roundTicks(DateTime{Time: t, NoZone: true})
	case zone == "Z":
		return roundTicks(DateTime{Time: t})
	}
	offset, err := time.Parse("-07:00", zone)
	if err != nil {
		return DateTime{}, false
	}
	_, secs := offset.Zone()
	return roundTicks(DateTime{Time: time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.FixedZone("", secs))})
}

// The HTTP GET and POST bindings read parameters with ASMX's URL reader (ScalarFormatter.FromString:
// Convert.ChangeType with the invariant culture), which takes what .NET's invariant Parse methods take
// rather than XmlConvert's XSD forms. The readers below accept, on those bindings only, the forms of
// that reader that real clients send, with the value ASMX gives them, on top of the XSD forms
// (asmx-typezoo/more, README §2 and §6; docs/xsd-types.md lists the differences that remain).

// ParseFormBool reads a boolean parameter: the xsd:boolean forms (true, false, 1, 0), and true or
// false in any case, as Boolean.Parse reads them: .NET's own HTTP GET/POST client sends True and False
// (Convert.ToString of a bool). Surrounding white space is allowed.
func ParseFormBool(s string) (bool, bool) {
	if b, ok := ParseBool(s); ok {
		return b, true
	}
	switch s = strings.TrimSpace(s); {
	case strings.EqualFold(s, "true"):
		return true, true
	case strings.EqualFold(s, "false"):
		return false, true
	}
	return false, false
}

// ParseFormDateTime reads a dateTime parameter: the xsd:dateTime forms of ParseDateTime, and
//
//   - a space instead of the T, and minutes without seconds: 2026-11-22 10:15:30.250000+02:00 is
//     Python's str() of a datetime, which zeep sends over HTTP GET/POST; 2026-11-22T10:15 is read as
//     10:15:00;
//   - .NET's invariant culture form, M/d/yyyy with an optional H:mm[:ss[.fffffff]]: 11/22/2026
//     10:15:30 is what .NET's own HTTP GET/POST client sends (Convert.ToString of a DateTime);
//   - RFC 1123 in GMT, Sun, 22 Nov 2026 10:15:30 GMT (HTTP dates), read as UTC.
//
// A value without a zone is read without one (NoZone), as ASMX reads it (Unspecified). Where ASMX
// makes every zoned value local time, the zone stays as sent, the same instant (docs/xsd-types.md).
// Anything else DateTime.Parse would guess at (day-first dates, month names, a space where the '+' of
// an offset was, as an unencoded '+' decodes) is refused.
func ParseFormDateTime(s string) (DateTime, bool) {
	if v, ok := ParseDateTime(s); ok {
		return v, true
	}
	s = strings.TrimSpace(s)
	switch {
	case len(s) >= 16 && s[4] == '-' && s[7] == '-' && (s[10] == ' ' || s[10] == 'T') && s[13] == ':':
		iso, rest := s[:10]+"T"+s[11:16], s[16:]
		if !strings.HasPrefix(rest, ":") { // hh:mm without seconds, then the zone if any
			iso += ":00"
		}
		return ParseDateTime(iso + rest)
	case strings.HasSuffix(s, " GMT"):
		t, err := time.Parse("Mon, 02 Jan 2006 15:04:05", strings.TrimSuffix(s, " GMT"))
		if err != nil {
			return DateTime{}, false
		}
		return DateTime{Time: t}, true
	case strings.Count(s, "/") == 2:
		for _, layout := range invariantDateLayouts {
			if t, err := time.Parse(layout, s); err == nil {
				return roundTicks(DateTime{Time: t, NoZone: true})
			}
		}
	}
	return DateTime{}, false
}

// invariantDateLayouts are .NET's invariant culture date and time forms (a fraction after the
// seconds is read by time.Parse without being in the layout).
var invariantDateLayouts = []string{"1/2/2006", "1/2/2006 15:04", "1/2/2006 15:04:05"}

// roundTicks rounds v to .NET's 100 ns ticks, half up; ok is false past DateTime.MaxValue.
func roundTicks(v DateTime) (DateTime, bool) {
	if rest := v.Time.Nanosecond() % 100; rest != 0 {
		if rest >= 50 {
			v.Time = v.Time.Add(time.Duration(100 - rest))
		} else {
			v.Time = v.Time.Add(-time.Duration(rest))
		}
	}
	return v, v.Time.Year() <= 9999
}

// parseDateTimeCommon reads, without time.Parse, the form nearly every dateTime has (the one the
// service and ASMX write): yyyy-mm-ddThh:mm:ss, a fraction of one to seven digits, and no zone, Z or
// ±hh:mm, in range. ok is false for anything else, which ParseDateTime then reads the general way;
// for what it reads, it gives exactly ParseDateTime's value (FuzzParseDateTimeCommon holds it to that).
func parseDateTimeCommon(s string) (DateTime, bool) {
	n := len(s)
	if n < 19 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return DateTime{}, false
	}
	num := func(i, w int) (int, bool) {
		v := 0
		for _, c := range []byte(s[i : i+w]) {
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int(c-'0')
		}
		return v, true
	}
	year, ok1 := num(0, 4)
	month, ok2 := num(5, 2)
	day, ok3 := num(8, 2)
	hour, ok4 := num(11, 2)
	minute, ok5 := num(14, 2)
	sec, ok6 := num(17, 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || year < 1 || month < 1 || month > 12 || day < 1 ||
		day > daysIn(time.Month(month), year) || hour > 23 || minute > 59 || sec > 59 {
		return DateTime{}, false
	}
	i, nsec := 19, 0
	if i < n && s[i] == '.' {
		j := i + 1
		for j < n && j-i-1 < 7 && s[j] >= '0' && s[j] <= '9' {
			nsec = nsec*10 + int(s[j]-'0')
			j++
		}
		digits := j - i - 1
		if digits == 0 || j < n && s[j] >= '0' && s[j] <= '9' {
			return DateTime{}, false // no digit, or more than seven: rounded by the general reader
		}
		for range 9 - digits {
			nsec *= 10
		}
		i = j
	}
	switch {
	case i == n:
		return DateTime{Time: time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.UTC), NoZone: true}, true
	case i+1 == n && s[i] == 'Z':
		return DateTime{Time: time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.UTC)}, true
	case i+6 == n && (s[i] == '+' || s[i] == '-') && s[i+3] == ':':
		oh, ok1 := num(i+1, 2)
		om, ok2 := num(i+4, 2)
		if !ok1 || !ok2 || oh > 14 || om > 59 {
			return DateTime{}, false
		}
		offset := oh*3600 + om*60
		if s[i] == '-' {
			offset = -offset
		}
		return DateTime{Time: time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.FixedZone("", offset))}, true
	}
	return DateTime{}, false
}

// daysIn is the number of days of month in year (proleptic Gregorian, as time counts them).
func daysIn(month time.Month, year int) int {
	if month == time.February {
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	}
	return 30 + int((month+month/8)%2)
}

// AppendInt, AppendBool and AppendBase64 append a simple value's text.
func AppendInt(b []byte, n int64) []byte { return strconv.AppendInt(b, n, 10) }

// AppendBool appends true or false.
func AppendBool(b []byte, v bool) []byte { return strconv.AppendBool(b, v) }

// AppendBase64 appends v in base64 (standard alphabet, padded, no line breaks).
func AppendBase64(b []byte, v []byte) []byte { return base64.StdEncoding.AppendEncode(b, v) }
