package soap

import (
	"bytes"
	"encoding/xml"
	"slices"

	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// The contract's SOAP headers (docs/bindings.md, "SOAP headers"). A request's header blocks come
// before its body, and the body names the operation (when no SOAPAction does), so for a contract
// with headers the Header pass records each block aimed at this service (its name, mustUnderstand
// and byte span) and decides after routing: the blocks the operation declares In or InOut are
// decoded into the request by its generated DecodeHeader (the first of two wins), and a block with
// mustUnderstand that nothing takes is a MustUnderstand fault, before the method runs. A contract
// without headers records nothing and faults in the Header pass, as it always did.

// headerState is what the Header pass records for after routing: the blocks aimed at this service
// (WS-Security aside), the namespace declarations in scope for them, and, once decided, the blocks
// the operation does not take.
type headerState struct {
	blocks  []headerBlock
	decls   []xml.Attr
	unknown []wire.HeaderBlock
}

// headerBlock is a header block recorded in the Header pass.
type headerBlock struct {
	name           xml.Name
	mustUnderstand bool
	actor          string // SOAP 1.1 actor or SOAP 1.2 role as sent, "" without
	// start and end delimit the block in the document (white space and comments before it included).
	start, end int
}

// headerScope collects the namespace declarations of the Envelope and Header start tags, which a
// recorded block may use: a block is decoded as a document of its own, inside an element that
// declares them again. A later declaration of a prefix replaces an earlier one.
func headerScope(decls []xml.Attr, s xmlwire.Start) []xml.Attr {
	for _, a := range s.Attrs() {
		if a.Name.Space != "xmlns" && (a.Name.Space != "" || a.Name.Local != "xmlns") {
			continue
		}
		replaced := false
		for i := range decls {
			if decls[i].Name == a.Name {
				decls[i].Value, replaced = a.Value, true
			}
		}
		if !replaced {
			decls = append(decls, a)
		}
	}
	return decls
}

// declaresIn reports whether op reads header blocks named name (In or InOut, in the service
// namespace).
func (b *Binding) declaresIn(op *wire.Operation, name xml.Name) bool {
	if name.Space != b.namespace {
		return false
	}
	for _, h := range op.Headers {
		if h.Element.Local == name.Local && h.Direction.In() {
			return true
		}
	}
	return false
}

// applyHeaders decides the recorded header blocks of a routed request (see above). body is the
// document the blocks' spans refer to.
func (b *Binding) applyHeaders(body []byte, req *request) *fault.Error {
	if req.hdr == nil {
		req.hdr = &headerState{}
	}
	st := req.hdr
	st.unknown = []wire.HeaderBlock{} // not nil: a SOAP request of a contract with headers
	if len(st.blocks) == 0 {
		return nil
	}
	dec, _ := req.msg.(wire.HeaderDecoder)
	taken := make([]bool, len(st.blocks))
	var takenNames []xml.Name // at most one per header the operation declares
	for i, blk := range st.blocks {
		if dec != nil && !slices.Contains(takenNames, blk.name) && b.declaresIn(req.op, blk.name) {
			taken[i] = true
			takenNames = append(takenNames, blk.name)
			continue
		}
		if blk.mustUnderstand && !understoodHeaderNamespaces[blk.name.Space] {
			return mustUnderstandFault(blk.name)
		}
	}
	body = bytes.TrimPrefix(body, []byte("\xEF\xBB\xBF")) // as the Reader did
	for i, blk := range st.blocks {
		if !taken[i] {
			st.unknown = append(st.unknown, wire.HeaderBlock{Name: blk.name, MustUnderstand: blk.mustUnderstand, Actor: blk.actor,
				XML: blockXML(body[blk.start:blk.end])})
			continue
		}
		if err := b.decodeBlock(body, st.decls, dec, blk); err != nil {
			return fault.As(err)
		}
	}
	return nil
}

// decodeBlock decodes one recorded block through the request's DecodeHeader.
func (b *Binding) decodeBlock(body []byte, decls []xml.Attr, dec wire.HeaderDecoder, blk headerBlock) error {
	doc := append(make([]byte, 0, blk.end-blk.start+64), "<h"...)
	for _, a := range decls {
		doc = append(doc, ' ')
		if a.Name.Space == "xmlns" {
			doc = append(doc, "xmlns:"+a.Name.Local...)
		} else {
			doc = append(doc, "xmlns"...)
		}
		doc = append(doc, `="`...)
		doc = xmlwire.AppendEscaped(doc, a.Value)
		doc = append(doc, '"')
	}
	doc = append(doc, '>')
	doc = append(doc, body[blk.start:blk.end]...)
	doc = append(doc, "</h>"...)
	rd := xmlwire.NewReader(doc, b.namespace, b.limits, false)
	if _, err := rd.Root(); err != nil {
		return err
	}
	s, ok, err := rd.Child()
	if err != nil || !ok {
		return err
	}
	_, err = dec.DecodeHeader(rd, s, blk.mustUnderstand)
	return err
}

// blockXML is a recorded span without the white space, comments and processing instructions before
// the block's start tag.
func blockXML(span []byte) []byte {
	for {
		span = bytes.TrimLeft(span, " \t\r\n")
		var end string
		switch {
		case bytes.HasPrefix(span, []byte("<!--")):
			end = "-->"
		case bytes.HasPrefix(span, []byte("<?")):
			end = "?>"
		default:
			return bytes.Clone(span)
		}
		i := bytes.Index(span, []byte(end))
		if i < 0 {
			return bytes.Clone(span)
		}
		span = span[i+len(end):]
	}
}

// mustUnderstandFault is the fault of a block with mustUnderstand that the service does not
// understand.
func mustUnderstandFault(name xml.Name) *fault.Error {
	return &fault.Error{Code: fault.MustUnderstand, Err: notUnderstood{name},
		Message: "The header " + name.Local + " in namespace \"" + name.Space + "\" was marked mustUnderstand but is not understood by this service."}
}

// appendHeaders appends the envelope's start, with a soap:Header holding the response's Out and
// InOut headers when it has any set, up to the Body's start.
func (b *Binding) appendHeaders(buf []byte, resp wire.Message) []byte {
	buf = append(buf, b.envelopeOpen()...)
	ha, ok := resp.(wire.HeaderAppender)
	if !ok {
		return append(buf, "<"+b.envPrefix+":Body>"...)
	}
	mark := len(buf)
	buf = append(buf, "<"+b.envPrefix+":Header>"...)
	content := len(buf)
	buf = ha.AppendHeaders(buf, b.envPrefix, b.namespace)
	if len(buf) == content {
		buf = buf[:mark]
	} else {
		buf = append(buf, "</"+b.envPrefix+":Header>"...)
	}
	return append(buf, "<"+b.envPrefix+":Body>"...)
}
