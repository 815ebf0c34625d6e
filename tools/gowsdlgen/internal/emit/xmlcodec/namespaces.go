package xmlcodec

import "github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"

// wrapperCodec writes the XML codec of a request or response wrapper in namespace ns ("" for the
// service namespace): a wrapper of another namespace ({urn:items}GetItem, README §6 of the third
// zoo) has its children qualified in it, so its DecodeXML reads them in ns (readInWrapperNamespace);
// AppendXML writes them unprefixed, in the default namespace the binding declares on the wrapper.
func (e *emitter) wrapperCodec(t *model.Type, goName, what, ns string) error {
	e.wrapperNS = ns
	defer func() { e.wrapperNS = "" }()
	return e.codec(t, goName, what)
}

// readInWrapperNamespace writes, at the start of a DecodeXML, the switch of the reader to the
// namespace of the wrapper being read when it is not the service's, restored when it returns.
func (e *emitter) readInWrapperNamespace() {
	if e.wrapperNS != "" {
		e.p("defer r.SetNamespace(r.SetNamespace(%q)) // the wrapper's namespace, which qualifies its elements", e.wrapperNS)
	}
}

// namespacesAndActions writes the table entry fields of op that differ from the service's defaults:
// its wrappers' namespace when it is another (RequestNamespace, ResponseNamespace), and its SOAPAction
// on each SOAP binding when the WSDL gives one other than the namespace followed by the operation's
// name (SOAPAction11, SOAPAction12; [SoapDocumentMethod("urn:items/fetch")]). A contract without
// either generates as before.
func (e *emitter) namespacesAndActions(op *model.Operation) {
	if op.Bare {
		e.p("Bare: true,") // document/literal bare: the SOAP body holds the wrapper's elements (package bare)
	}
	if op.RequestNamespace != "" {
		e.p("RequestNamespace: %q,", op.RequestNamespace)
	}
	if op.ResponseNamespace != "" {
		e.p("ResponseNamespace: %q,", op.ResponseNamespace)
	}
	for _, kind := range []string{"SOAP11", "SOAP12"} {
		if a := op.SOAPAction[kind]; a != "" && a != e.c.TargetNamespace+op.Name {
			e.p("SOAPAction%s: %q,", kind[len("SOAP"):], a)
		}
	}
}
