package model

// The small and unsigned integer kinds and ASMX's char (issue 33, shapes §7). Their Go types are
// gowsdl's own (int8, byte, uint16, uint32, uint64), except char, which the SOAP-only view gives
// gowsdl as xsd:unsignedShort (plainMSTypes) and PostProcess retypes to the runtime's xsd.Char.
const (
	KindByte          Kind = "KindByte"
	KindUnsignedByte  Kind = "KindUnsignedByte"
	KindUnsignedShort Kind = "KindUnsignedShort"
	KindUnsignedInt   Kind = "KindUnsignedInt"
	KindUnsignedLong  Kind = "KindUnsignedLong"
	KindChar          Kind = "KindChar"
)

// IntBits is the size in bits of an integer kind (int, long, short, byte and the unsigned ones, char
// as the unsigned 16 bits it travels as), and whether it is unsigned; 0 for any other kind.
func IntBits(k Kind) (bits int, unsigned bool) {
	switch k {
	case KindInt:
		return 32, false
	case KindLong:
		return 64, false
	case KindShort:
		return 16, false
	case KindByte:
		return 8, false
	case KindUnsignedByte:
		return 8, true
	case KindUnsignedShort, KindChar:
		return 16, true
	case KindUnsignedInt:
		return 32, true
	case KindUnsignedLong:
		return 64, true
	}
	return 0, false
}

// Unsigned reports whether k is one of the unsigned integer kinds (char excluded: it has forms of its
// own on GET/POST).
func Unsigned(k Kind) bool {
	bits, unsigned := IntBits(k)
	return bits > 0 && unsigned && k != KindChar
}
