// Package model reads the contract model from a parsed WSDL document (Read): the types, operations
// and bindings the wire code is generated from, refusing anything outside what the generator carries
// with the construct and its line; and derives from it what gowsdl's output must be corrected in
// (RequiredFields, TypedFields). The model's types, their Go names and the Go field of each element
// (GoFieldOf) are package contract's, which this package re-exports under the same names
// (contract.go), so the generator's other packages import model alone.
//
// It imports the standard library, wsdl, names, contract and extension.
package model

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/contract"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/extension"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model/anyxml"
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

// builtinKinds maps the XML Schema types of the subset to their kinds.
var builtinKinds = map[string]Kind{
	"string": KindString, "int": KindInt, "long": KindLong, "short": KindShort, "boolean": KindBoolean,
	"double": KindDouble, "float": KindFloat, "dateTime": KindDateTime, "base64Binary": KindBase64,
	"decimal": KindDecimal, "byte": KindByte, "unsignedByte": KindUnsignedByte, "unsignedShort": KindUnsignedShort,
	"unsignedInt": KindUnsignedInt, "unsignedLong": KindUnsignedLong,
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
		wrappers: map[string]*Type{}, foreign: map[xml.Name]*wsdl.Node{}}
	var components []*wsdl.Node // the target namespace's top-level elements and complex types, in document order
	for _, s := range defs.Schemas {
		target, _ := s.Attr("targetNamespace")
		if target == AbstractTypesNamespace(defs.TNS) {
			if err := m.abstractTypes(s); err != nil {
				return nil, err
			}
			continue
		}
		if target != defs.TNS && target != wsdl.NamespaceMSTypes {
			if err := m.foreignSchema(s, target); err != nil {
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
			case target == wsdl.NamespaceMSTypes && c.Is(wsdl.NamespaceXSD, "simpleType") && (name == "guid" || name == "char"):
			case target == wsdl.NamespaceMSTypes && c.Is(wsdl.NamespaceXSD, "simpleType"):
				return nil, notYet(defs.Data, c, "the Microsoft type %s (guid and char are the ones carried)", name)
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
		case len(c.Elements(wsdl.NamespaceXSD, "complexType")) == 1 && !anyxml.Is(defs.Data, c): // not an HTTP DataSet root
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
	all := make([]*Type, 0, len(m.done))
	for _, t := range m.done {
		all = append(all, t)
	}
	m.c.Declared = contract.Declared(m.c.Structs, all, m.defs.Schemas)
	m.c.NameAll(all)
	contract.LinkDerived(components, m.done)
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
	// foreign are the wrapper elements of schemas of another namespace (foreignSchema).
	foreign map[xml.Name]*wsdl.Node

	// anyAttribute maps a complex type to its <s:anyAttribute /> (Type.AnyAttribute).
	anyAttribute map[*wsdl.Node]*wsdl.Node
}

// typeOf resolves a type QName used at n.
func (m *modeler) typeOf(n *wsdl.Node, attr string) (*Type, error) {
	q, ok, err := n.QNameAttr(attr)
	if err != nil {
		return nil, err
	}
	if !ok { // xsd:anyType, which ASMX writes for .NET's object (contract.KindObject)
		return m.builtin(contract.AnyTypeName, KindObject), nil
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
		if kind, ok := map[string]Kind{"guid": KindGUID, "char": KindChar}[q.Local]; ok {
			return m.builtin(q.Local, kind), nil
		}
		return nil, notYet(m.data, n, "type {%s}%s (guid and char are the Microsoft types carried)", q.Space, q.Local)
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
		t.AnyAttribute = m.anyAttribute[n]
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
		if lists := n.Elements(wsdl.NamespaceXSD, "list"); len(lists) == 1 && len(n.Children) == 1 {
			return m.flags(t, lists[0])
		}
		if len(restrictions) != 1 || len(n.Children) != 1 {
			return nil, modelError(m.data, n, "only enumerations (a restriction of xsd:string) are supported simple types")
		}
		var err error
		if t.Enum, err = m.members(restrictions[0]); err != nil {
			return nil, err
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
		case c.Is(wsdl.NamespaceXSD, "anyAttribute") && len(c.Children) == 0 && len(c.Attrs) == 0:
			m.markAnyAttribute(ct, c)
		case c.Is(wsdl.NamespaceXSD, "complexContent") && extension.SOAPEncArray(c):
			return nil, modelError(m.data, c, "a soapenc:Array type is allowed only in the %s schema, for HTTP GET/POST array parameters; "+
				"SOAP messages use ArrayOfX types (a sequence of one unbounded element)", AbstractTypesNamespace(m.defs.TNS))
		case c.Is(wsdl.NamespaceXSD, "complexContent"):
			return nil, notYet(m.data, c, "complexContent (a class derived from another, or an abstract base)")
		case c.Is(wsdl.NamespaceXSD, "simpleContent"), c.Is(wsdl.NamespaceXSD, "attribute"):
			return nil, notYet(m.data, c, "%s on an operation wrapper or inside a complexContent extension", c.Name.Local)
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
	if len(el.Children) > 0 { // an anonymous type below the wrappers: raw XML or a DataSet
		t, err = anyxml.Anonymous(m.data, el)
	}
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
		return m.foreignWrapper(part, q)
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
	t := &Type{Name: name, Kind: KindComplex, Fields: fields, Node: el, AnyAttribute: m.anyAttribute[el.Elements(wsdl.NamespaceXSD, "complexType")[0]]}
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
	offered := map[string]map[string]*wsdl.Node{} // binding kind -> operation key -> binding operation
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
			offered[kind] = map[string]*wsdl.Node{}
		}
		if err := m.bindingOperations(b, pt, offered[kind]); err != nil {
			return err
		}
		if kind == "SOAP11" || kind == "SOAP12" {
			for _, op := range b.Elements(wsdl.NamespaceWSDL, "operation") {
				name, _ := op.Attr("name")
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
		portTypeName, _ := op.Attr("name")
		name, key := messageName(op), operationKey(op)
		co := &Operation{Name: name, PortTypeName: portTypeName, Doc: documentation(op, m.data)}
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
				co.RequestElement, co.Request, co.RequestNamespace = el, t, m.wrapperNamespace(parts[0])
			} else {
				co.ResponseElement, co.Response, co.ResponseNamespace = el, t, m.wrapperNamespace(parts[0])
			}
		}
		if co.OneWay {
			if err := m.oneWay(op, co); err != nil {
				return err
			}
		}
		if err := m.distinctWrappers(op, co); err != nil {
			return err
		}
		for _, kind := range []string{"SOAP11", "SOAP12", "HTTPGet", "HTTPPost"} {
			if offered[kind][key] != nil {
				co.Bindings = append(co.Bindings, kind)
			}
		}
		if err := m.outRef(op, co); err != nil {
			return err
		}
		if err := m.soapActions(co, offered, key); err != nil {
			return err
		}
		for _, kind := range []string{"HTTPGet", "HTTPPost"} {
			if offered[kind][key] == nil {
				continue
			}
			params, err := m.httpParams(httpPortTypes[kind], co, kind)
			if err != nil {
				return err
			}
			co.HTTPParams = params
			root, err := m.httpRoot(httpPortTypes[kind], key)
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
	op, err := m.portTypeOperation(pt, co.PortTypeName+"/"+co.Name)
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
	var partNames []string
	for i, f := range co.Request.Fields {
		part := parts[i]
		partName, _ := part.Attr("name")
		if partName == "" {
			return nil, modelError(m.data, part, "operation %s on %s: the part of parameter %s has no name", co.Name, kind, f.Name)
		}
		for _, g := range partNames {
			if strings.EqualFold(g, partName) {
				return nil, modelError(m.data, part, "operation %s on %s: the parameters %s and %s differ only in case, which HTTP GET/POST "+
					"cannot tell apart (parameter names are matched without regard to case, as ASMX matches them)", co.Name, kind, g, partName)
			}
		}
		partNames = append(partNames, partName)
		if outOfOrder(co.Request.Fields, i, partName) {
			return nil, modelError(m.data, part, "operation %s on %s: part %q must be the parameter %s (the parameters in order: [%s])",
				co.Name, kind, partName, f.Name, strings.Join(names, " "))
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
			out = append(out, &HTTPParam{Name: partName, Field: f, Item: t.Fields[0].Type})
		case list && t.Kind == KindBase64 && f.MaxOccurs == 1:
			out = append(out, &HTTPParam{Name: partName, Field: f, Bytes: true})
		case list:
			return nil, modelError(m.data, part, "%s is a simple type (%s), but its part is typed as an array; ASMX types it s:string", offered, t.Name)
		case typ.Space != wsdl.NamespaceXSD:
			return nil, modelError(m.data, part, "%s is a simple type (%s); its part must have an XML Schema type, as ASMX writes type=\"s:string\"", offered, t.Name)
		case f.MaxOccurs != 1:
			return nil, modelError(m.data, part, "%s is a repeated element; use an ArrayOf type", offered)
		default:
			out = append(out, &HTTPParam{Name: partName, Field: f})
		}
	}
	return out, nil
}

// portTypeOperation finds an operation of a portType by its key (operationKey).
func (m *modeler) portTypeOperation(pt *wsdl.Node, key string) (*wsdl.Node, error) {
	for _, op := range pt.Elements(wsdl.NamespaceWSDL, "operation") {
		if operationKey(op) == key {
			return op, nil
		}
	}
	return nil, fmt.Errorf("the HTTP portType has no operation %s", key)
}

// httpRoot returns the result root element of an operation on an HTTP binding's portType.
func (m *modeler) httpRoot(pt *wsdl.Node, key string) (string, error) {
	for _, op := range pt.Elements(wsdl.NamespaceWSDL, "operation") {
		if operationKey(op) != key {
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
	return "", fmt.Errorf("the HTTP portType has no operation %s", key)
}
