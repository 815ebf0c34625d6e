package jsontext

import (
	"encoding/binary"
	"math/bits"
	"strconv"
	"unicode/utf8"
)

// Options say how a Decoder reads.
type Options struct {
	// MaxDepth bounds the nesting of objects and arrays the Decoder follows (at least 1), so a
	// hostile document cannot exhaust the stack through a recursive type or a skipped value.
	MaxDepth int
	// ReplaceInvalidUTF8 reads invalid UTF-8 in a string as U+FFFD, as encoding/json does, instead of
	// refusing the document: the JSON endpoint's requests are read so, the store's records are held
	// to valid UTF-8.
	ReplaceInvalidUTF8 bool
}

// Decoder reads one JSON document: a small hand-written scanner over the bytes (no token values,
// no reflection, keys and strings as slices of the input where they have no escapes), since every
// record the store hands over and every JSON request is read through it. The caller drives it by
// the shape it expects: BeginObject and Key, BeginArray and More, and the value readers.
type Decoder struct {
	data    []byte
	pos     int
	opts    Options
	depth   int
	first   bool // just after '{' or '[': no comma before the next key or item
	scratch []byte
	// errOffset and errDetail are the last syntax error's offset and text; deep reports that it
	// was the depth bound (LastSyntax).
	errOffset int
	errDetail string
	deep      bool
}

// Reset makes r read doc from its start with opts, keeping its scratch space.
func (r *Decoder) Reset(doc []byte, opts Options) {
	*r = Decoder{data: doc, opts: opts, scratch: r.scratch[:0]}
}

// Data returns the document being read.
func (r *Decoder) Data() []byte { return r.data }

// Pos returns the offset of the next byte to read.
func (r *Decoder) Pos() int { return r.pos }

// LastSyntax returns the offset and the text of the last syntax error the Decoder returned, and
// whether it was the MaxDepth bound, for a caller that words errors its own way.
func (r *Decoder) LastSyntax() (offset int, detail string, deep bool) {
	return r.errOffset, r.errDetail, r.deep
}

// Error is an error reading a document. It is the record format's error (recordwire.Error), whose
// words it uses; the JSON endpoint words its errors its own way (LastSyntax).
//
// Error is an error reading a record document: what was wrong, and where in the record, as a
// path of element names and array indexes ("Address.Lines[2]").
type Error struct {
	// Path is where in the record the error is; "" for the document itself.
	Path string
	// Msg says what is wrong.
	Msg string
}

func (e *Error) Error() string {
	if e.Path == "" {
		return "record: " + e.Msg
	}
	return "record: " + e.Path + ": " + e.Msg
}

func (r *Decoder) errorf(msg string) error {
	return &Error{Msg: msg}
}

// truncated is syntax for an error that is the document ending too soon (a string, an escape or a
// literal cut short), which LastSyntax reports as at its end.
func (r *Decoder) truncated(msg string) error {
	err := r.syntax(msg)
	r.errOffset = len(r.data)
	return err
}

// incompleteHex reports whether b, the rest of a document after \u, is fewer than four hex digits
// and nothing else.
func incompleteHex(b []byte) bool {
	if len(b) >= 4 {
		return false
	}
	for _, c := range b {
		if _, ok := unhex(c); !ok {
			return false
		}
	}
	return true
}

func (r *Decoder) syntax(msg string) error {
	r.errOffset, r.errDetail = r.pos, msg
	return &Error{Msg: "malformed JSON at offset " + strconv.Itoa(r.pos) + ": " + msg}
}

func (r *Decoder) skipSpace() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

// peek returns the next byte after white space, 0 at the end.
func (r *Decoder) Peek() byte {
	r.skipSpace()
	if r.pos < len(r.data) {
		return r.data[r.pos]
	}
	return 0
}

// End checks that nothing but white space follows the document.
func (r *Decoder) End() error {
	if r.skipSpace(); r.pos < len(r.data) {
		return r.syntax("data after the document")
	}
	return nil
}

// Null reads a null if one comes next and reports whether it did.
func (r *Decoder) Null() bool {
	if r.Peek() == 'n' && r.pos+4 <= len(r.data) && string(r.data[r.pos:r.pos+4]) == "null" {
		r.pos += 4
		return true
	}
	return false
}

// BeginObject reads the '{' of an object.
func (r *Decoder) BeginObject() error {
	return r.begin('{', "an object")
}

// BeginArray reads the '[' of an array.
func (r *Decoder) BeginArray() error {
	return r.begin('[', "an array")
}

func (r *Decoder) begin(open byte, what string) error {
	if c := r.Peek(); c != open {
		return r.WrongType(what)
	}
	if r.depth >= r.opts.MaxDepth {
		r.deep = true
		return r.syntax("nested deeper than " + strconv.Itoa(r.opts.MaxDepth) + " levels")
	}
	r.depth++
	r.pos++
	r.first = true
	return nil
}

// wrongType is the error for a value of the wrong JSON type where want was expected.
func (r *Decoder) WrongType(want string) error {
	got := "the end of the document"
	switch c := r.Peek(); {
	case r.pos >= len(r.data):
	case c == '{':
		got = "an object"
	case c == '[':
		got = "an array"
	case c == '"':
		got = "a string"
	case c == 't' || c == 'f':
		got = "a boolean"
	case c == 'n':
		got = "null"
	case c == '-' || c >= '0' && c <= '9':
		got = "a number"
	default:
		return r.syntax("unexpected character " + strconv.QuoteRune(rune(c)))
	}
	return r.errorf("want " + want + ", found " + got)
}

// next reads the separator before an object's key or an array's item, or the closing bracket; more
// is false after the closing bracket.
func (r *Decoder) next(closing byte) (more bool, err error) {
	var c byte
	if r.pos < len(r.data) {
		c = r.data[r.pos]
	}
	if c <= ' ' { // white space, or the end: the canonical form has neither here
		c = r.Peek()
	}
	if c == closing {
		r.pos++
		r.depth--
		r.first = false
		return false, nil
	}
	if r.first {
		r.first = false
		return true, nil
	}
	if c != ',' {
		return false, r.syntax("want ',' or '" + string(closing) + "'")
	}
	r.pos++
	return true, nil
}

// Key reads the next key of an object and its ':'; ok is false at the object's end, whose '}' it
// reads. The key is valid until the next call on r.
func (r *Decoder) Key() (key []byte, ok bool, err error) {
	// The canonical form has no white space: a key follows '{' or ',' at once, its ':' follows it.
	d, p := r.data, r.pos
	switch {
	case p+1 < len(d) && d[p] == ',' && d[p+1] == '"' && !r.first:
		r.pos = p + 1
	case p < len(d) && d[p] == '"' && r.first:
		r.first = false
	default:
		more, err := r.next('}')
		if err != nil || !more {
			return nil, false, err
		}
		if r.Peek() != '"' {
			return nil, false, r.syntax("want a key")
		}
	}
	key, err = r.StringBytes()
	if err != nil {
		return nil, false, err
	}
	if r.pos < len(d) && d[r.pos] == ':' {
		r.pos++
		return key, true, nil
	}
	if r.Peek() != ':' {
		return nil, false, r.syntax("want ':' after a key")
	}
	r.pos++
	return key, true, nil
}

// ArrayLen returns how many items the array whose '[' was just read holds, without reading them, so
// that a decoder can allocate its slice once.
func (r *Decoder) ArrayLen() (int, error) {
	pos, depth, first := r.pos, r.depth, r.first
	n := 0
	for {
		more, err := r.More()
		if err != nil {
			return 0, err
		}
		if !more {
			break
		}
		n++
		if err := r.skipValue(); err != nil {
			return 0, err
		}
	}
	r.pos, r.depth, r.first = pos, depth, first
	return n, nil
}

// More reports whether an array has another item, reading the ',' before it or the closing ']'.
func (r *Decoder) More() (bool, error) {
	return r.next(']')
}

// Skip reads one value of any type.
func (r *Decoder) Skip() error {
	_, err := r.RawValue()
	return err
}

// RawValue reads one value of any type and returns its text, valid while the document is.
func (r *Decoder) RawValue() ([]byte, error) {
	r.skipSpace()
	start := r.pos
	if err := r.skipValue(); err != nil {
		return nil, err
	}
	return r.data[start:r.pos], nil
}

// skipValue reads one value, checking the JSON grammar; its recursion is bounded by recordMaxDepth.
func (r *Decoder) skipValue() error {
	switch c := r.Peek(); {
	case c == '{':
		if err := r.BeginObject(); err != nil {
			return err
		}
		for {
			_, ok, err := r.Key()
			if err != nil || !ok {
				return err
			}
			if err := r.skipValue(); err != nil {
				return err
			}
		}
	case c == '[':
		if err := r.BeginArray(); err != nil {
			return err
		}
		for {
			more, err := r.More()
			if err != nil || !more {
				return err
			}
			if err := r.skipValue(); err != nil {
				return err
			}
		}
	case c == '"':
		_, err := r.StringBytes()
		return err
	case c == 't':
		return r.Literal("true")
	case c == 'f':
		return r.Literal("false")
	case c == 'n':
		return r.Literal("null")
	case c == '-' || c >= '0' && c <= '9':
		_, _, err := r.Number()
		return err
	}
	return r.WrongType("a value")
}

func (r *Decoder) Literal(word string) error {
	if r.pos+len(word) > len(r.data) || string(r.data[r.pos:r.pos+len(word)]) != word {
		if rest := string(r.data[r.pos:]); len(rest) < len(word) && word[:len(rest)] == rest {
			return r.truncated("want " + word)
		}
		return r.syntax("want " + word)
	}
	r.pos += len(word)
	return nil
}

// number reads a JSON number (RFC 8259 §6) and returns its text; integer reports whether it has
// neither a fraction nor an exponent.
func (r *Decoder) Number() (text []byte, integer bool, err error) {
	start := r.pos
	d := r.data
	i := r.pos
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	default:
		r.pos = i
		return nil, false, r.syntax("malformed number")
	}
	integer = true
	if i < len(d) && d[i] == '.' {
		integer = false
		i++
		j := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		if i == j {
			r.pos = i
			return nil, false, r.syntax("malformed number")
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		integer = false
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		j := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		if i == j {
			r.pos = i
			return nil, false, r.syntax("malformed number")
		}
	}
	r.pos = i
	return d[start:i], integer, nil
}

// stringBytes reads a JSON string and returns its decoded bytes: a slice of the document when it
// has no escapes, else of the reader's scratch space, valid until the next call. Control characters,
// bad escapes and invalid UTF-8 are refused; a lone surrogate escape reads as U+FFFD, as
// encoding/json reads it.
func (r *Decoder) StringBytes() ([]byte, error) {
	d := r.data
	r.pos++ // the opening quote
	start := r.pos
	i := start
	for i < len(d) {
		i += plainRun(d[i:]) // the common case: bytes that stand for themselves
		if i == len(d) {
			break
		}
		c := d[i]
		switch {
		case c == '"':
			r.pos = i + 1
			return d[start:i], nil
		case c == '\\':
			return r.escapedString(start, i)
		case c < 0x20:
			r.pos = i
			return nil, r.syntax("control character in a string")
		case c < utf8.RuneSelf:
			i++
		default:
			ru, size := utf8.DecodeRune(d[i:])
			if ru == utf8.RuneError && size == 1 {
				if r.opts.ReplaceInvalidUTF8 {
					return r.escapedString(start, i) // which writes U+FFFD in its place
				}
				r.pos = i
				return nil, r.syntax("invalid UTF-8 in a string")
			}
			i += size
		}
	}
	r.pos = i
	return nil, r.truncated("unterminated string")
}

// plainRun returns the length of the run of bytes at the start of s that stand for themselves in a
// JSON string (recordPlain), eight bytes at a time: a byte below 0x20, a quote, a backslash or one with
// its high bit set ends the run. Every string the record path and the JSON endpoint read is scanned
// here, so it counts: about three instructions a byte against nine for a table look-up a byte.
func plainRun(s []byte) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	n := 0
	for len(s) >= 8 {
		v := binary.LittleEndian.Uint64(s)
		// A byte b of v below 0x20 makes b-0x20 wrap to 0xe0 or more, a quote or a backslash makes
		// its byte of v^c zero and that byte minus one 0xff: each sets the byte's high bit, as v has
		// it for a byte of 0x80 or more. A byte of the run (0x20 to 0x7f but for those two) sets none
		// and borrows from none, so the lowest high bit set is the first byte after the run (a borrow
		// may mark bytes above it, never below).
		stop := (v | (v - ones*0x20) | (v ^ ones*'"' - ones) | (v ^ ones*'\\' - ones)) & highs
		if stop != 0 {
			return n + bits.TrailingZeros64(stop)>>3
		}
		s = s[8:]
		n += 8
	}
	for _, c := range s {
		if !recordPlain[c] {
			break
		}
		n++
	}
	return n
}

// recordPlain marks the bytes that stand for themselves in a JSON string: printable ASCII but the
// quote and the backslash. Any other byte (those two, a control character, the start of a multi-byte
// UTF-8 sequence) takes stringBytes' slower path.
var recordPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// escapedString continues stringBytes from the first backslash at i, decoding into scratch.
func (r *Decoder) escapedString(start, i int) ([]byte, error) {
	d := r.data
	out := append(r.scratch[:0], d[start:i]...)
	for i < len(d) {
		c := d[i]
		switch {
		case c == '"':
			r.pos = i + 1
			r.scratch = out
			return out, nil
		case c == '\\':
			if i+1 >= len(d) {
				r.pos = i
				return nil, r.truncated("unterminated string")
			}
			switch e := d[i+1]; e {
			case '"', '\\', '/':
				out = append(out, e)
				i += 2
			case 'b':
				out = append(out, '\b')
				i += 2
			case 'f':
				out = append(out, '\f')
				i += 2
			case 'n':
				out = append(out, '\n')
				i += 2
			case 'r':
				out = append(out, '\r')
				i += 2
			case 't':
				out = append(out, '\t')
				i += 2
			case 'u':
				ru, ok := hex4(d, i+2)
				if !ok {
					r.pos = i
					if incompleteHex(d[i+2:]) {
						return nil, r.truncated("malformed \\u escape")
					}
					return nil, r.syntax("malformed \\u escape")
				}
				i += 6
				if utf16IsSurrogate(ru) {
					lo, ok := rune(-1), false
					if i+1 < len(d) && d[i] == '\\' && d[i+1] == 'u' {
						lo, ok = hex4(d, i+2)
					}
					if ok && ru < 0xDC00 && lo >= 0xDC00 && lo <= 0xDFFF {
						ru = 0x10000 + (ru-0xD800)<<10 + (lo - 0xDC00)
						i += 6
					} else {
						ru = utf8.RuneError
					}
				}
				out = utf8.AppendRune(out, ru)
			default:
				r.pos = i
				return nil, r.syntax("bad escape in a string")
			}
		case c < 0x20:
			r.pos = i
			return nil, r.syntax("control character in a string")
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			ru, size := utf8.DecodeRune(d[i:])
			if ru == utf8.RuneError && size == 1 {
				if r.opts.ReplaceInvalidUTF8 {
					out = append(out, "\uFFFD"...)
					i++
					continue
				}
				r.pos = i
				return nil, r.syntax("invalid UTF-8 in a string")
			}
			out = append(out, d[i:i+size]...)
			i += size
		}
	}
	r.pos = i
	r.scratch = out
	return nil, r.truncated("unterminated string")
}

func utf16IsSurrogate(r rune) bool { return r >= 0xD800 && r <= 0xDFFF }

// hex4 reads four hex digits at d[i:].
func hex4(d []byte, i int) (rune, bool) {
	if i+4 > len(d) {
		return 0, false
	}
	var v rune
	for _, c := range d[i : i+4] {
		n, ok := unhex(c)
		if !ok {
			return 0, false
		}
		v = v<<4 | rune(n)
	}
	return v, true
}

// unhex reads one hex digit.
func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
