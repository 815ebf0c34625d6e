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
// ok is false for nil (a nil root: get-GetObject-null). A value Writable refuses (a complex value of
// a type the contract does not have, get-GetObject-widget) is written as nil too: the handler asks
// Writable first (wire.Operation.CheckResult) and answers an internal error instead, so that a
// service's bad value never reaches a panic.
func AppendHTTPResult(b []byte, o Object, reg *Registry) ([]byte, bool) {
	root := bytes.LastIndexByte(b, '<')
	if o.kind == Nil || Writable(o, reg) != nil {
		return b, false
	}
	switch o.kind {
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
		return o.value.AppendXML(b), true
	}
	for _, item := range o.items { // Array: every item is writable (Writable above)
		if item.kind == Nil {
			b = xmlwire.AppendNil(b, "anyType")
			continue
		}
		b, _ = Append(b, "anyType", item, reg)
	}
	return b, true
}

// ObjectHolder is a complex value from which an object is reachable: the generated code gives every
// such type of a contract (and every message wrapper holding one) CheckObjects, which walks its
// fields, items, derived values and headers and asks Writable of each object it finds, with its own
// contract's Registry (the one its AppendXML writes them with).
type ObjectHolder interface {
	// CheckObjects reports why an object the value holds, at any depth, cannot be written, or nil.
	CheckObjects() error
}

// Writable reports why o cannot be written on any binding, or nil: a complex value (or an
// ArrayOfAnyType item, at any depth) of a type the contract reg describes does not have, or one of
// the contract's that holds such an object itself (ObjectHolder), at any depth. ASMX finds
// the same only while writing the response, after the method ran, and answers a Server fault over
// SOAP and a text/plain 500 over HTTP GET/POST ("There was an error generating the XML document. --->
// The type ContactSync.Widget was not expected.": soap11-GetObject-widget, get-GetObject-widget). The
// error is internal (fault.InternalError): it is the service's bug, and its detail is logged, not
// sent.
func Writable(o Object, reg *Registry) error {
	switch o.kind {
	case Complex:
		local := o.value.XSDType()
		if f, ok := reg.Types[local]; !ok || f == nil {
			return notOfContract(local, reg)
		}
		if h, ok := o.value.(ObjectHolder); ok {
			return h.CheckObjects()
		}
	case Array:
		for _, item := range o.items {
			if err := Writable(item, reg); err != nil {
				return err
			}
		}
	}
	return nil
}
