package postprocess

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
)

// AddedField is Go source PostProcess appends to the end of a struct gowsdl generated.
type AddedField struct {
	// Type is the struct's Go name.
	Type string
	// Source is one or more field declarations, comments included.
	Source string
}

// HeaderFields are the fields SOAP headers add to gowsdl's structs (docs/generator-model.md §3.1,
// §3.2): to a request, a pointer per In and InOut header (nil when the request carried none) and,
// with an InOut header, the unexported mu its DecodeHeader sets; to a response, a pointer per Out
// and InOut header and its MustUnderstand; to a header type with <s:anyAttribute />, AnyAttrs.
// They are tagged out of gowsdl's XML and JSON encodings, which know no SOAP headers (AnyAttrs
// excepted: encoding/xml carries foreign attributes as ",any,attr").
func HeaderFields(c *model.Contract) []AddedField {
	var out []AddedField
	var anyAttrs []*model.Type
	for _, op := range c.Operations {
		var req, resp bytes.Buffer
		inOut := false
		for _, h := range op.Headers {
			typ := h.Type.GoName
			if h.Type.AnyAttribute != nil && !slices.Contains(anyAttrs, h.Type) {
				anyAttrs = append(anyAttrs, h.Type)
			}
			if h.Direction.In() {
				fmt.Fprintf(&req, "// %s is the soap:header %s (%s); nil when the request carried none.\n", h.GoName, h.Element, directionWord(h.Direction))
				fmt.Fprintf(&req, "%s *%s `xml:\"-\" json:\"-\"`\n", h.GoName, typ)
			}
			inOut = inOut || h.Direction == model.HeaderInOut
			if h.Direction.Out() {
				fmt.Fprintf(&resp, "// %s is the soap:header %s (%s); nil writes none.\n", h.GoName, h.Element, directionWord(h.Direction))
				fmt.Fprintf(&resp, "%s *%s `xml:\"-\" json:\"-\"`\n", h.GoName, typ)
				fmt.Fprintf(&resp, "// %sMustUnderstand writes soap:mustUnderstand=\"1\" on it.\n", h.GoName)
				if h.Direction == model.HeaderInOut {
					fmt.Fprintf(&resp, "// Bind sets it when the request's %s came with mustUnderstand.\n", h.Element)
				}
				fmt.Fprintf(&resp, "%sMustUnderstand bool `xml:\"-\" json:\"-\"`\n", h.GoName)
			}
		}
		if inOut {
			req.WriteString("// mu is set by DecodeHeader: bit i for the i-th InOut header that came with mustUnderstand.\nmu uint64\n")
		}
		if req.Len() > 0 {
			out = append(out, AddedField{Type: op.Request.GoName, Source: req.String()})
		}
		if resp.Len() > 0 && op.Response != nil {
			out = append(out, AddedField{Type: op.Response.GoName, Source: resp.String()})
		}
	}
	for _, t := range anyAttrs {
		out = append(out, AddedField{Type: t.GoName, Source: "// AnyAttrs are the foreign attributes of the header element (s:anyAttribute), SOAP's own left out.\n" +
			"AnyAttrs []xml.Attr `xml:\",any,attr\" json:\"-\"`\n"})
	}
	return out
}

func directionWord(d model.Direction) string {
	switch d {
	case model.HeaderIn:
		return "In"
	case model.HeaderOut:
		return "Out"
	}
	return "InOut"
}

// addFields appends each AddedField's source to the end of its struct in src, refusing one whose
// struct is not there.
func addFields(src []byte, added []AddedField) ([]byte, error) {
	if len(added) == 0 {
		return src, nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "generated.go", src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	closing := map[string]int{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, s := range gd.Specs {
			ts := s.(*ast.TypeSpec)
			if st, ok := ts.Type.(*ast.StructType); ok {
				closing[ts.Name.Name] = fset.Position(st.Fields.Closing).Offset
			}
		}
	}
	type insertion struct {
		at   int
		text string
	}
	var ins []insertion
	for _, a := range added {
		at, ok := closing[a.Type]
		if !ok {
			return nil, fmt.Errorf("gowsdl generated no struct %s to add the SOAP header fields to", a.Type)
		}
		ins = append(ins, insertion{at, "\n" + a.Source})
	}
	slices.SortStableFunc(ins, func(a, b insertion) int { return b.at - a.at }) // from the end: offsets stay valid
	out := slices.Clone(src)
	for _, in := range ins {
		out = slices.Insert(out, in.at, []byte(in.text)...)
	}
	return out, nil
}
