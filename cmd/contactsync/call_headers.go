package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// headerBlock is one SOAP header block call sends: a header the operation reads (In or InOut) and
// the values of its fields, in its type's order.
type headerBlock struct {
	element string
	fields  [][2]string // XML name, value
}

// headerValues are the header blocks of call's --header flags (client.Client.Headers).
type headerValues []headerBlock

// AppendHeaders writes the blocks in the service's namespace (wire.HeaderAppender).
func (hv headerValues) AppendHeaders(b []byte, _, namespace string) []byte {
	for _, h := range hv {
		b = append(b, '<')
		b = append(b, h.element...)
		b = append(b, ` xmlns="`...)
		b = xmlwire.AppendEscaped(b, namespace)
		b = append(b, `">`...)
		for _, f := range h.fields {
			b = xmlwire.AppendString(b, f[0], f[1])
		}
		b = xmlwire.AppendEnd(b, h.element)
	}
	return b
}

// callHeaders reads --header Part.Field=value flags into the SOAP header blocks of op's request: Part
// a header op reads (In or InOut), Field a field of its type with a simple type, the value in that
// type's XSD lexical form. Each block is read by the request's generated header decoder, so a value
// its type cannot carry is refused before anything is sent, as a --param is. Nil without flags.
func callHeaders(op *wire.Operation, ns string, binding client.Binding, flags []string) (wire.HeaderAppender, error) {
	if len(flags) == 0 {
		return nil, nil
	}
	if binding != client.SOAP11 && binding != client.SOAP12 {
		return nil, fmt.Errorf("--header: SOAP headers travel in the SOAP envelope; the %s binding cannot carry them (use soap11 or soap12)", binding)
	}
	var in []wire.Header
	var parts []string
	for _, h := range op.Headers {
		if h.Direction.In() {
			in = append(in, h)
			parts = append(parts, h.Element.Local)
		}
	}
	if len(in) == 0 {
		return nil, fmt.Errorf("--header: %s reads no SOAP header", op.Name)
	}
	given := map[string]map[string]string{} // part -> field -> value
	for _, flag := range flags {
		path, value, ok := strings.Cut(flag, "=")
		part, field, dotted := strings.Cut(path, ".")
		if !ok || !dotted {
			return nil, fmt.Errorf("--header %q: want Part.Field=value", flag)
		}
		i := slices.IndexFunc(in, func(h wire.Header) bool { return h.Element.Local == part })
		if i < 0 {
			return nil, fmt.Errorf("--header %s: %s reads no header %q (headers: %s)", path, op.Name, part, strings.Join(parts, ", "))
		}
		f := wire.LookupField(in[i].Type.Fields, field)
		if f == nil {
			var fields []string
			for _, f := range in[i].Type.Fields {
				fields = append(fields, f.Name)
			}
			return nil, fmt.Errorf("--header %s: the header %s has no field %q (fields: %s)", path, part, field, strings.Join(fields, ", "))
		}
		if !f.Type.Kind.Simple() || f.MaxOccurs != 1 {
			return nil, fmt.Errorf("--header %s: the field is of the type %s; only fields of a simple type can be given yet", path, f.Type.Name)
		}
		if given[part] == nil {
			given[part] = map[string]string{}
		}
		if _, dup := given[part][field]; dup {
			return nil, fmt.Errorf("--header %s is given more than once", path)
		}
		given[part][field] = value
	}
	var out headerValues
	for _, h := range in {
		values, ok := given[h.Element.Local]
		if !ok {
			continue
		}
		block := headerBlock{element: h.Element.Local}
		for _, f := range h.Type.Fields {
			if v, ok := values[f.Name]; ok {
				block.fields = append(block.fields, [2]string{f.Name, v})
			}
		}
		if err := checkHeader(op, ns, block); err != nil {
			return nil, err
		}
		out = append(out, block)
	}
	return out, nil
}

// checkHeader reads a block through the request's generated header decoder.
func checkHeader(op *wire.Operation, ns string, block headerBlock) error {
	dec, ok := op.NewRequest().(wire.HeaderDecoder)
	if !ok {
		return fmt.Errorf("--header: the %s request reads no header", op.Name)
	}
	doc := headerValues{block}.AppendHeaders(nil, "", ns)
	rd := xmlwire.NewReader(doc, ns, xmlwire.Limits{MaxDepth: 64, MaxElements: 1 << 20}, false)
	s, err := rd.Root()
	if err == nil {
		_, err = dec.DecodeHeader(rd, s, false)
	}
	if err != nil {
		return fmt.Errorf("--header %s: %w", block.element, err)
	}
	return nil
}

// outHeaders is the soap:Header of the answer as call prints it above the result: the header
// blocks the response's generated type read, in an element declaring the envelope's prefix; nil
// when it carried none (or the binding carries none).
func outHeaders(resp wire.Message, namespace string, binding client.Binding) []byte {
	ha, ok := resp.(wire.HeaderAppender)
	if !ok || (binding != client.SOAP11 && binding != client.SOAP12) {
		return nil
	}
	prefix, envNS := "soap", "http://schemas.xmlsoap.org/soap/envelope/"
	if binding == client.SOAP12 {
		prefix, envNS = "soap12", "http://www.w3.org/2003/05/soap-envelope"
	}
	open := []byte(`<` + prefix + `:Header xmlns:` + prefix + `="` + envNS + `">`)
	out := ha.AppendHeaders(open, prefix, namespace)
	if len(out) == len(open) {
		return nil
	}
	return append(out, `</`+prefix+`:Header>`...)
}
