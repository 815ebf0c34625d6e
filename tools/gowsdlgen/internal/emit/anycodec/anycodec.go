// Package anycodec writes the wire code of the open kinds (model.KindObject, KindRawXML, KindDataSet:
// an element without a type, XmlElement, XmlNode, XmlNode[] and DataSet values, shapes README §3 and
// §4) over the runtime's anytype and xmlany packages: the statements xmlcodec and jsoncodec call for
// such a field, the HTTP GET/POST result content, and the contract's object Registry, from which an
// object's xsi:type is read and written.
//
// It imports the standard library, emit and model.
package anycodec

import (
	"strconv"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
)

// RegistryName is the generated variable holding the contract's anytype.Registry.
const RegistryName = "objectRegistry"

// Emitter writes the open kinds' code into Writer.
type Emitter struct {
	*emit.Writer
}

func (e Emitter) p(format string, args ...any) { e.P(format, args...) }

// Handles reports whether f is of an open kind, whose code this package writes.
func Handles(f *model.Field) bool { return model.Open(f.Type.Kind) }

// shape is the xmlany.Shape a raw-XML type keeps of an element's children.
func shape(t *model.Type) string {
	switch t.Name {
	case "XmlNode": // contract.XmlNodeName
		return "xmlany.Node"
	case "ArrayOfXmlNode": // contract.XmlNodesName
		return "xmlany.Nodes"
	}
	return "xmlany.Element"
}

// Append writes the statements appending one value of f held in expr: an object with its xsi:type
// (nothing for nil, xsi:nil for a nil item of a nillable element such as ArrayOfAnyType's), raw XML as
// the element around its nodes (nothing when it holds none: ASMX omits a null XmlElement), a DataSet
// as the element around its schema and diffgram (nothing for nil).
func (e Emitter) Append(f *model.Field, expr string) {
	name := strconv.Quote(f.Name)
	switch f.Type.Kind {
	case model.KindObject:
		if f.Nillable {
			e.p("if %s.Kind() == anytype.Nil { b = xmlwire.AppendNil(b, %s) } else {", expr, name)
			e.p("b = appendObject(b, %s, %s)", name, expr)
			e.p("}")
			return
		}
		e.p("b = appendObject(b, %s, %s)", name, expr)
	case model.KindRawXML:
		e.p("if !%s.IsZero() { b = xmlany.AppendElement(b, %s, %s) }", expr, name, expr)
	case model.KindDataSet:
		e.p("if %s != nil { b = xmlany.AppendElement(b, %s, %s.Content) }", expr, name, expr)
	}
}

// Decode writes the statements reading the element el into expr, setting err (declared by the
// caller); label names it in errors.
func (e Emitter) Decode(f *model.Field, expr, label string) {
	switch f.Type.Kind {
	case model.KindObject:
		e.p("%s, err = anytype.Read(r, el, %s, %s)", expr, label, RegistryName)
	case model.KindRawXML:
		e.p("%s, err = xmlany.Capture(r, el, %s, %s)", expr, shape(f.Type), label)
	case model.KindDataSet: // xsi:nil is none (the nil root of a GET/POST result)
		e.p("if el.Nil() {")
		e.p("%s = nil", expr)
		e.p("err = r.Skip(el)")
		e.p("} else {")
		e.p("var ds xmlany.DataSet")
		e.p("ds, err = xmlany.CaptureDataSet(r, el, %s)", label)
		e.p("%s = &ds", expr)
		e.p("}")
	}
}

// AppendResult writes the body of an HTTP GET/POST AppendResult for a result of an open kind, which
// the binding has opened with the root's start tag: an object through anytype.AppendHTTPResult (its
// xsi:type on the root, as ASMX writes it: get-GetObject-*), raw XML and a DataSet as the root's
// content. A null value is a nil root.
func (e Emitter) AppendResult(f *model.Field, expr string) {
	switch f.Type.Kind {
	case model.KindObject:
		e.p("return anytype.AppendHTTPResult(b, %s, %s)", expr, RegistryName)
	case model.KindRawXML:
		e.p("if %s.IsZero() { return b, false }", expr)
		e.p("return %s.AppendTo(b), true", expr)
	case model.KindDataSet:
		e.p("if %s == nil { return b, false }", expr)
		e.p("return %s.Content.AppendTo(b), true", expr)
	}
}

// AppendJSON writes the statements appending one value of f held in expr on the JSON endpoint: null
// for no value, else a string holding its XML (docs/bindings.md: the JSON endpoint carries an open
// value as its XML text; it does not map XML to JSON).
func (e Emitter) AppendJSON(f *model.Field, expr string) {
	switch f.Type.Kind {
	case model.KindObject:
		e.p("b = appendJSONObject(b, %s)", expr)
	case model.KindRawXML:
		e.p("if %s.IsZero() { b = append(b, \"null\"...) } else { b = jsonwire.AppendString(b, %s.String()) }", expr, expr)
	case model.KindDataSet:
		e.p("if %s == nil { b = append(b, \"null\"...) } else { b = jsonwire.AppendString(b, %s.Content.String()) }", expr, expr)
	}
}

// DecodeJSON writes the statements reading the JSON value whose first token is tok into expr,
// setting err: null is no value, a string the XML nodes (xmlany.ParseRawXML, within jsonXMLLimits),
// or for an object its anyType element as appendJSONObject writes it.
func (e Emitter) DecodeJSON(f *model.Field, expr, label string) {
	e.p("if !tok.IsNull() {")
	switch f.Type.Kind {
	case model.KindObject:
		e.p("%s, err = decodeJSONObject(tok, %s)", expr, label)
	case model.KindRawXML, model.KindDataSet:
		e.p("var text string")
		e.p("if text, err = jsonwire.String(tok, %s); err == nil {", label)
		if f.Type.Kind == model.KindRawXML {
			e.p("%s, err = xmlany.ParseRawXML(text, jsonXMLLimits)", expr)
		} else {
			e.p("var ds xmlany.DataSet")
			e.p("ds.Content, err = xmlany.ParseRawXML(text, jsonXMLLimits)")
			e.p("%s = &ds", expr)
		}
		e.p("}")
	}
	e.p("}")
}

// Uses reports whether the contract has an element of an open kind.
func Uses(c *model.Contract) bool {
	var types []*model.Type
	types = append(types, c.Types...)
	for _, op := range c.Operations {
		types = append(types, op.Request)
		if op.Response != nil {
			types = append(types, op.Response)
		}
	}
	for _, t := range types {
		for _, f := range t.Fields {
			if Handles(f) {
				return true
			}
		}
	}
	return false
}

// ObjectTypes returns the contract's types an object value may hold and be read as, for a contract
// with an element of an open kind (else none): its concrete complex types and arrays, ArrayOfAnyType
// aside (an object[] is the object's own Array kind). The registry maps them, and the descriptor lists
// them (wire.Contract.ObjectTypes) for the store's derived rows.
func ObjectTypes(c *model.Contract) []*model.Type {
	if !Uses(c) {
		return nil
	}
	var out []*model.Type
	for _, t := range c.Types {
		if (t.Kind == model.KindComplex || t.Kind == model.KindArray) && !t.Abstract && t.Name != "ArrayOfAnyType" {
			out = append(out, t)
		}
	}
	return out
}

// Helpers writes, for a contract with an element of an open kind, the object Registry (every concrete
// complex type and array of the contract, by XSD name, and its enumerations: the types an xsi:type
// may name, as ASMX knows the types of the contract), XSDType for the types outside a hierarchy
// (postprocess/hierarchy declares the others'), the helpers the statements above call, and
// CheckObjects for every type and wrapper from which an object is reachable (check.go).
func (e Emitter) Helpers(c *model.Contract) error {
	if !Uses(c) {
		return nil
	}
	for _, t := range c.Types {
		if (t.Kind == model.KindComplex || t.Kind == model.KindArray) && !t.Polymorphic() && t.Base == nil {
			e.p("")
			e.p("// XSDType returns %q, the type's XSD local name, as an object's xsi:type names it.", t.Name)
			e.p("func (*%s) XSDType() string { return %q }", t.GoName, t.Name)
		}
	}
	for _, t := range c.Types {
		if t.Kind == model.KindComplex && !t.Abstract && t.HasAttrs() {
			// An object holding it reads its attributes from the element's start (anytype.Read).
			e.p("")
			e.p("// DecodeXMLElement reads the element el of %s, its attributes included, as an object's value.", t.Name)
			e.p("func (v *%s) DecodeXMLElement(r *xmlwire.Reader, el xmlwire.Start) error { return v.decodeXMLElement(r, el) }", t.GoName)
		}
	}
	e.p("")
	e.p("// %s is what an object (xsd:anyType) value may hold of the contract: its concrete complex", RegistryName)
	e.p("// types and arrays and its enumerations, by XSD name.")
	e.p("var %s = &anytype.Registry{", RegistryName)
	e.p("Namespace: Contract.Namespace,")
	e.p("Types: map[string]func() anytype.Typed{")
	for _, t := range ObjectTypes(c) {
		e.p("%q: func() anytype.Typed { return new(%s) },", t.Name, t.GoName)
	}
	e.p("},")
	e.p("Enums: map[string][]string{")
	for _, t := range c.Declared { // an enumeration no operation reaches too ([XmlInclude(typeof(Tier))])
		if t.Kind == model.KindEnum {
			e.p("%q: {%s},", t.Name, emit.QuoteList(t.Enum))
		}
	}
	e.p("},")
	e.p("}")
	e.p("")
	e.p("// appendObject appends an object element. A complex value of a type the contract does not have")
	e.p("// cannot be written (ASMX answers a Server fault for a class no [XmlInclude] names:")
	e.p("// soap11-GetObject-widget), and never gets here from the handler or the client: the handler")
	e.p("// asks each operation's CheckResult (CheckObjects, which walks to every object a response")
	e.p("// holds) before writing a byte and answers an internal error, and the client asks a request's")
	e.p("// CheckObjects before sending it. Only code that writes a value itself (AppendXML, AppendJSON)")
	e.p("// without asking CheckObjects first can get here: that bug panics, as a nil map write does,")
	e.p("// rather than write a document that drops the value.")
	e.p("func appendObject(b []byte, name string, o anytype.Object) []byte {")
	e.p("b, err := anytype.Append(b, name, o, %s)", RegistryName)
	e.p("if err != nil { panic(err) }")
	e.p("return b")
	e.p("}")
	e.p("")
	e.p("// appendJSONObject appends an object on the JSON endpoint: null, or a string holding its XML")
	e.p("// element (anyType), which declares the namespaces its xsi:type needs.")
	e.p("func appendJSONObject(b []byte, o anytype.Object) []byte {")
	e.p("if o.Kind() == anytype.Nil { return append(b, \"null\"...) }")
	e.p("x := appendObject(nil, \"anyType\", o)")
	e.p("return jsonwire.AppendString(b, `<anyType xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" xmlns=\"`+Contract.Namespace+`\"`+string(x[len(\"<anyType\"):]))")
	e.p("}")
	e.p("")
	e.p("// decodeJSONObject reads an object from the JSON endpoint: a string holding its XML element, as")
	e.p("// appendJSONObject writes it (declaring the namespaces its xsi:type uses), a complex value's")
	e.p("// elements in the contract's namespace, as generated.")
	e.p("func decodeJSONObject(tok jsonwire.Token, what string) (anytype.Object, error) {")
	e.p("text, err := jsonwire.String(tok, what)")
	e.p("if err != nil { return anytype.Object{}, err }")
	e.p("r := xmlwire.NewReader([]byte(text), Contract.Namespace, jsonXMLLimits, false)")
	e.p("root, err := r.Root()")
	e.p("if err != nil { return anytype.Object{}, err }")
	e.p("o, err := anytype.Read(r, root, what, %s)", RegistryName)
	e.p("if err != nil { return anytype.Object{}, err }")
	e.p("return o, r.End()")
	e.p("}")
	e.p("")
	e.p("// jsonXMLLimits bound the XML of a raw-XML or DataSet value read from a JSON string.")
	e.p("var jsonXMLLimits = xmlwire.Limits{MaxDepth: 64, MaxElements: 1 << 16}")
	e.checkObjects(c)
	return nil
}
