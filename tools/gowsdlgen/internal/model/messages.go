package model

import "github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"

// Results returns the elements of op's response wrapper in order: the result (when the method is not
// void), then the out and ref parameters in declaration order (shapes README §5: SplitResponse holds
// SplitResult, head, count; a void method's DivideResponse holds quotient, remainder). A one-way
// operation has none.
func (op *Operation) Results() []*Field {
	if op.OneWay || op.Response == nil {
		return nil
	}
	return op.Response.Fields
}

// Result returns the one element of op's response wrapper, the result, when it has exactly one; nil
// for a void method, a one-way operation and an operation with out or ref parameters (several
// elements), whose results are Results.
func (op *Operation) Result() *Field {
	if rs := op.Results(); len(rs) == 1 {
		return rs[0]
	}
	return nil
}

// OutRef reports whether op's response wrapper holds several elements: a method with out or ref
// parameters (or a void one with at least two outs).
func (op *Operation) OutRef() bool { return len(op.Results()) > 1 }

// outRef checks an operation with out or ref parameters (co.OutRef): ASMX never offers one on HTTP
// GET or POST, whose answer is one root element (get-Split-not-offered: the WSDL's HTTP bindings
// leave it out); an HTTP binding that lists it is refused with the operation named, since no result
// root could carry its values.
func (m *modeler) outRef(op *wsdl.Node, co *Operation) error {
	if !co.OutRef() {
		return nil
	}
	for _, kind := range co.Bindings {
		if kind == "HTTPGet" || kind == "HTTPPost" {
			return modelError(m.data, op, "operation %s has out or ref parameters (its response wrapper %s holds %d elements), "+
				"which HTTP GET/POST cannot answer with one root element; ASMX does not offer it there: leave %s out of the %s binding",
				co.Name, co.ResponseElement, len(co.Response.Fields), co.Name, kind)
		}
	}
	return nil
}
