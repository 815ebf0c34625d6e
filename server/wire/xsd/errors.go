package xsd

import (
	"strings"

	"github.com/contactsync/contactsync/server/fault"
)

// Value errors, named by what they are about ("parameter id", "element FirstName").

// BadValue reports a value its XSD type cannot carry.
func BadValue(what, xsdType, value string) error {
	if len(value) > 64 {
		value = value[:64] + "…"
	}
	return fault.Errorf(fault.InvalidArgument, "The %s must be an xsd:%s; %q is not.", what, xsdType, strings.ToValidUTF8(value, "\uFFFD"))
}

// Duplicate reports an element given more than once where the schema allows one.
func Duplicate(what string) error {
	return fault.Errorf(fault.InvalidArgument, "The %s is given more than once.", what)
}
