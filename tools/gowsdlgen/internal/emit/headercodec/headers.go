// Package headercodec writes the generated code of a contract's SOAP headers for package xmlcodec.
//
// It imports the standard library, emit and model.
package headercodec

import (
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
)

// Emitter writes header code to its Writer for a contract whose target namespace is Namespace.
type Emitter struct {
	*emit.Writer
	Namespace string
}

func (e Emitter) p(format string, args ...any) { e.P(format, args...) }

// SOAP headers (docs/generator-model.md §3.2): the operation's Headers descriptor, the request's
// DecodeHeader (wire.HeaderDecoder), the response's AppendHeaders (wire.HeaderAppender) and what
// Bind copies from one to the other. An operation without headers gets none of it, so a contract
// without headers generates as before.

// HeadersField writes the operation table entry's Headers.
func (e Emitter) HeadersField(op *model.Operation) {
	if len(op.Headers) == 0 {
		return
	}
	e.p("Headers: []wire.Header{")
	for _, h := range op.Headers {
		e.p("{Element: xml.Name{Space: %q, Local: %q}, Type: %s, Direction: wire.%s},", e.Namespace, h.Element, "type"+h.Type.GoName, h.Direction)
	}
	e.p("},")
}

// inOutBits are the mu bits of op's InOut headers, by element.
func inOutBits(op *model.Operation) map[string]int {
	bits := map[string]int{}
	for _, h := range op.Headers {
		if h.Direction == model.HeaderInOut {
			bits[h.Element] = len(bits)
		}
	}
	return bits
}

// BindHeaders writes Bind's copy of the InOut headers' mustUnderstand from request to response.
func (e Emitter) BindHeaders(op *model.Operation) {
	bits := inOutBits(op)
	for _, h := range op.Headers {
		if h.Direction == model.HeaderInOut {
			e.p("if req.mu&(1<<%d) != 0 { resp.%sMustUnderstand = true }", bits[h.Element], h.GoName)
		}
	}
}

// Codec writes the header methods of op's request and response types, each only when a header
// travels that way: the server's side, the request's DecodeHeader (In, InOut) and the response's
// AppendHeaders (Out, InOut); and the client's, the request's AppendHeaders and the response's
// DecodeHeader, which the bundled client calls to send and read them.
func (e Emitter) Codec(op *model.Operation) {
	var in, out []*model.HeaderPart
	for _, h := range op.Headers {
		if h.Direction.In() {
			in = append(in, h)
		}
		if h.Direction.Out() {
			out = append(out, h)
		}
	}
	if len(in) > 0 {
		e.decodeHeader(op, op.Request.GoName, in, false)
		e.appendHeaders(op, op.Request.GoName, in, false)
	}
	if len(out) > 0 && op.Response != nil { // a one-way operation has no response, and no Out header
		e.decodeHeader(op, op.Response.GoName, out, true)
		e.appendHeaders(op, op.Response.GoName, out, true)
	}
}

// decodeHeader writes DecodeHeader (wire.HeaderDecoder) on typ for the headers hs. A response keeps
// a block's mustUnderstand in <GoName>MustUnderstand, a request an InOut one's in its mu bit.
func (e Emitter) decodeHeader(op *model.Operation, typ string, hs []*model.HeaderPart, response bool) {
	bits := inOutBits(op)
	e.p("")
	e.p("// DecodeHeader reads a header block of %s into its field; the first of two wins (wire.HeaderDecoder).", typ)
	e.p("func (v *%s) DecodeHeader(r *xmlwire.Reader, s xmlwire.Start, mustUnderstand bool) (bool, error) {", typ)
	e.p("switch {")
	for _, h := range hs {
		e.p("case s.Is(%q):", h.Element)
		e.p("if v.%s != nil { return false, nil }", h.GoName)
		if h.Type.AnyAttribute != nil {
			e.p("h := &%s{AnyAttrs: wire.ForeignAttrs(s)}", h.Type.GoName)
		} else {
			e.p("h := new(%s)", h.Type.GoName)
		}
		e.p("if err := h.DecodeXML(r); err != nil { return true, err }")
		e.p("v.%s = h", h.GoName)
		if response {
			e.p("v.%sMustUnderstand = mustUnderstand", h.GoName)
		} else if bit, ok := bits[h.Element]; ok {
			e.p("if mustUnderstand { v.mu |= 1 << %d }", bit)
		}
		e.p("return true, nil")
	}
	e.p("}")
	e.p("return false, nil")
	e.p("}")
}

// appendHeaders writes AppendHeaders (wire.HeaderAppender) on typ for the headers hs; a response
// writes soap:mustUnderstand="1" where <GoName>MustUnderstand asks for it.
func (e Emitter) appendHeaders(op *model.Operation, typ string, hs []*model.HeaderPart, response bool) {
	e.p("")
	e.p("// AppendHeaders appends the header blocks of %s, those not nil (wire.HeaderAppender).", typ)
	prefix := "_" // a request's blocks carry no mustUnderstand
	if response {
		prefix = "envPrefix"
	}
	e.p("func (v *%s) AppendHeaders(b []byte, %s, namespace string) []byte {", typ, prefix)
	for _, h := range hs {
		e.p("if v.%s != nil {", h.GoName)
		e.p("b = append(b, %q...)", "<"+h.Element)
		if response {
			e.p("if v.%sMustUnderstand {", h.GoName)
			e.p("b = append(b, ' ')")
			e.p("b = append(b, envPrefix...)")
			e.p("b = append(b, `:mustUnderstand=\"1\"`...)")
			e.p("}")
		}
		e.p("b = append(b, ` xmlns=\"`...)")
		e.p("b = xmlwire.AppendEscaped(b, namespace)")
		e.p("b = append(b, '\"')")
		if h.Type.AnyAttribute != nil {
			e.p("b = wire.AppendForeignAttrs(b, v.%s.AnyAttrs)", h.GoName)
		}
		e.p("b = append(b, '>')")
		e.p("b = v.%s.AppendXML(b)", h.GoName)
		e.p("b = xmlwire.AppendEnd(b, %q)", h.Element)
		e.p("}")
	}
	e.p("return b")
	e.p("}")
}

// AnyAttributeField is the descriptor's AnyAttribute for type t, "" when false.
func AnyAttributeField(t *model.Type) string {
	if t.AnyAttribute != nil {
		return ", AnyAttribute: true"
	}
	return ""
}
