package wsdlgen

import (
	"fmt"
	"strings"
)

// The record codec: the canonical JSON document the store keeps per record and the record formats
// carry (server/wire/recordwire defines the form). It is generated for the record type named by the
// -record flag and every complex type reachable from it: AppendRecord and DecodeRecord for each, and
// for the record type RecordKey, RecordIndex and the exported descriptor <Type>Record.

// RecordOptions name the contract's record type, its key field and its indexed field.
type RecordOptions struct {
	// Type is the XSD name of the record type, a complex type of the contract.
	Type string
	// Key and Index are the names of two of its top-level elements of a simple type, occurring once.
	Key, Index string
}

// recordTypes returns the record type and the complex and array types reachable from it, in the
// contract's type order.
func (e *emitter) recordTypes(root *xsdType) []*xsdType {
	reach := map[*xsdType]bool{}
	var walk func(t *xsdType)
	walk = func(t *xsdType) {
		if reach[t] || t.simple() {
			return
		}
		reach[t] = true
		for _, f := range t.fields {
			walk(f.typ)
		}
	}
	walk(root)
	var out []*xsdType
	for _, t := range e.c.types {
		if reach[t] {
			out = append(out, t)
		}
	}
	return out
}

// recordPaths lists the dotted path of every element of t, nested ones after their parent; the
// elements of the items of an array of complex values are named through "[]". A type met again on
// its own path (a recursive type) is not descended into twice.
func recordPaths(t *xsdType, prefix string, onPath map[*xsdType]bool, out []string) []string {
	onPath[t] = true
	defer delete(onPath, t)
	for _, f := range t.fields {
		path := prefix + f.name
		out = append(out, path)
		ft, sep := f.typ, "."
		if f.maxOccurs != 1 {
			sep = "[]."
		}
		if ft.kind == kindArray {
			ft, sep = ft.fields[0].typ, "[]."
		}
		if ft.kind == kindComplex && !onPath[ft] {
			out = recordPaths(ft, path+sep, onPath, out)
		}
	}
	return out
}

// record writes the record codec.
func (e *emitter) record(opts *RecordOptions) error {
	var root *xsdType
	for _, t := range e.c.types {
		if t.name == opts.Type {
			root = t
		}
	}
	if root == nil || root.kind != kindComplex {
		var names []string
		for _, t := range e.c.types {
			if t.kind == kindComplex {
				names = append(names, t.name)
			}
		}
		return fmt.Errorf("-record %s: the contract has no complex type %s (its complex types: %s)", opts.Type, opts.Type, strings.Join(names, ", "))
	}
	goName := goTypeName(root.name)
	keyExpr, err := e.recordField(root, goName, "-record-key", opts.Key)
	if err != nil {
		return err
	}
	indexExpr, err := e.recordField(root, goName, "-record-index", opts.Index)
	if err != nil {
		return err
	}

	e.p("")
	e.p("// ---- The record codec of %s (the -record flags on the go:generate line; server/wire/recordwire", root.name)
	e.p("// defines the canonical form) ----")
	e.p("")
	e.p("// %sRecord describes %s, the contract's record type: the store keeps one canonical JSON document", goName, root.name)
	e.p("// per %s, keyed by %s and indexed by %s, and the record formats carry the same document.", root.name, opts.Key, opts.Index)
	e.p("var %sRecord = &recordwire.Type{", goName)
	e.p("Name: %q, Type: %s, Key: %q, Index: %q,", root.name, typeRef(root), opts.Key, opts.Index)
	e.p("Fields: %#v,", recordPaths(root, "", map[*xsdType]bool{}, nil))
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
	return nil
}

// recordField checks the key or index element and returns the body of the method returning its
// lexical form.
func (e *emitter) recordField(t *xsdType, goName, flag, name string) (string, error) {
	var names []string
	for _, f := range t.fields {
		names = append(names, f.name)
		if f.name != name {
			continue
		}
		gf := goFieldOf(f)
		if !f.typ.simple() || f.maxOccurs != 1 || f.typ.kind == kindBase64 || strings.HasPrefix(gf.typ, "*") {
			return "", fmt.Errorf("%s %s: %s.%s must be an element of a simple type other than base64Binary, occurring once and not nillable",
				flag, name, t.name, name)
		}
		switch f.typ.kind {
		case kindString:
			return "return v." + gf.name, nil
		case kindEnum:
			return "return v." + gf.name + ".wireText()", nil
		}
		text, err := textExpr(f.typ, gf.typ, "v."+gf.name)
		if err != nil {
			return "", err
		}
		return "var b []byte\nreturn string(" + text + ")", nil
	}
	return "", fmt.Errorf("%s %s: %s has no element %s (its elements: %s)", flag, name, t.name, name, strings.Join(names, ", "))
}

// recordCodec writes AppendRecord and DecodeRecord for one complex or array type.
func (e *emitter) recordCodec(t *xsdType) error {
	goName := goTypeName(t.name)
	fields := make([]goField, len(t.fields))
	for i, f := range t.fields {
		fields[i] = goFieldOf(f)
	}
	e.p("")
	if t.kind == kindArray {
		f, gf := t.fields[0], fields[0]
		item := strings.TrimPrefix(gf.typ, "[]")
		e.p("// AppendRecord appends %s as a JSON array of its items.", t.name)
		e.p("func (v *%s) AppendRecord(b []byte) []byte {", goName)
		e.p("b = append(b, '[')")
		e.p("for i, item := range v.%s {", gf.name)
		e.p("if i > 0 { b = append(b, ',') }")
		if err := e.recordAppendValue(f, item, "item"); err != nil {
			return fmt.Errorf("%s: %w", t.name, err)
		}
		e.p("}")
		e.p("return append(b, ']')")
		e.p("}")
		e.p("")
		e.p("// DecodeRecord reads %s from a JSON array of its items ([] reads as no items, as in XML).", t.name)
		e.p("func (v *%s) DecodeRecord(r *recordwire.Reader) error {", goName)
		e.p("if err := r.BeginArray(); err != nil { return err }")
		e.p("n, err := r.ArrayLen()")
		e.p("if err != nil { return err }")
		e.p("v.%s = nil", gf.name)
		e.p("if n > 0 { v.%s = make(%s, 0, n) }", gf.name, gf.typ)
		if err := e.recordDecodeItems(f, item, "v."+gf.name, "return err", "return recordwire.Item(i, err)"); err != nil {
			return fmt.Errorf("%s: %w", t.name, err)
		}
		e.p("}")
		return nil
	}

	keys := make([]string, len(t.fields))
	for i, f := range t.fields {
		keys[i] = f.name
	}
	e.p("// AppendRecord appends %s as a JSON object, every element in schema order.", t.name)
	e.p("func (v *%s) AppendRecord(b []byte) []byte {", goName)
	if len(t.fields) == 0 {
		e.p("return append(b, \"{}\"...)")
		e.p("}")
	} else {
		for i, f := range t.fields {
			open := ","
			if i == 0 {
				open = "{"
			}
			e.p("b = append(b, `%s`...)", open+`"`+f.name+`":`)
			if err := e.recordAppendField(f, fields[i], "v."+fields[i].name); err != nil {
				return fmt.Errorf("%s.%s: %w", t.name, f.name, err)
			}
		}
		e.p("return append(b, '}')")
		e.p("}")
	}
	e.p("")
	e.p("// recordKeys%s are the keys of %s's record object.", goName, t.name)
	e.p("var recordKeys%s = %#v", goName, keys)
	e.p("")
	e.p("// DecodeRecord reads %s from a JSON object, keys in any order; a missing key leaves its zero value.", t.name)
	e.p("func (v *%s) DecodeRecord(r *recordwire.Reader) error {", goName)
	e.p("if err := r.BeginObject(); err != nil { return err }")
	e.p("*v = %s{}", goName)
	if len(t.fields) > 0 {
		e.p("var seen [%d]bool", len(t.fields))
	}
	e.p("for {")
	e.p("key, ok, err := r.Key()")
	e.p("if err != nil || !ok { return err }")
	e.p("switch string(key) {")
	for i, f := range t.fields {
		e.p("case %q:", f.name)
		e.p("if seen[%d] { return r.Duplicate(key) }", i)
		e.p("seen[%d] = true", i)
		if err := e.recordDecodeField(f, fields[i], "v."+fields[i].name); err != nil {
			return fmt.Errorf("%s.%s: %w", t.name, f.name, err)
		}
		e.p("if err != nil { return recordwire.Path(%q, err) }", f.name)
	}
	e.p("default:")
	e.p("if err := r.Unknown(key, recordKeys%s); err != nil { return err }", goName)
	e.p("}")
	e.p("}")
	e.p("}")
	return nil
}

func (e *emitter) recordAppendField(f *xsdField, gf goField, expr string) error {
	return e.appendRepeatable(f, gf, expr, e.recordAppendValue)
}

// recordAppendValue writes statements appending one value of goType held in expr.
func (e *emitter) recordAppendValue(f *xsdField, goType, expr string) error {
	base, ptr := strings.CutPrefix(goType, "*")
	complexType := !f.typ.simple()
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

func (e *emitter) recordAppendSimple(f *xsdField, goType, val string) error {
	switch f.typ.kind {
	case kindString:
		e.p("b = recordwire.AppendString(b, %s)", val)
	case kindEnum:
		e.p("b = recordwire.AppendString(b, %s.wireText())", val)
	case kindInt, kindLong, kindShort:
		e.p("b = recordwire.AppendInt(b, int64(%s))", val)
	case kindBoolean:
		e.p("b = recordwire.AppendBool(b, %s)", val)
	case kindDouble:
		e.p("b = recordwire.AppendDouble(b, %s)", val)
	case kindFloat:
		e.p("b = recordwire.AppendFloat(b, %s)", val)
	case kindDateTime:
		e.p("b = recordwire.AppendDateTime(b, %s)", val)
	case kindDecimal:
		e.p("b = recordwire.AppendDecimal(b, %s)", val)
	case kindGUID:
		e.p("b = recordwire.AppendGUID(b, %s)", val)
	case kindBase64:
		e.p("b = recordwire.AppendBase64(b, %s)", val)
	default:
		return fmt.Errorf("type %s has no record form", f.typ.name)
	}
	return nil
}

// recordDecodeField writes statements decoding one element's value into expr, setting err (declared
// by the caller).
func (e *emitter) recordDecodeField(f *xsdField, gf goField, expr string) error {
	if f.maxOccurs != 1 {
		item := strings.TrimPrefix(gf.typ, "[]")
		e.p("if r.Null() {")
		e.p("%s = nil", expr)
		e.p("} else if err = r.BeginArray(); err == nil {")
		e.p("var n int")
		e.p("if n, err = r.ArrayLen(); err == nil {")
		e.p("%s = make(%s, 0, n)", expr, gf.typ)
		if err := e.recordDecodeItems(f, item, expr, "break", "err = recordwire.Item(i, err); break"); err != nil {
			return err
		}
		e.p("}")
		e.p("}")
		return nil
	}
	return e.recordDecodeValue(f, gf.typ, expr)
}

// recordDecodeItems writes the loop reading the items of an array whose '[' was read and whose
// item count is n, appending them to expr (allocated with room for n). A nillable simple item (a
// pointer) points into one backing slice of n values, so the items cost one allocation, not one each.
// onEnd and onErr are the statements leaving the loop at the end and on an item's error (i, err).
func (e *emitter) recordDecodeItems(f *xsdField, item, expr, onEnd, onErr string) error {
	base, ptr := strings.CutPrefix(item, "*")
	ptrSimple := ptr && f.typ.simple()
	if ptrSimple {
		e.p("vals := make([]%s, n)", base)
	}
	e.p("for i := 0; ; i++ {")
	e.p("more, err := r.More()")
	e.p("if err != nil || !more { %s }", onEnd)
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
func (e *emitter) recordDecodeValue(f *xsdField, goType, expr string) error {
	base, ptr := strings.CutPrefix(goType, "*")
	if !f.typ.simple() {
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

func (e *emitter) recordDecodeSimple(f *xsdField, goType, target string) error {
	switch f.typ.kind {
	case kindString:
		e.p("%s, err = r.String()", target)
	case kindEnum:
		e.p("{")
		e.p("var text string")
		e.p("if text, err = r.String(); err == nil {")
		e.p("switch text {")
		e.p("case \"\", %s:", quoteList(f.typ.enum))
		e.p("%s = %s(text)", target, goType)
		e.p("default:")
		e.p("err = r.BadEnum(%q, text)", f.typ.name)
		e.p("}")
		e.p("}")
		e.p("}")
	case kindInt, kindLong, kindShort:
		bits := map[xsdKind]int{kindInt: 32, kindLong: 64, kindShort: 16}[f.typ.kind]
		e.p("{")
		e.p("var n int64")
		e.p("n, err = r.Int(%q, %d)", f.typ.name, bits)
		e.p("%s = %s(n)", target, goType)
		e.p("}")
	case kindBoolean:
		e.p("%s, err = r.Bool()", target)
	case kindDouble:
		e.p("%s, err = r.Double(\"double\", 64)", target)
	case kindFloat:
		e.p("{")
		e.p("var f float64")
		e.p("f, err = r.Double(\"float\", 32)")
		e.p("%s = float32(f)", target)
		e.p("}")
	case kindDateTime:
		e.p("%s, err = r.DateTime()", target)
	case kindDecimal:
		e.p("%s, err = r.Decimal()", target)
	case kindGUID:
		e.p("%s, err = r.GUID()", target)
	case kindBase64:
		e.p("%s, err = r.Base64()", target)
	default:
		return fmt.Errorf("type %s has no record form", f.typ.name)
	}
	return nil
}
