package contract

// Attr is an attribute of a complex type, as ASMX writes a member marked [XmlAttribute] (shapes
// README §11): unqualified, of a simple type, an enumeration or a [Flags] enumeration.
type Attr struct {
	Name   string // the XML name, which the wire codec always uses
	GoName string // the Go field's name, in the struct's scope after its elements'
	Type   *Type
	// Required is use="required", which ASMX writes for every value type: such an attribute is always
	// written (rev="0"), and an absent one reads as the zero value (soap11-EchoTagged-attrs-absent).
	Required bool
}

// TextGoName is the Go field holding a simple-content type's text ([XmlText]), as gowsdl names it.
const TextGoName = "Value"

// HasAttrs reports whether values of t carry attributes or text content, so their start tag is
// written and read with more than the element's name: a derived type carries its base chain's.
func (t *Type) HasAttrs() bool { return t != nil && (len(t.AllAttrs()) > 0 || t.Text != nil) }

// AllAttrs are t's attributes as they travel: the base chain's first, then t's own, as .NET's
// XmlSerializer writes a base class's members before a derived class's (AllFields' order).
func (t *Type) AllAttrs() []*Attr {
	if t.Base == nil {
		return t.Attrs
	}
	return append(append([]*Attr(nil), t.Base.AllAttrs()...), t.Attrs...)
}

// GoField is the Go field of attribute a: the value for a required attribute (a value type, always
// written) and for an optional string (omitted when empty), a pointer for any other optional one
// (omitted when nil).
func (a *Attr) GoField() GoField {
	typ := SimpleGoTypes[a.Type.Kind]
	if typ == "" { // an enumeration or [Flags]
		typ = a.Type.GoName
	}
	if !a.Required && a.Type.Kind != KindString {
		typ = "*" + typ
	}
	return GoField{Name: a.GoName, Type: typ}
}

// TextGoType is the Go type of the Value field of a simple-content type t.
func (t *Type) TextGoType() string {
	if typ := SimpleGoTypes[t.Text.Kind]; typ != "" {
		return typ
	}
	return t.Text.GoName
}
