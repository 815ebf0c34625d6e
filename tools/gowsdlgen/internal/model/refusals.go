package model

import "github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"

// notYet refuses a construct ASMX writes and the generator does not carry yet, with the construct and
// its line: "line 12: <s:attribute>: attribute (an [XmlAttribute] member) is not supported yet". The
// words "outside the XSD subset an ASMX contract uses" are kept for what ASMX never writes
// (modelError), so a refusal says which of the two it is.
func notYet(data []byte, n *wsdl.Node, format string, args ...any) error {
	return wsdl.Errorf(data, n, format+" is not supported yet", args...)
}

// soapOperation refuses what a SOAP binding's operation says that the generator does not carry yet,
// rather than generate code that silently ignores it: rpc style and encoded bodies ([SoapRpcMethod]).
// soap:header is read by package headers, which refuses what of it is not carried yet.
func (m *modeler) soapOperation(b, op *wsdl.Node, name string) error {
	for _, ns := range []string{wsdl.NamespaceSOAP11, wsdl.NamespaceSOAP12} {
		for _, bb := range b.Elements(ns, "binding") {
			if style, _ := bb.Attr("style"); style == "rpc" {
				return notYet(m.data, bb, "rpc style ([SoapRpcService])")
			}
		}
		for _, so := range op.Elements(ns, "operation") {
			if style, _ := so.Attr("style"); style == "rpc" {
				return notYet(m.data, so, "rpc style (operation %s: [SoapRpcMethod])", name)
			}
		}
		for _, io := range op.Children {
			if !io.Is(wsdl.NamespaceWSDL, "input") && !io.Is(wsdl.NamespaceWSDL, "output") {
				continue
			}
			for _, body := range io.Elements(ns, "body") {
				if use, _ := body.Attr("use"); use == "encoded" {
					return notYet(m.data, body, "an encoded body (operation %s: SOAP encoding, [SoapRpcMethod])", name)
				}
			}
		}
	}
	return nil
}
