package docs

import (
	"net/url"
	"strings"

	"github.com/contactsync/contactsync/server/binding"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/jsonwire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// placeholder is a message whose every value is a placeholder naming its XSD type ("string", "int"),
// as ASMX's help pages show sample messages, built from the operation table's type descriptors. The
// code that writes real messages writes it too: the bundled client writes it as a request (a
// wire.Message, a jsonwire.Message and a client.FormEncoder), each binding as a response
// (binding.Sample, through WriteSample). Nothing on the path of a real request knows it.
type placeholder struct {
	// Fields are the elements of the message: an operation's Params, its Result alone, or its
	// Results.
	Fields []wire.Field
	// several marks Results: the JSON result is then one object holding every element.
	several bool
	// formNames are the parameters' names on HTTP GET and POST when they differ from Fields' names
	// (wire.Operation.HTTPParams); nil otherwise.
	formNames []string
	// headers are the operation's SOAP headers of the message's direction (AppendHeaders).
	headers []wire.Header
}

var (
	_ binding.Sample     = (*placeholder)(nil)
	_ jsonwire.Message   = (*placeholder)(nil)
	_ client.FormEncoder = (*placeholder)(nil)
)

// requestPlaceholder returns the placeholder request of op.
func requestPlaceholder(op *wire.Operation) *placeholder {
	return &placeholder{Fields: op.Params, formNames: op.HTTPParams, headers: placeholderHeaders(op, wire.HeaderDirection.In)}
}

// responsePlaceholder returns the placeholder response of op: every element of an operation with out
// or ref parameters (Results), else its result alone.
func responsePlaceholder(op *wire.Operation) *placeholder {
	p := &placeholder{headers: placeholderHeaders(op, wire.HeaderDirection.Out)}
	if op.Results != nil {
		p.Fields, p.several = op.Results, true
	} else if op.Result != nil {
		p.Fields = []wire.Field{*op.Result}
	}
	return p
}

// placeholderHeaders are op's SOAP headers of one direction.
func placeholderHeaders(op *wire.Operation, travels func(wire.HeaderDirection) bool) []wire.Header {
	var out []wire.Header
	for _, h := range op.Headers {
		if travels(h.Direction) {
			out = append(out, h)
		}
	}
	return out
}

// AppendHeaders appends a placeholder block per header (wire.HeaderAppender), which the bundled
// client writes into the SOAP request samples and the SOAP bindings into the response samples, as
// ASMX's help pages show them: a type with <s:anyAttribute /> shows custom-attribute="value".
func (p *placeholder) AppendHeaders(b []byte, _, namespace string) []byte {
	for _, h := range p.headers {
		b = append(b, '<')
		b = append(b, h.Element.Local...)
		if h.Type.AnyAttribute {
			b = append(b, ` custom-attribute="value"`...)
		}
		b = append(b, ` xmlns="`...)
		b = xmlwire.AppendEscaped(b, namespace)
		b = append(b, `">`...)
		b = appendPlaceholderContent(b, h.Type, 1)
		b = xmlwire.AppendEnd(b, h.Element.Local)
	}
	return b
}

// placeholderText is the placeholder of a simple type: its XSD name, or an enumeration's (or a
// [Flags] enumeration's) values joined with " or "; of raw XML "xml", of a DataSet "xml xml", as
// Mono's help page shows them; of an object its name, anyType.
func placeholderText(t *wire.Type) string {
	switch t.Kind {
	case wire.KindEnum, wire.KindFlags:
		return strings.Join(t.Enum, " or ")
	case wire.KindRawXML: // XmlElement, XmlNode: Mono's help page writes "xml" (doc-op-GetDataSet-msg)
		return "xml"
	case wire.KindDataSet: // its schema and diffgram: "xml xml" (doc-op-GetDataSet-msg)
		return "xml xml"
	}
	return t.Name
}

// AppendXML appends one element per field (two for repeated ones) with placeholder content.
func (p *placeholder) AppendXML(b []byte) []byte {
	for _, f := range p.Fields {
		b = appendPlaceholderField(b, f, 0)
	}
	return b
}

// DecodeXML skips the content: placeholders are only written.
func (p *placeholder) DecodeXML(r *xmlwire.Reader) error { return r.Discard() }

// EncodeForm writes the parameters as form values: a simple one as its type, an array as two items,
// as the XML samples show an array.
func (p *placeholder) EncodeForm(form url.Values) {
	for i, f := range p.Fields {
		name := f.Name
		if p.formNames != nil {
			name = p.formNames[i]
		}
		if f.Type.Kind == wire.KindArray {
			form.Add(name, placeholderText(f.Type.Item.Type))
			form.Add(name, placeholderText(f.Type.Item.Type))
			continue
		}
		form.Set(name, placeholderText(f.Type))
	}
}

// AppendResult appends the content of the result: the placeholder of its type, or ok false for an
// operation without a result.
func (p *placeholder) AppendResult(b []byte) ([]byte, bool) {
	if len(p.Fields) == 0 {
		return b, false
	}
	return appendPlaceholderContent(b, p.Fields[0].Type, 0), true
}

// maxPlaceholderDepth stops a recursive type's sample from growing without end.
const maxPlaceholderDepth = 4

func appendPlaceholderField(b []byte, f wire.Field, depth int) []byte {
	n := 1
	if f.MaxOccurs != 1 {
		n = 2
	}
	for range n {
		b = xmlwire.AppendStart(b, f.Name)
		b = appendPlaceholderContent(b, f.Type, depth+1)
		b = xmlwire.AppendEnd(b, f.Name)
	}
	return b
}

func appendPlaceholderContent(b []byte, t *wire.Type, depth int) []byte {
	switch {
	case depth > maxPlaceholderDepth:
		return b
	case t.Kind == wire.KindComplex:
		b = appendPlaceholderAttrs(b, t)
		for _, f := range t.Fields {
			b = appendPlaceholderField(b, f, depth)
		}
		if t.Text != nil {
			b = xmlwire.AppendEscaped(b, placeholderText(t.Text))
		}
		return b
	case t.Kind == wire.KindArray:
		item := *t.Item
		item.MaxOccurs = -1
		return appendPlaceholderField(b, item, depth)
	}
	return xmlwire.AppendEscaped(b, placeholderText(t))
}

// appendPlaceholderAttrs adds a complex type's attributes, each with its placeholder, to the start
// tag b ends with, as the generated encoders do (xmlwire.ReopenStart).
func appendPlaceholderAttrs(b []byte, t *wire.Type) []byte {
	if len(t.Attrs) == 0 {
		return b
	}
	b, ok := xmlwire.ReopenStart(b)
	if !ok {
		return b
	}
	for _, a := range t.Attrs {
		b = append(append(append(b, ' '), a.Name...), `="`...)
		b = append(xmlwire.AppendAttrValue(b, placeholderText(a.Type)), '"')
	}
	return append(b, '>')
}

// AppendJSON appends the placeholder message as a JSON object.
func (p *placeholder) AppendJSON(b []byte) []byte {
	b = append(b, '{')
	for i, f := range p.Fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonwire.AppendString(b, f.Name)
		b = append(b, ':')
		b = appendPlaceholderJSON(b, f, 0)
	}
	return append(b, '}')
}

// AppendResultJSON appends the placeholder result as a JSON value.
func (p *placeholder) AppendResultJSON(b []byte) []byte {
	if p.several {
		return p.AppendJSON(b)
	}
	if len(p.Fields) == 0 {
		return append(b, "null"...)
	}
	return appendPlaceholderJSON(b, p.Fields[0], 0)
}

func appendPlaceholderJSON(b []byte, f wire.Field, depth int) []byte {
	if f.MaxOccurs != 1 {
		one := f
		one.MaxOccurs = 1
		b = append(b, '[')
		b = appendPlaceholderJSON(b, one, depth)
		b = append(b, ',')
		b = appendPlaceholderJSON(b, one, depth)
		return append(b, ']')
	}
	t := f.Type
	switch {
	case depth > maxPlaceholderDepth:
		return append(b, "null"...)
	case t.Kind == wire.KindComplex:
		b = append(b, '{')
		// The elements, then the attributes and the text of simple content under "Value", as the
		// generated JSON codec writes them (docs/bindings.md).
		members := append(append([]wire.Field(nil), t.Fields...), t.Attrs...)
		if t.Text != nil {
			members = append(members, wire.Field{Name: "Value", Type: t.Text, MinOccurs: 1, MaxOccurs: 1})
		}
		for i, c := range members {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonwire.AppendString(b, c.Name)
			b = append(b, ':')
			b = appendPlaceholderJSON(b, c, depth+1)
		}
		return append(b, '}')
	case t.Kind == wire.KindArray:
		item := *t.Item
		item.MaxOccurs = -1
		return appendPlaceholderJSON(b, item, depth+1)
	}
	return jsonwire.AppendString(b, placeholderText(t))
}

// DecodeJSON skips the object: placeholders are only written.
func (p *placeholder) DecodeJSON(r *jsonwire.Reader) error { return r.SkipObject() }
