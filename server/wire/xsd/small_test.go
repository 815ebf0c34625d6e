package xsd_test

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire/xsd"
)

// The cases name the asmx-typezoo/shapes capture (README §7, §11) they are taken from; cases without one
// are the XSD lexical rules XmlConvert applies to every integer type (../more: soap11-EchoInt-*).

func TestParseUnsigned(t *testing.T) {
	for _, tt := range []struct {
		name string
		in   string
		bits int
		want uint64
		ok   bool
	}{
		{"soap11-Unsigned-max b", "255", 8, 255, true},
		{"soap11-Unsigned-max us", "65535", 16, 65535, true},
		{"soap11-Unsigned-max ui", "4294967295", 32, 4294967295, true},
		{"soap11-Unsigned-max ul", "18446744073709551615", 64, 18446744073709551615, true},
		{"get-Unsigned-max ul", "18446744073709551615", 64, 18446744073709551615, true},
		{"soap11-Unsigned-b-overflow", "256", 8, 0, false},
		{"soap11-Unsigned-ul-overflow", "18446744073709551616", 64, 0, false},
		{"soap11-Unsigned-ui-negative", "-1", 32, 0, false},
		{"get-Unsigned-ui-negative", "-1", 32, 0, false},
		{"soap11-EchoChar-65536 (unsignedShort)", "65536", 16, 0, false},
		{"white space around", " \t42\n", 32, 42, true},
		{"plus sign", "+7", 16, 7, true},
		{"leading zeros", "000255", 8, 255, true},
		{"minus zero", "-0", 32, 0, true},
		{"minus zeros", "-000", 64, 0, true},
		{"two signs", "+-1", 32, 0, false},
		{"plus plus", "++1", 32, 0, false},
		{"sign alone", "+", 32, 0, false},
		{"empty", "", 32, 0, false},
		{"space only", "  ", 32, 0, false},
		{"inner space", "1 2", 32, 0, false},
		{"underscore", "1_000", 32, 0, false},
		{"hex", "0x10", 32, 0, false},
		{"fraction", "1.0", 32, 0, false},
		{"exponent", "1e3", 32, 0, false},
	} {
		got, ok := xsd.ParseUnsigned(tt.in, tt.bits)
		assert.Equal(t, tt.ok, ok, tt.name)
		assert.Equal(t, tt.want, got, tt.name)
	}
}

// TestParseByte: xsd:byte (C#'s sbyte) is ParseInt with 8 bits.
func TestParseByte(t *testing.T) {
	for _, tt := range []struct {
		name string
		in   string
		want int64
		ok   bool
	}{
		{"soap11-EchoSBytes -128", "-128", -128, true},
		{"soap11-EchoSBytes 127", "127", 127, true},
		{"soap11-Unsigned-max sb", "127", 127, true},
		{"soap11-EchoSBytes-overflow", "200", 0, false},
		{"below range", "-129", 0, false},
		{"plus and space", " +5 ", 5, true},
	} {
		got, ok := xsd.ParseInt(tt.in, 8)
		assert.Equal(t, tt.ok, ok, tt.name)
		assert.Equal(t, tt.want, got, tt.name)
	}
}

func TestAppendUint(t *testing.T) {
	// soap11-GetSmalls-max: <B>255</B><US>65535</US><UI>4294967295</UI><UL>18446744073709551615</UL>
	for _, n := range []uint64{0, 255, 65535, 4294967295, 18446744073709551615} {
		assert.Equal(t, strconv.FormatUint(n, 10), string(xsd.AppendUint([]byte(nil), n)))
	}
}

func TestUnsignedError(t *testing.T) {
	_, err := xsd.Unsigned("parameter ui", "unsignedInt", "-1", 32) // soap11-Unsigned-ui-negative
	require.Error(t, err)
	assert.Equal(t, fault.InvalidArgument, fault.As(err).Code)
	assert.Equal(t, `The parameter ui must be an xsd:unsignedInt; "-1" is not.`, fault.As(err).Message)
	n, err := xsd.Unsigned("parameter b", "unsignedByte", "255", 8)
	require.NoError(t, err)
	assert.Equal(t, uint64(255), n)
}

func TestParseChar(t *testing.T) {
	for _, tt := range []struct {
		name string
		in   string
		want xsd.Char
		ok   bool
	}{
		{"soap11-EchoChar-65", "65", 'A', true},
		{"soap12-EchoChar-65", "65", 'A', true},
		{"soap11-EchoChar-65535", "65535", 0xFFFF, true},
		{"soap11-EchoChar-letter", "A", 0, false},
		{"soap11-EchoChar-65536", "65536", 0, false},
		{"surrogate half", "55357", 0xD83D, true},
		{"white space", " 233 ", 233, true},
	} {
		got, ok := xsd.ParseChar(tt.in)
		assert.Equal(t, tt.ok, ok, tt.name)
		assert.Equal(t, tt.want, got, tt.name)
	}
	_, err := xsd.CharValue("parameter c", "A") // soap11-EchoChar-letter
	assert.Equal(t, fault.InvalidArgument, fault.As(err).Code)
}

func TestParseFormChar(t *testing.T) {
	for _, tt := range []struct {
		name string
		in   string
		want xsd.Char
		ok   bool
	}{
		{"get-EchoChar-letter", "A", 'A', true},
		{"post-EchoChar-letter", "A", 'A', true},
		{"get-EchoChar-65", "65", 0, false},
		{"get-EchoChar-two-letters", "AB", 0, false},
		{"empty", "", 0, false},
		{"a space is a character", " ", ' ', true},
		{"not trimmed", " A", 0, false},
		{"é, one unit", "é", 233, true},
		{"U+FFFF", "\uffff", 0xFFFF, true},
		{"outside the BMP: two units", "😀", 0, false},
		{"invalid UTF-8", "\xff", 0, false},
	} {
		got, ok := xsd.ParseFormChar(tt.in)
		assert.Equal(t, tt.ok, ok, tt.name)
		assert.Equal(t, tt.want, got, tt.name)
	}
}

func TestCharText(t *testing.T) {
	assert.Equal(t, "233", string(xsd.Char('é').AppendText(nil)))      // soap11-GetSmalls-min
	assert.Equal(t, "65535", string(xsd.Char(0xFFFF).AppendText(nil))) // README §7
	assert.Equal(t, "65", string(xsd.Char('A').AppendText(nil)))       // get-EchoChar-letter's result
	v, ok := xsd.Char('A').FormValue()
	assert.True(t, ok)
	assert.Equal(t, "A", v)
	_, ok = xsd.Char(0xD800).FormValue()
	assert.False(t, ok, "half a surrogate pair has no UTF-8 form")
}

// perm is Zoo3.cs's Perm: None = 0, Read = 1, Write = 2, Execute = 4.
var perm = []string{"None", "Read", "Write", "Execute"}

const (
	read    = 1
	write   = 2
	execute = 4
)

func TestParseFlags(t *testing.T) {
	for _, tt := range []struct {
		name string
		in   string
		want uint64
		ok   bool
	}{
		{"soap11-EchoPerm-read-write", "Read Write", read | write, true},
		{"soap12-EchoPerm-read-write", "Read Write", read | write, true},
		{"soap11-EchoPerm-duplicate", "Read Read", read, true},
		{"soap11-EchoPerm-none-and-read", "None Read", read, true},
		{"soap11-EchoTagged-perm-order", "  Write   Read ", read | write, true},
		{"soap11-EchoPerm-empty", "", 0, true},
		{"None alone", "None", 0, true},
		{"line breaks and tabs", "Read\n\tExecute", read | execute, true},
		{"soap11-EchoPerm-comma", "Read, Write", 0, false},
		{"soap11-EchoTagged-perm-comma", "Read,Write", 0, false},
		{"soap11-EchoPerm-numeric", "3", 0, false},
		{"soap11-EchoPerm-unknown", "Delete", 0, false},
		{"soap11-EchoTagged-access-bad", "Bogus", 0, false},
		{"case-sensitive", "read", 0, false},
		{"no-break space is no XML white space", "Read\u00a0Write", 0, false},
	} {
		got, ok := xsd.ParseFlags(tt.in, perm)
		assert.Equal(t, tt.ok, ok, tt.name)
		assert.Equal(t, tt.want, got, tt.name)
	}
	_, err := xsd.FlagsValue("parameter p", "Perm", "Delete", perm)
	assert.Equal(t, `The parameter p must be an xsd:Perm; "Delete" is not.`, fault.As(err).Message)
}

func TestParseFormFlags(t *testing.T) {
	for _, tt := range []struct {
		name string
		in   string
		want uint64
		ok   bool
	}{
		{"get-EchoPerm-comma", "Read, Write", read | write, true},
		{"post-EchoPerm-comma", "Read, Write", read | write, true},
		{"comma without space", "Read,Write", read | write, true},
		{"get-EchoPerm-read-write (deviation: accepted)", "Read Write", read | write, true},
		{"get-EchoPerm-empty (deviation: accepted)", "", 0, true},
		{"get-EchoPerm-numeric (deviation: refused)", "3", 0, false},
		{"empty item", "Read,,Write", 0, false},
		{"trailing comma", "Read,", 0, false},
		{"space list inside a comma list", "Read Write, Execute", 0, false},
		{"unknown", "Read, Delete", 0, false},
	} {
		got, ok := xsd.ParseFormFlags(tt.in, perm)
		assert.Equal(t, tt.ok, ok, tt.name)
		assert.Equal(t, tt.want, got, tt.name)
	}
}

func TestAppendFlags(t *testing.T) {
	for _, tt := range []struct {
		name    string
		members []string
		in      uint64
		want    string
		ok      bool
	}{
		{"soap11-GetTagged-0", perm, read | write, "Read Write", true},
		{"soap11-GetTagged-1", perm, 0, "None", true},
		{"soap11-GetTagged-2", perm, read | write | execute, "Read Write Execute", true},
		{"soap11-GetTagged-3", perm, 8, "", false},
		{"bits beyond mixed with members", perm, read | 16, "", false},
		{"no None member: zero is empty", []string{"A", "B"}, 0, "", true},
		{"no None member: first member is bit 0", []string{"A", "B"}, 3, "A B", true},
	} {
		got, ok := xsd.AppendFlags([]byte("x="), tt.in, tt.members)
		assert.Equal(t, tt.ok, ok, tt.name)
		assert.Equal(t, "x="+tt.want, string(got), tt.name)
	}
}

func TestFlagBit(t *testing.T) {
	bit, ok := xsd.FlagBit(perm, 3)
	assert.True(t, ok)
	assert.Equal(t, uint64(execute), bit)
	long := make([]string, 66)
	long[0] = "None"
	for i := 1; i < len(long); i++ {
		long[i] = "M" + strconv.Itoa(i)
	}
	bit, ok = xsd.FlagBit(long, 64)
	assert.True(t, ok)
	assert.Equal(t, uint64(1)<<63, bit)
	_, ok = xsd.FlagBit(long, 65)
	assert.False(t, ok, "a 65th member after None has no bit")
}

// FuzzParseUnsigned: an accepted value is written in plain digits that read back as itself, and is the
// number the input's digits say, within range; ParseChar agrees with the 16-bit form.
func FuzzParseUnsigned(f *testing.F) {
	for _, s := range []string{"255", "256", "-0", "+18446744073709551615", "18446744073709551616", " 007 ", "-1", "1_0"} {
		f.Add(s, uint8(8))
	}
	f.Fuzz(func(t *testing.T, s string, b uint8) {
		bits := []int{8, 16, 32, 64}[b%4]
		n, ok := xsd.ParseUnsigned(s, bits)
		c, cok := xsd.ParseChar(s)
		if bits == 16 {
			require.Equal(t, ok, cok)
			require.Equal(t, uint64(c), n)
		}
		if !ok {
			return
		}
		require.True(t, bits == 64 || n < 1<<bits, "%d fits %d bits", n, bits)
		text := xsd.AppendUint(nil, n)
		back, ok := xsd.ParseUnsigned(string(text), bits)
		require.True(t, ok)
		require.Equal(t, n, back)
		digits := strings.TrimLeft(strings.TrimLeft(strings.TrimSpace(s), "+-"), "0")
		require.Equal(t, strings.TrimLeft(string(text), "0"), digits, "the digits of %q", s)
	})
}

// FuzzParseFormChar: an accepted char is one character that FormValue gives back.
func FuzzParseFormChar(f *testing.F) {
	for _, s := range []string{"A", "65", "AB", "", "é", "😀", "\xed\xa0\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, ok := xsd.ParseFormChar(s)
		if !ok {
			return
		}
		require.Equal(t, 1, utf8.RuneCountInString(s))
		back, ok := xsd.Char(c).FormValue()
		require.True(t, ok)
		require.Equal(t, s, back)
	})
}

// FuzzParseFlags: a list accepted on SOAP is accepted on GET/POST with the same value; an accepted
// value is written as a list that reads back as itself on both.
func FuzzParseFlags(f *testing.F) {
	for _, s := range []string{"Read Write", "None Read", "", "Read, Write", "3", "  Write   Read ", "Read,,Write", "Delete"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := xsd.ParseFlags(s, perm)
		fv, fok := xsd.ParseFormFlags(s, perm)
		if ok && !strings.Contains(s, ",") {
			require.True(t, fok)
			require.Equal(t, v, fv)
		}
		for _, got := range []struct {
			v  uint64
			ok bool
		}{{v, ok}, {fv, fok}} {
			if !got.ok {
				continue
			}
			text, ok := xsd.AppendFlags(nil, got.v, perm)
			require.True(t, ok, "a value read is a combination of members")
			back, ok := xsd.ParseFlags(string(text), perm)
			require.True(t, ok)
			require.Equal(t, got.v, back)
			back, ok = xsd.ParseFormFlags(string(text), perm)
			require.True(t, ok)
			require.Equal(t, got.v, back)
		}
	})
}
