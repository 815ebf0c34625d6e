package jsonwire

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/contactsync/contactsync/server/fault"
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

// Reader reads a JSON request body for the generated decoders, with the same depth limit as XML.
// It is built on encoding/json's streaming tokenizer (numbers kept as text, so a huge number is refused
// by the parameter's type rather than rounded).
type Reader struct {
	d        *json.Decoder
	depth    int
	maxDepth int
}

// NewReader returns a reader of body, refusing nesting deeper than maxDepth.
func NewReader(body []byte, maxDepth int) *Reader {
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	return &Reader{d: d, maxDepth: maxDepth}
}

func malformedJSON(err error) error {
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		return fault.Errorf(fault.MalformedRequest, "The request is not valid JSON: %s (at byte %d).", syntax.Error(), syntax.Offset)
	}
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return fault.Errorf(fault.MalformedRequest, "The request body ended before the JSON value was complete.")
	}
	return fault.Errorf(fault.MalformedRequest, "The request is not valid JSON: %v.", err)
}

// Token returns the next value token: a string, a json.Number, a bool, nil for null, or json.Delim
// '{' or '[' opening an object or array (whose content the caller reads).
func (r *Reader) Token() (json.Token, error) {
	tok, err := r.d.Token()
	if err != nil {
		return nil, malformedJSON(err)
	}
	if d, ok := tok.(json.Delim); ok {
		switch d {
		case '{', '[':
			r.depth++
			if r.depth > r.maxDepth {
				return nil, fault.Errorf(fault.TooLarge, "The JSON is nested deeper than %d levels.", r.maxDepth)
			}
		default:
			return nil, fault.Errorf(fault.MalformedRequest, "The request is not valid JSON: unexpected %q.", string(d))
		}
	}
	return tok, nil
}

// Object reads the start of the request body, which must be a JSON object; an empty body counts as {}.
func (r *Reader) Object() (empty bool, err error) {
	tok, err := r.d.Token()
	if err == io.EOF {
		return true, nil
	}
	if err != nil {
		return false, malformedJSON(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return false, fault.Errorf(fault.MalformedRequest, "The request body must be a JSON object holding the parameters by name.")
	}
	r.depth = 1
	return false, nil
}

// Key returns the next key of the object being read, or ok false at its end ('}' consumed).
func (r *Reader) Key() (key string, ok bool, err error) {
	tok, err := r.d.Token()
	if err != nil {
		return "", false, malformedJSON(err)
	}
	switch t := tok.(type) {
	case string:
		return t, true, nil
	case json.Delim:
		if t == '}' {
			r.depth--
			return "", false, nil
		}
	}
	return "", false, fault.Errorf(fault.MalformedRequest, "The request is not valid JSON: expected a key.")
}

// More reports whether the array being read has another item; at its end the ']' is consumed.
func (r *Reader) More() (bool, error) {
	if r.d.More() {
		return true, nil
	}
	tok, err := r.d.Token()
	if err != nil {
		return false, malformedJSON(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != ']' {
		return false, fault.Errorf(fault.MalformedRequest, "The request is not valid JSON: expected the end of an array.")
	}
	r.depth--
	return false, nil
}

// Skip consumes a value whose first token was tok (for keys the decoder ignores).
func (r *Reader) Skip(tok json.Token) error {
	d, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	if d == '{' {
		for {
			_, ok, err := r.Key()
			if err != nil || !ok {
				return err
			}
			v, err := r.Token()
			if err != nil {
				return err
			}
			if err := r.Skip(v); err != nil {
				return err
			}
		}
	}
	for {
		more, err := r.More()
		if err != nil || !more {
			return err
		}
		v, err := r.Token()
		if err != nil {
			return err
		}
		if err := r.Skip(v); err != nil {
			return err
		}
	}
}

// End checks that nothing but white space follows the body's value.
func (r *Reader) End() error {
	if _, err := r.d.Token(); err != io.EOF {
		return fault.Errorf(fault.MalformedRequest, "Unexpected content after the JSON object.")
	}
	return nil
}

// jsonType names a token's JSON type for errors.
func jsonType(tok json.Token) string {
	switch t := tok.(type) {
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	case json.Delim:
		if t == '[' {
			return "an array"
		}
		return "an object"
	}
	return "a value"
}

// WrongType reports a value of the wrong JSON type.
func WrongType(what, want string, tok json.Token) error {
	return fault.Errorf(fault.InvalidArgument, "The %s must be %s, not %s.", what, want, jsonType(tok))
}

// String reads a string value; null reads as "" (a null string).
func String(tok json.Token, what string) (string, error) {
	switch t := tok.(type) {
	case string:
		return t, nil
	case nil:
		return "", nil
	}
	return "", WrongType(what, "a string", tok)
}

// Int reads an integer of the XSD type xsdType and size bits.
func Int(tok json.Token, what, xsdType string, bits int) (int64, error) {
	n, ok := tok.(json.Number)
	if !ok {
		return 0, WrongType(what, "a number", tok)
	}
	v, err := strconv.ParseInt(string(n), 10, bits)
	if err != nil {
		return 0, xsd.BadValue(what, xsdType, string(n))
	}
	return v, nil
}

// Bool reads a boolean.
func Bool(tok json.Token, what string) (bool, error) {
	b, ok := tok.(bool)
	if !ok {
		return false, WrongType(what, "true or false", tok)
	}
	return b, nil
}

// Double reads a number (bits 64 for xsd:double, 32 for xsd:float), or one of the strings "NaN",
// "Infinity", "-Infinity".
func Double(tok json.Token, what, xsdType string, bits int) (float64, error) {
	switch t := tok.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(t), bits)
		if err != nil {
			return 0, xsd.BadValue(what, xsdType, string(t))
		}
		return f, nil
	case string:
		switch t {
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
func DateTime(tok json.Token, what string) (xsd.DateTime, error) {
	s, ok := tok.(string)
	if !ok {
		return xsd.DateTime{}, WrongType(what, `a "\/Date(ms)\/" string`, tok)
	}
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
func Base64(tok json.Token, what string) ([]byte, error) {
	switch t := tok.(type) {
	case nil:
		return nil, nil
	case string:
		v, ok := xsd.ParseBase64(t)
		if !ok {
			return nil, xsd.BadValue(what, "base64Binary", t)
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
