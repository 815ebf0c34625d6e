package record

import (
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
)

// recordFields are the members of t's record object (design §4, docs/contract.md): its attributes
// first, as "@name" keys in declaration order, then the text of simple content as "$text", then its
// elements. "@" and "$" start no XML name, so these keys never meet an element's.
func recordFields(t *model.Type) ([]*model.Field, error) {
	all, err := emit.AttrFields(t, "@", "$text")
	if err != nil {
		return nil, err
	}
	n := len(t.AllFields())
	return append(append([]*model.Field(nil), all[n:]...), all[:n]...), nil
}
