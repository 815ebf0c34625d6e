package recordwire

import (
	"math"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/internal/jsontext"
	"github.com/contactsync/contactsync/server/wire/xsd"
)

// The record codec: the contract's record type (gen.Contact, named by the -record flags of the
// generate directive in gen/generate.go) as the store keeps it and the record formats carry it, one canonical JSON
// document per record. tools/gowsdlgen generates AppendRecord and DecodeRecord for the record type
// and every complex type reachable from it; this file is their runtime.
//
// The canonical form (docs/data.md):
//
//   - a complex type is an object whose keys are its elements in schema order, every element always
//     written; an ASMX array wrapper type (ArrayOfX) is a JSON array of its items;
//   - a nil pointer, a nil slice and a nil base64Binary are null (a null item for a nil item pointer);
//   - string and enumeration values are JSON strings (an enumeration's Go zero value is written as its
//     first member, as the XML codec writes it);
//   - int, long and short are JSON numbers; boolean is true or false;
//   - dateTime, decimal, guid and base64Binary are JSON strings holding the XSD lexical form the XML
//     codec writes (a dateTime keeps its offset and its fraction to .NET's 100 ns ticks);
//   - double and float are JSON numbers in Go's shortest round-trip form, except INF, -INF, NaN and
//     negative zero, written as the strings "INF", "-INF", "NaN" and "-0" (JSON has no number for the
//     first three, and PostgreSQL's jsonb keeps no negative zero).
//
// On read, keys may come in any order (jsonb reorders them) and numbers in any JSON spelling (1e2 for
// an int of 100); a missing key or a null for a value that cannot be nil gives the Go zero value, as
// the XML decoder gives it for a missing element. A nil and an empty slice inside an array wrapper
// are one value, written [] and read back as nil, as in XML, where both are an empty element.

// Record is implemented by the generated record type: its canonical document, and its key and
// indexed field as the store keeps them.
type Record interface {
	// AppendRecord appends the record's canonical JSON document.
	AppendRecord(b []byte) []byte
	// DecodeRecord reads a document (the whole value, from its '{') into the record, replacing
	// what it held.
	DecodeRecord(r *Reader) error
	// RecordKey is the lexical form of the record's key field.
	RecordKey() string
	// RecordIndex is the lexical form of the record's indexed field.
	RecordIndex() string
}

// Type describes the contract's record type: what transfer, the store's maintenance commands
// and the service need to know about it without naming its fields.
type Type struct {
	// Name is the XSD name of the record type ("Contact").
	Name string
	// Type is its type descriptor; Type.Fields are the top-level elements in schema order.
	Type *wire.Type
	// Key and Index name the key field and the indexed field (the -record-key and -record-index
	// flags).
	Key, Index string
	// Fields is the dotted path of every element, in schema order, nested ones included after their
	// parent ("Address", "Address.Street", "Address.Lines"); an element of the items of an array of
	// complex values is named through the array with "[]" ("Others[].Street").
	Fields []string
	// New returns an empty record.
	New func() Record
}

// Decode reads a document into a new record of the type, in the given mode.
func (t *Type) Decode(doc []byte, mode Mode) (Record, error) {
	v := t.New()
	if err := Decode(doc, mode, v); err != nil {
		return nil, err
	}
	return v, nil
}

// Mode says how a Reader reads: how it treats keys the record type does not have
// (Lenient or Strict), and whether the strings it reads may share the document's memory
// (Alias, or'ed in).
type Mode uint8

const (
	// Lenient skips unknown keys (and Reader.SawUnknown says so): the store's read path, where a
	// row holding fields of a newer or an older contract still reads; a writer carries them
	// (Type.CarryUnknown; docs/contract.md).
	Lenient Mode = 0
	// Strict refuses an unknown key with an error naming it and the known ones: import.
	Strict Mode = 1
	// Alias makes a string value without escapes share the document's memory instead of a
	// copy: no allocation at all. Use it only for a document nothing writes afterwards (one the
	// store has just handed over, as the service's read path does): the strings change with it.
	Alias Mode = 2
)

// recordMaxDepth bounds the nesting a Reader follows, so a hostile document cannot exhaust the
// stack through a recursive type or a skipped value.
const recordMaxDepth = 64

// Decode reads doc, one JSON document and nothing after it but white space, into v.
func Decode(doc []byte, mode Mode, v Record) error {
	var r Reader
	r.Reset(doc, mode)
	if err := v.DecodeRecord(&r); err != nil {
		return err
	}
	return r.End()
}

// Path puts the element name in front of the path of an Error (the generated decoders
// call it on the way out of an element); other errors are returned as they are.
func Path(name string, err error) error {
	if e, ok := err.(*Error); ok {
		switch {
		case e.Path == "":
			e.Path = name
		case e.Path[0] == '[':
			e.Path = name + e.Path
		default:
			e.Path = name + "." + e.Path
		}
	}
	return err
}

// Item puts an array index in front of the path of an Error.
func Item(i int, err error) error {
	if e, ok := err.(*Error); ok {
		idx := "[" + strconv.Itoa(i) + "]"
		if e.Path == "" || e.Path[0] == '[' {
			e.Path = idx + e.Path
		} else {
			e.Path = idx + "." + e.Path
		}
	}
	return err
}

// Error is an error reading a record document: what was wrong, and where in the record, as a
// path of element names and array indexes ("Address.Lines[2]"). The tokenizer makes the syntax
// errors, so it is its type.
type Error = jsontext.Error

// Reader reads a record document for the generated DecodeRecord methods: the value readers of the
// canonical form over the one JSON tokenizer (jsontext), whose structural methods (BeginObject, Key,
// BeginArray, More, ArrayLen, Null, Skip, RawValue, End) it takes as its own.
type Reader struct {
	jsontext.Decoder
	mode Mode
	// str is the document as a string, made on the first string value read: the strings read
	// without escapes are slices of it, so a document costs one string allocation, not one per value.
	str string
	// unknown is set when Lenient mode skipped a key the type does not have (SawUnknown).
	unknown bool
}

// NewReader returns a reader of doc in the given mode.
func NewReader(doc []byte, mode Mode) *Reader {
	r := new(Reader)
	r.Reset(doc, mode)
	return r
}

// Reset makes r read doc from its start in the given mode, keeping its scratch space.
func (r *Reader) Reset(doc []byte, mode Mode) {
	r.Decoder.Reset(doc, jsontext.Options{MaxDepth: recordMaxDepth})
	r.mode, r.str, r.unknown = mode, "", false
}

// Mode returns the reader's mode.
func (r *Reader) Mode() Mode { return r.mode }

// SawUnknown reports whether the reader skipped a key the type does not have (Lenient mode) since its
// last Reset: the document holds members a writer must carry over (Type.CarryUnknown).
func (r *Reader) SawUnknown() bool { return r.unknown }

func (r *Reader) errorf(msg string) error { return &Error{Msg: msg} }

// Unknown handles a key the type does not have: in Strict mode it is an error naming the key
// and the known ones; in Lenient mode its value is skipped.
func (r *Reader) Unknown(key []byte, known []string) error {
	if r.mode&Strict != 0 {
		return UnknownField(string(key), known)
	}
	r.unknown = true
	return r.Skip()
}

// UnknownField is the error for a field the record type does not have.
func UnknownField(name string, known []string) error {
	msg := "unknown field " + strconv.Quote(name) + "; the known fields are "
	for i, k := range known {
		if i > 0 {
			msg += ", "
		}
		msg += k
	}
	if len(known) == 0 {
		msg = "unknown field " + strconv.Quote(name) + "; the type has no fields"
	}
	return &Error{Msg: msg}
}

// Duplicate is the error for a key an object holds twice.
func (r *Reader) Duplicate(key []byte) error {
	return r.errorf("field " + strconv.Quote(string(key)) + " appears twice")
}

// text reads a string value (or null, as "") for the lexical-form readers.
func (r *Reader) text(want string) ([]byte, bool, error) {
	if d, p := r.Data(), r.Pos(); p < len(d) && d[p] == '"' { // the canonical form: no white space
		b, err := r.StringBytes()
		return b, true, err
	}
	switch r.Peek() {
	case '"':
		b, err := r.StringBytes()
		return b, true, err
	case 'n':
		if r.Null() {
			return nil, false, nil
		}
	}
	return nil, false, r.WrongType(want)
}

func (r *Reader) badValue(xsdType string, text []byte) error {
	return r.errorf("invalid " + xsdType + " value " + strconv.Quote(string(text)))
}

// String reads a string value; null reads as "". A string without escapes shares the memory of
// one copy of the document made for the reader's strings.
func (r *Reader) String() (string, error) {
	b, _, err := r.text("a string")
	if err != nil || len(b) == 0 {
		return "", err
	}
	data := r.Data()
	if end := r.Pos() - 1; end-len(b) >= 0 && end <= len(data) && &data[end-len(b)] == &b[0] {
		if r.mode&Alias != 0 {
			return unsafe.String(&b[0], len(b)), nil
		}
		if r.str == "" {
			r.str = string(data)
		}
		return r.str[end-len(b) : end], nil
	}
	return string(b), nil
}

// Int reads an int (bits 32), long (64) or short (16): a JSON number of any spelling whose value is
// an integer in range (1e2 and 100.0 read as 100); null reads as 0.
func (r *Reader) Int(xsdType string, bits int) (int64, error) {
	switch c := r.Peek(); {
	case c == 'n' && r.Null():
		return 0, nil
	case c != '-' && (c < '0' || c > '9'):
		return 0, r.WrongType("a number")
	}
	text, integer, err := r.Number()
	if err != nil {
		return 0, err
	}
	if integer && len(text) <= 18 {
		// At most 18 characters: at most 18 digits, which cannot overflow an int64.
		neg := text[0] == '-'
		digits := text
		if neg {
			digits = text[1:]
		}
		var n int64
		for _, c := range digits {
			n = n*10 + int64(c-'0')
		}
		if neg {
			n = -n
		}
		if bits < 64 && (n < -1<<(bits-1) || n > 1<<(bits-1)-1) {
			return 0, r.badValue(xsdType, text)
		}
		return n, nil
	}
	n, ok := parseIntegralNumber(string(text), bits)
	if !ok {
		return 0, r.badValue(xsdType, text)
	}
	return n, nil
}

// Unsigned reads an unsignedByte, unsignedShort, unsignedInt or unsignedLong (bits 8, 16, 32, 64),
// and ASMX's char (16): a JSON number of any spelling whose value is a non-negative integer in range,
// kept exact up to 18446744073709551615 (no float64 on the way); null reads as 0.
func (r *Reader) Unsigned(xsdType string, bits int) (uint64, error) {
	switch c := r.Peek(); {
	case c == 'n' && r.Null():
		return 0, nil
	case c != '-' && (c < '0' || c > '9'):
		return 0, r.WrongType("a number")
	}
	text, _, err := r.Number()
	if err != nil {
		return 0, err
	}
	neg, u, ok := integralMagnitude(string(text))
	if !ok || neg && u != 0 || bits < 64 && u >= 1<<bits {
		return 0, r.badValue(xsdType, text)
	}
	return u, nil
}

// Bool reads true or false; null reads as false.
func (r *Reader) Bool() (bool, error) {
	switch r.Peek() {
	case 't':
		return true, r.Literal("true")
	case 'f':
		return false, r.Literal("false")
	case 'n':
		if r.Null() {
			return false, nil
		}
	}
	return false, r.WrongType("a boolean")
}

// Double reads a double (bits 64) or float (32): a JSON number, or one of the strings "INF", "-INF",
// "NaN" and "-0"; null reads as 0. A number beyond the type's range is refused.
func (r *Reader) Double(xsdType string, bits int) (float64, error) {
	switch c := r.Peek(); {
	case c == 'n' && r.Null():
		return 0, nil
	case c == '"':
		b, err := r.StringBytes()
		if err != nil {
			return 0, err
		}
		switch string(b) {
		case "INF":
			return math.Inf(1), nil
		case "-INF":
			return math.Inf(-1), nil
		case "NaN":
			return math.NaN(), nil
		case "-0":
			return math.Copysign(0, -1), nil
		}
		return 0, r.badValue(xsdType, b)
	case c != '-' && (c < '0' || c > '9'):
		return 0, r.WrongType("a number")
	}
	text, _, err := r.Number()
	if err != nil {
		return 0, err
	}
	f, perr := strconv.ParseFloat(string(text), bits)
	if perr != nil {
		return 0, r.badValue(xsdType, text)
	}
	return f, nil
}

// DateTime reads a dateTime's lexical form (ParseDateTime); null reads as the zero value.
func (r *Reader) DateTime() (xsd.DateTime, error) {
	return readLexical(r, "dateTime", xsd.ParseDateTime)
}

// readLexical reads a JSON string holding the lexical form of the XSD type xsdType and parses it;
// null reads as T's zero value.
func readLexical[T any](r *Reader, xsdType string, parse func(string) (T, bool)) (T, error) {
	var zero T
	b, ok, err := r.text("a string")
	if err != nil || !ok {
		return zero, err
	}
	v, ok := parse(string(b))
	if !ok {
		return zero, r.badValue(xsdType, b)
	}
	return v, nil
}

// Decimal reads a decimal's lexical form (ParseDecimal) from a string, or from a number written
// without an exponent; null reads as 0.
func (r *Reader) Decimal() (xsd.Decimal, error) {
	if c := r.Peek(); c != '-' && (c < '0' || c > '9') {
		return readLexical(r, "decimal", xsd.ParseDecimal)
	}
	text, _, err := r.Number()
	if err != nil {
		return xsd.Decimal{}, err
	}
	v, ok := xsd.ParseDecimal(string(text))
	if !ok {
		return xsd.Decimal{}, r.badValue("decimal", text)
	}
	return v, nil
}

// GUID reads a guid's lexical form (ParseGUID); null reads as the zero GUID.
func (r *Reader) GUID() (xsd.GUID, error) {
	return readLexical(r, "guid", xsd.ParseGUID)
}

// Base64 reads a base64Binary's lexical form (ParseBase64); null reads as nil, "" as an empty
// slice.
func (r *Reader) Base64() ([]byte, error) {
	return readLexical(r, "base64Binary", xsd.ParseBase64)
}

// BadEnum is the error for a string that is not a member of the enumeration xsdType.
func (r *Reader) BadEnum(xsdType, text string) error {
	return r.errorf("invalid " + xsdType + " value " + strconv.Quote(text))
}

// parseIntegralNumber reads a JSON number in fraction or exponent form whose value is an integer
// that fits in bits (100.0, 1e2, 1.5e1).
func parseIntegralNumber(text string, bits int) (int64, bool) {
	neg, u, ok := integralMagnitude(text)
	if !ok {
		return 0, false
	}
	limit := uint64(1) << (bits - 1)
	switch {
	case neg && u <= limit:
		return -int64(u-1) - 1, true
	case !neg && u < limit:
		return int64(u), true
	}
	return 0, false
}

// integralMagnitude reads a JSON number in any form whose value is an integer of at most 64 bits of
// magnitude: its sign and magnitude.
func integralMagnitude(text string) (neg bool, u uint64, ok bool) {
	mant, exp := text, 0
	for i := 0; i < len(text); i++ {
		if text[i] == 'e' || text[i] == 'E' {
			mant = text[:i]
			e, err := strconv.Atoi(text[i+1:])
			if err != nil || e > 1000 || e < -1000 {
				return false, 0, false
			}
			exp = e
			break
		}
	}
	neg = mant[0] == '-'
	if neg {
		mant = mant[1:]
	}
	intPart, frac := mant, ""
	for i := 0; i < len(mant); i++ {
		if mant[i] == '.' {
			intPart, frac = mant[:i], mant[i+1:]
			break
		}
	}
	digits := intPart + frac
	exp -= len(frac)
	// digits × 10^exp: drop trailing zeros into the exponent, then require exp >= 0.
	for len(digits) > 1 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
		exp++
	}
	for len(digits) > 1 && digits[0] == '0' {
		digits = digits[1:]
	}
	if digits == "0" {
		return neg, 0, true
	}
	if exp < 0 || len(digits)+exp > 20 {
		return false, 0, false
	}
	for i := 0; i < len(digits)+exp; i++ {
		d := uint64(0)
		if i < len(digits) {
			d = uint64(digits[i] - '0')
		}
		if u > (math.MaxUint64-d)/10 {
			return false, 0, false
		}
		u = u*10 + d
	}
	return neg, u, true
}

// The writers of the canonical form, for the generated AppendRecord methods.

// AppendString appends s as a JSON string, escaping only what JSON requires (the quote, the
// backslash and control characters, as PostgreSQL's jsonb writes them back); invalid UTF-8 becomes
// U+FFFD (which no value read from XML holds).
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	last := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			ru, size := utf8.DecodeRuneInString(s[i:])
			if ru == utf8.RuneError && size == 1 {
				b = append(b, s[last:i]...)
				b = append(b, "\uFFFD"...)
				i++
				last = i
				continue
			}
			i += size
			continue
		}
		if c >= 0x20 && c != '"' && c != '\\' {
			i++
			continue
		}
		b = append(b, s[last:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigit(c>>4), hexDigit(c&0xF))
		}
		i++
		last = i
	}
	b = append(b, s[last:]...)
	return append(b, '"')
}

// AppendInt appends an int, long or short.
func AppendInt(b []byte, n int64) []byte { return strconv.AppendInt(b, n, 10) }

// AppendUint appends an unsigned value (and a char's code unit) as a JSON number.
func AppendUint(b []byte, n uint64) []byte { return strconv.AppendUint(b, n, 10) }

// AppendBool appends true or false.
func AppendBool(b []byte, v bool) []byte { return strconv.AppendBool(b, v) }

// AppendDouble appends a double in Go's shortest round-trip form, or the string "INF",
// "-INF", "NaN" or "-0".
func AppendDouble(b []byte, f float64) []byte { return appendRecordFloat(b, f, 64) }

// AppendFloat appends a float as AppendDouble does.
func AppendFloat(b []byte, f float32) []byte { return appendRecordFloat(b, float64(f), 32) }

func appendRecordFloat(b []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(b, `"INF"`...)
	case math.IsInf(f, -1):
		return append(b, `"-INF"`...)
	case f == 0 && math.Signbit(f):
		return append(b, `"-0"`...)
	}
	return strconv.AppendFloat(b, f, 'g', -1, bits)
}

// AppendDateTime appends a dateTime's lexical form as a JSON string.
func AppendDateTime(b []byte, v xsd.DateTime) []byte {
	b = append(b, '"')
	b = v.AppendText(b)
	return append(b, '"')
}

// AppendDecimal appends a decimal's lexical form (its scale kept) as a JSON string.
func AppendDecimal(b []byte, d xsd.Decimal) []byte {
	b = append(b, '"')
	b = d.AppendText(b)
	return append(b, '"')
}

// AppendGUID appends a guid's lexical form as a JSON string.
func AppendGUID(b []byte, g xsd.GUID) []byte {
	b = append(b, '"')
	b = g.AppendText(b)
	return append(b, '"')
}

// AppendBase64 appends a base64Binary's lexical form as a JSON string, null for nil.
func AppendBase64(b []byte, v []byte) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = xsd.AppendBase64(b, v)
	return append(b, '"')
}

// EachString calls fn with the path ("Address.Lines[2]") and the value of every JSON string of
// doc, keys excluded, in document order, and checks that doc is one JSON value. It lets code that
// knows no field of the record check all its text (the service checks an imported record's text is
// what XML can carry).
func EachString(doc []byte, fn func(path, s string) error) error {
	r := NewReader(doc, Lenient)
	if err := r.eachString("", fn); err != nil {
		return err
	}
	return r.End()
}

func (r *Reader) eachString(path string, fn func(path, s string) error) error {
	switch r.Peek() {
	case '{':
		if err := r.BeginObject(); err != nil {
			return err
		}
		for {
			key, ok, err := r.Key()
			if err != nil || !ok {
				return err
			}
			p := string(key)
			if path != "" {
				p = path + "." + p
			}
			if err := r.eachString(p, fn); err != nil {
				return err
			}
		}
	case '[':
		if err := r.BeginArray(); err != nil {
			return err
		}
		for i := 0; ; i++ {
			more, err := r.More()
			if err != nil || !more {
				return err
			}
			if err := r.eachString(path+"["+strconv.Itoa(i)+"]", fn); err != nil {
				return err
			}
		}
	case '"':
		b, err := r.StringBytes()
		if err != nil {
			return err
		}
		return fn(path, string(b))
	}
	return r.Skip()
}

func hexDigit(c byte) byte { return "0123456789abcdef"[c] }
