package wsdlgen

import (
	"fmt"
	"strconv"
	"strings"
)

// The JSON codec of the ASP.NET AJAX endpoint: AppendJSON and DecodeJSON for every wrapper and complex
// type, and the JSON entries of each operation. The forms follow JavaScriptSerializer (see
// server/wire/jsonwire): objects with the schema's element names as keys in schema order, ArrayOfX as a
// JSON array, nil as null.

// jsonCodec writes AppendJSON and DecodeJSON for a type whose Go struct is goName. request marks an
// operation's request wrapper, whose keys are the parameters: every one is required and an unknown key
// is refused, as ASP.NET does; in other objects unknown keys are skipped and missing ones keep their
// zero value.
func (e *emitter) jsonCodec(t *xsdType, goName string, request bool) error {
	fields := make([]goField, len(t.fields))
	for i, f := range t.fields {
		fields[i] = goFieldOf(f)
	}
	what := "element"
	if request {
		what = "parameter"
	}
	e.p("")
	if t.kind == kindArray {
		f, gf := t.fields[0], fields[0]
		item := strings.TrimPrefix(gf.typ, "[]")
		e.p("// AppendJSON appends %s as a JSON array.", t.name)
		e.p("func (v *%s) AppendJSON(b []byte) []byte {", goName)
		e.p("b = append(b, '[')")
		e.p("for i, item := range v.%s {", gf.name)
		e.p("if i > 0 { b = append(b, ',') }")
		if err := e.jsonAppendValue(f, item, "item"); err != nil {
			return err
		}
		e.p("}")
		e.p("return append(b, ']')")
		e.p("}")
		e.p("")
		e.p("// DecodeJSON reads the items of %s after its opening '['.", t.name)
		e.p("func (v *%s) DecodeJSON(r *jsonwire.Reader) error {", goName)
		e.p("for {")
		e.p("more, err := r.More()")
		e.p("if err != nil || !more { return err }")
		e.p("tok, err := r.Token()")
		e.p("if err != nil { return err }")
		e.p("var item %s", item)
		if err := e.jsonDecodeValue(f, item, "item", strconv.Quote("item of "+t.name)); err != nil {
			return err
		}
		e.p("if err != nil { return err }")
		e.p("v.%s = append(v.%s, item)", gf.name, gf.name)
		e.p("}")
		e.p("}")
		return nil
	}

	e.p("// AppendJSON appends %s as a JSON object, keys in schema order.", t.name)
	e.p("func (v *%s) AppendJSON(b []byte) []byte {", goName)
	e.p("b = append(b, '{')")
	for i, f := range t.fields {
		sep := ","
		if i == 0 {
			sep = ""
		}
		e.p("b = append(b, %q...)", sep+strconv.Quote(f.name)+":")
		if err := e.jsonAppendField(f, fields[i], "v."+fields[i].name); err != nil {
			return fmt.Errorf("%s.%s: %w", t.name, f.name, err)
		}
	}
	e.p("return append(b, '}')")
	e.p("}")
	e.p("")
	e.p("// DecodeJSON reads the keys of %s after its opening '{'.", t.name)
	e.p("func (v *%s) DecodeJSON(r *jsonwire.Reader) error {", goName)
	if len(t.fields) == 0 && request {
		e.p("key, ok, err := r.Key()")
		e.p("if err != nil { return err }")
		e.p("if ok { return jsonwire.UnknownParameter(key) }")
		e.p("return nil")
		e.p("}")
		return nil
	}
	if len(t.fields) > 0 {
		e.p("var seen [%d]bool", len(t.fields))
	}
	e.p("for {")
	e.p("key, ok, err := r.Key()")
	e.p("if err != nil { return err }")
	e.p("if !ok { break }")
	e.p("tok, err := r.Token()")
	e.p("if err != nil { return err }")
	e.p("switch key {")
	for i, f := range t.fields {
		e.p("case %q:", f.name)
		e.p("if seen[%d] { return jsonwire.DuplicateKey(key) }", i)
		e.p("seen[%d] = true", i)
		label := strconv.Quote(what + " " + f.name)
		if err := e.jsonDecodeField(f, fields[i], "v."+fields[i].name, label); err != nil {
			return fmt.Errorf("%s.%s: %w", t.name, f.name, err)
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
		for i, f := range t.fields {
			e.p("if !seen[%d] { return jsonwire.MissingParameter(%q) }", i, f.name)
		}
	}
	e.p("return nil")
	e.p("}")
	return nil
}

func (e *emitter) jsonAppendField(f *xsdField, gf goField, expr string) error {
	return e.appendRepeatable(f, gf, expr, e.jsonAppendValue)
}

// appendRepeatable writes statements appending the element f held in expr as JSON: a repeated
// element as an array (null for a nil slice) of the values appendValue writes, any other as the one
// value. The endpoint's JSON and the record codec share it; they differ only in how a value is spelled.
func (e *emitter) appendRepeatable(f *xsdField, gf goField, expr string, appendValue func(f *xsdField, goType, expr string) error) error {
	if f.maxOccurs != 1 {
		item := strings.TrimPrefix(gf.typ, "[]")
		e.p("if %s == nil { b = append(b, \"null\"...) } else {", expr)
		e.p("b = append(b, '[')")
		e.p("for i, item := range %s {", expr)
		e.p("if i > 0 { b = append(b, ',') }")
		if err := appendValue(f, item, "item"); err != nil {
			return err
		}
		e.p("}")
		e.p("b = append(b, ']')")
		e.p("}")
		return nil
	}
	return appendValue(f, gf.typ, expr)
}

// jsonAppendValue writes statements appending one value of goType held in expr.
func (e *emitter) jsonAppendValue(f *xsdField, goType, expr string) error {
	base, ptr := strings.CutPrefix(goType, "*")
	complexType := f.typ.kind == kindComplex || f.typ.kind == kindArray
	if ptr {
		e.p("if %s == nil { b = append(b, \"null\"...) } else {", expr)
		if complexType {
			e.p("b = %s.AppendJSON(b)", expr)
		} else if err := e.jsonAppendSimple(f, base, "*"+expr); err != nil {
			return err
		}
		e.p("}")
		return nil
	}
	return e.jsonAppendSimple(f, base, expr)
}

func (e *emitter) jsonAppendSimple(f *xsdField, goType, val string) error {
	switch f.typ.kind {
	case kindString:
		e.p("b = jsonwire.AppendString(b, %s)", val)
	case kindEnum:
		e.p("b = jsonwire.AppendString(b, %s.wireText())", val)
	case kindInt, kindLong, kindShort:
		e.p("b = xsd.AppendInt(b, int64(%s))", val)
	case kindBoolean:
		e.p("b = xsd.AppendBool(b, %s)", val)
	case kindDouble:
		e.p("b = jsonwire.AppendDouble(b, %s)", val)
	case kindFloat:
		e.p("b = jsonwire.AppendFloat(b, %s)", val)
	case kindDateTime:
		e.p("b = jsonwire.AppendDateTime(b, %s)", val)
	case kindBase64:
		e.p("b = jsonwire.AppendBase64(b, %s)", val)
	case kindDecimal:
		e.p("b = jsonwire.AppendDecimal(b, %s)", val)
	case kindGUID:
		e.p("b = jsonwire.AppendGUID(b, %s)", val)
	default:
		return fmt.Errorf("type %s has no JSON form", f.typ.name)
	}
	return nil
}

func (e *emitter) jsonDecodeField(f *xsdField, gf goField, expr, label string) error {
	if f.maxOccurs != 1 {
		item := strings.TrimPrefix(gf.typ, "[]")
		e.p("switch {")
		e.p("case tok.IsNull():")
		e.p("%s = nil", expr)
		e.p("case tok.Opens('['):")
		e.p("%s = %s{}", expr, gf.typ)
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
	return e.jsonDecodeValue(f, gf.typ, expr, label)
}

// jsonDecodeValue writes statements decoding the value whose first token is tok into expr, setting
// err (declared by the caller).
func (e *emitter) jsonDecodeValue(f *xsdField, goType, expr, label string) error {
	base, ptr := strings.CutPrefix(goType, "*")
	switch f.typ.kind {
	case kindComplex, kindArray:
		open, want := "'{'", "an object"
		if f.typ.kind == kindArray {
			open, want = "'['", "an array"
		}
		e.p("switch {")
		e.p("case tok.IsNull():")
		e.p("%s = nil", expr)
		e.p("case tok.Opens(%s):", open)
		e.p("%s = new(%s)", expr, base)
		e.p("err = %s.DecodeJSON(r)", expr)
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

func (e *emitter) jsonDecodeSimple(f *xsdField, goType, target, label string) error {
	switch f.typ.kind {
	case kindString:
		e.p("%s, err = jsonwire.String(tok, %s)", target, label)
	case kindEnum:
		e.p("{")
		e.p("var text string")
		e.p("if text, err = jsonwire.String(tok, %s); err == nil {", label)
		e.p("switch text {")
		e.p("case %s:", quoteList(f.typ.enum))
		e.p("%s = %s(text)", target, goType)
		e.p("default:")
		e.p("err = xsd.BadValue(%s, %q, text)", label, f.typ.name)
		e.p("}")
		e.p("}")
		e.p("}")
	case kindInt, kindLong, kindShort:
		bits := map[xsdKind]int{kindInt: 32, kindLong: 64, kindShort: 16}[f.typ.kind]
		e.p("{")
		e.p("var n int64")
		e.p("n, err = jsonwire.Int(tok, %s, %q, %d)", label, f.typ.name, bits)
		e.p("%s = %s(n)", target, goType)
		e.p("}")
	case kindBoolean:
		e.p("%s, err = jsonwire.Bool(tok, %s)", target, label)
	case kindDouble:
		e.p("%s, err = jsonwire.Double(tok, %s, \"double\", 64)", target, label)
	case kindFloat:
		e.p("{")
		e.p("var f float64")
		e.p("f, err = jsonwire.Double(tok, %s, \"float\", 32)", label)
		e.p("%s = float32(f)", target)
		e.p("}")
	case kindDateTime:
		e.p("%s, err = jsonwire.DateTime(tok, %s)", target, label)
	case kindBase64:
		e.p("%s, err = jsonwire.Base64(tok, %s)", target, label)
	case kindDecimal:
		e.p("%s, err = jsonwire.Decimal(tok, %s)", target, label)
	case kindGUID:
		e.p("%s, err = jsonwire.GUID(tok, %s)", target, label)
	default:
		return fmt.Errorf("type %s has no JSON form", f.typ.name)
	}
	return nil
}

// jsonOperation writes the JSON entries of an operation's table entry.
func (e *emitter) jsonOperation(op *contractOperation, result *xsdField) error {
	req, resp := goTypeName(op.requestElement), goTypeName(op.responseElement)
	e.p("DecodeJSON: func(r *jsonwire.Reader) (wire.Message, error) {")
	e.p("req := new(%s)", req)
	e.p("if err := req.DecodeJSON(r); err != nil { return nil, err }")
	e.p("return req, nil")
	e.p("},")
	e.p("AppendResultJSON: func(b []byte, m wire.Message) []byte {")
	if result == nil {
		e.p("return append(b, \"null\"...)")
	} else {
		gf := goFieldOf(result)
		e.p("v := m.(*%s)", resp)
		if err := e.jsonAppendField(result, gf, "v."+gf.name); err != nil {
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
		gf := goFieldOf(result)
		if err := e.jsonDecodeField(result, gf, "v."+gf.name, strconv.Quote("result")); err != nil {
			return err
		}
		e.p("return err")
	}
	e.p("},")
	return nil
}
