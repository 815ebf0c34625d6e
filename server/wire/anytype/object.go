package anytype

import (
	"encoding/xml"
	"fmt"
	"strconv"

	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire/xmlany"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
	"github.com/contactsync/contactsync/server/wire/xsd"
)

// Typed is a complex value of a contract an Object can hold: a generated type with its XML codec and
// its XSD type's local name (in the contract's namespace).
type Typed interface {
	// AppendXML appends the element's children in schema order.
	AppendXML(b []byte) []byte
	// DecodeXML reads the element's children, up to and including its end tag.
	DecodeXML(r *xmlwire.Reader) error
	// XSDType is the type's local name: "Dog".
	XSDType() string
}

// ElementDecoder is a Typed whose element carries attributes ([XmlAttribute]): Read gives it the
// element's start, to read them from, rather than calling DecodeXML, which has only the children.
type ElementDecoder interface {
	DecodeXMLElement(r *xmlwire.Reader, s xmlwire.Start) error
}

// Registry is what an Object's reader and writer know of a contract: the types an xsi:type may name
// in its namespace. The generated code makes one per contract.
type Registry struct {
	// Namespace is the contract's target namespace, its types' namespace, and the default namespace
	// of the elements an Object is written in.
	Namespace string
	// Types makes an empty value of each complex type, by local name.
	Types map[string]func() Typed
	// Enums lists each enumeration's members, by local name.
	Enums map[string][]string
}

// ArrayOfAnyType is the local name of object[]'s type, whose items are anyType elements.
const ArrayOfAnyType = "ArrayOfAnyType"

// Kind is what an Object holds.
type Kind uint8

const (
	// Nil is no value: the zero Object (an absent element, xsi:nil).
	Nil Kind = iota
	// Empty is a value of no type and no content (<v />: C#'s new object()).
	Empty
	// Simple is an XSD built-in, ASMX's guid or char, or a contract enumeration, held in its canonical
	// lexical form.
	Simple
	// Complex is a contract complex type's value.
	Complex
	// Array is an object[] (ArrayOfAnyType): a list of Objects, nil items included.
	Array
	// Raw is untyped content, or content whose xsi:type names no type the contract or XSD has, kept as
	// XML nodes (ASMX's XmlNode[]).
	Raw
)

// Object is the value of an xsd:anyType element. The zero value is nil.
type Object struct {
	kind  Kind
	typ   xml.Name // Simple; Raw: the unknown xsi:type, if any
	text  string   // Simple: the canonical lexical form
	value Typed
	items []Object
	raw   xmlany.RawXML
}

// Kind returns what o holds.
func (o Object) Kind() Kind { return o.kind }

// XSDType returns the type o names in xsi:type: {xsd}int, {ms}guid, {contract}Tier; for Complex and
// Array the local name alone (Dog, ArrayOfAnyType: the namespace is the contract's, the Registry's);
// for Raw the unknown type it came with, if any; zero for Nil and Empty.
func (o Object) XSDType() xml.Name {
	switch o.kind {
	case Complex:
		return xml.Name{Local: o.value.XSDType()}
	case Array:
		return xml.Name{Local: ArrayOfAnyType}
	}
	return o.typ
}

// Text returns a simple value's canonical lexical form ("42", "true", "2026-11-22T10:15:30Z").
func (o Object) Text() string { return o.text }

// Complex returns a complex value (type-switch on the generated type), or nil.
func (o Object) Complex() Typed { return o.value }

// Items returns an array's items.
func (o Object) Items() []Object { return o.items }

// Raw returns raw content.
func (o Object) Raw() xmlany.RawXML { return o.raw }

// is reports whether o is a simple value of the built-in or ms type local.
func (o Object) is(space, local string) bool {
	return o.kind == Simple && o.typ == xml.Name{Space: space, Local: local}
}

// String returns an xsd:string value.
func (o Object) String() (string, bool) { return o.text, o.is(xmlany.NSXSD, "string") }

// Int returns an xsd:int value; Long, Short and Byte the other signed types (xsd:byte is C#'s sbyte).
func (o Object) Int() (int32, bool)   { n, ok := o.signed("int", 32); return int32(n), ok }
func (o Object) Long() (int64, bool)  { return o.signed("long", 64) }
func (o Object) Short() (int16, bool) { n, ok := o.signed("short", 16); return int16(n), ok }
func (o Object) Byte() (int8, bool)   { n, ok := o.signed("byte", 8); return int8(n), ok }

func (o Object) signed(local string, bits int) (int64, bool) {
	if !o.is(xmlany.NSXSD, local) {
		return 0, false
	}
	return xsd.ParseInt(o.text, bits)
}

// Unsigned returns a value of xsd:unsignedByte, unsignedShort, unsignedInt or unsignedLong, widened.
func (o Object) Unsigned() (uint64, bool) {
	for local, bits := range unsignedBits {
		if o.is(xmlany.NSXSD, local) {
			return xsd.ParseUnsigned(o.text, bits)
		}
	}
	return 0, false
}

var unsignedBits = map[string]int{"unsignedByte": 8, "unsignedShort": 16, "unsignedInt": 32, "unsignedLong": 64}

// Bool returns an xsd:boolean value.
func (o Object) Bool() (bool, bool) { return o.text == "true", o.is(xmlany.NSXSD, "boolean") }

// Double returns an xsd:double value, Float an xsd:float one.
func (o Object) Double() (float64, bool) {
	if !o.is(xmlany.NSXSD, "double") {
		return 0, false
	}
	return xsd.ParseDouble(o.text, 64)
}

func (o Object) Float() (float32, bool) {
	if !o.is(xmlany.NSXSD, "float") {
		return 0, false
	}
	f, ok := xsd.ParseDouble(o.text, 32)
	return float32(f), ok
}

// Decimal returns an xsd:decimal value.
func (o Object) Decimal() (xsd.Decimal, bool) {
	if !o.is(xmlany.NSXSD, "decimal") {
		return xsd.Decimal{}, false
	}
	return xsd.ParseDecimal(o.text)
}

// DateTime returns an xsd:dateTime value.
func (o Object) DateTime() (xsd.DateTime, bool) {
	if !o.is(xmlany.NSXSD, "dateTime") {
		return xsd.DateTime{}, false
	}
	return xsd.ParseDateTime(o.text)
}

// Base64 returns an xsd:base64Binary value (C#'s byte[]).
func (o Object) Base64() ([]byte, bool) {
	if !o.is(xmlany.NSXSD, "base64Binary") {
		return nil, false
	}
	return xsd.ParseBase64(o.text)
}

// GUID returns an ms:guid value.
func (o Object) GUID() (xsd.GUID, bool) {
	if !o.is(xmlany.NSMSTypes, "guid") {
		return xsd.GUID{}, false
	}
	return xsd.ParseGUID(o.text)
}

// Char returns an ms:char value.
func (o Object) Char() (xsd.Char, bool) {
	if !o.is(xmlany.NSMSTypes, "char") {
		return 0, false
	}
	return xsd.ParseChar(o.text)
}

// Enum returns a contract enumeration's type name and member.
func (o Object) Enum() (enum, member string, ok bool) {
	if o.kind != Simple || o.typ.Space == xmlany.NSXSD || o.typ.Space == xmlany.NSMSTypes {
		return "", "", false
	}
	return o.typ.Local, o.text, true
}

func simple(space, local, text string) Object {
	return Object{kind: Simple, typ: xml.Name{Space: space, Local: local}, text: text}
}

// Constructors, one per simple kind.
func ObjectString(s string) Object { return simple(xmlany.NSXSD, "string", s) }
func ObjectInt(n int32) Object     { return simple(xmlany.NSXSD, "int", strconv.Itoa(int(n))) }
func ObjectLong(n int64) Object    { return simple(xmlany.NSXSD, "long", strconv.FormatInt(n, 10)) }
func ObjectShort(n int16) Object   { return simple(xmlany.NSXSD, "short", strconv.Itoa(int(n))) }
func ObjectByte(n int8) Object     { return simple(xmlany.NSXSD, "byte", strconv.Itoa(int(n))) }
func ObjectUnsignedByte(n uint8) Object {
	return simple(xmlany.NSXSD, "unsignedByte", strconv.Itoa(int(n)))
}
func ObjectUnsignedShort(n uint16) Object {
	return simple(xmlany.NSXSD, "unsignedShort", strconv.Itoa(int(n)))
}
func ObjectUnsignedInt(n uint32) Object {
	return simple(xmlany.NSXSD, "unsignedInt", strconv.FormatUint(uint64(n), 10))
}
func ObjectUnsignedLong(n uint64) Object {
	return simple(xmlany.NSXSD, "unsignedLong", strconv.FormatUint(n, 10))
}
func ObjectBool(v bool) Object { return simple(xmlany.NSXSD, "boolean", strconv.FormatBool(v)) }
func ObjectDouble(f float64) Object {
	return simple(xmlany.NSXSD, "double", string(xsd.AppendDouble(nil, f)))
}
func ObjectFloat(f float32) Object {
	return simple(xmlany.NSXSD, "float", string(xsd.AppendFloat(nil, f)))
}
func ObjectDecimal(d xsd.Decimal) Object   { return simple(xmlany.NSXSD, "decimal", d.String()) }
func ObjectDateTime(t xsd.DateTime) Object { return simple(xmlany.NSXSD, "dateTime", t.String()) }
func ObjectBase64(v []byte) Object {
	return simple(xmlany.NSXSD, "base64Binary", string(xsd.AppendBase64(nil, v)))
}
func ObjectGUID(g xsd.GUID) Object { return simple(xmlany.NSMSTypes, "guid", g.String()) }
func ObjectChar(c xsd.Char) Object {
	return simple(xmlany.NSMSTypes, "char", string(c.AppendText(nil)))
}

// ObjectEnum holds member of the contract enumeration enum (xsi:type="Tier">Gold).
func ObjectEnum(reg *Registry, enum, member string) Object {
	return simple(reg.Namespace, enum, member)
}

// ObjectOf holds a contract complex value; nil is a nil Object.
func ObjectOf(v Typed) Object {
	if v == nil {
		return Object{}
	}
	return Object{kind: Complex, value: v}
}

// ObjectArray holds an object[] (nil items are nil Objects).
func ObjectArray(items ...Object) Object {
	if items == nil {
		items = []Object{}
	}
	return Object{kind: Array, items: items}
}

// ObjectRaw holds XML nodes; no nodes is Empty.
func ObjectRaw(x xmlany.RawXML) Object {
	if x.IsZero() {
		return Object{kind: Empty}
	}
	return Object{kind: Raw, raw: x}
}

// ObjectEmpty is a value of no type and no content.
func ObjectEmpty() Object { return Object{kind: Empty} }

// canonical is each simple type's reader to its canonical lexical form, by namespace and local name.
var canonical = map[xml.Name]func(string) (string, bool){
	{Space: xmlany.NSXSD, Local: "string"}:  func(s string) (string, bool) { return s, true },
	{Space: xmlany.NSXSD, Local: "int"}:     signedCanon(32),
	{Space: xmlany.NSXSD, Local: "long"}:    signedCanon(64),
	{Space: xmlany.NSXSD, Local: "short"}:   signedCanon(16),
	{Space: xmlany.NSXSD, Local: "byte"}:    signedCanon(8),
	{Space: xmlany.NSXSD, Local: "boolean"}: func(s string) (string, bool) { v, ok := xsd.ParseBool(s); return strconv.FormatBool(v), ok },
	{Space: xmlany.NSXSD, Local: "double"}: func(s string) (string, bool) {
		f, ok := xsd.ParseDouble(s, 64)
		return string(xsd.AppendDouble(nil, f)), ok
	},
	{Space: xmlany.NSXSD, Local: "float"}: func(s string) (string, bool) {
		f, ok := xsd.ParseDouble(s, 32)
		return string(xsd.AppendFloat(nil, float32(f))), ok
	},
	{Space: xmlany.NSXSD, Local: "decimal"}:  func(s string) (string, bool) { d, ok := xsd.ParseDecimal(s); return d.String(), ok },
	{Space: xmlany.NSXSD, Local: "dateTime"}: func(s string) (string, bool) { t, ok := xsd.ParseDateTime(s); return t.String(), ok },
	{Space: xmlany.NSXSD, Local: "base64Binary"}: func(s string) (string, bool) {
		v, ok := xsd.ParseBase64(s)
		return string(xsd.AppendBase64(nil, v)), ok
	},
	{Space: xmlany.NSMSTypes, Local: "guid"}: func(s string) (string, bool) { g, ok := xsd.ParseGUID(s); return g.String(), ok },
	{Space: xmlany.NSMSTypes, Local: "char"}: func(s string) (string, bool) { c, ok := xsd.ParseChar(s); return string(c.AppendText(nil)), ok },
}

func init() {
	for local, bits := range unsignedBits {
		canonical[xml.Name{Space: xmlany.NSXSD, Local: local}] = func(s string) (string, bool) {
			n, ok := xsd.ParseUnsigned(s, bits)
			return strconv.FormatUint(n, 10), ok
		}
	}
}

func signedCanon(bits int) func(string) (string, bool) {
	return func(s string) (string, bool) {
		n, ok := xsd.ParseInt(s, bits)
		return strconv.FormatInt(n, 10), ok
	}
}

// Read reads the object element whose start s was just returned, up to its end tag, as ASMX reads
// one (README §3; soap11-DescribeObject-*): by its xsi:type, resolved against the prefixes in scope,
// an XSD built-in (any prefix), ms:guid or ms:char, a contract enumeration or complex type, or
// ArrayOfAnyType (items read alike, xsi:nil items nil); another XSD built-in (xsd:duration) as a
// string; a type neither XSD nor the contract has, and content without xsi:type, as raw XML keeping
// the type (-unknown-type, -array-of-int, -untyped-text, -untyped-elements, -untyped-mixed); <v /> as
// Empty (-untyped-empty); xsi:nil as nil, where ASMX makes a top-level nil an XmlNode[] holding the
// attribute (a deviation: -nil). A bad simple value is the caller's error (-bad-int). A contract type
// with attributes reads them itself (ElementDecoder); other attributes than xsi:type and xsi:nil are
// not kept (ASMX keeps them among the nodes: -untyped-attribute). Raw
// content needs the full reader: fast mode steps aside (xmlwire.ErrFallback) for it.
func Read(r *xmlwire.Reader, s xmlwire.Start, what string, reg *Registry) (Object, error) {
	typ, typed, err := xmlany.XSIType(r, s)
	if err != nil {
		return Object{}, err
	}
	if s.Nil() {
		return Object{}, r.Discard()
	}
	if !typed {
		x, err := xmlany.Capture(r, s, xmlany.Nodes, what)
		return ObjectRaw(x), err
	}
	if typ.Space == xmlany.NSXSD || typ.Space == xmlany.NSMSTypes {
		canon, ok := canonical[typ]
		if !ok && typ.Space == xmlany.NSXSD { // a built-in .NET reads as a string (-xsd-duration)
			typ, canon, ok = xml.Name{Space: xmlany.NSXSD, Local: "string"}, canonical[xml.Name{Space: xmlany.NSXSD, Local: "string"}], true
		}
		if ok {
			return readSimple(r, s, what, typ, canon)
		}
	}
	if typ.Space == reg.Namespace {
		if typ.Local == ArrayOfAnyType {
			return readArray(r, what, reg)
		}
		if members, ok := reg.Enums[typ.Local]; ok {
			return readSimple(r, s, what, typ, func(s string) (string, bool) {
				for _, m := range members {
					if s == m {
						return s, true
					}
				}
				return "", false
			})
		}
		if f, ok := reg.Types[typ.Local]; ok {
			v := f()
			if d, ok := v.(ElementDecoder); ok {
				err = d.DecodeXMLElement(r, s)
			} else {
				err = v.DecodeXML(r)
			}
			if err != nil {
				return Object{}, err
			}
			return Object{kind: Complex, value: v}, nil
		}
	}
	x, err := xmlany.Capture(r, s, xmlany.Nodes, what)
	return Object{kind: Raw, typ: typ, raw: x}, err
}

func readSimple(r *xmlwire.Reader, s xmlwire.Start, what string, typ xml.Name, canon func(string) (string, bool)) (Object, error) {
	text, err := r.Text(s, what)
	if err != nil {
		return Object{}, err
	}
	c, ok := canon(text)
	if !ok {
		return Object{}, xsd.BadValue(what, typ.Local, text)
	}
	return Object{kind: Simple, typ: typ, text: c}, nil
}

// notOfContract is the error for an object value whose type local the contract does not have.
func notOfContract(local string, reg *Registry) error {
	return fault.InternalError(fmt.Errorf("anytype: the type %s of an object value is not a type of the contract %s", local, reg.Namespace))
}

func readArray(r *xmlwire.Reader, what string, reg *Registry) (Object, error) {
	o := Object{kind: Array, items: []Object{}}
	for i := 1; ; i++ {
		c, ok, err := r.Child()
		if err != nil || !ok {
			return o, err
		}
		item, err := Read(r, c, "item "+strconv.Itoa(i)+" of the "+what, reg)
		if err != nil {
			return Object{}, err
		}
		o.items = append(o.items, item)
	}
}

// Append appends <name …>o</name> as ASMX writes an object (soap11-GetObject-*): with the xsi:type of
// its value (AppendXSIType's forms: xsd:int, q1:guid, Dog, ArrayOfAnyType, Tier), ArrayOfAnyType's
// items as anyType elements (a nil item xsi:nil), raw content without xsi:type (unless it came with
// one) (-nodes); a nil Object writes nothing (-null), an Empty one <name />. A complex value whose
// type the contract does not have cannot be written: an internal error, as ASMX's Server fault
// (-widget). The element's default namespace must be reg.Namespace (the contract's elements are).
func Append(b []byte, name string, o Object, reg *Registry) ([]byte, error) {
	switch o.kind {
	case Nil:
		return b, nil
	case Empty:
		return append(append(append(b, '<'), name...), " />"...), nil
	}
	typ := o.typ
	if o.kind == Complex {
		local := o.value.XSDType()
		if f, ok := reg.Types[local]; !ok || f == nil {
			return b, notOfContract(local, reg)
		}
		typ = xml.Name{Space: reg.Namespace, Local: local}
	}
	if o.kind == Array {
		typ = xml.Name{Space: reg.Namespace, Local: ArrayOfAnyType}
	}
	b = append(append(b, '<'), name...)
	if typ.Local != "" {
		b = xmlany.AppendXSIType(b, typ, reg.Namespace)
	}
	mark := len(b)
	b = append(b, '>')
	n := len(b)
	switch o.kind {
	case Simple:
		b = xmlwire.AppendEscaped(b, o.text)
	case Complex:
		b = o.value.AppendXML(b)
	case Array:
		for _, item := range o.items {
			if item.kind == Nil {
				b = xmlwire.AppendNil(b, "anyType")
				continue
			}
			var err error
			if b, err = Append(b, "anyType", item, reg); err != nil {
				return b, err
			}
		}
	case Raw:
		b = o.raw.AppendTo(b)
	}
	if len(b) == n {
		return append(b[:mark], " />"...), nil
	}
	return xmlwire.AppendEnd(b, name), nil
}
