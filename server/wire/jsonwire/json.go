package jsonwire

import (
	"math"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire/internal/jsontext"
	"github.com/contactsync/contactsync/server/wire/xsd"
)

// The JSON forms of the ASP.NET AJAX endpoint (ScriptService), as JavaScriptSerializer writes and reads
// them where it defines them: strings, numbers and booleans as JSON's own; a dateTime as "\/Date(ms)\/"
// (milliseconds since the Unix epoch, UTC); nil as null; an array (ArrayOfX) as a JSON array. Where it
// defines nothing or something JSON cannot carry, docs/bindings.md lists what the service chose: base64Binary is
// a base64 string, an enumeration its member name, NaN and the infinities the strings "NaN",
// "Infinity" and "-Infinity", and a long beyond 2^53 an exact JSON number (JavaScript clients lose
// precision there, as they do with ASP.NET).

// AppendString appends s as a JSON string. <, > and & are escaped as \u003c, \u003e and \u0026 so
// the response is safe to embed in HTML, as ASP.NET's serializer does; invalid UTF-8 becomes U+FFFD.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20 || c == '<' || c == '>' || c == '&' || c == '\'':
				b = append(b, '\\', 'u', '0', '0', hexDigit(c>>4), hexDigit(c&0xF))
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, width := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && width == 1:
			b = append(b, "\uFFFD"...)
		case r == '\u2028' || r == '\u2029':
			// Valid JSON, but line terminators in JavaScript source: escaped as encoding/json does.
			b = append(b, '\\', 'u', '2', '0', '2', hexDigit(byte(r&0xF)))
		default:
			b = append(b, s[i:i+width]...)
		}
		i += width
	}
	return append(b, '"')
}

func hexDigit(c byte) byte { return "0123456789abcdef"[c] }

// AppendDouble appends f as a JSON number in .NET's round-trip form; NaN and the infinities, which
// JSON cannot carry as numbers, as the strings "NaN", "Infinity" and "-Infinity".
func AppendDouble(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(b, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(b, `"-Infinity"`...)
	}
	return xsd.AppendDouble(b, f)
}

// AppendFloat is AppendDouble for xsd:float.
func AppendFloat(b []byte, f float32) []byte {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return AppendDouble(b, float64(f))
	}
	return xsd.AppendFloat(b, f)
}

// AppendDateTime appends v as JavaScriptSerializer's "\/Date(ms)\/": the instant in milliseconds
// since the Unix epoch. A value without a zone is taken as UTC; sub-millisecond digits are dropped.
func AppendDateTime(b []byte, v xsd.DateTime) []byte {
	b = append(b, `"\/Date(`...)
	b = strconv.AppendInt(b, v.Time.UnixMilli(), 10)
	return append(b, `)\/"`...)
}

// AppendBase64 appends v as a base64 string (standard alphabet, padded), null for nil.
func AppendBase64(b []byte, v []byte) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = xsd.AppendBase64(b, v)
	return append(b, '"')
}

// Reader reads a JSON request body for the generated decoders, with the same depth limit as XML,
// over the wire runtime's one JSON tokenizer (jsontext) in encoding/json's reading: invalid UTF-8 in
// a string reads as U+FFFD, and numbers are kept as text, so a huge number is refused by the
// parameter's type rather than rounded.
type Reader struct {
	d        jsontext.Decoder
	maxDepth int
}

// NewReader returns a reader of body, refusing nesting deeper than maxDepth.
func NewReader(body []byte, maxDepth int) *Reader {
	r := &Reader{maxDepth: maxDepth}
	r.d.Reset(body, jsontext.Options{MaxDepth: maxDepth, ReplaceInvalidUTF8: true})
	return r
}

// malformed words the tokenizer's last error as the endpoint's fault: the depth limit, a body that
// ended too soon, or a syntax error and where it is.
func (r *Reader) malformed() error {
	offset, detail, deep := r.d.LastSyntax()
	switch {
	case deep:
		return fault.Errorf(fault.TooLarge, "The JSON is nested deeper than %d levels.", r.maxDepth)
	case offset >= len(r.d.Data()) || r.d.Pos() >= len(r.d.Data()):
		return fault.Errorf(fault.MalformedRequest, "The request body ended before the JSON value was complete.")
	}
	return fault.Errorf(fault.MalformedRequest, "The request is not valid JSON: %s (at byte %d).", detail, offset+1)
}

// Token is the first token of a JSON value: a scalar value whole, or the '{' or '[' that opens an
// object or an array (whose content the caller reads).
type Token struct {
	// kind is the token's first byte: '"' a string, '0' a number, 't' true, 'f' false, 'n' null,
	// '{' or '['.
	kind byte
	// text is a string's value or a number's text.
	text string
}

// IsNull reports whether the token is null.
func (t Token) IsNull() bool { return t.kind == 'n' }

// Opens reports whether the token opens an object (delim '{') or an array ('[').
func (t Token) Opens(delim byte) bool { return t.kind == delim }

// Token reads the next value's token.
func (r *Reader) Token() (Token, error) {
	c := r.d.Peek()
	switch {
	case c == '{' || c == '[':
		var err error
		if c == '{' {
			err = r.d.BeginObject()
		} else {
			err = r.d.BeginArray()
		}
		if err != nil {
			return Token{}, r.malformed()
		}
		return Token{kind: c}, nil
	case c == '"':
		b, err := r.d.StringBytes()
		if err != nil {
			return Token{}, r.malformed()
		}
		return Token{kind: '"', text: string(b)}, nil
	case c == 't' || c == 'f' || c == 'n':
		word := "null"
		switch c {
		case 't':
			word = "true"
		case 'f':
			word = "false"
		}
		if err := r.d.Literal(word); err != nil {
			return Token{}, r.malformed()
		}
		return Token{kind: c}, nil
	case c == '-' || c >= '0' && c <= '9':
		text, _, err := r.d.Number()
		if err != nil {
			return Token{}, r.malformed()
		}
		return Token{kind: '0', text: string(text)}, nil
	}
	if r.d.Pos() >= len(r.d.Data()) {
		return Token{}, fault.Errorf(fault.MalformedRequest, "The request body ended before the JSON value was complete.")
	}
	return Token{}, fault.Errorf(fault.MalformedRequest, "The request is not valid JSON: invalid character %q looking for beginning of value (at byte %d).",
		rune(c), r.d.Pos()+1)
}

// Object reads the start of the request body, which must be a JSON object; an empty body counts as {}.
func (r *Reader) Object() (empty bool, err error) {
	c := r.d.Peek()
	switch {
	case r.d.Pos() >= len(r.d.Data()):
		return true, nil
	case c == '{':
		if r.d.BeginObject() != nil {
			return false, r.malformed()
		}
		return false, nil
	}
	// Another value is read whole first, so that a body that is not JSON at all says so.
	if _, err := r.Token(); err != nil {
		return false, err
	}
	return false, fault.Errorf(fault.MalformedRequest, "The request body must be a JSON object holding the parameters by name.")
}

// Key returns the next key of the object being read, or ok false at its end ('}' consumed).
func (r *Reader) Key() (key string, ok bool, err error) {
	k, ok, err := r.d.Key()
	if err != nil {
		return "", false, r.malformed()
	}
	return string(k), ok, nil
}

// More reports whether the array being read has another item; at its end the ']' is consumed.
func (r *Reader) More() (bool, error) {
	more, err := r.d.More()
	if err != nil {
		return false, r.malformed()
	}
	return more, nil
}

// Skip consumes a value whose first token was tok (for keys the decoder ignores).
func (r *Reader) Skip(tok Token) error {
	switch tok.kind {
	case '{':
		for {
			_, ok, err := r.d.Key()
			if err != nil {
				return r.malformed()
			}
			if !ok {
				return nil
			}
			if r.d.Skip() != nil {
				return r.malformed()
			}
		}
	case '[':
		for {
			more, err := r.d.More()
			if err != nil {
				return r.malformed()
			}
			if !more {
				return nil
			}
			if r.d.Skip() != nil {
				return r.malformed()
			}
		}
	}
	return nil
}

// SkipObject consumes the rest of an object whose '{' was read.
func (r *Reader) SkipObject() error { return r.Skip(Token{kind: '{'}) }

// End checks that nothing but white space follows the body's value.
func (r *Reader) End() error {
	if r.d.End() != nil {
		return fault.Errorf(fault.MalformedRequest, "Unexpected content after the JSON object.")
	}
	return nil
}

// jsonType names a token's JSON type for errors.
func jsonType(tok Token) string {
	switch tok.kind {
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	case '[':
		return "an array"
	case '{':
		return "an object"
	}
	return "a value"
}

// WrongType reports a value of the wrong JSON type.
func WrongType(what, want string, tok Token) error {
	return fault.Errorf(fault.InvalidArgument, "The %s must be %s, not %s.", what, want, jsonType(tok))
}

// String reads a string value; null reads as "" (a null string).
func String(tok Token, what string) (string, error) {
	switch tok.kind {
	case '"':
		return tok.text, nil
	case 'n':
		return "", nil
	}
	return "", WrongType(what, "a string", tok)
}

// Int reads an integer of the XSD type xsdType and size bits.
func Int(tok Token, what, xsdType string, bits int) (int64, error) {
	if tok.kind != '0' {
		return 0, WrongType(what, "a number", tok)
	}
	v, err := strconv.ParseInt(tok.text, 10, bits)
	if err != nil {
		return 0, xsd.BadValue(what, xsdType, tok.text)
	}
	return v, nil
}

// Bool reads a boolean.
func Bool(tok Token, what string) (bool, error) {
	if tok.kind != 't' && tok.kind != 'f' {
		return false, WrongType(what, "true or false", tok)
	}
	return tok.kind == 't', nil
}

// Double reads a number (bits 64 for xsd:double, 32 for xsd:float), or one of the strings "NaN",
// "Infinity", "-Infinity".
func Double(tok Token, what, xsdType string, bits int) (float64, error) {
	switch tok.kind {
	case '0':
		f, err := strconv.ParseFloat(tok.text, bits)
		if err != nil {
			return 0, xsd.BadValue(what, xsdType, tok.text)
		}
		return f, nil
	case '"':
		switch tok.text {
		case "NaN":
			return math.NaN(), nil
		case "Infinity":
			return math.Inf(1), nil
		case "-Infinity":
			return math.Inf(-1), nil
		}
	}
	return 0, WrongType(what, "a number", tok)
}

// DateTime reads "\/Date(ms)\/" (the JSON text's "\/" is "/" once read), as JavaScriptSerializer
// writes it, or an xsd:dateTime string.
func DateTime(tok Token, what string) (xsd.DateTime, error) {
	if tok.kind != '"' {
		return xsd.DateTime{}, WrongType(what, `a "\/Date(ms)\/" string`, tok)
	}
	s := tok.text
	if inner, found := cutAround(s, "/Date(", ")/"); found {
		ms, err := strconv.ParseInt(inner, 10, 64)
		if err == nil {
			return xsd.DateTime{Time: time.UnixMilli(ms).UTC()}, nil
		}
	}
	if v, ok := xsd.ParseDateTime(s); ok {
		return v, nil
	}
	return xsd.DateTime{}, xsd.BadValue(what, "dateTime", s)
}

// Base64 reads a base64 string; null is nil.
func Base64(tok Token, what string) ([]byte, error) {
	switch tok.kind {
	case 'n':
		return nil, nil
	case '"':
		v, ok := xsd.ParseBase64(tok.text)
		if !ok {
			return nil, xsd.BadValue(what, "base64Binary", tok.text)
		}
		return v, nil
	}
	return nil, WrongType(what, "a base64 string", tok)
}

// MissingParameter reports a parameter the body does not give, in ASP.NET's words.
func MissingParameter(name string) error {
	return fault.Errorf(fault.InvalidArgument, "Invalid web service call, missing value for parameter: '%s'.", name)
}

// UnknownParameter reports a key that names no parameter.
func UnknownParameter(name string) error {
	return fault.Errorf(fault.InvalidArgument, "Invalid web service call: the operation has no parameter '%s'.", name)
}

// DuplicateKey reports a key given twice in one object.
func DuplicateKey(name string) error {
	return fault.Errorf(fault.MalformedRequest, "The JSON object gives %q more than once.", name)
}

func cutAround(s, prefix, suffix string) (string, bool) {
	if len(s) < len(prefix)+len(suffix) || s[:len(prefix)] != prefix || s[len(s)-len(suffix):] != suffix {
		return "", false
	}
	return s[len(prefix) : len(s)-len(suffix)], true
}
