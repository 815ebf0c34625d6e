package main

import (
	"errors"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/contactsync/contactsync/server/admission"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// xmlBudgetFlags registers the parse-budget limits of a SOAP request (the lexical bounds of
// xmlwire.Limits, which binding/soap checks), defaulting to d. They are serve settings like the other
// limits (limitFlags).
func xmlBudgetFlags(f *pflag.FlagSet, b *xmlwire.Limits, d xmlwire.Limits) {
	f.IntVar(&b.MaxAttrsPerElement, "max-xml-attrs-per-element", d.MaxAttrsPerElement, "most attributes on one element of a SOAP request, namespace declarations not counted")
	f.IntVar(&b.MaxAttrs, "max-xml-attrs", d.MaxAttrs, "most attributes in one SOAP request, namespace declarations not counted")
	f.IntVar(&b.MaxNamespaces, "max-xml-namespaces", d.MaxNamespaces, "most namespace declarations in one SOAP request")
	f.IntVar(&b.MaxNameBytes, "max-xml-name-bytes", d.MaxNameBytes, "longest element or attribute name in a SOAP request, in bytes")
	f.IntVar(&b.MaxAttrValueBytes, "max-xml-attr-value-bytes", d.MaxAttrValueBytes, "longest attribute value in a SOAP request, in bytes")
	f.IntVar(&b.MaxSpecialTokens, "max-xml-comments", d.MaxSpecialTokens, "most comments, processing instructions and CDATA sections in one SOAP request")
	f.IntVar(&b.MaxSpecialBytes, "max-xml-comment-bytes", d.MaxSpecialBytes, "most bytes inside the comments, processing instructions and CDATA sections of one SOAP request")
}

// validateXMLBudget refuses a budget limit below 1, naming the flag: a zero would mean "the
// default" inside the server, which a setting must not silently do.
func validateXMLBudget(b xmlwire.Limits) error {
	for _, c := range []struct {
		flag  string
		value int
	}{
		{"max-xml-attrs-per-element", b.MaxAttrsPerElement},
		{"max-xml-attrs", b.MaxAttrs},
		{"max-xml-namespaces", b.MaxNamespaces},
		{"max-xml-name-bytes", b.MaxNameBytes},
		{"max-xml-attr-value-bytes", b.MaxAttrValueBytes},
		{"max-xml-comments", b.MaxSpecialTokens},
		{"max-xml-comment-bytes", b.MaxSpecialBytes},
	} {
		if c.value < 1 {
			return fmt.Errorf("--%s must be at least 1", c.flag)
		}
	}
	return nil
}

// admissionFlags registers the request-admission limits (admission.Limits) but the body size and the
// operation slots, which limitFlags registers beside the other request limits, defaulting to d.
func admissionFlags(f *pflag.FlagSet, a *admission.Limits, d admission.Limits) {
	f.IntVar(&a.MaxPending, "max-pending", d.MaxPending, "requests reading their body or waiting for an operation slot at once; more get 503 with Retry-After")
	f.Int64Var(&a.MaxBodyBytesInFlight, "max-body-bytes-in-flight", d.MaxBodyBytesInFlight, "request bodies held in memory at once, in bytes; beyond it requests get 503 with Retry-After")
	f.Int64Var(&a.MinBodyRate, "min-body-rate", d.MinBodyRate, "slowest a request body may arrive, in bytes per second (after a 2 s grace); a slower one is cut off")
	f.DurationVar(&a.QueueTimeout, "queue-timeout", d.QueueTimeout, "how long a request whose body is read waits for an operation slot before it gets 503 with Retry-After")
}

// validateAdmission refuses admission limits that cannot work, naming the flag.
func validateAdmission(a admission.Limits) error {
	switch {
	case a.MaxPending < 1:
		return errors.New("--max-pending must be at least 1")
	case a.MaxBodyBytesInFlight < 1:
		return errors.New("--max-body-bytes-in-flight must be at least 1")
	case a.MinBodyRate < 1:
		return errors.New("--min-body-rate must be at least 1")
	case a.QueueTimeout <= 0:
		return errors.New("--queue-timeout must be positive")
	}
	return nil
}
