// Package emit holds what the emitters of the wire code share: Writer, the buffer they print the
// generated Go source into, the helpers more than one encoding's emitter uses, and
// DropUnusedImports, which the driver runs on the finished file.
//
// It imports the standard library and model.
package emit

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"strconv"
	"strings"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/names"
)

// Writer collects the generated wire code, one line per P.
type Writer struct {
	buf bytes.Buffer
}

// P writes one line of generated code.
func (w *Writer) P(format string, args ...any) {
	fmt.Fprintf(&w.buf, format, args...)
	w.buf.WriteByte('\n')
}

// Bytes returns what has been written so far.
func (w *Writer) Bytes() []byte { return w.buf.Bytes() }

// DropUnusedImports removes from src's import declaration the packages no selector of the file uses:
// the emitter imports every package of the runtime (and the standard library's few), and which of
// them a contract needs depends on its types and bindings.
func DropUnusedImports(src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok {
				used[x.Name] = true
			}
		}
		return true
	})
	// Remove the unused import lines from the end, so that earlier offsets stay valid.
	for i := len(f.Imports) - 1; i >= 0; i-- {
		imp := f.Imports[i]
		p, _ := strconv.Unquote(imp.Path.Value)
		if used[path.Base(p)] {
			continue
		}
		start, end := fset.Position(imp.Pos()).Offset, fset.Position(imp.End()).Offset
		src = append(src[:start:start], src[end:]...)
	}
	return src, nil
}

// TypeRef is the Go expression of a type descriptor.
func TypeRef(t *model.Type) string {
	if t.Node == nil {
		return "wire.Type" + names.GowsdlType(t.Name)
	}
	return "type" + t.GoName
}

// TextExpr is an expression appending a simple value's text to b.
func TextExpr(t *model.Type, goType, val string) (string, error) {
	switch t.Kind {
	case model.KindString:
		return "xmlwire.AppendEscaped(b, " + val + ")", nil
	case model.KindEnum, model.KindFlags:
		return "xmlwire.AppendEscaped(b, " + val + ".wireText())", nil
	case model.KindInt, model.KindLong, model.KindShort:
		return "xsd.AppendInt(b, int64(" + val + "))", nil
	case model.KindBoolean:
		return "xsd.AppendBool(b, " + val + ")", nil
	case model.KindDouble:
		return "xsd.AppendDouble(b, " + val + ")", nil
	case model.KindFloat:
		return "xsd.AppendFloat(b, " + val + ")", nil
	case model.KindDateTime, model.KindDecimal, model.KindGUID:
		return val + ".AppendText(b)", nil
	case model.KindBase64:
		return "xsd.AppendBase64(b, " + val + ")", nil
	case model.KindByte:
		return "xsd.AppendInt(b, int64(" + val + "))", nil
	case model.KindChar:
		return val + ".AppendText(b)", nil
	}
	if Unsigned(t.Kind) {
		return "xsd.AppendUint(b, uint64(" + val + "))", nil
	}
	return "", fmt.Errorf("type %s (Go %s) has no text form", t.Name, goType)
}

// QuoteList is vs as a list of Go string literals, for a case clause.
func QuoteList(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}

// AppendRepeatable writes statements appending the element f held in expr as JSON: a repeated
// element as an array (null for a nil slice) of the values appendValue writes, any other as the one
// value. The endpoint's JSON and the record codec share it; they differ only in how a value is spelled.
func (w *Writer) AppendRepeatable(f *model.Field, gf model.GoField, expr string, appendValue func(f *model.Field, goType, expr string) error) error {
	if f.MaxOccurs != 1 {
		item := strings.TrimPrefix(gf.Type, "[]")
		w.P("if %s == nil { b = append(b, \"null\"...) } else {", expr)
		w.P("b = append(b, '[')")
		w.P("for i, item := range %s {", expr)
		w.P("if i > 0 { b = append(b, ',') }")
		if err := appendValue(f, item, "item"); err != nil {
			return err
		}
		w.P("}")
		w.P("b = append(b, ']')")
		w.P("}")
		return nil
	}
	return appendValue(f, gf.Type, expr)
}

// AttrFields are t's elements (AllFields) followed by its attributes and simple content as fields
// of their own, for the JSON forms, which have no attributes: each attribute a field named
// attrPrefix+name, required when use="required", nillable when its Go field is a pointer (an
// optional value other than a string); the text a required field named text. It refuses an attribute
// named as an element, which one JSON object cannot hold twice.
func AttrFields(t *model.Type, attrPrefix, text string) ([]*model.Field, error) {
	all := t.AllFields()
	if !t.HasAttrs() {
		return all, nil
	}
	out := append([]*model.Field(nil), all...)
	keys := map[string]bool{}
	for _, f := range all {
		keys[f.Name] = true
	}
	for _, a := range t.AllAttrs() { // a derived type's base chain's first
		gf := a.GoField()
		f := &model.Field{Name: attrPrefix + a.Name, GoName: gf.Name, Type: a.Type, MaxOccurs: 1, Nillable: strings.HasPrefix(gf.Type, "*")}
		if a.Required {
			f.MinOccurs = 1
		}
		out = append(out, f)
	}
	if t.Text != nil {
		out = append(out, &model.Field{Name: text, GoName: "Value", Type: t.Text, MinOccurs: 1, MaxOccurs: 1})
	}
	for _, f := range out[len(all):] {
		if keys[f.Name] {
			return nil, fmt.Errorf("type %s: the attribute or text %s has the name of an element: one JSON object cannot hold both (not supported yet)", t.Name, f.Name)
		}
		keys[f.Name] = true
	}
	return out, nil
}

// Deref is the expression of the value pointer expr points to: *expr, parenthesised for the kinds whose
// text is a method call on the value (an enumeration's wireText).
func Deref(t *model.Type, expr string) string {
	if t.Kind == model.KindEnum || t.Kind == model.KindFlags {
		return "(*" + expr + ")"
	}
	return "*" + expr
}
