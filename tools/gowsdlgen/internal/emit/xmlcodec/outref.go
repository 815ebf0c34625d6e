package xmlcodec

import (
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit/jsoncodec"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
)

// results writes the Results of op's table entry when its response wrapper holds several elements
// (out and ref parameters, model.Operation.OutRef): every element in order, the result first when
// the method is not void. An operation with one result or none keeps Result alone, so a contract
// without out or ref parameters generates as before.
func (e *emitter) results(op *model.Operation) {
	if !op.OutRef() {
		return
	}
	e.p("Results: []wire.Field{")
	for _, f := range op.Results() {
		e.p("%s,", fieldLiteral(f))
	}
	e.p("},")
}

// outRefJSONCodec writes the JSON codec of op's response wrapper when it holds several elements: the
// JSON endpoint answers them as one object keyed by their XML names, in order (shapes has no capture
// of it; docs/bindings.md), {"d":{"SplitResult":3,"head":"a","count":13}}.
func (e *emitter) outRefJSONCodec(op *model.Operation) error {
	if !op.OutRef() {
		return nil
	}
	return jsoncodec.Codec(e.Writer, op.Response, op.Response.GoName, false)
}
