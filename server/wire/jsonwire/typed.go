package jsonwire

import "github.com/contactsync/contactsync/server/fault"

// ASP.NET AJAX's "__type" member (issue 33, design §3.7): a value of an element whose type has derived
// types carries its type's XSD local name first in its object ({"__type":"Dog","Name":"Rex",…}); .NET
// writes a CLR name there, which a WSDL cannot tell, and reads the member only where it comes first.

// TypeKey reads the "__type" member when it is the next key of the object being read, and returns its
// value; otherwise it reads nothing (ok false).
func (r *Reader) TypeKey(what string) (typ string, ok bool, err error) {
	saved := r.d
	k, more, err := r.d.Key()
	if err != nil || !more || string(k) != "__type" {
		r.d = saved // the caller reads the key again, or meets the error again
		return "", false, nil
	}
	tok, err := r.Token()
	if err != nil {
		return "", false, err
	}
	if tok.kind != '"' {
		return "", false, WrongType("__type of the "+what, "a string", tok)
	}
	return tok.text, true, nil
}

// InsertType puts "__type":typ first in the object written at b[mark:].
func InsertType(b []byte, mark int, typ string) []byte {
	if mark >= len(b) || b[mark] != '{' {
		return b
	}
	member := AppendString(append(make([]byte, 0, len(typ)+12), `"__type":`...), typ)
	if mark+1 < len(b) && b[mark+1] != '}' {
		member = append(member, ',')
	}
	b = append(b, member...)
	copy(b[mark+1+len(member):], b[mark+1:len(b)-len(member)])
	copy(b[mark+1:], member)
	return b
}

// NotDerived is the caller's error for a "__type" that names neither the declared type nor one
// derived from it.
func NotDerived(what, typ, declared string) error {
	return fault.Errorf(fault.InvalidArgument, "The __type %q of the %s is not %s or a type derived from it.", quote(typ), what, declared)
}

// Abstract is the caller's error for a value of an abstract type without a "__type" naming a
// concrete derived one.
func Abstract(what, declared string) error {
	return fault.Errorf(fault.InvalidArgument, "The %s has the abstract type %s: its __type must name a type derived from it.", what, declared)
}

func quote(s string) string {
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return s
}
