package xmlany

import (
	"encoding/xml"
	"slices"
	"strings"

	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// NSXSD is the XML Schema namespace, of the built-in types (xsi:type="xsd:int").
const NSXSD = "http://www.w3.org/2001/XMLSchema"

// NSMSTypes is the namespace of ASMX's own simple types, guid and char (xsi:type="q1:guid").
const NSMSTypes = "http://microsoft.com/wsdl/types/"

// XSIType returns the type an element names with xsi:type, resolved against the namespace prefixes
// in scope at it (its own declarations included), and whether it names one. An unprefixed name is in
// the default namespace, as ASMX reads xsi:type="Dog" (soap11-EchoAnimal-dog); any prefix bound to
// the namespace will do (soap11-EchoAnimal-dog-other-prefix, soap11-DescribeObject-xsd-other-prefix).
// An undeclared prefix is the caller's error, as ASMX refuses it (soap11-EchoAnimal-undeclared-prefix),
// and so is a value that is not a QName. Whether the type fits the element is the caller's question
// (NotDerived). Call it before the next read of r. The fast reader steps aside (xmlwire.ErrFallback)
// for every xsi:type: it keeps no attribute values, so today's requests pay nothing for them.
func XSIType(r *xmlwire.Reader, s xmlwire.Start) (xml.Name, bool, error) {
	value, ok, err := r.TypeAttr(s)
	if !ok && err == nil {
		err = unboundTypePrefix(r, s)
	}
	if !ok || err != nil {
		return xml.Name{}, false, err
	}
	v := strings.Trim(value, " \t\r\n") // a QName's white space collapses
	prefix, local, prefixed := strings.Cut(v, ":")
	if !prefixed {
		prefix, local = "", v
	}
	if prefixed && !isNCName(prefix) || !isNCName(local) {
		return xml.Name{}, false, fault.Errorf(fault.InvalidArgument, "The xsi:type of the element %s must be a qualified name; %q is not.", s.Local(), quoteValue(value))
	}
	uri, ok := r.LookupPrefix(prefix)
	if !ok || prefixed && uri == "" { // xmlns:p="" declares nothing in XML Namespaces 1.0

		return xml.Name{}, false, fault.Errorf(fault.InvalidArgument, "The xsi:type %q of the element %s uses the namespace prefix %s, which is not declared.", quoteValue(value), s.Local(), prefix)
	}
	return xml.Name{Space: uri, Local: local}, true, nil
}

// unboundTypePrefix is the caller's error for a type attribute whose prefix no declaration binds
// (<animal i:type="Dog"> without xmlns:i): encoding/xml keeps such a prefix as the attribute's
// namespace, so it would read as no xsi:type at all, the declared type, silently, where ASMX's XML
// reader refuses the document ("'i' is an undeclared prefix"). An attribute of a namespace bound in
// scope (p:type with xmlns:p="urn:p") is someone else's, and ignored as before.
func unboundTypePrefix(r *xmlwire.Reader, s xmlwire.Start) error {
	for _, a := range s.Attrs() {
		if a.Name.Local != "type" || a.Name.Space == "" || a.Name.Space == xmlwire.NSXSI {
			continue
		}
		bound := slices.ContainsFunc(r.InScope(nil), func(n xmlwire.NS) bool { return n.URI == a.Name.Space })
		if _, declared := r.LookupPrefix(a.Name.Space); !bound && !declared {
			return fault.Errorf(fault.InvalidArgument, "The attribute %s:type of the element %s uses the namespace prefix %s, which is not declared.",
				quoteValue(a.Name.Space), s.Local(), quoteValue(a.Name.Space))
		}
	}
	return nil
}

// quoteValue bounds a value quoted in an error.
func quoteValue(v string) string {
	if len(v) > 64 {
		v = v[:64] + "…"
	}
	return strings.ToValidUTF8(v, "\uFFFD")
}

// NotDerived is the caller's error for an xsi:type that names no type the element may hold: unknown,
// in another namespace, a built-in on a complex element, or a type not derived from the declared one
// (soap11-EchoAnimal-unknown-type, -wrong-ns-type, -xsd-string). declared is the element's type's
// local name.
func NotDerived(element string, got xml.Name, declared string) error {
	return fault.Errorf(fault.InvalidArgument, "The xsi:type {%s}%s of the element %s is not %s or a type derived from it.",
		quoteValue(got.Space), quoteValue(got.Local), element, declared)
}

// Abstract is the caller's error for an element of an abstract type that names no concrete derived
// type (soap11-DescribeShape-no-type, -abstract-type).
func Abstract(element, declared string) error {
	return fault.Errorf(fault.InvalidArgument, "The element %s has the abstract type %s: its xsi:type must name a type derived from it.", element, declared)
}

// AbstractNamed is the caller's error for an xsi:type naming an abstract type derived from the
// element's declared one (xsi:type="Bird" on an Animal element, Bird abstract): it has no value of its
// own either, and the fault names it, not the declared type.
func AbstractNamed(element, typ string) error {
	return fault.Errorf(fault.InvalidArgument, "The xsi:type %s of the element %s names an abstract type: it must name a type derived from %s.", typ, element, typ)
}

// AppendXSIType appends the xsi:type attribute naming name, with a leading space, inside a start tag,
// as ASMX writes it: unprefixed for a type in defaultNS, the default namespace in scope
// (xsi:type="Dog": soap11-GetAnimal-dog); xsd: for an XML Schema built-in (xsi:type="xsd:int":
// soap11-GetObject-int); for any other namespace, ASMX's guid and char among them, a prefix q1
// declared on the element itself, before the attribute (xmlns:q1="http://microsoft.com/wsdl/types/"
// xsi:type="q1:guid": soap11-GetObject-guid). The xsi and xsd prefixes must be in scope: the SOAP
// envelope and the GET/POST roots declare both. A type in no namespace under a default namespace has
// no QName form there; it is written unprefixed.
func AppendXSIType(b []byte, name xml.Name, defaultNS string) []byte {
	switch name.Space {
	case defaultNS, "":
		b = append(b, ` xsi:type="`...)
	case NSXSD:
		b = append(b, ` xsi:type="xsd:`...)
	default:
		b = append(b, ` xmlns:q1="`...)
		b = xmlwire.AppendEscaped(b, name.Space)
		b = append(b, `" xsi:type="q1:`...)
	}
	b = xmlwire.AppendEscaped(b, name.Local)
	return append(b, '"')
}
