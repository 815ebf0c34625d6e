// Package names turns XML names into Go identifiers: the names gowsdl gives what it generates
// (GowsdlType, GowsdlField, GowsdlMethod, restated from gowsdl v0.5.0, which exports none), an
// exported identifier for any XML name (Export), the choice between the two (Go), a Scope that
// keeps identifiers unique, and description text as safe Go comments (Comment).
//
// The wire code never uses a Go name for the wire: it writes and reads the XML name, so a Go name
// may be anything that compiles and is exported.
//
// It imports the standard library only.
package names

import (
	"go/token"
	"go/types"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// GowsdlType is the Go type name gowsdl v0.5.0 gives the struct for a named schema component (gowsdl
// exports no naming function, so its rules are restated here):
// replaceReservedWords (a keyword gets a "_" suffix, otherwise "." becomes "_" and anything but
// letters, digits and "_" goes), then makePublic (first letter upper-case). makePublic leaves Go basic
// type names such as "string" alone; such a struct is refused by the predeclared-identifier check
// before its fields matter.
func GowsdlType(name string) string {
	if token.IsKeyword(name) {
		name += "_"
	} else {
		name = normalize(name)
	}
	r, size := utf8.DecodeRuneInString(name)
	return string(unicode.ToUpper(r)) + name[size:]
}

// GowsdlMethod is the name gowsdl v0.5.0 gives an operation's method in its client interface:
// makePublic, then replaceReservedWords (the keyword check comes after the capitalisation, so it
// never matches, and normalize drops what is not a letter, digit or "_").
func GowsdlMethod(name string) string {
	r, size := utf8.DecodeRuneInString(name)
	if size == 0 {
		return ""
	}
	return normalize(string(unicode.ToUpper(r)) + name[size:])
}

// normalize is gowsdl's: "." becomes "_", and anything but letters, digits and "_" goes.
func normalize(name string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '.':
			return '_'
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_':
			return r
		}
		return -1
	}, name)
}

// Export is an exported Go identifier for an XML name: a character that is not a letter, digit or
// "_" is dropped and the letter after it upper-cased ("x-id" → "XId", "a.b" → "AB"); the first letter
// is upper-cased ("deletePerformance" → "DeletePerformance", "ürünKodu" → "ÜrünKodu"); a name that
// would still not be exported (it starts with a digit, "_" or a letter with no upper case, "名前",
// or is left empty) gets the prefix "X". An exported name is never a Go keyword or predeclared
// identifier, which are all lower-case.
func Export(xml string) string {
	var b strings.Builder
	upper := true
	for _, r := range xml {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_':
			if upper {
				r = unicode.ToUpper(r)
				upper = false
			}
			b.WriteRune(r)
		default:
			upper = true
		}
	}
	name := b.String()
	if !token.IsExported(name) {
		name = "X" + name
	}
	return name
}

// Go is the Go name of a component gowsdl also names: gowsdl's own name (gowsdl), so what gowsdl
// writes and today's generated code keep their names (ArrayOfString's field "string" stays
// "Astring"), unless that is not an exported identifier, is a predeclared one, or is empty; then
// Export's. Whether it is free in its scope is the Scope's business.
func Go(xml, gowsdl string) string {
	if token.IsIdentifier(gowsdl) && token.IsExported(gowsdl) && types.Universe.Lookup(gowsdl) == nil {
		return gowsdl
	}
	return Export(xml)
}

// Scope hands out Go identifiers that are unique within it: one per generated package (types and
// every package-level identifier derived from them), one per struct (its fields), one per
// interface (its methods). Identifiers are reserved in document order, so the first of two names
// that collide keeps its name and a later one gets "_2", "_3", … (re-checked against the scope).
type Scope struct {
	used map[string]bool
}

// Reserve reserves name, or name with the first free suffix "_2", "_3", …, and returns what it
// reserved.
func (s *Scope) Reserve(name string) string {
	if s.used == nil {
		s.used = map[string]bool{}
	}
	got := name
	for i := 2; s.used[got]; i++ {
		got = name + "_" + strconv.Itoa(i)
	}
	s.used[got] = true
	return got
}

// Taken reports whether name is reserved.
func (s *Scope) Taken(name string) bool { return s.used[name] }

// Comment turns description text into the lines of a Go "//" comment, each starting with "// " (or
// "//" for an empty line): CR and CRLF become line breaks, other C0 controls and DEL become U+FFFD,
// trailing blanks go, and leading and trailing empty lines are dropped. Nothing in the text can end
// the comment, whatever it holds ("*/", a line that reads as code, "<", "&"). An empty or blank text
// gives no lines.
func Comment(text string) []string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	text = strings.Map(func(r rune) rune {
		if r != '\n' && r != '\t' && (r < 0x20 || r == 0x7f) {
			return unicode.ReplacementChar
		}
		if r == utf8.RuneError {
			return unicode.ReplacementChar
		}
		return r
	}, text)
	lines := strings.Split(text, "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		l = strings.TrimRightFunc(l, unicode.IsSpace)
		if l == "" {
			out = append(out, "//")
			continue
		}
		out = append(out, "// "+l)
	}
	return out
}
