package anytype

import (
	"bytes"

	"github.com/contactsync/contactsync/server/wire/xmlany"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// AppendHTTPResult appends the content of an HTTP GET/POST result document holding o, whose root
// start tag (<anyType xmlns:xsd=… xmlns:xsi=… xmlns="ns">) b ends with, as ASMX writes it (shapes
// README §3): a contract type's value, an array or an enumeration names its type on the root
// (xsi:type="Dog": get-GetObject-dog); a simple value gets generated prefixes, since ASMX's primitive
// root declares neither xsd nor xsi (<anyType xmlns:q1="…XMLSchema" d1p1:type="q1:string"
// xmlns:d1p1="…XMLSchema-instance" xmlns="ns">: get-GetObject-string); raw content goes in as it is.
// ok is false for nil (a nil root: get-GetObject-null). A complex value of a type the contract does
// not have panics, as Append's error does in the generated code (get-GetObject-widget).
func AppendHTTPResult(b []byte, o Object, reg *Registry) ([]byte, bool) {
	root := bytes.LastIndexByte(b, '<')
	switch o.kind {
	case Nil:
		return b, false
	case Empty:
		return b, true
	case Raw:
		return o.raw.AppendTo(b), true
	case Simple:
		if root < 0 {
			return b, false
		}
		tag := b[root:]
		ns := ""
		if i := bytes.Index(tag, []byte(` xmlns="`)); i >= 0 {
			rest := tag[i+len(` xmlns="`):]
			if j := bytes.IndexByte(rest, '"'); j >= 0 {
				ns = string(rest[:j])
			}
		}
		name := tag[1:]
		if i := bytes.IndexAny(name, " >"); i >= 0 {
			name = name[:i]
		}
		start := append([]byte(nil), '<')
		start = append(start, name...)
		if o.typ.Space == xmlany.NSXSD || o.typ.Space == xmlany.NSMSTypes {
			start = append(start, ` xmlns:q1="`...)
			start = xmlwire.AppendEscaped(start, o.typ.Space)
			start = append(start, `" d1p1:type="q1:`...)
		} else {
			start = append(start, ` d1p1:type="`...)
		}
		start = xmlwire.AppendEscaped(start, o.typ.Local)
		start = append(start, `" xmlns:d1p1="http://www.w3.org/2001/XMLSchema-instance"`...)
		if ns != "" {
			start = append(start, ` xmlns="`...)
			start = xmlwire.AppendEscaped(start, ns)
			start = append(start, '"')
		}
		start = append(start, '>')
		b = append(b[:root], start...)
		return xmlwire.AppendEscaped(b, o.text), true
	}
	b = xmlany.AppendRootXSIType(b, o.XSDType().Local)
	if o.kind == Complex {
		if f, ok := reg.Types[o.value.XSDType()]; !ok || f == nil {
			_, err := Append(nil, "anyType", o, reg)
			panic(err)
		}
		return o.value.AppendXML(b), true
	}
	for _, item := range o.items { // Array
		if item.kind == Nil {
			b = xmlwire.AppendNil(b, "anyType")
			continue
		}
		var err error
		if b, err = Append(b, "anyType", item, reg); err != nil {
			panic(err)
		}
	}
	return b, true
}
