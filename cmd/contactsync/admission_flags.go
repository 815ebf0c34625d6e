package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/contactsync/contactsync/server"
)

// xmlBudgetFlags registers the parse-budget limits of a SOAP request (server.XMLBudget), defaulting
// to server.DefaultXMLBudget. They are serve settings like the other limits (limitFlags).
func xmlBudgetFlags(f *pflag.FlagSet, b *server.XMLBudget) {
	d := server.DefaultXMLBudget()
	f.IntVar(&b.MaxXMLAttrsPerElement, "max-xml-attrs-per-element", d.MaxXMLAttrsPerElement, "most attributes on one element of a SOAP request, namespace declarations not counted")
	f.IntVar(&b.MaxXMLAttrs, "max-xml-attrs", d.MaxXMLAttrs, "most attributes in one SOAP request, namespace declarations not counted")
	f.IntVar(&b.MaxXMLNamespaces, "max-xml-namespaces", d.MaxXMLNamespaces, "most namespace declarations in one SOAP request")
	f.IntVar(&b.MaxXMLNameBytes, "max-xml-name-bytes", d.MaxXMLNameBytes, "longest element or attribute name in a SOAP request, in bytes")
	f.IntVar(&b.MaxXMLAttrValueBytes, "max-xml-attr-value-bytes", d.MaxXMLAttrValueBytes, "longest attribute value in a SOAP request, in bytes")
	f.IntVar(&b.MaxXMLSpecialTokens, "max-xml-comments", d.MaxXMLSpecialTokens, "most comments, processing instructions and CDATA sections in one SOAP request")
	f.IntVar(&b.MaxXMLSpecialBytes, "max-xml-comment-bytes", d.MaxXMLSpecialBytes, "most bytes inside the comments, processing instructions and CDATA sections of one SOAP request")
}

// validateXMLBudget refuses a budget limit below 1, naming the flag: a zero would mean "the
// default" inside the server, which a setting must not silently do.
func validateXMLBudget(b server.XMLBudget) error {
	for _, c := range []struct {
		flag  string
		value int
	}{
		{"max-xml-attrs-per-element", b.MaxXMLAttrsPerElement},
		{"max-xml-attrs", b.MaxXMLAttrs},
		{"max-xml-namespaces", b.MaxXMLNamespaces},
		{"max-xml-name-bytes", b.MaxXMLNameBytes},
		{"max-xml-attr-value-bytes", b.MaxXMLAttrValueBytes},
		{"max-xml-comments", b.MaxXMLSpecialTokens},
		{"max-xml-comment-bytes", b.MaxXMLSpecialBytes},
	} {
		if c.value < 1 {
			return fmt.Errorf("--%s must be at least 1", c.flag)
		}
	}
	return nil
}
