package soap

import (
	"mime"
	"strings"
)

// MediaType returns the media type of a Content-Type header, lower case, or "" when it does not
// parse: text/xml is SOAP 1.1's, application/soap+xml SOAP 1.2's. The content types SOAP clients send
// are read without mime.ParseMediaType, which allocates a map and a string per parameter and was
// most of a SOAP 1.2 decode's allocations (BENCHMARKS.md); anything else goes through it.
func MediaType(contentType string) string {
	if mediaType, _, ok := readSOAPType(contentType); ok {
		return mediaType
	}
	mediaType, _, _ := mime.ParseMediaType(contentType)
	return mediaType
}

// actionParam returns the action parameter of a SOAP 1.2 content type (RFC 3902), "" when it has none
// or does not parse.
func actionParam(contentType string) string {
	if _, action, ok := readSOAPType(contentType); ok {
		return action
	}
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return ""
	}
	return params["action"]
}

// The two media types of SOAP, as mime.ParseMediaType returns them.
const (
	mediaTypeSOAP11 = "text/xml"
	mediaTypeSOAP12 = "application/soap+xml"
)

// readSOAPType reads a content type of the shape SOAP clients send: one of the two SOAP media types,
// then parameters whose names are letters, digits, '-', '_' and '.', and whose values are such tokens
// or quoted strings of printable ASCII without escapes, separated by ';' and optional spaces or tabs.
// ok is false for anything else, and the caller asks mime.ParseMediaType; when ok is true, mediaType
// and action are what mime.ParseMediaType would give (FuzzReadSOAPType holds the two together).
func readSOAPType(s string) (mediaType, action string, ok bool) {
	switch {
	case hasPrefixFold(s, mediaTypeSOAP11):
		mediaType = mediaTypeSOAP11
	case hasPrefixFold(s, mediaTypeSOAP12):
		mediaType = mediaTypeSOAP12
	default:
		return "", "", false
	}
	rest := s[len(mediaType):]
	var seen [4]string // the parameter names read so far: a repeated one is mime's error, so not ours
	for n := 0; ; n++ {
		rest = skipBlanks(rest)
		if rest == "" {
			return mediaType, action, true
		}
		if rest[0] != ';' {
			return "", "", false
		}
		rest = skipBlanks(rest[1:])
		if rest == "" {
			return mediaType, action, true // mime ignores one trailing semicolon
		}
		if n == len(seen) {
			return "", "", false
		}
		var name, value string
		if name, rest = readWhile(rest, isNameByte); name == "" {
			return "", "", false
		}
		if rest = skipBlanks(rest); rest == "" || rest[0] != '=' {
			return "", "", false
		}
		rest = skipBlanks(rest[1:])
		if rest != "" && rest[0] == '"' {
			var quoted string
			quoted, rest = readWhile(rest[1:], isQuotedByte)
			if rest == "" || rest[0] != '"' {
				return "", "", false
			}
			value, rest = quoted, rest[1:]
		} else if value, rest = readWhile(rest, isNameByte); value == "" {
			return "", "", false
		}
		for _, before := range seen[:n] {
			if strings.EqualFold(before, name) {
				return "", "", false
			}
		}
		seen[n] = name
		if strings.EqualFold(name, "action") {
			action = value
		}
	}
}

// hasPrefixFold reports whether s starts with prefix (lower case ASCII) in any ASCII case; unlike
// strings.EqualFold it folds no other letters, as mime does not.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := range len(prefix) {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
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
