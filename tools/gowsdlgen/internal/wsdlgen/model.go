package wsdlgen

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// The contract model: what the wire codec is generated from. It is read from the whole contract (all
// four bindings), not the SOAP-only view gowsdl sees, because the HTTP bindings decide which operations
// GET and POST offer and what their result root elements are called.

// NamespaceHTTP is the WSDL 1.1 HTTP binding namespace; NamespaceMSTypes holds .NET's guid type.
const (
	NamespaceHTTP    = "http://schemas.xmlsoap.org/wsdl/http/"
	NamespaceMSTypes = "http://microsoft.com/wsdl/types/"
)

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
}

// contract is the model of a whole WSDL document.
type contractModel struct {
	tns        string
	portType   string // the SOAP portType: the generated interface's name
	types      []*xsdType
	operations []*contractOperation
}

// modelError is a generation error that names the construct and where it is.
func modelError(data []byte, n *node, format string, args ...any) error {
	line := 1 + bytes.Count(data[:n.start], []byte("\n"))
	return fmt.Errorf("line %d: <%s>: %s", line, qualified(n.raw), fmt.Sprintf(format, args...))
}

// readContract builds the model of a WSDL document, refusing anything outside the XSD subset an ASMX
// contract uses.
func readContract(data []byte) (*contractModel, error) {
	root, err := parseTree(data)
	if err != nil {
		return nil, err
	}
	defs, err := indexDefinitions(root)
	if err != nil {
		return nil, err
	}
	m := &modeler{data: data, defs: defs, c: &contractModel{tns: defs.tns},
		elements: map[string]*node{}, complexTypes: map[string]*node{}, simpleTypes: map[string]*node{}, done: map[string]*xsdType{}}
	for _, s := range defs.schemas {
		target, _ := s.attr("targetNamespace")
		for _, c := range s.children {
			name, _ := c.attr("name")
			switch {
			case c.is(NamespaceXSD, "element") && target == defs.tns:
				m.elements[name] = c
			case c.is(NamespaceXSD, "complexType") && target == defs.tns:
				m.complexTypes[name] = c
			case c.is(NamespaceXSD, "simpleType") && target == defs.tns:
				m.simpleTypes[name] = c
			case c.is(NamespaceXSD, "import"), c.is(NamespaceXSD, "annotation"):
			case target == NamespaceMSTypes && c.is(NamespaceXSD, "simpleType") && name == "guid":
			case c.name.Space == NamespaceXSD:
				return nil, modelError(data, c, "schema component %s is outside the XSD subset an ASMX contract uses", c.name.Local)
			}
		}
	}
	if err := m.operations(); err != nil {
		return nil, err
	}
	return m.c, nil
}

type modeler struct {
	data                                []byte
	defs                                *definitions
	c                                   *contractModel
	elements, complexTypes, simpleTypes map[string]*node
	done                                map[string]*xsdType
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
		default:
			return nil, modelError(m.data, c, "%s is outside the XSD subset an ASMX contract uses (sequences of elements only)", c.name.Local)
		}
	}
	return fields, nil
}

func (m *modeler) field(el *node) (*xsdField, error) {
	name, ok := el.attr("name")
	if !ok {
		return nil, modelError(m.data, el, "element references (ref=) are outside the XSD subset")
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
	cts := el.elements(NamespaceXSD, "complexType")
	if len(cts) != 1 {
		return "", nil, modelError(m.data, el, "an operation wrapper element must have an anonymous complex type")
	}
	fields, err := m.sequence(cts[0])
	if err != nil {
		return "", nil, err
	}
	return q.Local, &xsdType{name: q.Local, kind: kindComplex, fields: fields, node: el}, nil
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
	for _, d := range n.elements(NamespaceWSDL, "documentation") {
		inner := data[d.start:d.end]
		if i := bytes.IndexByte(inner, '>'); i >= 0 {
			inner = inner[i+1:]
		}
		if i := bytes.LastIndexByte(inner, '<'); i >= 0 {
			inner = inner[:i]
		}
		return strings.TrimSpace(string(inner))
	}
	return ""
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
			for _, p := range co.request.fields {
				if !p.typ.simple() || p.maxOccurs != 1 {
					return modelError(m.data, op, "operation %s is offered on %s, but its parameter %s is not a simple type; ASMX offers only operations with simple parameters on HTTP GET/POST", name, kind, p.name)
				}
			}
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
