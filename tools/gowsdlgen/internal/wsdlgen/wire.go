package wsdlgen

import (
	"fmt"
	"go/format"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit/contractdoc"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit/record"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit/xmlcodec"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/postprocess"
)

// emitWire generates the wire code for a contract: the operation table, the XML codec of every wrapper
// and complex type, the HTTP form binding, the server interface and the client stub (xmlcodec, with
// jsoncodec's entries), then the record codec (record) and the contract's document. It is written
// from the model alone (model.GoFieldOf); typesSrc, gowsdl's post-processed types, is only checked
// against it (postprocess.CheckStructs).
func emitWire(c *model.Contract, desc *contractdoc.Descriptor, typesSrc []byte, pkg, source string, recordOpts *record.Options) ([]byte, error) {
	if err := postprocess.CheckStructs(c, typesSrc); err != nil {
		return nil, fmt.Errorf("reading gowsdl's types: %w", err)
	}
	w := new(emit.Writer)
	if err := xmlcodec.File(w, c, desc, pkg, source); err != nil {
		return nil, err
	}
	if recordOpts != nil {
		if err := record.Emit(w, c, recordOpts); err != nil {
			return nil, err
		}
	}
	xmlcodec.ContractDocument(w, desc)
	src, err := emit.DropUnusedImports(w.Bytes())
	if err != nil {
		return nil, fmt.Errorf("generated wire code does not parse: %w\n%s", err, w.Bytes())
	}
	out, err := format.Source(src)
	if err != nil {
		return nil, fmt.Errorf("generated wire code does not parse: %w\n%s", err, src)
	}
	return out, nil
}
