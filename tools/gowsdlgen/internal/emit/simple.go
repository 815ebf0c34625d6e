package emit

import "github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"

// intBits are the integer kinds' sizes in bits, negative for the unsigned ones (char as the unsigned 16
// bits it travels as).
var intBits = map[model.Kind]int{model.KindInt: 32, model.KindLong: 64, model.KindShort: 16, model.KindByte: 8, model.KindUnsignedByte: -8,
	model.KindUnsignedShort: -16, model.KindChar: -16, model.KindUnsignedInt: -32, model.KindUnsignedLong: -64}

// IntBits is the size in bits of an integer kind, and whether it is unsigned; 0 for any other kind.
func IntBits(k model.Kind) (bits int, unsigned bool) {
	if n := intBits[k]; n < 0 {
		return -n, true
	}
	return intBits[k], false
}

// Unsigned reports whether k is one of the unsigned integer kinds (char excluded: it has forms of its
// own on GET/POST).
func Unsigned(k model.Kind) bool {
	bits, unsigned := IntBits(k)
	return bits > 0 && unsigned && k != model.KindChar
}
