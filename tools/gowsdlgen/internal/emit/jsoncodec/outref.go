package jsoncodec

// outRefResultJSON writes the JSON result entries of an operation with out or ref parameters, whose
// response wrapper resp holds several elements: the result is the wrapper as one object keyed by the
// elements' XML names, in order ({"SplitResult":3,"head":"a","count":13}), written and read by the
// wrapper's own JSON codec (xmlcodec writes it for such a wrapper). A null result reads as the empty
// wrapper.
func (e *emitter) outRefResultJSON(resp string) {
	e.p("AppendResultJSON: func(b []byte, m wire.Message) []byte {")
	e.p("return m.(*%s).AppendJSON(b)", resp)
	e.p("},")
	e.p("DecodeResultJSON: func(r *jsonwire.Reader, tok jsonwire.Token, m wire.Message) error {")
	e.p("switch {")
	e.p("case tok.IsNull():")
	e.p("return nil")
	e.p("case tok.Opens('{'):")
	e.p("return m.(*%s).DecodeJSON(r)", resp)
	e.p("}")
	e.p("return jsonwire.WrongType(%q, \"an object\", tok)", "result")
	e.p("},")
}
