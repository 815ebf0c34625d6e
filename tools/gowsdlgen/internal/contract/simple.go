package contract

// The small and unsigned integer kinds and ASMX's char (shapes §7): gowsdl's Go types (int8, byte, uint16,
// uint32, uint64), and for char, given to gowsdl as xsd:unsignedShort, the runtime's xsd.Char.
const (
	KindByte          Kind = "KindByte"
	KindUnsignedByte  Kind = "KindUnsignedByte"
	KindUnsignedShort Kind = "KindUnsignedShort"
	KindUnsignedInt   Kind = "KindUnsignedInt"
	KindUnsignedLong  Kind = "KindUnsignedLong"
	KindChar          Kind = "KindChar"
	// KindFlags: ASMX's [Flags] enumeration, an xsd:list of an enumeration (Perm): a uint64 (xsd.FlagBit).
	KindFlags Kind = "KindFlags"
)
