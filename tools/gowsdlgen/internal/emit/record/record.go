// Package record writes the record codec: the canonical JSON document the store keeps per record and
// the record formats carry (server/wire/recordwire defines the form). It is generated for the record
// type named by the -record flag and every complex type reachable from it: AppendRecord and
// DecodeRecord for each, and for the record type RecordKey, RecordIndex and the exported descriptor
// <Type>Record.
//
// It imports the standard library, model and emit.
package record

import (
	"fmt"
	"slices"
	"strings"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
)

// Options name the contract's record type, its key field and its indexed field.
type Options struct {
	// Type is the XSD name of the record type, a complex type of the contract.
	Type string
	// Key and Index are the names of two of its top-level elements of a simple type, occurring once.
	Key, Index string
}

// emitter writes the record codec into the wire code's Writer.
type emitter struct {
	*emit.Writer
	c *model.Contract
}

func (e *emitter) p(format string, args ...any) { e.P(format, args...) }

// Emit writes the record codec of the type opts names, and of every type reachable from it, to w.
func Emit(w *emit.Writer, c *model.Contract, opts *Options) error {
	e := &emitter{Writer: w, c: c}
	return e.record(opts)
}

// recordTypes returns the record type and the complex and array types reachable from it, in the
// contract's type order: a type with derived types reaches them (a value of any of them may stand
// where it is declared), and a derived type its bases.
func (e *emitter) recordTypes(root *model.Type) []*model.Type {
	reach := map[*model.Type]bool{}
	var walk func(t *model.Type)
	walk = func(t *model.Type) {
		if t == nil || reach[t] || t.Simple() {
			return
		}
		reach[t] = true
		for _, f := range t.Fields {
			walk(f.Type)
		}
		for _, d := range t.Derived {
			walk(d)
		}
		walk(t.Base)
	}
	walk(root)
	var out []*model.Type
	for _, t := range e.c.Types {
		if reach[t] {
			out = append(out, t)
		}
	}
	return out
}

// recordPaths lists the dotted path of every element of t, nested ones after their parent; the
// elements of the items of an array of complex values are named through "[]". A type met again on
// its own path (a recursive type) is not descended into twice. The elements of the types derived from
// a nested type follow its own under the same path, each path once (server/wire/recordwire's
// FieldTypes walks the descriptors alike).
func recordPaths(t *model.Type, prefix string, onPath map[*model.Type]bool, out []string) []string {
	onPath[t] = true
	defer delete(onPath, t)
	for _, f := range t.AllFields() {
		path := prefix + f.Name
		if !slices.Contains(out, path) {
			out = append(out, path)
		}
		ft, sep := f.Type, "."
		if f.MaxOccurs != 1 {
			sep = "[]."
		}
		if ft.Kind == model.KindArray {
			ft, sep = ft.Fields[0].Type, "[]."
		}
		if ft.Kind == model.KindComplex && !onPath[ft] {
			out = recordPaths(ft, path+sep, onPath, out)
			for _, d := range ft.Derived {
				if !onPath[d] {
					out = recordPaths(d, path+sep, onPath, out)
				}
			}
		}
	}
	return out
}

// record writes the record codec.
func (e *emitter) record(opts *Options) error {
	var root *model.Type
	for _, t := range e.c.Types {
		if t.Name == opts.Type {
			root = t
		}
	}
	if root == nil || root.Kind != model.KindComplex {
		var names []string
		for _, t := range e.c.Types {
			if t.Kind == model.KindComplex {
				names = append(names, t.Name)
			}
		}
		return fmt.Errorf("-record %s: the contract has no complex type %s (its complex types: %s)", opts.Type, opts.Type, strings.Join(names, ", "))
	}
	for _, t := range e.recordTypes(root) {
		for _, f := range t.Fields {
			if model.Open(f.Type.Kind) { // the store's record form of these comes after issue 33's generator work
				return fmt.Errorf("-record %s: the record type reaches %s.%s, of type %s: an object, raw XML or DataSet value in the record form "+
					"is not supported yet", opts.Type, t.Name, f.Name, f.Type.Name)
			}
		}
	}
	goName := root.GoName
	keyExpr, err := e.recordField(root, goName, "-record-key", opts.Key)
	if err != nil {
		return err
	}
	indexExpr, err := e.recordField(root, goName, "-record-index", opts.Index)
	if err != nil {
		return err
	}

	e.p("")
	e.p("// ---- The record codec of %s (the -record flags on the go:generate line; server/wire/recordwire", root.Name)
	e.p("// defines the canonical form) ----")
	e.p("")
	e.p("// %sRecord describes %s, the contract's record type: the store keeps one canonical JSON document", goName, root.Name)
	e.p("// per %s, keyed by %s and indexed by %s, and the record formats carry the same document.", root.Name, opts.Key, opts.Index)
	e.p("var %sRecord = &recordwire.Type{", goName)
	e.p("Name: %q, Type: %s, Key: %q, Index: %q,", root.Name, emit.TypeRef(root), opts.Key, opts.Index)
	e.p("Fields: %#v,", recordPaths(root, "", map[*model.Type]bool{}, nil))
	e.p("New: func() recordwire.Record { return new(%s) },", goName)
	e.p("}")
	e.p("")
	e.p("var _ recordwire.Record = (*%s)(nil)", goName)
	e.p("")
	e.p("// UnmarshalRecord reads a whole document into v: DecodeRecord with a reader of its own, which")
	e.p("// stays on the stack (no allocation besides the values').")
	e.p("func (v *%s) UnmarshalRecord(doc []byte, mode recordwire.Mode) error {", goName)
	e.p("var r recordwire.Reader")
	e.p("r.Reset(doc, mode)")
	e.p("if err := v.DecodeRecord(&r); err != nil { return err }")
	e.p("return r.End()")
	e.p("}")
	e.p("")
	e.p("// RecordKey is %s, the record's key.", opts.Key)
	e.p("func (v *%s) RecordKey() string {", goName)
	e.p("%s", keyExpr)
	e.p("}")
	e.p("")
	e.p("// RecordIndex is %s, the record's indexed field.", opts.Index)
	e.p("func (v *%s) RecordIndex() string {", goName)
	e.p("%s", indexExpr)
	e.p("}")
	for _, t := range e.recordTypes(root) {
		if err := e.recordCodec(t); err != nil {
			return err
		}
	}
	for _, t := range e.recordTypes(root) {
		if t.Polymorphic() {
			e.recordHierarchy(t)
		}
	}
	return nil
}

// recordField checks the key or index element and returns the body of the method returning its
// lexical form.
func (e *emitter) recordField(t *model.Type, goName, flag, name string) (string, error) {
	var names []string
	for _, f := range t.AllFields() {
		names = append(names, f.Name)
		if f.Name != name {
			continue
		}
		gf := model.GoFieldOf(f)
		if !f.Type.Simple() || f.MaxOccurs != 1 || f.Type.Kind == model.KindBase64 || strings.HasPrefix(gf.Type, "*") {
			return "", fmt.Errorf("%s %s: %s.%s must be an element of a simple type other than base64Binary, occurring once and not nillable",
				flag, name, t.Name, name)
		}
		switch f.Type.Kind {
		case model.KindString:
			return "return v." + gf.Name, nil
		case model.KindEnum:
			return "return v." + gf.Name + ".wireText()", nil
		}
		text, err := emit.TextExpr(f.Type, gf.Type, "v."+gf.Name)
		if err != nil {
			return "", err
		}
		return "var b []byte\nreturn string(" + text + ")", nil
	}
	return "", fmt.Errorf("%s %s: %s has no element %s (its elements: %s)", flag, name, t.Name, name, strings.Join(names, ", "))
}

// recordCodec writes AppendRecord and DecodeRecord for one complex or array type.
func (e *emitter) recordCodec(t *model.Type) error {
	goName := t.GoName
	all := t.Fields
	if t.Kind == model.KindComplex {
		all = t.AllFields() // a derived type's base elements first, promoted from its embedded base
	}
	fields := make([]model.GoField, len(all))
	for i, f := range all {
		fields[i] = model.GoFieldOf(f)
	}
	e.p("")
	if t.Kind == model.KindArray {
		f, gf := t.Fields[0], fields[0]
		item := strings.TrimPrefix(gf.Type, "[]")
		e.p("// AppendRecord appends %s as a JSON array of its items.", t.Name)
		e.p("func (v *%s) AppendRecord(b []byte) []byte {", goName)
		e.p("b = append(b, '[')")
		e.p("for i, item := range v.%s {", gf.Name)
		e.p("if i > 0 { b = append(b, ',') }")
		if err := e.recordAppendValue(f, item, "item"); err != nil {
			return fmt.Errorf("%s: %w", t.Name, err)
		}
		e.p("}")
		e.p("return append(b, ']')")
		e.p("}")
		e.p("")
		e.p("// DecodeRecord reads %s from a JSON array of its items ([] reads as no items, as in XML).", t.Name)
		e.p("func (v *%s) DecodeRecord(r *recordwire.Reader) error {", goName)
		e.p("if err := r.BeginArray(); err != nil { return err }")
		e.p("n, err := r.ArrayLen()")
		e.p("if err != nil { return err }")
		e.p("v.%s = nil", gf.Name)
		e.p("if n > 0 { v.%s = make(%s, 0, n) }", gf.Name, gf.Type)
		if err := e.recordDecodeItems(f, item, "v."+gf.Name, "return err", "return recordwire.Item(i, err)"); err != nil {
			return fmt.Errorf("%s: %w", t.Name, err)
		}
		e.p("}")
		return nil
	}

	keys := make([]string, len(all))
	for i, f := range all {
		keys[i] = f.Name
	}
	e.p("// AppendRecord appends %s as a JSON object, every element in schema order.", t.Name)
	e.p("func (v *%s) AppendRecord(b []byte) []byte {", goName)
	if len(all) == 0 {
		e.p("return append(b, \"{}\"...)")
		e.p("}")
	} else {
		for i, f := range all {
			open := ","
			if i == 0 {
				open = "{"
			}
			e.p("b = append(b, `%s`...)", open+`"`+f.Name+`":`)
			if err := e.recordAppendField(f, fields[i], "v."+fields[i].Name); err != nil {
				return fmt.Errorf("%s.%s: %w", t.Name, f.Name, err)
			}
		}
		e.p("return append(b, '}')")
		e.p("}")
	}
	e.p("")
	e.p("// recordKeys%s are the keys of %s's record object.", goName, t.Name)
	e.p("var recordKeys%s = %#v", goName, keys)
	e.p("")
	e.p("// DecodeRecord reads %s from a JSON object, keys in any order; a missing key leaves its zero value.", t.Name)
	e.p("func (v *%s) DecodeRecord(r *recordwire.Reader) error {", goName)
	e.p("if err := r.BeginObject(); err != nil { return err }")
	e.p("*v = %s{}", goName)
	if len(all) > 0 {
		e.p("var seen [%d]bool", len(all))
	}
	e.p("for {")
	e.p("key, ok, err := r.Key()")
	e.p("if err != nil || !ok { return err }")
	e.p("switch string(key) {")
	if t.Base != nil || t.Polymorphic() {
		// The value's type, read ahead by the decoder of the declared type (recordHierarchy).
		e.p("case recordwire.TypeKey:")
		e.p("if err := r.Skip(); err != nil { return err }")
	}
	for i, f := range all {
		e.p("case %q:", f.Name)
		e.p("if seen[%d] { return r.Duplicate(key) }", i)
		e.p("seen[%d] = true", i)
		if err := e.recordDecodeField(f, fields[i], "v."+fields[i].Name); err != nil {
			return fmt.Errorf("%s.%s: %w", t.Name, f.Name, err)
		}
		e.p("if err != nil { return recordwire.Path(%q, err) }", f.Name)
	}
	e.p("default:")
	e.p("if err := r.Unknown(key, recordKeys%s); err != nil { return err }", goName)
	e.p("}")
	e.p("}")
	e.p("}")
	return nil
}

func (e *emitter) recordAppendField(f *model.Field, gf model.GoField, expr string) error {
	return e.AppendRepeatable(f, gf, expr, e.recordAppendValue)
}

// recordAppendValue writes statements appending one value of goType held in expr.
func (e *emitter) recordAppendValue(f *model.Field, goType, expr string) error {
	if f.Type.Polymorphic() {
		e.p("if %s == nil { b = append(b, \"null\"...) } else { b = appendRecord%sAny(b, %s) }", expr, f.Type.GoName, expr)
		return nil
	}
	base, ptr := strings.CutPrefix(goType, "*")
	complexType := !f.Type.Simple()
	if ptr {
		e.p("if %s == nil { b = append(b, \"null\"...) } else {", expr)
		if complexType {
			e.p("b = %s.AppendRecord(b)", expr)
		} else if err := e.recordAppendSimple(f, base, "*"+expr); err != nil {
			return err
		}
		e.p("}")
		return nil
	}
	return e.recordAppendSimple(f, base, expr)
}

func (e *emitter) recordAppendSimple(f *model.Field, goType, val string) error {
	switch f.Type.Kind {
	case model.KindString:
		e.p("b = recordwire.AppendString(b, %s)", val)
	case model.KindEnum, model.KindFlags:
		e.p("b = recordwire.AppendString(b, %s.wireText())", val)
	case model.KindInt, model.KindLong, model.KindShort:
		e.p("b = recordwire.AppendInt(b, int64(%s))", val)
	case model.KindBoolean:
		e.p("b = recordwire.AppendBool(b, %s)", val)
	case model.KindDouble:
		e.p("b = recordwire.AppendDouble(b, %s)", val)
	case model.KindFloat:
		e.p("b = recordwire.AppendFloat(b, %s)", val)
	case model.KindDateTime:
		e.p("b = recordwire.AppendDateTime(b, %s)", val)
	case model.KindDecimal:
		e.p("b = recordwire.AppendDecimal(b, %s)", val)
	case model.KindGUID:
		e.p("b = recordwire.AppendGUID(b, %s)", val)
	case model.KindBase64:
		e.p("b = recordwire.AppendBase64(b, %s)", val)
	default:
		if e.recordAppendSmall(f, val) {
			return nil
		}
		return fmt.Errorf("type %s has no record form", f.Type.Name)
	}
	return nil
}

// recordDecodeField writes statements decoding one element's value into expr, setting err (declared
// by the caller).
func (e *emitter) recordDecodeField(f *model.Field, gf model.GoField, expr string) error {
	if f.MaxOccurs != 1 {
		item := strings.TrimPrefix(gf.Type, "[]")
		e.p("if r.Null() {")
		e.p("%s = nil", expr)
		e.p("} else if err = r.BeginArray(); err == nil {")
		e.p("var n int")
		e.p("if n, err = r.ArrayLen(); err == nil {")
		e.p("%s = make(%s, 0, n)", expr, gf.Type)
		if err := e.recordDecodeItems(f, item, expr, "break", "err = recordwire.Item(i, err); break"); err != nil {
			return err
		}
		e.p("}")
		e.p("}")
		return nil
	}
	return e.recordDecodeValue(f, gf.Type, expr)
}

// recordDecodeItems writes the loop reading the items of an array whose '[' was read and whose
// item count is n, appending them to expr (allocated with room for n). A nillable simple item (a
// pointer) points into one backing slice of n values, so the items cost one allocation, not one each.
// onEnd and onErr are the statements leaving the loop at the end and on an item's error (i, err).
func (e *emitter) recordDecodeItems(f *model.Field, item, expr, onEnd, onErr string) error {
	base, ptr := strings.CutPrefix(item, "*")
	ptrSimple := ptr && f.Type.Simple()
	if ptrSimple {
		e.p("vals := make([]%s, n)", base)
	}
	e.p("for i := 0; ; i++ {")
	// err is the caller's, not shadowed: an item's error must reach the code after the loop.
	e.p("var more bool")
	e.p("if more, err = r.More(); err != nil || !more { %s }", onEnd)
	e.p("var item %s", item)
	if ptrSimple {
		e.p("if !r.Null() {")
		if err := e.recordDecodeSimple(f, base, "vals[i]"); err != nil {
			return err
		}
		e.p("item = &vals[i]")
		e.p("}")
	} else if err := e.recordDecodeValue(f, item, "item"); err != nil {
		return err
	}
	e.p("if err != nil { %s }", onErr)
	e.p("%s = append(%s, item)", expr, expr)
	e.p("}")
	return nil
}

// recordDecodeValue writes statements decoding one value of goType into expr, setting err.
func (e *emitter) recordDecodeValue(f *model.Field, goType, expr string) error {
	base, ptr := strings.CutPrefix(goType, "*")
	if f.Type.Polymorphic() {
		e.p("if r.Null() {")
		e.p("%s = nil", expr)
		e.p("} else {")
		e.p("%s, err = decodeRecord%sAny(r)", expr, f.Type.GoName)
		e.p("}")
		return nil
	}
	if !f.Type.Simple() {
		e.p("if r.Null() {")
		e.p("%s = nil", expr)
		e.p("} else {")
		e.p("x := new(%s)", base)
		e.p("err = x.DecodeRecord(r)")
		e.p("%s = x", expr)
		e.p("}")
		return nil
	}
	if ptr {
		e.p("if r.Null() {")
		e.p("%s = nil", expr)
		e.p("} else {")
		e.p("var x %s", base)
		if err := e.recordDecodeSimple(f, base, "x"); err != nil {
			return err
		}
		e.p("%s = &x", expr)
		e.p("}")
		return nil
	}
	return e.recordDecodeSimple(f, base, expr)
}

func (e *emitter) recordDecodeSimple(f *model.Field, goType, target string) error {
	switch f.Type.Kind {
	case model.KindString:
		e.p("%s, err = r.String()", target)
	case model.KindEnum:
		e.p("{")
		e.p("var text string")
		e.p("if text, err = r.String(); err == nil {")
		e.p("switch text {")
		e.p("case \"\", %s:", emit.QuoteList(f.Type.Enum))
		e.p("%s = %s(text)", target, goType)
		e.p("default:")
		e.p("err = r.BadEnum(%q, text)", f.Type.Name)
		e.p("}")
		e.p("}")
		e.p("}")
	case model.KindInt, model.KindLong, model.KindShort:
		bits := map[model.Kind]int{model.KindInt: 32, model.KindLong: 64, model.KindShort: 16}[f.Type.Kind]
		e.p("{")
		e.p("var n int64")
		e.p("n, err = r.Int(%q, %d)", f.Type.Name, bits)
		e.p("%s = %s(n)", target, goType)
		e.p("}")
	case model.KindBoolean:
		e.p("%s, err = r.Bool()", target)
	case model.KindDouble:
		e.p("%s, err = r.Double(\"double\", 64)", target)
	case model.KindFloat:
		e.p("{")
		e.p("var f float64")
		e.p("f, err = r.Double(\"float\", 32)")
		e.p("%s = float32(f)", target)
		e.p("}")
	case model.KindDateTime:
		e.p("%s, err = r.DateTime()", target)
	case model.KindDecimal:
		e.p("%s, err = r.Decimal()", target)
	case model.KindGUID:
		e.p("%s, err = r.GUID()", target)
	case model.KindBase64:
		e.p("%s, err = r.Base64()", target)
	default:
		if e.recordDecodeSmall(f, goType, target) {
			return nil
		}
		return fmt.Errorf("type %s has no record form", f.Type.Name)
	}
	return nil
}

// recordHierarchy writes appendRecord<T>Any and decodeRecord<T>Any for t, a type with derived types:
// a value of a derived type is its type's object with recordwire.TypeKey first naming it, a value of
// t itself its object without one (so a record written before t had derived types reads the same).
// The reader looks the type up before reading the members, as a stored document's keys may come in
// any order. A TypeKey naming a type the contract does not know (one a newer contract added, or this
// one dropped) is an error under an abstract t and in Strict mode; otherwise the value reads as a t
// (docs/generator-model.md §4).
func (e *emitter) recordHierarchy(t *model.Type) {
	g := t.GoName
	e.p("")
	e.p("// appendRecord%sAny appends v's object, with %q naming its type unless it is a %s.", g, "$type", t.Name)
	e.p("func appendRecord%sAny(b []byte, v Any%s) []byte {", g, g)
	e.p("switch x := v.(type) {")
	holders := t.Derived
	if !t.Abstract {
		e.p("case *%s:", g)
		e.p("return x.AppendRecord(b)")
	}
	for _, d := range holders {
		e.p("case *%s:", d.GoName)
		e.p("return recordwire.AppendTyped(x.AppendRecord(b), len(b), %q)", d.Name)
	}
	e.p("}")
	e.p("return append(b, \"null\"...)")
	e.p("}")
	e.p("")
	e.p("// decodeRecord%sAny reads an object of type %s, of the type its %q names.", g, t.Name, "$type")
	e.p("func decodeRecord%sAny(r *recordwire.Reader) (Any%s, error) {", g, g)
	e.p("typ, _, err := r.PeekType()")
	e.p("if err != nil { return nil, err }")
	e.p("switch typ {")
	for _, s := range append([]*model.Type{t}, t.Derived...) {
		if s == t {
			e.p("case \"\", %q:", s.Name)
		} else {
			e.p("case %q:", s.Name)
		}
		if s.Abstract {
			e.p("return nil, recordwire.AbstractType(typ, %q)", t.Name)
			continue
		}
		e.p("x := new(%s)", s.GoName)
		e.p("return x, x.DecodeRecord(r)")
	}
	e.p("}")
	if t.Abstract {
		e.p("return nil, recordwire.UnknownType(typ, %q)", t.Name)
	} else {
		// A type this contract does not know reads as the declared one in Lenient mode, its
		// members carried by the writer (recordwire.Type.CarryUnknown).
		e.p("if err := r.UnknownDerived(typ, %q); err != nil { return nil, err }", t.Name)
		e.p("x := new(%s)", g)
		e.p("return x, x.DecodeRecord(r)")
	}
	e.p("}")
}
