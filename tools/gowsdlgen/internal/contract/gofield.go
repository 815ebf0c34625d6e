package contract

// RuntimeImport is the package of the hand-written runtime's operation table, which every generated
// codec imports; runtimeImports are all the runtime's packages, of which the generated code imports
// those it uses (one per encoding, as in encoding/protowire and protojson).
const RuntimeImport = "github.com/contactsync/contactsync/server/wire"

// ValuesImport is the runtime package of the XSD value types (xsd.DateTime, xsd.Decimal, xsd.GUID),
// which gowsdl's post-processed types refer to.
const ValuesImport = RuntimeImport + "/xsd"

// GoField is the Go field of an element in gowsdl's struct, as PostProcess leaves it.
type GoField struct {
	Name string // Go field name
	Type string // Go type expression, e.g. "*ArrayOfString", "[]*string", "xsd.DateTime"
}

// SimpleGoTypes are the Go types of the simple kinds once PostProcess has made its replacements.
var SimpleGoTypes = map[Kind]string{
	KindString: "string", KindInt: "int32", KindLong: "int64", KindShort: "int16", KindBoolean: "bool",
	KindDouble: "float64", KindFloat: "float32", KindDateTime: "xsd.DateTime", KindBase64: "[]byte",
	KindDecimal: "xsd.Decimal", KindGUID: "xsd.GUID", KindByte: "int8", KindUnsignedByte: "byte", KindUnsignedShort: "uint16", KindUnsignedInt: "uint32", KindUnsignedLong: "uint64", KindChar: "xsd.Char",
}

// GoFieldOf is the Go field of element f that the wire code reads and writes, derived from the model:
// its GoName (gowsdl's name, GowsdlField, unless PostProcess renames it, see nameAll), typed as
// gowsdl's toGoType types it: a pointer when the element is nillable or of a named type, a slice
// when it repeats; PostProcess then gives the runtime's DateTime, Decimal and GUID and a required,
// non-nillable enumeration its value rather than a pointer (TypedFields), and an element of a type
// with derived types the type's sealed interface, Any<Type>. postprocess.CheckStructs
// confirms the post-processed output agrees.
func GoFieldOf(f *Field) GoField {
	typ := SimpleGoTypes[f.Type.Kind]
	switch {
	case Open(f.Type.Kind): // the runtime's value, never a pointer to one (anyxml.go)
		typ = OpenGoType(f.Type.Kind)
	case f.Type.Polymorphic(): // its sealed interface (PostProcess, inherit.go): nil is no value
		typ = "Any" + f.Type.GoName
	case typ == "":
		typ = f.Type.GoName
		if f.Type.Kind != KindEnum && f.Type.Kind != KindFlags || f.MinOccurs == 0 || f.Nillable {
			typ = "*" + typ
		}
	case f.Nillable:
		typ = "*" + typ
	}
	if f.MaxOccurs != 1 {
		typ = "[]" + typ
	}
	return GoField{Name: f.GoName, Type: typ}
}
