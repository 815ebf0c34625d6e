package xmlwire

import "encoding/xml"

// Attrs returns the attributes of the element, namespace declarations included, with prefixes
// resolved to namespaces (xmlns:p declarations have Space "xmlns", a default declaration is
// {"", "xmlns"}). Only full mode keeps attributes: in fast mode it is nil, as for Attr.
func (s Start) Attrs() []xml.Attr { return s.attrs }

// InputOffset is the byte offset in the document (after a leading byte order mark) of what the
// Reader reads next: the SOAP binding records the span of each header block with it, to decode the
// blocks an operation declares once the body has named the operation.
func (r *Reader) InputOffset() int {
	if r.fast {
		return r.i
	}
	return int(r.d.InputOffset())
}
