// Package names turns XML names into Go identifiers: the names gowsdl gives the structs it generates
// (GowsdlType), which the wire code must agree with.
//
// It imports the standard library only.
package names

import (
	"go/token"
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
		name = strings.Map(func(r rune) rune {
			switch {
			case r == '.':
				return '_'
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_':
				return r
			}
			return -1
		}, name)
	}
	r, size := utf8.DecodeRuneInString(name)
	return string(unicode.ToUpper(r)) + name[size:]
}
