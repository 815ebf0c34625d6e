// Package jsoncodec writes the JSON codec of the ASP.NET AJAX endpoint: AppendJSON and DecodeJSON for
// every wrapper and complex type, and the JSON entries of each operation. The forms follow
// JavaScriptSerializer (see server/wire/jsonwire): objects with the schema's element names as keys in
// schema order, ArrayOfX as a JSON array, nil as null.
//
// It imports the standard library, model and emit.
package jsoncodec

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit/anycodec"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
)

// emitter writes the JSON codec into the wire code's Writer.
type emitter struct {
	*emit.Writer
}

func (e *emitter) p(format string, args ...any) { e.P(format, args...) }

// Codec writes AppendJSON and DecodeJSON for t, whose Go struct is goName, to w (see jsonCodec).
func Codec(w *emit.Writer, t *model.Type, goName string, request bool) error {
	return (&emitter{w}).jsonCodec(t, goName, request)
}

// Operation writes the JSON entries of op's table entry to w; result is its result element, nil
// when it has none.
func Operation(w *emit.Writer, op *model.Operation, result *model.Field) error {
	return (&emitter{w}).jsonOperation(op, result)
}

// jsonCodec writes AppendJSON and DecodeJSON for a type whose Go struct is goName. request marks an
// operation's request wrapper, whose keys are the parameters: every one is required and an unknown key
// is refused, as ASP.NET does; in other objects unknown keys are skipped and missing ones keep their
// zero value.
func (e *emitter) jsonCodec(t *model.Type, goName string, request bool) error {
	// A derived type's base fields first; attributes, then the text of simple content, after the
	// elements, under their XML names and "Value" (our choice: ASP.NET AJAX uses C# member names,
	// which the WSDL does not carry).
	all, err := emit.AttrFields(t, "", "Value")
	if err != nil {
		return err
	}
	fields := make([]model.GoField, len(all))
	for i, f := range all {
		fields[i] = model.GoFieldOf(f)
	}
	what := "element"
	if request {
		what = "parameter"
	}
	e.p("")
	if t.Kind == model.KindArray {
		f, gf := t.Fields[0], fields[0]
		item := strings.TrimPrefix(gf.Type, "[]")
		e.p("// AppendJSON appends %s as a JSON array.", t.Name)
		e.p("func (v *%s) AppendJSON(b []byte) []byte {", goName)
		e.p("b = append(b, '[')")
		e.p("for i, item := range v.%s {", gf.Name)
		e.p("if i > 0 { b = append(b, ',') }")
		if err := e.jsonAppendValue(f, item, "item"); err != nil {
			return err
		}
		e.p("}")
		e.p("return append(b, ']')")
		e.p("}")
		e.p("")
		e.p("// DecodeJSON reads the items of %s after its opening '['.", t.Name)
		e.p("func (v *%s) DecodeJSON(r *jsonwire.Reader) error {", goName)
		e.p("for {")
		e.p("more, err := r.More()")
		e.p("if err != nil || !more { return err }")
		e.p("tok, err := r.Token()")
		e.p("if err != nil { return err }")
		e.p("var item %s", item)
		if err := e.jsonDecodeValue(f, item, "item", strconv.Quote("item of "+t.Name)); err != nil {
			return err
		}
		e.p("if err != nil { return err }")
		e.p("v.%s = append(v.%s, item)", gf.Name, gf.Name)
		e.p("}")
		e.p("}")
		return nil
	}

	e.p("// AppendJSON appends %s as a JSON object, keys in schema order.", t.Name)
	e.p("func (v *%s) AppendJSON(b []byte) []byte {", goName)
	e.p("b = append(b, '{')")
	for i, f := range all {
		sep := ","
		if i == 0 {
			sep = ""
		}
		e.p("b = append(b, %q...)", sep+strconv.Quote(f.Name)+":")
		if err := e.jsonAppendField(f, fields[i], "v."+fields[i].Name); err != nil {
			return fmt.Errorf("%s.%s: %w", t.Name, f.Name, err)
		}
	}
	e.p("return append(b, '}')")
	e.p("}")
	e.p("")
	e.p("// DecodeJSON reads the keys of %s after its opening '{'.", t.Name)
	e.p("func (v *%s) DecodeJSON(r *jsonwire.Reader) error {", goName)
	if len(all) == 0 && request {
		e.p("key, ok, err := r.Key()")
		e.p("if err != nil { return err }")
		e.p("if ok { return jsonwire.UnknownParameter(key) }")
		e.p("return nil")
		e.p("}")
		return nil
	}
	if len(all) > 0 {
		e.p("var seen [%d]bool", len(all))
	}
	e.p("for {")
	e.p("key, ok, err := r.Key()")
	e.p("if err != nil { return err }")
	e.p("if !ok { break }")
	e.p("tok, err := r.Token()")
	e.p("if err != nil { return err }")
	e.p("switch key {")
	for i, f := range all {
		e.p("case %q:", f.Name)
		e.p("if seen[%d] { return jsonwire.DuplicateKey(key) }", i)
		e.p("seen[%d] = true", i)
		label := strconv.Quote(what + " " + f.Name)
		if err := e.jsonDecodeField(f, fields[i], "v."+fields[i].Name, label); err != nil {
			return fmt.Errorf("%s.%s: %w", t.Name, f.Name, err)
		}
	}
	e.p("default:")
	if request {
		e.p("return jsonwire.UnknownParameter(key)")
	} else {
		e.p("err = r.Skip(tok)")
	}
	e.p("}")
	e.p("if err != nil { return err }")
	e.p("}")
	if request {
		for i, f := range all {
			e.p("if !seen[%d] { return jsonwire.MissingParameter(%q) }", i, f.Name)
		}
	}
	e.p("return nil")
	e.p("}")
	return nil
}

func (e *emitter) jsonAppendField(f *model.Field, gf model.GoField, expr string) error {
	return e.AppendRepeatable(f, gf, expr, e.jsonAppendValue)
}

// jsonAppendValue writes statements appending one value of goType held in expr.
func (e *emitter) jsonAppendValue(f *model.Field, goType, expr string) error {
	base, ptr := strings.CutPrefix(goType, "*")
	complexType := f.Type.Kind == model.KindComplex || f.Type.Kind == model.KindArray
	if anycodec.Handles(f) { // its XML as a string (package anycodec)
		anycodec.Emitter{Writer: e.Writer}.AppendJSON(f, expr)
		return nil
	}
	if f.Type.Polymorphic() { // its sealed interface: the value's object, "__type" first
		e.p("b = appendJSON%sAny(b, %s)", f.Type.GoName, expr)
		return nil
	}
	if ptr {
		e.p("if %s == nil { b = append(b, \"null\"...) } else {", expr)
		if complexType {
			e.p("b = %s.AppendJSON(b)", expr)
		} else if err := e.jsonAppendSimple(f, base, emit.Deref(f.Type, expr)); err != nil {
			return err
		}
		e.p("}")
		return nil
	}
	return e.jsonAppendSimple(f, base, expr)
}

func (e *emitter) jsonAppendSimple(f *model.Field, goType, val string) error {
	switch f.Type.Kind {
	case model.KindString:
		e.p("b = jsonwire.AppendString(b, %s)", val)
	case model.KindEnum, model.KindFlags:
		e.p("b = jsonwire.AppendString(b, %s.wireText())", val)
	case model.KindInt, model.KindLong, model.KindShort:
		e.p("b = xsd.AppendInt(b, int64(%s))", val)
	case model.KindBoolean:
		e.p("b = xsd.AppendBool(b, %s)", val)
	case model.KindDouble:
		e.p("b = jsonwire.AppendDouble(b, %s)", val)
	case model.KindFloat:
		e.p("b = jsonwire.AppendFloat(b, %s)", val)
	case model.KindDateTime:
		e.p("b = jsonwire.AppendDateTime(b, %s)", val)
	case model.KindBase64:
		e.p("b = jsonwire.AppendBase64(b, %s)", val)
	case model.KindDecimal:
		e.p("b = jsonwire.AppendDecimal(b, %s)", val)
	case model.KindGUID:
		e.p("b = jsonwire.AppendGUID(b, %s)", val)
	default:
		if e.jsonAppendSmall(f, val) {
			return nil
		}
		return fmt.Errorf("type %s has no JSON form", f.Type.Name)
	}
	return nil
}

func (e *emitter) jsonDecodeField(f *model.Field, gf model.GoField, expr, label string) error {
	if f.MaxOccurs != 1 {
		item := strings.TrimPrefix(gf.Type, "[]")
		e.p("switch {")
		e.p("case tok.IsNull():")
		e.p("%s = nil", expr)
		e.p("case tok.Opens('['):")
		e.p("%s = %s{}", expr, gf.Type)
		e.p("for {")
		e.p("more, err := r.More()")
		e.p("if err != nil { return err }")
		e.p("if !more { break }")
		e.p("tok, err := r.Token()")
		e.p("if err != nil { return err }")
		e.p("var item %s", item)
		if err := e.jsonDecodeValue(f, item, "item", label); err != nil {
			return err
		}
		e.p("if err != nil { return err }")
		e.p("%s = append(%s, item)", expr, expr)
		e.p("}")
		e.p("default:")
		e.p("err = jsonwire.WrongType(%s, \"an array\", tok)", label)
		e.p("}")
		return nil
	}
	return e.jsonDecodeValue(f, gf.Type, expr, label)
}

// jsonDecodeValue writes statements decoding the value whose first token is tok into expr, setting
// err (declared by the caller).
func (e *emitter) jsonDecodeValue(f *model.Field, goType, expr, label string) error {
	base, ptr := strings.CutPrefix(goType, "*")
	if anycodec.Handles(f) {
		anycodec.Emitter{Writer: e.Writer}.DecodeJSON(f, expr, label)
		return nil
	}
	switch f.Type.Kind {
	case model.KindComplex, model.KindArray:
		open, want := "'{'", "an object"
		if f.Type.Kind == model.KindArray {
			open, want = "'['", "an array"
		}
		e.p("switch {")
		e.p("case tok.IsNull():")
		e.p("%s = nil", expr)
		e.p("case tok.Opens(%s):", open)
		switch {
		case f.Type.Polymorphic(): // of the type its "__type" names (xmlcodec's inherit.go)
			e.p("%s, err = decodeJSON%sAny(r, %s)", expr, f.Type.GoName, label)
		default:
			e.p("%s = new(%s)", expr, base)
			e.p("err = %s.DecodeJSON(r)", expr)
		}
		e.p("default:")
		e.p("err = jsonwire.WrongType(%s, %q, tok)", label, want)
		e.p("}")
		return nil
	}
	if ptr {
		e.p("if tok.IsNull() {")
		e.p("%s = nil", expr)
		e.p("} else {")
		e.p("var x %s", base)
		if err := e.jsonDecodeSimple(f, base, "x", label); err != nil {
			return err
		}
		e.p("%s = &x", expr)
		e.p("}")
		return nil
	}
	return e.jsonDecodeSimple(f, base, expr, label)
}

func (e *emitter) jsonDecodeSimple(f *model.Field, goType, target, label string) error {
	switch f.Type.Kind {
	case model.KindString:
		e.p("%s, err = jsonwire.String(tok, %s)", target, label)
	case model.KindEnum:
		e.p("{")
		e.p("var text string")
		e.p("if text, err = jsonwire.String(tok, %s); err == nil {", label)
		e.p("switch text {")
		e.p("case %s:", emit.QuoteList(f.Type.Enum))
		e.p("%s = %s(text)", target, goType)
		e.p("default:")
		e.p("err = xsd.BadValue(%s, %q, text)", label, f.Type.Name)
		e.p("}")
		e.p("}")
		e.p("}")
	case model.KindInt, model.KindLong, model.KindShort:
		bits := map[model.Kind]int{model.KindInt: 32, model.KindLong: 64, model.KindShort: 16}[f.Type.Kind]
		e.p("{")
		e.p("var n int64")
		e.p("n, err = jsonwire.Int(tok, %s, %q, %d)", label, f.Type.Name, bits)
		e.p("%s = %s(n)", target, goType)
		e.p("}")
	case model.KindBoolean:
		e.p("%s, err = jsonwire.Bool(tok, %s)", target, label)
	case model.KindDouble:
		e.p("%s, err = jsonwire.Double(tok, %s, \"double\", 64)", target, label)
	case model.KindFloat:
		e.p("{")
		e.p("var f float64")
		e.p("f, err = jsonwire.Double(tok, %s, \"float\", 32)", label)
		e.p("%s = float32(f)", target)
		e.p("}")
	case model.KindDateTime:
		e.p("%s, err = jsonwire.DateTime(tok, %s)", target, label)
	case model.KindBase64:
		e.p("%s, err = jsonwire.Base64(tok, %s)", target, label)
	case model.KindDecimal:
		e.p("%s, err = jsonwire.Decimal(tok, %s)", target, label)
	case model.KindGUID:
		e.p("%s, err = jsonwire.GUID(tok, %s)", target, label)
	default:
		if e.jsonDecodeSmall(f, goType, target, label) {
			return nil
		}
		return fmt.Errorf("type %s has no JSON form", f.Type.Name)
	}
	return nil
}

// jsonOperation writes the JSON entries of an operation's table entry.
func (e *emitter) jsonOperation(op *model.Operation, result *model.Field) error {
	req, resp := op.Request.GoName, ""
	if op.Response != nil { // nil: a one-way operation
		resp = op.Response.GoName
	}
	e.p("DecodeJSON: func(r *jsonwire.Reader) (wire.Message, error) {")
	e.p("req := new(%s)", req)
	e.p("if err := req.DecodeJSON(r); err != nil { return nil, err }")
	e.p("return req, nil")
	e.p("},")
	if op.OutRef() {
		e.outRefResultJSON(resp)
		return nil
	}
	e.p("AppendResultJSON: func(b []byte, m wire.Message) []byte {")
	if result == nil {
		e.p("return append(b, \"null\"...)")
	} else {
		gf := model.GoFieldOf(result)
		e.p("v := m.(*%s)", resp)
		if err := e.jsonAppendField(result, gf, "v."+gf.Name); err != nil {
			return err
		}
		e.p("return b")
	}
	e.p("},")
	e.p("DecodeResultJSON: func(r *jsonwire.Reader, tok jsonwire.Token, m wire.Message) error {")
	if result == nil {
		e.p("return r.Skip(tok)")
	} else {
		e.p("v := m.(*%s)", resp)
		e.p("var err error")
		gf := model.GoFieldOf(result)
		if err := e.jsonDecodeField(result, gf, "v."+gf.Name, strconv.Quote("result")); err != nil {
			return err
		}
		e.p("return err")
	}
	e.p("},")
	return nil
}
