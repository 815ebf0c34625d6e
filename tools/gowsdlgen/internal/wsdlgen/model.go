package wsdlgen

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
)

// The contract model: what the wire codec and the required and retyped fields are generated from. It
// is read from the whole contract (all four bindings), not the SOAP-only view gowsdl sees, because the
// HTTP bindings decide which operations GET and POST offer and what their result root elements are
// called.

// NamespaceHTTP is the WSDL 1.1 HTTP binding namespace; NamespaceMSTypes holds .NET's guid type;
// NamespaceSOAPEncoding holds soapenc:Array, the base of the AbstractTypes schema's array types.
const (
	NamespaceHTTP         = "http://schemas.xmlsoap.org/wsdl/http/"
	NamespaceMSTypes      = "http://microsoft.com/wsdl/types/"
	NamespaceSOAPEncoding = "http://schemas.xmlsoap.org/soap/encoding/"
)

// AbstractTypesNamespace is the namespace of the schema ASMX adds to a contract that offers an array
// parameter on HTTP GET or POST: the service namespace followed by "AbstractTypes". The schema holds
// StringArray, a restriction of soapenc:Array with one repeated String item, which types the
// message part of every such parameter, whatever its item type (asmx-typezoo/more's zoo2.wsdl:
// <wsdl:part name="ids" type="s2:StringArray" />, and the same part for int[] and DateTime[]).
func AbstractTypesNamespace(tns string) string { return tns + "AbstractTypes" }

// xsdKind is a type's wire kind; the names match the runtime's wire.Kind constants.
type xsdKind string

const (
	kindString   xsdKind = "KindString"
	kindInt      xsdKind = "KindInt"
	kindLong     xsdKind = "KindLong"
	kindShort    xsdKind = "KindShort"
	kindBoolean  xsdKind = "KindBoolean"
	kindDouble   xsdKind = "KindDouble"
	kindFloat    xsdKind = "KindFloat"
	kindDecimal  xsdKind = "KindDecimal"
	kindDateTime xsdKind = "KindDateTime"
	kindBase64   xsdKind = "KindBase64"
	kindGUID     xsdKind = "KindGUID"
	kindEnum     xsdKind = "KindEnum"
	kindComplex  xsdKind = "KindComplex"
	kindArray    xsdKind = "KindArray"
)

// builtinKinds maps the XML Schema types of the subset to their kinds.
var builtinKinds = map[string]xsdKind{
	"string": kindString, "int": kindInt, "long": kindLong, "short": kindShort, "boolean": kindBoolean,
	"double": kindDouble, "float": kindFloat, "dateTime": kindDateTime, "base64Binary": kindBase64,
	"decimal": kindDecimal,
}

// xsdType is a type of the contract.
type xsdType struct {
	name   string // XSD local name
	kind   xsdKind
	fields []*xsdField // complex types and arrays (one unbounded field)
	enum   []string
	node   *node
}

func (t *xsdType) simple() bool { return t.kind != kindComplex && t.kind != kindArray }

// xsdField is an element of a sequence.
type xsdField struct {
	name      string
	typ       *xsdType
	minOccurs int
	maxOccurs int // -1 for unbounded
	nillable  bool
}

// contractOperation is an operation with everything the codec needs.
type contractOperation struct {
	name, doc         string
	request, response *xsdType // the wrapper elements' anonymous complex types
	requestElement    string
	responseElement   string
	bindings          []string // "SOAP11", "SOAP12", "HTTPGet", "HTTPPost"
	httpRoot          string
	// httpParams are the parameters as HTTP GET and POST carry them, in order; nil when neither
	// binding offers the operation.
	httpParams []*httpParam
}

// httpParam is a parameter of an operation offered on HTTP GET or POST: a simple type, carried as one
// value (?n=5), or an array of a simple type, carried as one value per item (?ids=a&ids=b) and
// described by an AbstractTypes part (AbstractTypesNamespace).
type httpParam struct {
	field *xsdField // the request wrapper's element
	// item is the item type of an array parameter; nil for a simple one.
	item *xsdType
}

// contract is the model of a whole WSDL document.
type contractModel struct {
	tns        string
	portType   string // the SOAP portType: the generated interface's name
	types      []*xsdType
	operations []*contractOperation
	// abstractArrays are the array types of the AbstractTypes schema (StringArray), by local name.
	abstractArrays map[string]bool
	// structs are the schema components gowsdl turns into a Go struct each, in document order: every
	// named complex type and every top-level element with an anonymous complex type, whether an
	// operation reaches it or not, as gowsdl emits them all. The required and retyped fields are
	// derived from them (fieldsToFix).
	structs []*xsdType
}

// modelError is a generation error that names the construct and where it is.
func modelError(data []byte, n *node, format string, args ...any) error {
	line := 1 + bytes.Count(data[:n.start], []byte("\n"))
	return fmt.Errorf("line %d: <%s>: %s", line, qualified(n.raw), fmt.Sprintf(format, args...))
}

// readContract builds the model of a WSDL document, refusing anything outside the XSD subset an ASMX
// contract uses.
func readContract(defs *definitions) (*contractModel, error) {
	m := &modeler{data: defs.data, defs: defs, c: &contractModel{tns: defs.tns, abstractArrays: map[string]bool{}},
		elements: map[string]*node{}, complexTypes: map[string]*node{}, simpleTypes: map[string]*node{}, done: map[string]*xsdType{},
		wrappers: map[string]*xsdType{}}
	var components []*node // the target namespace's top-level elements and complex types, in document order
	for _, s := range defs.schemas {
		target, _ := s.attr("targetNamespace")
		if target == AbstractTypesNamespace(defs.tns) {
			if err := m.abstractTypes(s); err != nil {
				return nil, err
			}
			continue
		}
		for _, c := range s.children {
			name, _ := c.attr("name")
			switch {
			case c.is(NamespaceXSD, "element") && target == defs.tns:
				m.elements[name] = c
				components = append(components, c)
			case c.is(NamespaceXSD, "complexType") && target == defs.tns:
				m.complexTypes[name] = c
				components = append(components, c)
			case c.is(NamespaceXSD, "simpleType") && target == defs.tns:
				m.simpleTypes[name] = c
			case c.is(NamespaceXSD, "import"), c.is(NamespaceXSD, "annotation"):
			case target == NamespaceMSTypes && c.is(NamespaceXSD, "simpleType") && name == "guid":
			case c.name.Space == NamespaceXSD:
				return nil, modelError(defs.data, c, "schema component %s is outside the XSD subset an ASMX contract uses", c.name.Local)
			}
		}
	}
	if err := m.operations(); err != nil {
		return nil, err
	}
	// The wire code covers the types the operations reach; gowsdl emits a struct for every complex
	// type and anonymous-typed element, so those are read (and held to the subset) too, without
	// joining the wire code's types.
	reached := len(m.c.types)
	for _, c := range components {
		name, _ := c.attr("name")
		var t *xsdType
		var err error
		switch {
		case c.is(NamespaceXSD, "complexType"):
			t, err = m.named(c, name)
		case len(c.elements(NamespaceXSD, "complexType")) == 1:
			t, err = m.anonymous(c, name)
		}
		if err != nil {
			return nil, err
		}
		if t != nil {
			m.c.structs = append(m.c.structs, t)
		}
	}
	m.c.types = m.c.types[:reached]
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
func (m *modeler) abstractTypes(s *node) error {
	for _, c := range s.children {
		name, _ := c.attr("name")
		switch {
		case c.is(NamespaceXSD, "annotation"):
		case c.is(NamespaceXSD, "import"):
			if ns, _ := c.attr("namespace"); ns != NamespaceSOAPEncoding {
				return modelError(m.data, c, "the AbstractTypes schema imports only the SOAP encoding namespace %s", NamespaceSOAPEncoding)
			}
		case c.is(NamespaceXSD, "complexType") && name != "":
			if err := m.abstractArray(c); err != nil {
				return err
			}
			m.c.abstractArrays[name] = true
		default:
			return modelError(m.data, c, "the AbstractTypes schema holds only the array types ASMX describes HTTP GET/POST array parameters with (StringArray)")
		}
	}
	return nil
}

// abstractArray checks one array type of the AbstractTypes schema (see abstractTypes).
func (m *modeler) abstractArray(ct *node) error {
	shape := func(n *node) error {
		return modelError(m.data, n, "an AbstractTypes array type is a complexContent restriction of soapenc:Array holding one "+
			"element with maxOccurs=\"unbounded\" and type xsd:string, as ASMX writes StringArray")
	}
	if len(ct.children) != 1 || !ct.children[0].is(NamespaceXSD, "complexContent") {
		return shape(ct)
	}
	cc := ct.children[0]
	if len(cc.children) != 1 || !cc.children[0].is(NamespaceXSD, "restriction") {
		return shape(cc)
	}
	r := cc.children[0]
	base, _, err := r.qnameAttr("base")
	if err != nil {
		return err
	}
	if base != (xml.Name{Space: NamespaceSOAPEncoding, Local: "Array"}) || len(r.children) != 1 || !r.children[0].is(NamespaceXSD, "sequence") {
		return shape(r)
	}
	seq := r.children[0]
	if len(seq.children) != 1 || !seq.children[0].is(NamespaceXSD, "element") {
		return shape(seq)
	}
	el := seq.children[0]
	typ, _, err := el.qnameAttr("type")
	if err != nil {
		return err
	}
	if maxOccurs, _ := el.attr("maxOccurs"); maxOccurs != "unbounded" || typ != (xml.Name{Space: NamespaceXSD, Local: "string"}) {
		return shape(el)
	}
	return nil
}

type modeler struct {
	data                                []byte
	defs                                *definitions
	c                                   *contractModel
	elements, complexTypes, simpleTypes map[string]*node
	done                                map[string]*xsdType
	wrappers                            map[string]*xsdType // anonymous complex types of top-level elements, by element name
}

// typeOf resolves a type QName used at n.
func (m *modeler) typeOf(n *node, attr string) (*xsdType, error) {
	q, ok, err := n.qnameAttr(attr)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, modelError(m.data, n, "has no %s attribute (anonymous types are supported only on operation wrappers)", attr)
	}
	switch q.Space {
	case NamespaceXSD:
		kind, ok := builtinKinds[q.Local]
		if !ok {
			return nil, modelError(m.data, n, "type xsd:%s is outside the XSD subset an ASMX contract uses", q.Local)
		}
		return m.builtin(q.Local, kind), nil
	case NamespaceMSTypes:
		if q.Local != "guid" {
			return nil, modelError(m.data, n, "type {%s}%s is outside the XSD subset an ASMX contract uses (guid is the one Microsoft type supported)", q.Space, q.Local)
		}
		return m.builtin(q.Local, kindGUID), nil
	case m.defs.tns:
		return m.named(n, q.Local)
	}
	return nil, modelError(m.data, n, "type {%s}%s is not defined in this contract", q.Space, q.Local)
}

func (m *modeler) builtin(name string, kind xsdKind) *xsdType {
	key := "xsd:" + name
	if t := m.done[key]; t != nil {
		return t
	}
	t := &xsdType{name: name, kind: kind}
	m.done[key] = t
	return t
}

// named resolves a named complex or simple type of the target namespace.
func (m *modeler) named(from *node, name string) (*xsdType, error) {
	if t := m.done[name]; t != nil {
		return t, nil
	}
	if n := m.complexTypes[name]; n != nil {
		t := &xsdType{name: name, kind: kindComplex, node: n}
		m.done[name] = t // before its fields, so recursive types resolve
		fields, err := m.sequence(n)
		if err != nil {
			return nil, err
		}
		t.fields = fields
		if strings.HasPrefix(name, "ArrayOf") && len(fields) == 1 && fields[0].maxOccurs == -1 {
			t.kind = kindArray
		}
		m.c.types = append(m.c.types, t)
		return t, nil
	}
	if n := m.simpleTypes[name]; n != nil {
		t := &xsdType{name: name, kind: kindEnum, node: n}
		restrictions := n.elements(NamespaceXSD, "restriction")
		if len(restrictions) != 1 || len(n.children) != 1 {
			return nil, modelError(m.data, n, "only enumerations (a restriction of xsd:string) are supported simple types")
		}
		base, _, err := restrictions[0].qnameAttr("base")
		if err != nil || base.Space != NamespaceXSD || base.Local != "string" {
			return nil, modelError(m.data, restrictions[0], "an enumeration must restrict xsd:string")
		}
		for _, e := range restrictions[0].children {
			if !e.is(NamespaceXSD, "enumeration") {
				return nil, modelError(m.data, e, "only xs:enumeration facets are supported")
			}
			v, _ := e.attr("value")
			t.enum = append(t.enum, v)
		}
		if len(t.enum) == 0 {
			return nil, modelError(m.data, n, "an enumeration needs at least one value")
		}
		m.done[name] = t
		m.c.types = append(m.c.types, t)
		return t, nil
	}
	return nil, modelError(m.data, from, "type %s is not defined in this contract", name)
}

// sequence reads a complex type's content: nothing, or one xs:sequence of xs:element.
func (m *modeler) sequence(ct *node) ([]*xsdField, error) {
	var fields []*xsdField
	for _, c := range ct.children {
		switch {
		case c.is(NamespaceXSD, "annotation"):
		case c.is(NamespaceXSD, "sequence"):
			if _, has := c.attr("minOccurs"); has {
				return nil, modelError(m.data, c, "occurrence on a sequence is outside the XSD subset")
			}
			for _, el := range c.children {
				if !el.is(NamespaceXSD, "element") {
					return nil, modelError(m.data, el, "only xs:element is supported inside a sequence")
				}
				f, err := m.field(el)
				if err != nil {
					return nil, err
				}
				fields = append(fields, f)
			}
		case c.is(NamespaceXSD, "complexContent") && m.soapencArray(c):
			return nil, modelError(m.data, c, "a soapenc:Array type is allowed only in the %s schema, for HTTP GET/POST array parameters; "+
				"SOAP messages use ArrayOfX types (a sequence of one unbounded element)", AbstractTypesNamespace(m.defs.tns))
		default:
			return nil, modelError(m.data, c, "%s is outside the XSD subset an ASMX contract uses (sequences of elements only)", c.name.Local)
		}
	}
	return fields, nil
}

// soapencArray reports whether a complexContent derives from soapenc:Array.
func (m *modeler) soapencArray(cc *node) bool {
	for _, d := range cc.children {
		if base, ok, err := d.qnameAttr("base"); err == nil && ok && base == (xml.Name{Space: NamespaceSOAPEncoding, Local: "Array"}) {
			return true
		}
	}
	return false
}

func (m *modeler) field(el *node) (*xsdField, error) {
	name, ok := el.attr("name")
	if !ok {
		if _, ref := el.attr("ref"); ref {
			return nil, modelError(m.data, el, "element references (ref=) are outside the XSD subset")
		}
		return nil, modelError(m.data, el, "has neither name nor ref")
	}
	for _, a := range el.attrs {
		switch a.Name.Local {
		case "name", "type", "minOccurs", "maxOccurs", "nillable":
		default:
			return nil, modelError(m.data, el, "attribute %s is outside the XSD subset", a.Name.Local)
		}
	}
	if len(el.children) > 0 {
		return nil, modelError(m.data, el, "anonymous types are supported only on operation wrappers")
	}
	f := &xsdField{name: name, minOccurs: 1, maxOccurs: 1}
	if v, ok := el.attr("minOccurs"); ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 1 {
			return nil, modelError(m.data, el, "minOccurs=%q: only 0 and 1 are supported", v)
		}
		f.minOccurs = n
	}
	if v, ok := el.attr("maxOccurs"); ok {
		switch v {
		case "1":
		case "unbounded":
			f.maxOccurs = -1
		default:
			return nil, modelError(m.data, el, "maxOccurs=%q: only 1 and unbounded are supported", v)
		}
	}
	if v, _ := el.attr("nillable"); v == "true" {
		f.nillable = true
	}
	t, err := m.typeOf(el, "type")
	if err != nil {
		return nil, err
	}
	f.typ = t
	return f, nil
}

// wrapper reads an operation wrapper: a global element with an anonymous complex type.
func (m *modeler) wrapper(part *node) (string, *xsdType, error) {
	q, ok, err := part.qnameAttr("element")
	if err != nil {
		return "", nil, err
	}
	if !ok || q.Space != m.defs.tns {
		return "", nil, modelError(m.data, part, "a SOAP message part must name a wrapper element of the target namespace (document/literal wrapped)")
	}
	el := m.elements[q.Local]
	if el == nil {
		return "", nil, modelError(m.data, part, "element %s is not defined", q.Local)
	}
	if len(el.elements(NamespaceXSD, "complexType")) != 1 {
		return "", nil, modelError(m.data, el, "an operation wrapper element must have an anonymous complex type")
	}
	t, err := m.anonymous(el, q.Local)
	return q.Local, t, err
}

// anonymous reads the anonymous complex type of top-level element el, named name.
func (m *modeler) anonymous(el *node, name string) (*xsdType, error) {
	if t := m.wrappers[name]; t != nil {
		return t, nil
	}
	fields, err := m.sequence(el.elements(NamespaceXSD, "complexType")[0])
	if err != nil {
		return nil, err
	}
	t := &xsdType{name: name, kind: kindComplex, fields: fields, node: el}
	m.wrappers[name] = t
	return t, nil
}

// bindingKind names a wsdl:binding's protocol: SOAP11, SOAP12, HTTPGet, HTTPPost, or "".
func bindingKind(b *node) string {
	for _, c := range b.children {
		switch {
		case c.is(NamespaceSOAP11, "binding"):
			return "SOAP11"
		case c.is(NamespaceSOAP12, "binding"):
			return "SOAP12"
		case c.is(NamespaceHTTP, "binding"):
			switch v, _ := c.attr("verb"); v {
			case "GET":
				return "HTTPGet"
			case "POST":
				return "HTTPPost"
			}
		}
	}
	return ""
}

func documentation(n *node, data []byte) string {
	docs := n.elements(NamespaceWSDL, "documentation")
	if len(docs) == 0 {
		return ""
	}
	inner := data[docs[0].start:docs[0].end] // the first, as WSDL allows one
	if i := bytes.IndexByte(inner, '>'); i >= 0 {
		inner = inner[i+1:]
	}
	if i := bytes.LastIndexByte(inner, '<'); i >= 0 {
		inner = inner[:i]
	}
	return strings.TrimSpace(string(inner))
}

// operations reads the SOAP portType's operations and which bindings offer each.
func (m *modeler) operations() error {
	offered := map[string]map[string]bool{} // binding kind -> operation names
	var soapPortType *node
	httpPortTypes := map[string]*node{}
	for _, b := range m.defs.bindings.order {
		kind := bindingKind(b)
		if kind == "" {
			continue
		}
		pt, err := m.defs.portTypes.resolve(b, "type", m.defs.tns)
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
		for _, op := range b.elements(NamespaceWSDL, "operation") {
			name, _ := op.attr("name")
			offered[kind][name] = true
		}
	}
	if soapPortType == nil {
		return fmt.Errorf("no wsdl:binding has a SOAP 1.1 or SOAP 1.2 binding extension: nothing to generate")
	}
	m.c.portType, _ = soapPortType.attr("name")
	for _, op := range soapPortType.elements(NamespaceWSDL, "operation") {
		name, _ := op.attr("name")
		co := &contractOperation{name: name, doc: documentation(op, m.data)}
		for _, io := range []string{"input", "output"} {
			ios := op.elements(NamespaceWSDL, io)
			if len(ios) != 1 {
				return modelError(m.data, op, "a SOAP operation needs exactly one %s", io)
			}
			msg, err := m.defs.messages.resolve(ios[0], "message", m.defs.tns)
			if err != nil {
				return err
			}
			parts := msg.elements(NamespaceWSDL, "part")
			if len(parts) != 1 {
				return modelError(m.data, msg, "a SOAP message must have exactly one part (document/literal wrapped)")
			}
			el, t, err := m.wrapper(parts[0])
			if err != nil {
				return err
			}
			if io == "input" {
				co.requestElement, co.request = el, t
			} else {
				co.responseElement, co.response = el, t
			}
		}
		if co.requestElement != name || co.responseElement != name+"Response" {
			return modelError(m.data, op, "the wrappers must be named %s and %sResponse", name, name)
		}
		if len(co.response.fields) > 1 {
			return modelError(m.data, co.response.node, "a response wrapper holds at most one element, the result")
		}
		if len(co.response.fields) == 1 && co.response.fields[0].name != name+"Result" {
			return modelError(m.data, co.response.node, "the result element must be named %sResult", name)
		}
		for _, kind := range []string{"SOAP11", "SOAP12", "HTTPGet", "HTTPPost"} {
			if offered[kind][name] {
				co.bindings = append(co.bindings, kind)
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
			co.httpParams = params
			root, err := m.httpRoot(httpPortTypes[kind], name)
			if err != nil {
				return err
			}
			if co.httpRoot != "" && co.httpRoot != root {
				return modelError(m.data, op, "HTTP GET and POST disagree on the result root element")
			}
			co.httpRoot = root
		}
		if co.httpRoot == "" && len(co.response.fields) == 1 {
			co.httpRoot = co.response.fields[0].typ.name
		}
		m.c.operations = append(m.c.operations, co)
	}
	return nil
}

// httpParams reads the parameters of operation co as the HTTP binding kind's portType describes
// them, one message part per parameter of the request wrapper, in its order and with its name, as
// ASMX writes them: type="s:string" for a simple type, type="s2:StringArray" (the AbstractTypes
// schema) for an array of a simple type. A parameter ASMX could never offer on HTTP GET or POST, a
// guid or a complex type, is refused with the operation and part named, as is a part that does not
// describe its parameter.
func (m *modeler) httpParams(pt *node, co *contractOperation, kind string) ([]*httpParam, error) {
	op, err := m.portTypeOperation(pt, co.name)
	if err != nil {
		return nil, err
	}
	ins := op.elements(NamespaceWSDL, "input")
	if len(ins) != 1 {
		return nil, modelError(m.data, op, "needs one input")
	}
	msg, err := m.defs.messages.resolve(ins[0], "message", m.defs.tns)
	if err != nil {
		return nil, err
	}
	parts := msg.elements(NamespaceWSDL, "part")
	var names []string
	for _, f := range co.request.fields {
		names = append(names, f.name)
	}
	if len(parts) != len(co.request.fields) {
		return nil, modelError(m.data, msg, "operation %s on %s: the message has %d parts, but the operation has the parameters [%s]; "+
			"an HTTP GET/POST message has one part per parameter, in order", co.name, kind, len(parts), strings.Join(names, " "))
	}
	var out []*httpParam
	for i, f := range co.request.fields {
		part := parts[i]
		partName, _ := part.attr("name")
		if partName != f.name {
			return nil, modelError(m.data, part, "operation %s on %s: part %q must be the parameter %s (the parameters in order: [%s])",
				co.name, kind, partName, f.name, strings.Join(names, " "))
		}
		for _, g := range co.request.fields[:i] {
			if strings.EqualFold(g.name, f.name) {
				return nil, modelError(m.data, part, "operation %s on %s: the parameters %s and %s differ only in case, which HTTP GET/POST "+
					"cannot tell apart (parameter names are matched without regard to case, as ASMX matches them)", co.name, kind, g.name, f.name)
			}
		}
		typ, ok, err := part.qnameAttr("type")
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, modelError(m.data, part, "operation %s on %s: part %s needs a type attribute (an HTTP GET/POST part is not an element)", co.name, kind, f.name)
		}
		offered := fmt.Sprintf("operation %s is offered on %s, but its parameter %s", co.name, kind, f.name)
		list := typ.Space == AbstractTypesNamespace(m.defs.tns) && m.c.abstractArrays[typ.Local]
		switch t := f.typ; {
		case t.kind == kindGUID:
			return nil, modelError(m.data, part, "%s is a guid, which ASMX never offers on HTTP GET/POST (its URL reader cannot read one): "+
				"leave %s out of the %s binding", offered, co.name, kind)
		case t.kind == kindComplex:
			return nil, modelError(m.data, part, "%s has the complex type %s; ASMX offers on HTTP GET/POST only operations whose "+
				"parameters are simple types or arrays of them: leave %s out of the %s binding", offered, t.name, co.name, kind)
		case t.kind == kindArray && !t.fields[0].typ.simple(), t.kind == kindArray && t.fields[0].typ.kind == kindGUID:
			return nil, modelError(m.data, part, "%s is an array of %s, not of a simple type other than guid; ASMX offers on HTTP GET/POST "+
				"only operations whose parameters are simple types or arrays of them: leave %s out of the %s binding", offered, t.fields[0].typ.name, co.name, kind)
		case t.kind == kindArray && !list:
			return nil, modelError(m.data, part, "%s is an array (%s), which HTTP GET/POST carry as one value per item: its part's type "+
				"must be an array type of the %s schema, as ASMX writes type=\"s2:StringArray\"", offered, t.name, AbstractTypesNamespace(m.defs.tns))
		case t.kind == kindArray:
			out = append(out, &httpParam{field: f, item: t.fields[0].typ})
		case list:
			return nil, modelError(m.data, part, "%s is a simple type (%s), but its part is typed as an array; ASMX types it s:string", offered, t.name)
		case typ.Space != NamespaceXSD:
			return nil, modelError(m.data, part, "%s is a simple type (%s); its part must have an XML Schema type, as ASMX writes type=\"s:string\"", offered, t.name)
		case f.maxOccurs != 1:
			return nil, modelError(m.data, part, "%s is a repeated element; use an ArrayOf type", offered)
		default:
			out = append(out, &httpParam{field: f})
		}
	}
	return out, nil
}

// portTypeOperation finds an operation of a portType by name.
func (m *modeler) portTypeOperation(pt *node, opName string) (*node, error) {
	for _, op := range pt.elements(NamespaceWSDL, "operation") {
		if name, _ := op.attr("name"); name == opName {
			return op, nil
		}
	}
	return nil, fmt.Errorf("the HTTP portType has no operation %s", opName)
}

// httpRoot returns the result root element of an operation on an HTTP binding's portType.
func (m *modeler) httpRoot(pt *node, opName string) (string, error) {
	for _, op := range pt.elements(NamespaceWSDL, "operation") {
		if name, _ := op.attr("name"); name != opName {
			continue
		}
		outs := op.elements(NamespaceWSDL, "output")
		if len(outs) != 1 {
			return "", modelError(m.data, op, "needs one output")
		}
		msg, err := m.defs.messages.resolve(outs[0], "message", m.defs.tns)
		if err != nil {
			return "", err
		}
		for _, p := range msg.elements(NamespaceWSDL, "part") {
			q, ok, err := p.qnameAttr("element")
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
