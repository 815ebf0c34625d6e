package recordwire

import "strconv"

// TypeKey is the member naming a derived value's type in its record object, "$type": a value of a
// type in an inheritance hierarchy that is not the type its element declares is written as its
// type's object with "$type" first, the type's XSD local name (docs/contract.md). An XSD element
// name cannot begin with "$", so the member cannot collide with an element.
const TypeKey = "$type"

// PeekType returns the value of the TypeKey member of the object the reader is at, without moving
// the reader: ok is false when the next value is not an object or the object has none. The type is
// read before the value's members because a document's keys may come in any order (PostgreSQL's
// jsonb sorts them), so the decoder knows which type's members to expect only after a look ahead.
func (r *Reader) PeekType() (typ string, ok bool, err error) {
	if r.Peek() != '{' {
		return "", false, nil
	}
	var ahead Reader
	ahead.Reset(r.Data()[r.Pos():], Lenient)
	if err := ahead.BeginObject(); err != nil {
		return "", false, err
	}
	for {
		key, more, err := ahead.Key()
		if err != nil || !more {
			return typ, ok, err
		}
		if string(key) != TypeKey {
			if err := ahead.Skip(); err != nil {
				return "", false, err
			}
			continue
		}
		if ok {
			return "", false, ahead.Duplicate(key)
		}
		if ahead.Peek() != '"' {
			return "", false, &Error{Msg: "the " + TypeKey + " member must be a string naming a type", Path: TypeKey}
		}
		b, err := ahead.StringBytes()
		if err != nil {
			return "", false, err
		}
		typ, ok = string(b), true
	}
}

// UnknownType is the error for a TypeKey naming neither the declared type nor a type derived from it.
func UnknownType(typ, declared string) error {
	return &Error{Msg: "the " + TypeKey + " " + strconv.Quote(typ) + " is not " + declared + " or a type derived from it"}
}

// UnknownDerived handles a TypeKey naming a type the contract does not know under a concrete
// declared type: in Strict mode it is UnknownType's error; in Lenient mode the value reads as the
// declared type, and the reader notes an unknown member (SawUnknown), as a writer must carry the
// TypeKey and the members the declared type lacks (a newer contract's derived type, or one this
// contract dropped: docs/contract.md).
func (r *Reader) UnknownDerived(typ, declared string) error {
	if r.mode&Strict != 0 {
		return UnknownType(typ, declared)
	}
	r.unknown = true
	return nil
}

// AbstractType is the error for a value of an abstract type without a TypeKey naming a concrete
// derived one.
func AbstractType(typ, declared string) error {
	if typ == "" {
		return &Error{Msg: "a value of the abstract type " + declared + " needs a " + TypeKey + " naming a type derived from it"}
	}
	return &Error{Msg: "the " + TypeKey + " " + strconv.Quote(typ) + " names an abstract type; a value must be of a concrete type derived from " + declared}
}

// AppendTyped appends the object a derived value's AppendRecord wrote at b[mark:] again with the
// TypeKey member naming typ (an XSD NCName, which needs no escaping) first.
func AppendTyped(b []byte, mark int, typ string) []byte {
	if mark >= len(b) || b[mark] != '{' {
		return b
	}
	n := len(`"`+TypeKey+`":""`) + len(typ)
	empty := mark+1 < len(b) && b[mark+1] == '}'
	if !empty {
		n++
	}
	b = append(b, make([]byte, n)...)
	copy(b[mark+1+n:], b[mark+1:len(b)-n])
	at := mark + 1
	at += copy(b[at:], `"`+TypeKey+`":"`)
	at += copy(b[at:], typ)
	b[at] = '"'
	if !empty {
		b[at+1] = ','
	}
	return b
}
