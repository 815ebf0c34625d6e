package binding

import (
	"mime"
	"strings"
	"unicode/utf8"
)

// ContentType is a request's Content-Type header as mime.ParseMediaType reads it. The shapes clients
// send (a media type, then a few parameters that are tokens or quoted strings without escapes) are
// read without it: mime.ParseMediaType allocates a map and a string per parameter, which was most of
// a SOAP 1.2 or form decode's allocations (BENCHMARKS.md). Anything else goes through it.
type ContentType struct {
	// MediaType is the media type in lower case, "" when the header does not parse.
	MediaType string
	// Err is mime.ParseMediaType's error: the media type may be set, the parameters not.
	Err error
	// params holds the parameters as the header has them, when it was read without mime (and is then
	// known to be well formed); parsed holds them when mime read it.
	params string
	parsed map[string]string
}

// ReadContentType reads a Content-Type header; FuzzReadContentType holds it to mime.ParseMediaType.
func ReadContentType(header string) ContentType {
	if c, ok := readSimpleContentType(header); ok {
		return c
	}
	mediaType, params, err := mime.ParseMediaType(header)
	return ContentType{MediaType: mediaType, Err: err, parsed: params}
}

// Param returns the value of the parameter name (lower case), and whether the header has it.
func (c ContentType) Param(name string) (value string, ok bool) {
	if c.parsed != nil {
		value, ok = c.parsed[name]
		return value, ok
	}
	for rest := c.params; ; {
		var param string
		if param, value, rest, ok = nextParam(rest); !ok || param == "" {
			return "", false
		}
		if strings.EqualFold(param, name) {
			return value, true
		}
	}
}

// MayHaveMediaType reports, without parsing, whether ReadContentType could read mediaType (lower-case
// ASCII) from header: it is false only when the header holds no ASCII spelling of it in any case, so a
// caller may skip parsing a header that does not mention the media type at all. A header with a byte
// beyond ASCII is always a maybe, since lower-casing such characters can yield ASCII letters (the
// Kelvin sign lower-cases to k).
//
// It runs for every form POST while the JSON endpoint is off, so the common answer is cheap: one pass,
// eight bytes at a time, finds that the header is ASCII and lacks the first character of the media
// type's subtype in either case ("j" of json in "application/x-www-form-urlencoded"), and no spelling
// of the media type can be there. Only a header that has that character is searched properly.
func MayHaveMediaType(header, mediaType string) bool {
	if key := mediaType[strings.IndexByte(mediaType, '/')+1:]; key != "" && 'a' <= key[0] && key[0] <= 'z' && !mayHoldByte(header, key[0]) {
		return false
	}
	if strings.Contains(header, mediaType) {
		return true
	}
	upper := false
	for i := 0; i < len(header); i++ {
		c := header[i]
		if c >= utf8.RuneSelf {
			return true
		}
		upper = upper || 'A' <= c && c <= 'Z'
	}
	if !upper {
		return false
	}
	for i := 0; i+len(mediaType) <= len(header); i++ {
		if asciiEqualFold(header[i:i+len(mediaType)], mediaType) {
			return true
		}
	}
	return false
}

// mayHoldByte reports whether s holds a byte beyond ASCII, or the lower-case ASCII letter key in either
// case (a byte c with c|0x20 == key). It reads eight bytes at a time: a word has a byte
// equal to key after the OR exactly when (y-ones) & ^y & highs is non-zero for y the word XOR key in
// every byte (the classic test for a zero byte).
func mayHoldByte(s string, key byte) bool {
	const ones, highs, lower = 0x0101010101010101, 0x8080808080808080, 0x2020202020202020
	k := uint64(key) * ones
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		y := (x | lower) ^ k
		if x&highs != 0 || (y-ones)&^y&highs != 0 {
			return true
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf || s[i]|0x20 == key {
			return true
		}
	}
	return false
}

// asciiEqualFold reports whether s equals the lower-case ASCII t in any ASCII case.
func asciiEqualFold(s, t string) bool {
	for i := range len(t) {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != t[i] {
			return false
		}
	}
	return true
}

// maxSimpleParams is how many parameters readSimpleContentType reads; a header with more goes to mime.
const maxSimpleParams = 4

// readSimpleContentType reads a header of the simple shape: a media type of letters, digits and
// "-.+" around one "/", then at most maxSimpleParams parameters, each "; name=value" with optional
// spaces or tabs around ";" and "=", whose names are letters, digits and "-_." and whose values are
// such names or quoted strings of printable ASCII without '"' or '\'; one trailing ";" is allowed.
// ok is false for anything else.
func readSimpleContentType(header string) (c ContentType, ok bool) {
	end := 0
	for end < len(header) && (isNameByte(header[end]) || header[end] == '+' || header[end] == '/') {
		end++
	}
	mediaType := header[:end]
	slash := strings.IndexByte(mediaType, '/')
	if slash <= 0 || slash == len(mediaType)-1 || strings.Count(mediaType, "/") != 1 {
		return c, false
	}
	if hasUpper(mediaType) {
		mediaType = strings.ToLower(mediaType)
	}
	var seen [maxSimpleParams]string // a repeated name is mime's error, so not ours
	rest := header[end:]
	for n := 0; ; n++ {
		name, _, after, ok := nextParam(rest)
		if !ok {
			return c, false
		}
		if name == "" {
			return ContentType{MediaType: mediaType, params: header[end:]}, true
		}
		if n == len(seen) {
			return c, false
		}
		for _, before := range seen[:n] {
			if strings.EqualFold(before, name) {
				return c, false
			}
		}
		seen[n], rest = name, after
	}
}

// nextParam reads the parameter at the start of s in the simple shape: its name, value and what
// follows. name is "" at the end of the header (nothing, blanks, or one trailing ";"); ok is false
// when s is not of the simple shape.
func nextParam(s string) (name, value, rest string, ok bool) {
	s = skipBlanks(s)
	if s == "" {
		return "", "", "", true
	}
	if s[0] != ';' {
		return "", "", "", false
	}
	if s = skipBlanks(s[1:]); s == "" {
		return "", "", "", true // mime ignores one trailing semicolon
	}
	if name, s = readWhile(s, isNameByte); name == "" {
		return "", "", "", false
	}
	if s = skipBlanks(s); s == "" || s[0] != '=' {
		return "", "", "", false
	}
	s = skipBlanks(s[1:])
	if s != "" && s[0] == '"' {
		if value, s = readWhile(s[1:], isQuotedByte); s == "" || s[0] != '"' {
			return "", "", "", false
		}
		return name, value, s[1:], true
	}
	if value, s = readWhile(s, isNameByte); value == "" {
		return "", "", "", false
	}
	return name, value, s, true
}

func hasUpper(s string) bool {
	for i := range len(s) {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

func skipBlanks(s string) string {
	for s != "" && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	return s
}

// readWhile splits s after its longest prefix of bytes that ok accepts.
func readWhile(s string, ok func(byte) bool) (prefix, rest string) {
	i := 0
	for i < len(s) && ok(s[i]) {
		i++
	}
	return s[:i], s[i:]
}

func isNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.'
}

// isQuotedByte accepts what a quoted parameter value may hold here: printable ASCII but the quote and
// the backslash, whose escapes are left to mime.
func isQuotedByte(c byte) bool {
	return ' ' <= c && c <= '~' && c != '"' && c != '\\'
}
