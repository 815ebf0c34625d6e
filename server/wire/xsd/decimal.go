package xsd

import (
	"math/big"
	"strings"
)

// Decimal is an xsd:decimal as .NET's System.Decimal holds it: a 96-bit integer and a scale of 0 to
// 28 fraction digits. It keeps the scale it was read with, as ASMX does: "1.10" is written back as
// 1.10, not 1.1, and "-0.0100" as -0.0100. The zero value is 0.
//
// A Decimal is held as its canonical lexical form (no '+', no redundant leading zeros, never an
// exponent), which is also what it is compared by: 1.10 and 1.1 are different Decimals, as they are
// different texts on the wire. Make one with ParseDecimal or MustParseDecimal.
type Decimal struct {
	text string // canonical form; "" means 0
}

// decimalMax is System.Decimal's largest mantissa, 2^96 - 1.
var decimalMax = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 96), big.NewInt(1))

// decimalMaxScale is System.Decimal's largest scale.
const decimalMaxScale = 28

// ParseDecimal reads an xsd:decimal as XmlConvert.ToDecimal does: surrounding white space, an
// optional sign, digits with at most one decimal point, at least one digit; no exponent, no
// thousands separators, no comma (XmlConvert refuses "12,5"). The scale is kept: "+1.50" reads as
// 1.50. A value with more digits than System.Decimal holds is rounded, half away from zero, to the
// largest scale (at most 28) at which its mantissa fits in 96 bits, as .NET rounds it:
// 0.12345678901234567890123456789012 reads as 0.1234567890123456789012345679 (asmx-typezoo/more:
// soap11-EchoAmount-many-digits), and 79228162514264337593543950335.00 as
// 79228162514264337593543950335. A value whose integer part alone does not fit is refused.
func ParseDecimal(s string) (Decimal, bool) {
	s = strings.TrimSpace(s)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	intPart, frac, _ := strings.Cut(s, ".")
	if intPart == "" && frac == "" || !allDigits(intPart) || !allDigits(frac) {
		return Decimal{}, false
	}
	intPart = strings.TrimLeft(intPart, "0")
	// Up to 28 digits always fit (10^28 - 1 < 2^96 - 1); only longer values need the big arithmetic.
	if len(intPart)+len(frac) > decimalMaxScale || len(frac) > decimalMaxScale {
		var ok bool
		if intPart, frac, ok = roundDecimal(intPart, frac); !ok {
			return Decimal{}, false
		}
	}
	if intPart == "" {
		intPart = "0"
	}
	if strings.Trim(intPart+frac, "0") == "" {
		// .NET Framework writes a decimal zero without a sign whatever its sign bit says; the scale
		// stays ("-0.000" is written 0.000).
		neg = false
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	b.WriteString(intPart)
	if frac != "" {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	text := b.String()
	if text == "0" {
		text = ""
	}
	return Decimal{text: text}, true
}

// roundDecimal drops the fewest fraction digits, rounding half away from zero, that leave at most
// 28 of them and a mantissa of at most 2^96 - 1. ok is false when no number of fraction digits does.
// It works on the digits as text, so a value with a million fraction digits costs a few small
// big.Int operations, not arithmetic on the whole value.
func roundDecimal(intPart, frac string) (string, string, bool) {
	if len(intPart) > len(decimalMaxText) {
		return "", "", false
	}
	digits := intPart + frac
	for drop := max(0, len(frac)-decimalMaxScale); drop <= len(frac); drop++ {
		kept := digits[:len(digits)-drop]
		q, ok := new(big.Int).SetString("0"+kept, 10)
		if !ok {
			return "", "", false
		}
		if drop > 0 && digits[len(kept)] >= '5' {
			q.Add(q, big.NewInt(1))
		}
		if q.Cmp(decimalMax) > 0 {
			continue
		}
		scale := len(frac) - drop
		text := q.String()
		if len(text) <= scale {
			text = strings.Repeat("0", scale-len(text)+1) + text
		}
		return strings.TrimLeft(text[:len(text)-scale], "0"), text[len(text)-scale:], true
	}
	return "", "", false
}

// decimalMaxText is 2^96 - 1 in digits: an integer part longer than it cannot fit.
var decimalMaxText = decimalMax.String()

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// MustParseDecimal is ParseDecimal for values known to be valid, such as constants; it panics on a
// bad one.
func MustParseDecimal(s string) Decimal {
	d, ok := ParseDecimal(s)
	if !ok {
		panic("wire: not an xsd:decimal System.Decimal can hold: " + s)
	}
	return d
}

// String returns the lexical form: plain notation with the value's scale, "0" for the zero value.
func (d Decimal) String() string {
	if d.text == "" {
		return "0"
	}
	return d.text
}

// AppendText appends the lexical form.
func (d Decimal) AppendText(b []byte) []byte {
	if d.text == "" {
		return append(b, '0')
	}
	return append(b, d.text...)
}

// rat returns the value as an exact rational number, for arithmetic.
func (d Decimal) rat() *big.Rat {
	r, _ := new(big.Rat).SetString(d.String())
	return r
}

// MarshalText and UnmarshalText make a Decimal an encoding.TextMarshaler, so code outside the
// generated codec (gowsdl's encoding/xml client, encoding/json, test fillers) reads and writes the
// lexical form too.
func (d Decimal) MarshalText() ([]byte, error) { return d.AppendText(nil), nil }

// UnmarshalText reads the lexical form with ParseDecimal's rules.
func (d *Decimal) UnmarshalText(text []byte) error {
	v, ok := ParseDecimal(string(text))
	if !ok {
		return BadValue("value", "decimal", string(text))
	}
	*d = v
	return nil
}
