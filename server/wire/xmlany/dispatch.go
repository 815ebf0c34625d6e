package xmlany

import "github.com/contactsync/contactsync/server/wire/xmlwire"

// Hierarchy is a complex type with the types derived from it, as the code generated for an element of
// that type hands it to Dispatch (issue 33, design §3.7): the declared type's XSD local name, whether
// it is abstract, and the local names of every type derived from it, directly or not, in a fixed order
// (the contract's document order). The types are in the service namespace the reader reads the
// request in (xmlwire.Reader.Namespace), which moves with a rebased contract.
type Hierarchy struct {
	Declared string
	Abstract bool
	Derived  []string
}

// Dispatch says which type the value of element s, declared with h.Declared, is of: 0 for the
// declared type, i+1 for h.Derived[i]. As ASMX reads it (shapes §2): no xsi:type is the declared type
// (soap11-EchoAnimal-base), or a Client fault when that is abstract (soap11-DescribeShape-no-type);
// an xsi:type resolved through any prefix in scope (XSIType: an undeclared prefix is a Client fault)
// must name the declared type or a derived one in the service namespace, else it is a Client fault naming it
// (NotDerived: soap11-EchoAnimal-unknown-type, -wrong-ns-type, -xsd-string); the abstract declared
// type named is a Client fault too (soap11-DescribeShape-abstract-type). Call it before the next read
// of r; in fast mode an element with a prefixed type attribute is xmlwire.ErrFallback (the fast
// reader keeps no attribute values), as are XSIType's own errors.
func Dispatch(r *xmlwire.Reader, s xmlwire.Start, h *Hierarchy) (int, error) {
	name, typed, err := XSIType(r, s)
	if err != nil {
		return 0, err
	}
	ns := r.Namespace()
	if !typed || name.Space == ns && name.Local == h.Declared {
		if h.Abstract {
			return 0, Abstract(s.Local(), h.Declared)
		}
		return 0, nil
	}
	if name.Space == ns {
		for i, d := range h.Derived {
			if d == name.Local {
				return i + 1, nil
			}
		}
	}
	return 0, NotDerived(s.Local(), name, h.Declared)
}

// AppendRootXSIType adds xsi:type naming typ, a type of the default namespace, to the start tag b
// ends with (its '>'), as ASMX writes the root of an HTTP GET/POST result holding a derived value
// (get-GetAnimal-dog: <Animal … xsi:type="Dog" xmlns="…">). wire.Operation.AppendResult is called
// right after that start tag, which declares xsi; b not ending with '>' is returned as it is.
func AppendRootXSIType(b []byte, typ string) []byte {
	if len(b) == 0 || b[len(b)-1] != '>' || len(b) > 1 && b[len(b)-2] == '/' {
		return b
	}
	b = append(b[:len(b)-1], ` xsi:type="`...)
	b = xmlwire.AppendEscaped(b, typ)
	return append(b, `">`...)
}
