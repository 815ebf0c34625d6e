package wire

import (
	"encoding/json"
	"strings"
)

// Placeholder is a Message whose every value is a placeholder naming its XSD type ("string", "int"),
// as ASMX's help pages show sample messages. It is written by the same bindings and client code that
// write real messages, through the type descriptors.
type Placeholder struct {
	// Fields are the elements of the message: an operation's Params, or its Result alone.
	Fields []Field
}

// NewRequestPlaceholder and NewResponsePlaceholder return the placeholder request and response of op.
func NewRequestPlaceholder(op *Operation) *Placeholder { return &Placeholder{Fields: op.Params} }

// NewResponsePlaceholder returns the placeholder response of op.
func NewResponsePlaceholder(op *Operation) *Placeholder {
	if op.Result == nil {
		return &Placeholder{}
	}
	return &Placeholder{Fields: []Field{*op.Result}}
}

// PlaceholderText is the placeholder of a simple type: its XSD name, or an enumeration's values
// joined with " or ".
func PlaceholderText(t *Type) string {
	if t.Kind == KindEnum {
		return strings.Join(t.Enum, " or ")
	}
	return t.Name
}

// AppendXML appends one element per field (two for repeated ones) with placeholder content.
func (p *Placeholder) AppendXML(b []byte) []byte {
	for _, f := range p.Fields {
		b = appendPlaceholderField(b, f, 0)
	}
	return b
}

// DecodeXML skips the content: placeholders are only written.
func (p *Placeholder) DecodeXML(r *Reader) error { return r.Discard() }

func (p *Placeholder) appendResult(b []byte) ([]byte, bool) {
	if len(p.Fields) == 0 {
		return b, false
	}
	return appendPlaceholderContent(b, p.Fields[0].Type, 0), true
}

// maxPlaceholderDepth stops a recursive type's sample from growing without end.
const maxPlaceholderDepth = 4

func appendPlaceholderField(b []byte, f Field, depth int) []byte {
	n := 1
	if f.MaxOccurs != 1 {
		n = 2
	}
	for range n {
		b = AppendStart(b, f.Name)
		b = appendPlaceholderContent(b, f.Type, depth+1)
		b = AppendEnd(b, f.Name)
	}
	return b
}

func appendPlaceholderContent(b []byte, t *Type, depth int) []byte {
	switch {
	case depth > maxPlaceholderDepth:
		return b
	case t.Kind == KindComplex:
		for _, f := range t.Fields {
			b = appendPlaceholderField(b, f, depth)
		}
		return b
	case t.Kind == KindArray:
		item := *t.Item
		item.MaxOccurs = -1
		return appendPlaceholderField(b, item, depth)
	}
	return AppendEscaped(b, PlaceholderText(t))
}

// AppendJSON appends the placeholder message as a JSON object.
func (p *Placeholder) AppendJSON(b []byte) []byte {
	b = append(b, '{')
	for i, f := range p.Fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendJSONString(b, f.Name)
		b = append(b, ':')
		b = appendPlaceholderJSON(b, f, 0)
	}
	return append(b, '}')
}

// AppendResultJSON appends the placeholder result as a JSON value.
func (p *Placeholder) AppendResultJSON(b []byte) []byte {
	if len(p.Fields) == 0 {
		return append(b, "null"...)
	}
	return appendPlaceholderJSON(b, p.Fields[0], 0)
}

func appendPlaceholderJSON(b []byte, f Field, depth int) []byte {
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
	case t.Kind == KindComplex:
		b = append(b, '{')
		for i, c := range t.Fields {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendJSONString(b, c.Name)
			b = append(b, ':')
			b = appendPlaceholderJSON(b, c, depth+1)
		}
		return append(b, '}')
	case t.Kind == KindArray:
		item := *t.Item
		item.MaxOccurs = -1
		return appendPlaceholderJSON(b, item, depth+1)
	}
	return AppendJSONString(b, PlaceholderText(t))
}

// DecodeJSON skips the object: placeholders are only written.
func (p *Placeholder) DecodeJSON(r *JSONReader) error { return r.Skip(json.Delim('{')) }
