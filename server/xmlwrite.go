package server

import "github.com/contactsync/contactsync/server/wire"

// Namespaces the wire format uses (SOAP 1.1 §4.1.1; SOAP 1.2 Part 1 §5.1; XML Schema Part 1 §3.2.7).
const (
	nsSOAP11 = "http://schemas.xmlsoap.org/soap/envelope/"
	nsSOAP12 = "http://www.w3.org/2003/05/soap-envelope"
	nsXSI    = wire.NSXSI
	nsXSD    = wire.NSXSD
)

const xmlDeclaration = wire.XMLDeclaration

// appendEscaped appends s as XML text or attribute content (see wire.AppendEscaped).
func appendEscaped(b []byte, s string) []byte { return wire.AppendEscaped(b, s) }
