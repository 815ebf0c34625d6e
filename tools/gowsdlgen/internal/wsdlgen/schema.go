package wsdlgen

// Field is a child element the schema requires: its minOccurs is 1, so a Go field generated for it
// must be marshalled even when it holds the zero value.
type Field struct {
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
	Field
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
var runtimeTypes = map[xsdKind]string{kindDecimal: "xsd.Decimal", kindGUID: "xsd.GUID"}

// RequiredFields lists the elements whose minOccurs is 1 (XML Schema's default) of the structs
// gowsdl generates from a WSDL document's SOAP-only view, in document order; TypedFields lists
// those whose Go type the runtime provides. Both read the contract model, which refuses anything
// outside the XSD subset first.
//
// gowsdl v0.5.0 tags every field omitempty, which is wrong for a required element: VersionMajorResult
// (xsd:int, minOccurs="1") would vanish from the response whenever the version is 0.
func RequiredFields(data []byte) ([]Field, error) {
	required, _, err := readFieldsToFix(data)
	return required, err
}

// TypedFields: see RequiredFields.
func TypedFields(data []byte) ([]TypedField, error) {
	_, typed, err := readFieldsToFix(data)
	return typed, err
}

func readFieldsToFix(data []byte) ([]Field, []TypedField, error) {
	defs, err := readDefinitions(data)
	if err != nil {
		return nil, nil, err
	}
	model, err := readContract(defs)
	if err != nil {
		return nil, nil, err
	}
	_, cut, err := defs.soapView()
	if err != nil {
		return nil, nil, err
	}
	required, typed := model.fieldsToFix(cut)
	return required, typed, nil
}

// fieldsToFix returns the required and the retyped fields of the model's structs, leaving out the
// components in cut: what the SOAP-only view leaves out has no struct in gowsdl's output.
func (c *contractModel) fieldsToFix(cut map[*node]bool) (required []Field, typed []TypedField) {
	for _, t := range c.structs {
		if cut[t.node] {
			continue
		}
		for _, f := range t.fields {
			at := Field{Owner: t.name, Path: []string{f.name}}
			if f.minOccurs == 1 {
				required = append(required, at)
			}
			switch {
			case runtimeTypes[f.typ.kind] != "":
				typed = append(typed, TypedField{Field: at, GoType: runtimeTypes[f.typ.kind]})
			case f.typ.kind == kindEnum && f.minOccurs == 1 && !f.nillable:
				typed = append(typed, TypedField{Field: at, Deref: true})
			}
		}
	}
	return required, typed
}
