// Package model reads the contract model from a parsed WSDL document (Read): the types, operations
// and bindings the wire code is generated from, refusing anything outside what the generator carries
// with the construct and its line; and derives from it what gowsdl's output must be corrected in
// (FieldsToFix, RequiredFields, TypedFields) and the Go field of each element (GoFieldOf).
//
// It imports the standard library, wsdl and names.
package model

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/extension"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"
)

// The contract model: what the wire codec and the required and retyped fields are generated from. It
// is read from the whole contract (all four bindings), not the SOAP-only view gowsdl sees, because the
// HTTP bindings decide which operations GET and POST offer and what their result root elements are
// called.

// AbstractTypesNamespace is the namespace of the schema ASMX adds to a contract that offers an array
// parameter on HTTP GET or POST: the service namespace followed by "AbstractTypes". The schema holds
// StringArray, a restriction of soapenc:Array with one repeated String item, which types the
// message part of every such parameter, whatever its item type (asmx-typezoo/more's zoo2.wsdl:
// <wsdl:part name="ids" type="s2:StringArray" />, and the same part for int[] and DateTime[]).
func AbstractTypesNamespace(tns string) string { return tns + "AbstractTypes" }

// Kind is a type's wire kind; the names match the runtime's wire.Kind constants.
type Kind string

const (
	KindString   Kind = "KindString"
	KindInt      Kind = "KindInt"
	KindLong     Kind = "KindLong"
	KindShort    Kind = "KindShort"
	KindBoolean  Kind = "KindBoolean"
	KindDouble   Kind = "KindDouble"
	KindFloat    Kind = "KindFloat"
	KindDecimal  Kind = "KindDecimal"
	KindDateTime Kind = "KindDateTime"
	KindBase64   Kind = "KindBase64"
	KindGUID     Kind = "KindGUID"
	KindEnum     Kind = "KindEnum"
	KindComplex  Kind = "KindComplex"
	KindArray    Kind = "KindArray"
)

// builtinKinds maps the XML Schema types of the subset to their kinds.
var builtinKinds = map[string]Kind{
	"string": KindString, "int": KindInt, "long": KindLong, "short": KindShort, "boolean": KindBoolean,
	"double": KindDouble, "float": KindFloat, "dateTime": KindDateTime, "base64Binary": KindBase64,
	"decimal": KindDecimal,
}

// Type is a type of the contract.
type Type struct {
	Name   string // XSD local name
	GoName string // the Go type's name (names.Go; unique in the package)
	Kind   Kind
	Fields []*Field // complex types and arrays (one unbounded field)
	Enum   []string
	Node   *wsdl.Node
	// Base is the type a complexContent extension derives from (Dog's Animal); nil otherwise. Fields
	// holds the type's own elements only: AllFields adds the base chain's before them.
	Base *Type
	// Abstract: abstract="true" (an abstract class): a value on the wire is of a derived type.
	Abstract bool
	// Derived are the types deriving from this one, directly or not, in document order.
	Derived []*Type
}

// Simple reports whether t is a simple type (neither complex nor an array).
func (t *Type) Simple() bool { return t.Kind != KindComplex && t.Kind != KindArray }

// Field is an element of a sequence.
type Field struct {
	Name      string // the XML name, which the wire codec always uses
	GoName    string // the Go field's name (names.Go; unique in its struct)
	Type      *Type
	MinOccurs int
	MaxOccurs int // -1 for unbounded
	Nillable  bool
}

// Operation is an operation with everything the codec needs.
type Operation struct {
	Name string
	// GoName names the Go methods (GoName and GoName+"Context") and the operation's table entry
	// (op<GoName>); unique among the operations.
	GoName string
	// Doc is the wsdl:documentation text, entities decoded and line breaks kept (as LF).
	Doc               string
	Request, Response *Type // the wrapper elements' anonymous complex types
	RequestElement    string
	ResponseElement   string
	Bindings          []string // "SOAP11", "SOAP12", "HTTPGet", "HTTPPost"
	HTTPRoot          string
	// HTTPParams are the parameters as HTTP GET and POST carry them, in order; nil when neither
	// binding offers the operation.
	HTTPParams []*HTTPParam
	// OneWay: the SOAP portType operation has no wsdl:output (ASMX's
	// [SoapDocumentMethod(OneWay = true)], shapes README §10). The service acknowledges the request
	// before the method runs and sends nothing back; GET and POST offer it as a void method. It has
	// no response wrapper: Response is nil and ResponseElement "".
	OneWay bool
}

// HTTPParam is a parameter of an operation offered on HTTP GET or POST: a simple type, carried as one
// value (?n=5), or an array of a simple type, carried as one value per item (?ids=a&ids=b) and
// described by an AbstractTypes part (AbstractTypesNamespace).
type HTTPParam struct {
	Field *Field // the request wrapper's element
	// Item is the item type of an array parameter; nil for a simple one.
	Item *Type
}

// Contract is the model of a whole WSDL document.
type Contract struct {
	TargetNamespace string
	PortType        string // the SOAP portType's name
	// PortTypeGoName is the Go name of gowsdl's client interface for the portType, and the stem of
	// the generated <PortTypeGoName>Server, …Client and Unimplemented…Server.
	PortTypeGoName string
	Types          []*Type
	Operations     []*Operation
	// AbstractArrays are the array types of the AbstractTypes schema (StringArray), by local name.
	AbstractArrays map[string]bool
	// Structs are the schema components gowsdl turns into a Go struct each, in document order: every
	// named complex type and every top-level element with an anonymous complex type, whether an
	// operation reaches it or not, as gowsdl emits them all. The required and retyped fields are
	// derived from them (FieldsToFix).
	Structs []*Type
	// Declared are the types gowsdl declares a Go type for that the model has read, in the order
	// gowsdl declares them (per schema: simple types, elements, complex types), each with its GoName.
	Declared []*Type
}

// modelError is a generation error that names the construct and where it is.
func modelError(data []byte, n *wsdl.Node, format string, args ...any) error {
	return wsdl.Errorf(data, n, format, args...)
}

// Read builds the model of a WSDL document, refusing anything outside the XSD subset an ASMX
// contract uses.
func Read(defs *wsdl.Definitions) (*Contract, error) {
	m := &modeler{data: defs.Data, defs: defs, c: &Contract{TargetNamespace: defs.TNS, AbstractArrays: map[string]bool{}},
		elements: map[string]*wsdl.Node{}, complexTypes: map[string]*wsdl.Node{}, simpleTypes: map[string]*wsdl.Node{}, done: map[string]*Type{},
		wrappers: map[string]*Type{}}
	var components []*wsdl.Node // the target namespace's top-level elements and complex types, in document order
	for _, s := range defs.Schemas {
		target, _ := s.Attr("targetNamespace")
		if target == AbstractTypesNamespace(defs.TNS) {
			if err := m.abstractTypes(s); err != nil {
				return nil, err
			}
			continue
		}
		for _, c := range s.Children {
			name, _ := c.Attr("name")
			switch {
			case c.Is(wsdl.NamespaceXSD, "element") && target == defs.TNS:
				m.elements[name] = c
				components = append(components, c)
			case c.Is(wsdl.NamespaceXSD, "complexType") && target == defs.TNS:
				m.complexTypes[name] = c
				components = append(components, c)
			case c.Is(wsdl.NamespaceXSD, "simpleType") && target == defs.TNS:
				m.simpleTypes[name] = c
			case c.Is(wsdl.NamespaceXSD, "import"), c.Is(wsdl.NamespaceXSD, "annotation"):
			case target == wsdl.NamespaceMSTypes && c.Is(wsdl.NamespaceXSD, "simpleType") && name == "guid":
			case target == wsdl.NamespaceMSTypes && c.Is(wsdl.NamespaceXSD, "simpleType"):
				return nil, notYet(defs.Data, c, "the Microsoft type %s (guid is the one carried)", name)
			case target != defs.TNS && (c.Is(wsdl.NamespaceXSD, "element") || c.Is(wsdl.NamespaceXSD, "complexType") || c.Is(wsdl.NamespaceXSD, "simpleType")):
				return nil, notYet(defs.Data, c, "a schema of another target namespace (%s: ASMX's RequestNamespace, ResponseNamespace or "+
					"XmlType namespace)", target)
			case c.Name.Space == wsdl.NamespaceXSD:
				return nil, modelError(defs.Data, c, "schema component %s is outside the XSD subset an ASMX contract uses", c.Name.Local)
			}
		}
	}
	if err := m.readOperations(); err != nil {
		return nil, err
	}
	// The wire code covers the types the operations reach; gowsdl emits a struct for every complex
	// type and anonymous-typed element, so those are read (and held to the subset) too, without
	// joining the wire code's types.
	reached := len(m.c.Types)
	for _, c := range components {
		name, _ := c.Attr("name")
		var t *Type
		var err error
		switch {
		case c.Is(wsdl.NamespaceXSD, "complexType"):
			t, err = m.named(c, name)
		case len(c.Elements(wsdl.NamespaceXSD, "complexType")) == 1:
			t, err = m.anonymous(c, name)
		}
		if err != nil {
			return nil, err
		}
		if t != nil {
			m.c.Structs = append(m.c.Structs, t)
		}
	}
	m.c.Types = m.c.Types[:reached]
	m.linkDerived(components)
	m.nameAll()
	return m.c, nil
}

// abstractTypes reads the AbstractTypes schema: an import of the SOAP encoding namespace, and array
// types of the one shape ASMX writes there,
//
//	<s:complexType name="StringArray"><s:complexContent mixed="false">
//	  <s:restriction base="soapenc:Array"><s:sequence>
//	    <s:element minOccurs="0" maxOccurs="unbounded" name="String" type="s:string" />
//
// This schema is the one place a soapenc:Array base is allowed (it describes HTTP GET/POST parameters,
// never a SOAP message); anything else in it is refused.
func (m *modeler) abstractTypes(s *wsdl.Node) error {
	for _, c := range s.Children {
		name, _ := c.Attr("name")
		switch {
		case c.Is(wsdl.NamespaceXSD, "annotation"):
		case c.Is(wsdl.NamespaceXSD, "import"):
			if ns, _ := c.Attr("namespace"); ns != wsdl.NamespaceSOAPEncoding {
				return modelError(m.data, c, "the AbstractTypes schema imports only the SOAP encoding namespace %s", wsdl.NamespaceSOAPEncoding)
			}
		case c.Is(wsdl.NamespaceXSD, "complexType") && name != "":
			if err := extension.StringArray(m.data, c); err != nil {
				return err
			}
			m.c.AbstractArrays[name] = true
		default:
			return modelError(m.data, c, "the AbstractTypes schema holds only the array types ASMX describes HTTP GET/POST array parameters with (StringArray)")
		}
	}
	return nil
}

type modeler struct {
	data                                []byte
	defs                                *wsdl.Definitions
	c                                   *Contract
	elements, complexTypes, simpleTypes map[string]*wsdl.Node
	done                                map[string]*Type
	wrappers                            map[string]*Type    // anonymous complex types of top-level elements, by element name
	derivedOf                           map[string][]string // inherit.go: extension base → derived type names, document order
}

// typeOf resolves a type QName used at n.
func (m *modeler) typeOf(n *wsdl.Node, attr string) (*Type, error) {
	q, ok, err := n.QNameAttr(attr)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, notYet(m.data, n, "an element with no %s (xsd:anyType, which ASMX writes for .NET's object)", attr)
	}
	switch q.Space {
	case wsdl.NamespaceXSD:
		kind, ok := builtinKinds[q.Local]
		if !ok {
			// ASMX writes any XML Schema type: unsignedInt and the other .NET integer types, and any
			// built-in a member's [XmlElement(DataType = …)] names.
			return nil, notYet(m.data, n, "type xsd:%s", q.Local)
		}
		return m.builtin(q.Local, kind), nil
	case wsdl.NamespaceMSTypes:
		if q.Local != "guid" {
			return nil, notYet(m.data, n, "type {%s}%s (guid is the one Microsoft type carried)", q.Space, q.Local)
		}
		return m.builtin(q.Local, KindGUID), nil
	case m.defs.TNS:
		return m.named(n, q.Local)
	}
	for _, s := range m.defs.Schemas {
		if target, _ := s.Attr("targetNamespace"); target == q.Space {
			return nil, notYet(m.data, n, "type {%s}%s of another schema namespace", q.Space, q.Local)
		}
	}
	return nil, modelError(m.data, n, "type {%s}%s is not defined in this contract", q.Space, q.Local)
}

func (m *modeler) builtin(name string, kind Kind) *Type {
	key := "xsd:" + name
	if t := m.done[key]; t != nil {
		return t
	}
	t := &Type{Name: name, Kind: kind}
	m.done[key] = t
	return t
}

// named resolves a named complex or simple type of the target namespace.
func (m *modeler) named(from *wsdl.Node, name string) (*Type, error) {
	if t := m.done[name]; t != nil {
		return t, nil
	}
	if n := m.complexTypes[name]; n != nil {
		t := &Type{Name: name, Kind: KindComplex, Node: n}
		m.done[name] = t // before its fields, so recursive types resolve
		fields, err := m.content(t, n)
		if err != nil {
			return nil, err
		}
		t.Fields = fields
		if strings.HasPrefix(name, "ArrayOf") && len(fields) == 1 && fields[0].MaxOccurs == -1 {
			t.Kind = KindArray
		}
		m.c.Types = append(m.c.Types, t)
		if err := m.reachDerived(name); err != nil {
			return nil, err
		}
		return t, nil
	}
	if n := m.simpleTypes[name]; n != nil {
		t := &Type{Name: name, Kind: KindEnum, Node: n}
		restrictions := n.Elements(wsdl.NamespaceXSD, "restriction")
		if lists := n.Elements(wsdl.NamespaceXSD, "list"); len(lists) == 1 {
			return nil, notYet(m.data, lists[0], "a list type (ASMX's [Flags] enumeration)")
		}
		if len(restrictions) != 1 || len(n.Children) != 1 {
			return nil, modelError(m.data, n, "only enumerations (a restriction of xsd:string) are supported simple types")
		}
		base, _, err := restrictions[0].QNameAttr("base")
		if err != nil || base.Space != wsdl.NamespaceXSD || base.Local != "string" {
			return nil, modelError(m.data, restrictions[0], "an enumeration must restrict xsd:string")
		}
		for _, e := range restrictions[0].Children {
			if !e.Is(wsdl.NamespaceXSD, "enumeration") {
				return nil, modelError(m.data, e, "only xs:enumeration facets are supported")
			}
			v, _ := e.Attr("value")
			t.Enum = append(t.Enum, v)
		}
		if len(t.Enum) == 0 {
			return nil, modelError(m.data, n, "an enumeration needs at least one value")
		}
		m.done[name] = t
		m.c.Types = append(m.c.Types, t)
		return t, nil
	}
	return nil, modelError(m.data, from, "type %s is not defined in this contract", name)
}

// sequence reads a complex type's content: nothing, or one xs:sequence of xs:element.
func (m *modeler) sequence(ct *wsdl.Node) ([]*Field, error) {
	var fields []*Field
	for _, c := range ct.Children {
		switch {
		case c.Is(wsdl.NamespaceXSD, "annotation"):
		case c.Is(wsdl.NamespaceXSD, "sequence"):
			if _, has := c.Attr("minOccurs"); has {
				return nil, modelError(m.data, c, "occurrence on a sequence is outside the XSD subset")
			}
			for _, el := range c.Children {
				switch {
				case el.Is(wsdl.NamespaceXSD, "any"):
					return nil, notYet(m.data, el, "any (an [XmlAnyElement] member, XmlElement, XmlNode or DataSet)")
				case el.Is(wsdl.NamespaceXSD, "choice"):
					return nil, notYet(m.data, el, "choice (an [XmlChoiceIdentifier] or [XmlElement] choice member)")
				case !el.Is(wsdl.NamespaceXSD, "element"):
					return nil, modelError(m.data, el, "%s inside a sequence is outside the XSD subset an ASMX contract uses (elements only)", el.Name.Local)
				}
				f, err := m.field(el)
				if err != nil {
					return nil, err
				}
				fields = append(fields, f)
			}
		case c.Is(wsdl.NamespaceXSD, "complexContent") && extension.SOAPEncArray(c):
			return nil, modelError(m.data, c, "a soapenc:Array type is allowed only in the %s schema, for HTTP GET/POST array parameters; "+
				"SOAP messages use ArrayOfX types (a sequence of one unbounded element)", AbstractTypesNamespace(m.defs.TNS))
		case c.Is(wsdl.NamespaceXSD, "complexContent"):
			return nil, notYet(m.data, c, "complexContent (a class derived from another, or an abstract base)")
		case c.Is(wsdl.NamespaceXSD, "simpleContent"):
			return nil, notYet(m.data, c, "simpleContent (a class with an [XmlText] member)")
		case c.Is(wsdl.NamespaceXSD, "attribute"):
			return nil, notYet(m.data, c, "attribute (an [XmlAttribute] member)")
		case c.Is(wsdl.NamespaceXSD, "anyAttribute"):
			return nil, notYet(m.data, c, "anyAttribute (ASMX writes it on every SOAP header type, and for [XmlAnyAttribute])")
		case c.Is(wsdl.NamespaceXSD, "choice"):
			return nil, notYet(m.data, c, "choice (an [XmlChoiceIdentifier] or [XmlElement] choice member)")
		default:
			return nil, modelError(m.data, c, "%s is outside the XSD subset an ASMX contract uses (sequences of elements only)", c.Name.Local)
		}
	}
	return fields, nil
}

func (m *modeler) field(el *wsdl.Node) (*Field, error) {
	name, ok := el.Attr("name")
	if !ok {
		if _, ref := el.Attr("ref"); ref {
			return nil, notYet(m.data, el, "an element reference (ref=, which ASMX writes for a DataSet's s:schema)")
		}
		return nil, modelError(m.data, el, "has neither name nor ref")
	}
	for _, a := range el.Attrs {
		switch a.Name.Local {
		case "name", "type", "minOccurs", "maxOccurs", "nillable":
		case "default", "form":
			return nil, notYet(m.data, el, "attribute %s (ASMX writes it for [DefaultValue] and [XmlElement(Form = …)])", a.Name.Local)
		default:
			return nil, modelError(m.data, el, "attribute %s is outside the XSD subset", a.Name.Local)
		}
	}
	if len(el.Children) > 0 {
		return nil, notYet(m.data, el, "an anonymous type below the operation wrappers (ASMX's shape of XmlElement, XmlNode and DataSet values)")
	}
	f := &Field{Name: name, MinOccurs: 1, MaxOccurs: 1}
	if v, ok := el.Attr("minOccurs"); ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 1 {
			return nil, modelError(m.data, el, "minOccurs=%q: only 0 and 1 are supported", v)
		}
		f.MinOccurs = n
	}
	if v, ok := el.Attr("maxOccurs"); ok {
		switch v {
		case "1":
		case "unbounded":
			f.MaxOccurs = -1
		default:
			return nil, modelError(m.data, el, "maxOccurs=%q: only 1 and unbounded are supported", v)
		}
	}
	if v, _ := el.Attr("nillable"); v == "true" {
		f.Nillable = true
	}
	t, err := m.typeOf(el, "type")
	if err != nil {
		return nil, err
	}
	f.Type = t
	return f, nil
}

// wrapper reads an operation wrapper: a global element with an anonymous complex type.
func (m *modeler) wrapper(part *wsdl.Node) (string, *Type, error) {
	q, ok, err := part.QNameAttr("element")
	if err != nil {
		return "", nil, err
	}
	switch {
	case !ok:
		if _, typed := part.Attr("type"); typed {
			return "", nil, notYet(m.data, part, "a message part with a type (rpc style, [SoapRpcMethod])")
		}
		return "", nil, modelError(m.data, part, "a SOAP message part must name a wrapper element of the target namespace (document/literal wrapped)")
	case q.Space != m.defs.TNS:
		return "", nil, notYet(m.data, part, "a wrapper element of another namespace (%s: ASMX's RequestNamespace or ResponseNamespace)", q.Space)
	}
	el := m.elements[q.Local]
	if el == nil {
		return "", nil, modelError(m.data, part, "element %s is not defined", q.Local)
	}
	if len(el.Elements(wsdl.NamespaceXSD, "complexType")) != 1 {
		return "", nil, notYet(m.data, el, "a message part whose element has a named type (document/literal bare, SoapParameterStyle.Bare)")
	}
	t, err := m.anonymous(el, q.Local)
	return q.Local, t, err
}

// anonymous reads the anonymous complex type of top-level element el, named name.
func (m *modeler) anonymous(el *wsdl.Node, name string) (*Type, error) {
	if t := m.wrappers[name]; t != nil {
		return t, nil
	}
	fields, err := m.sequence(el.Elements(wsdl.NamespaceXSD, "complexType")[0])
	if err != nil {
		return nil, err
	}
	t := &Type{Name: name, Kind: KindComplex, Fields: fields, Node: el}
	m.wrappers[name] = t
	return t, nil
}

// bindingKind names a wsdl:binding's protocol: SOAP11, SOAP12, HTTPGet, HTTPPost, or "".
func bindingKind(b *wsdl.Node) string {
	for _, c := range b.Children {
		switch {
		case c.Is(wsdl.NamespaceSOAP11, "binding"):
			return "SOAP11"
		case c.Is(wsdl.NamespaceSOAP12, "binding"):
			return "SOAP12"
		case c.Is(wsdl.NamespaceHTTP, "binding"):
			switch v, _ := c.Attr("verb"); v {
			case "GET":
				return "HTTPGet"
			case "POST":
				return "HTTPPost"
			}
		}
	}
	return ""
}

func documentation(n *wsdl.Node, data []byte) string {
	docs := n.Elements(wsdl.NamespaceWSDL, "documentation")
	if len(docs) == 0 {
		return ""
	}
	// The text of the first (WSDL allows one), entities and character references decoded, line
	// breaks kept; markup inside it, which WSDL allows, contributes its text.
	d := xml.NewDecoder(bytes.NewReader(data[docs[0].Start:docs[0].End]))
	var text strings.Builder
	for {
		tok, err := d.RawToken()
		if err != nil {
			break
		}
		if cd, ok := tok.(xml.CharData); ok {
			text.Write(cd)
		}
	}
	// Line breaks are LF whatever the document wrote (a character reference &#13; survives XML's
	// own normalisation), so the comment lines and the help page agree.
	doc := strings.ReplaceAll(text.String(), "\r\n", "\n")
	return strings.TrimSpace(strings.ReplaceAll(doc, "\r", "\n"))
}

// operations reads the SOAP portType's operations and which bindings offer each.
func (m *modeler) readOperations() error {
	offered := map[string]map[string]bool{} // binding kind -> operation names
	var soapPortType *wsdl.Node
	httpPortTypes := map[string]*wsdl.Node{}
	for _, b := range m.defs.Bindings.Order {
		kind := bindingKind(b)
		if kind == "" {
			continue
		}
		pt, err := m.defs.PortTypes.Resolve(b, "type", m.defs.TNS)
		if err != nil {
			return err
		}
		switch kind {
		case "SOAP11", "SOAP12":
			if soapPortType != nil && soapPortType != pt {
				return modelError(m.data, b, "all SOAP bindings must implement one portType")
			}
			soapPortType = pt
		default:
			httpPortTypes[kind] = pt
		}
		if offered[kind] == nil {
			offered[kind] = map[string]bool{}
		}
		for _, op := range b.Elements(wsdl.NamespaceWSDL, "operation") {
			name, _ := op.Attr("name")
			offered[kind][name] = true
			if kind == "SOAP11" || kind == "SOAP12" {
				if err := m.soapOperation(b, op, name); err != nil {
					return err
				}
			}
		}
	}
	if soapPortType == nil {
		return fmt.Errorf("no wsdl:binding has a SOAP 1.1 or SOAP 1.2 binding extension: nothing to generate")
	}
	m.c.PortType, _ = soapPortType.Attr("name")
	for _, op := range soapPortType.Elements(wsdl.NamespaceWSDL, "operation") {
		name, _ := op.Attr("name")
		co := &Operation{Name: name, Doc: documentation(op, m.data)}
		for _, io := range []string{"input", "output"} {
			ios := op.Elements(wsdl.NamespaceWSDL, io)
			if io == "output" && len(ios) == 0 && len(op.Elements(wsdl.NamespaceWSDL, "fault")) == 0 {
				co.OneWay = true // a one-way operation (WSDL 1.1 §2.4.1): input only
				continue
			}
			if len(ios) != 1 {
				return modelError(m.data, op, "a SOAP operation needs exactly one %s", io)
			}
			msg, err := m.defs.Messages.Resolve(ios[0], "message", m.defs.TNS)
			if err != nil {
				return err
			}
			parts := msg.Elements(wsdl.NamespaceWSDL, "part")
			if len(parts) != 1 {
				return notYet(m.data, msg, "a message of %d parts (document/literal bare, SoapParameterStyle.Bare)", len(parts))
			}
			el, t, err := m.wrapper(parts[0])
			if err != nil {
				return err
			}
			if io == "input" {
				co.RequestElement, co.Request = el, t
			} else {
				co.ResponseElement, co.Response = el, t
			}
		}
		if co.OneWay {
			if err := m.oneWay(op, co); err != nil {
				return err
			}
		}
		if !co.OneWay && (co.RequestElement != name || co.ResponseElement != name+"Response") {
			return notYet(m.data, op, "a renamed request or response element (%s and %s rather than %s and %sResponse: MessageName, RequestElementName or "+
				"ResponseElementName)", co.RequestElement, co.ResponseElement, name, name)
		}
		if !co.OneWay && len(co.Response.Fields) > 1 {
			return notYet(m.data, co.Response.Node, "a response wrapper of %d elements (out and ref parameters)", len(co.Response.Fields))
		}
		if !co.OneWay && len(co.Response.Fields) == 1 && co.Response.Fields[0].Name != name+"Result" {
			return notYet(m.data, co.Response.Node, "a renamed result (%s rather than %sResult: [return: XmlElement])", co.Response.Fields[0].Name, name)
		}
		for _, kind := range []string{"SOAP11", "SOAP12", "HTTPGet", "HTTPPost"} {
			if offered[kind][name] {
				co.Bindings = append(co.Bindings, kind)
			}
		}
		for _, kind := range []string{"HTTPGet", "HTTPPost"} {
			if !offered[kind][name] {
				continue
			}
			params, err := m.httpParams(httpPortTypes[kind], co, kind)
			if err != nil {
				return err
			}
			co.HTTPParams = params
			root, err := m.httpRoot(httpPortTypes[kind], name)
			if err != nil {
				return err
			}
			if co.HTTPRoot != "" && co.HTTPRoot != root {
				return modelError(m.data, op, "HTTP GET and POST disagree on the result root element")
			}
			co.HTTPRoot = root
		}
		if co.HTTPRoot == "" && !co.OneWay && len(co.Response.Fields) == 1 {
			co.HTTPRoot = co.Response.Fields[0].Type.Name
		}
		m.c.Operations = append(m.c.Operations, co)
	}
	return nil
}

// httpParams reads the parameters of operation co as the HTTP binding kind's portType describes
// them, one message part per parameter of the request wrapper, in its order and with its name, as
// ASMX writes them: type="s:string" for a simple type, type="s2:StringArray" (the AbstractTypes
// schema) for an array of a simple type. A parameter ASMX could never offer on HTTP GET or POST, a
// guid or a complex type, is refused with the operation and part named, as is a part that does not
// describe its parameter.
func (m *modeler) httpParams(pt *wsdl.Node, co *Operation, kind string) ([]*HTTPParam, error) {
	op, err := m.portTypeOperation(pt, co.Name)
	if err != nil {
		return nil, err
	}
	ins := op.Elements(wsdl.NamespaceWSDL, "input")
	if len(ins) != 1 {
		return nil, modelError(m.data, op, "needs one input")
	}
	msg, err := m.defs.Messages.Resolve(ins[0], "message", m.defs.TNS)
	if err != nil {
		return nil, err
	}
	parts := msg.Elements(wsdl.NamespaceWSDL, "part")
	var names []string
	for _, f := range co.Request.Fields {
		names = append(names, f.Name)
	}
	if len(parts) != len(co.Request.Fields) {
		return nil, modelError(m.data, msg, "operation %s on %s: the message has %d parts, but the operation has the parameters [%s]; "+
			"an HTTP GET/POST message has one part per parameter, in order", co.Name, kind, len(parts), strings.Join(names, " "))
	}
	var out []*HTTPParam
	for i, f := range co.Request.Fields {
		part := parts[i]
		partName, _ := part.Attr("name")
		if partName != f.Name {
			return nil, modelError(m.data, part, "operation %s on %s: part %q must be the parameter %s (the parameters in order: [%s])",
				co.Name, kind, partName, f.Name, strings.Join(names, " "))
		}
		for _, g := range co.Request.Fields[:i] {
			if strings.EqualFold(g.Name, f.Name) {
				return nil, modelError(m.data, part, "operation %s on %s: the parameters %s and %s differ only in case, which HTTP GET/POST "+
					"cannot tell apart (parameter names are matched without regard to case, as ASMX matches them)", co.Name, kind, g.Name, f.Name)
			}
		}
		typ, ok, err := part.QNameAttr("type")
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, modelError(m.data, part, "operation %s on %s: part %s needs a type attribute (an HTTP GET/POST part is not an element)", co.Name, kind, f.Name)
		}
		offered := fmt.Sprintf("operation %s is offered on %s, but its parameter %s", co.Name, kind, f.Name)
		list := typ.Space == AbstractTypesNamespace(m.defs.TNS) && m.c.AbstractArrays[typ.Local]
		switch t := f.Type; {
		case t.Kind == KindGUID:
			return nil, modelError(m.data, part, "%s is a guid, which ASMX never offers on HTTP GET/POST (its URL reader cannot read one): "+
				"leave %s out of the %s binding", offered, co.Name, kind)
		case t.Kind == KindComplex:
			return nil, modelError(m.data, part, "%s has the complex type %s; ASMX offers on HTTP GET/POST only operations whose "+
				"parameters are simple types or arrays of them: leave %s out of the %s binding", offered, t.Name, co.Name, kind)
		case t.Kind == KindArray && !t.Fields[0].Type.Simple(), t.Kind == KindArray && t.Fields[0].Type.Kind == KindGUID:
			return nil, modelError(m.data, part, "%s is an array of %s, not of a simple type other than guid; ASMX offers on HTTP GET/POST "+
				"only operations whose parameters are simple types or arrays of them: leave %s out of the %s binding", offered, t.Fields[0].Type.Name, co.Name, kind)
		case t.Kind == KindArray && !list:
			return nil, modelError(m.data, part, "%s is an array (%s), which HTTP GET/POST carry as one value per item: its part's type "+
				"must be an array type of the %s schema, as ASMX writes type=\"s2:StringArray\"", offered, t.Name, AbstractTypesNamespace(m.defs.TNS))
		case t.Kind == KindArray:
			out = append(out, &HTTPParam{Field: f, Item: t.Fields[0].Type})
		case list && t.Kind == KindBase64:
			return nil, notYet(m.data, part, "%s is a base64Binary (byte[]) that ASMX describes as an array type on %s", offered, kind)
		case list:
			return nil, modelError(m.data, part, "%s is a simple type (%s), but its part is typed as an array; ASMX types it s:string", offered, t.Name)
		case typ.Space != wsdl.NamespaceXSD:
			return nil, modelError(m.data, part, "%s is a simple type (%s); its part must have an XML Schema type, as ASMX writes type=\"s:string\"", offered, t.Name)
		case f.MaxOccurs != 1:
			return nil, modelError(m.data, part, "%s is a repeated element; use an ArrayOf type", offered)
		default:
			out = append(out, &HTTPParam{Field: f})
		}
	}
	return out, nil
}

// portTypeOperation finds an operation of a portType by name.
func (m *modeler) portTypeOperation(pt *wsdl.Node, opName string) (*wsdl.Node, error) {
	for _, op := range pt.Elements(wsdl.NamespaceWSDL, "operation") {
		if name, _ := op.Attr("name"); name == opName {
			return op, nil
		}
	}
	return nil, fmt.Errorf("the HTTP portType has no operation %s", opName)
}

// httpRoot returns the result root element of an operation on an HTTP binding's portType.
func (m *modeler) httpRoot(pt *wsdl.Node, opName string) (string, error) {
	for _, op := range pt.Elements(wsdl.NamespaceWSDL, "operation") {
		if name, _ := op.Attr("name"); name != opName {
			continue
		}
		outs := op.Elements(wsdl.NamespaceWSDL, "output")
		if len(outs) != 1 {
			return "", modelError(m.data, op, "needs one output")
		}
		msg, err := m.defs.Messages.Resolve(outs[0], "message", m.defs.TNS)
		if err != nil {
			return "", err
		}
		for _, p := range msg.Elements(wsdl.NamespaceWSDL, "part") {
			q, ok, err := p.QNameAttr("element")
			if err != nil {
				return "", err
			}
			if ok {
				return q.Local, nil
			}
		}
		return "", nil // no result
	}
	return "", fmt.Errorf("the HTTP portType has no operation %s", opName)
}
