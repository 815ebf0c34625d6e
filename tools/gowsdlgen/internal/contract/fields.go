package contract

import "github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"

// StructField is a child element the schema requires: its minOccurs is 1, so a Go field generated for it
// must be marshalled even when it holds the zero value.
type StructField struct {
	// Owner names the schema component gowsdl turns into a Go struct: a top-level element with an
	// anonymous complex type, or a top-level named complex type.
	Owner string
	// Path holds the XML names from the owner down to the element. Within the XSD subset the model
	// reads, an element's type is named unless it is an operation wrapper's, so the path is always
	// the one name of a direct child; PostProcess takes longer paths for nested anonymous types.
	Path []string
}

// TypedField is an element whose Go type the runtime provides instead of gowsdl's choice.
type TypedField struct {
	StructField
	// GoType is the runtime type: "xsd.Decimal" or "xsd.GUID"; "" when only Deref applies.
	GoType string
	// Deref marks an element of an enumeration type that is required and not nillable: gowsdl makes
	// every field of a named type a pointer, but such a value is always present, as .NET's enum
	// value types are, so the field holds the value itself (its zero value stands for the first
	// member, as .NET's default does).
	Deref bool
}

// runtimeTypes are the kinds gowsdl maps to a Go type that cannot hold their values, and the runtime
// types that can: gowsdl v0.5.0 makes xsd:decimal a float64, which loses the scale ASMX keeps (1.10
// would come back as 1.1) and the digits beyond 17, and Microsoft's guid, which the SOAP-only view
// turns into xsd:string (see plainGUIDs), a string no one validates.
// ASMX's char, which the view makes xsd:unsignedShort (plainGUIDs), is xsd.Char: a character on GET/POST.
var runtimeTypes = map[Kind]string{KindDecimal: "xsd.Decimal", KindGUID: "xsd.GUID", KindChar: "xsd.Char"}

// FieldsToFix returns the required and the retyped fields of the model's structs, leaving out the
// components in cut: what the SOAP-only view leaves out has no struct in gowsdl's output.
func (c *Contract) FieldsToFix(cut map[*wsdl.Node]bool) (required []StructField, typed []TypedField) {
	return c.fieldsToFix(cut, func(t *Type) string { return t.Name })
}

// GoFieldsToFix is FieldsToFix with each struct named by its Go name (Type.GoName) rather than its
// XML name, as PostProcess takes them once it has given gowsdl's declarations those names.
func (c *Contract) GoFieldsToFix(cut map[*wsdl.Node]bool) (required []StructField, typed []TypedField) {
	return c.fieldsToFix(cut, func(t *Type) string { return t.GoName })
}

func (c *Contract) fieldsToFix(cut map[*wsdl.Node]bool, owner func(*Type) string) (required []StructField, typed []TypedField) {
	for _, t := range c.Structs {
		if cut[t.Node] {
			continue
		}
		for _, f := range t.Fields {
			at := StructField{Owner: owner(t), Path: []string{f.Name}}
			if f.MinOccurs == 1 {
				required = append(required, at)
			}
			switch {
			case runtimeTypes[f.Type.Kind] != "":
				typed = append(typed, TypedField{StructField: at, GoType: runtimeTypes[f.Type.Kind]})
			case (f.Type.Kind == KindEnum || f.Type.Kind == KindFlags) && f.MinOccurs == 1 && !f.Nillable:
				typed = append(typed, TypedField{StructField: at, Deref: true})
			}
		}
	}
	return required, typed
}
