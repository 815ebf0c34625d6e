package wsdlgen

import (
	"fmt"
	"strconv"
	"strings"
)

// codec writes AppendXML and DecodeXML for a wrapper or complex type whose Go struct is goName.
// what is "parameter" for request wrappers, "element" otherwise; it names elements in errors.
func (e *emitter) codec(t *xsdType, goName, what string) error {
	gs := e.structs[goName]
	if gs == nil {
		return fmt.Errorf("gowsdl generated no struct %s for %s", goName, t.name)
	}
	var fields []goField
	for _, f := range t.fields {
		gf, ok := gs.fields[f.name]
		if !ok {
			return fmt.Errorf("gowsdl's struct %s has no field for element %s", goName, f.name)
		}
		fields = append(fields, gf)
	}

	e.p("")
	e.p("// AppendXML appends the elements of %s in schema order.", t.name)
	e.p("func (v *%s) AppendXML(b []byte) []byte {", goName)
	for i, f := range t.fields {
		if err := e.appendField(f, fields[i]); err != nil {
			return fmt.Errorf("%s.%s: %w", t.name, f.name, err)
		}
	}
	e.p("return b")
	e.p("}")

	e.p("")
	e.p("// DecodeXML reads the elements of %s, in any order, skipping unknown ones as ASMX does.", t.name)
	e.p("func (v *%s) DecodeXML(r *wire.Reader) error {", goName)
	if len(t.fields) == 0 {
		e.p("for {")
		e.p("el, ok, err := r.Child()")
		e.p("if err != nil || !ok { return err }")
		e.p("if err := r.Skip(el); err != nil { return err }")
		e.p("}")
		e.p("}")
		return nil
	}
	e.p("var seen [%d]bool", len(t.fields))
	e.p("for {")
	e.p("el, ok, err := r.Child()")
	e.p("if err != nil { return err }")
	e.p("if !ok { break }")
	e.p("switch {")
	for i, f := range t.fields {
		label := strconv.Quote(what + " " + f.name)
		e.p("case el.Is(%q):", f.name)
		if f.maxOccurs == 1 {
			e.p("if seen[%d] { return wire.Duplicate(%s) }", i, label)
		}
		e.p("seen[%d] = true", i)
		if err := e.decodeValue(f, fields[i].typ, "v."+fields[i].name, label, f.maxOccurs != 1); err != nil {
			return fmt.Errorf("%s.%s: %w", t.name, f.name, err)
		}
	}
	e.p("default:")
	e.p("err = r.Skip(el)")
	e.p("}")
	e.p("if err != nil { return err }")
	e.p("}")
	for i, f := range t.fields {
		e.p("if !seen[%d] && r.Misplaced(%q) { return r.WrongNamespace(%q) }", i, f.name, f.name)
	}
	e.p("return nil")
	e.p("}")
	return nil
}

// appendField writes the statements appending one field.
func (e *emitter) appendField(f *xsdField, gf goField) error {
	expr := "v." + gf.name
	goType := gf.typ
	if f.maxOccurs != 1 {
		item, ok := strings.CutPrefix(goType, "[]")
		if !ok {
			return fmt.Errorf("a repeated element needs a slice, gowsdl wrote %s", goType)
		}
		e.p("for _, item := range %s {", expr)
		if err := e.appendOne(f, item, "item"); err != nil {
			return err
		}
		e.p("}")
		return nil
	}
	return e.appendOne(f, goType, expr)
}

func (e *emitter) appendOne(f *xsdField, goType, expr string) error {
	name := strconv.Quote(f.name)
	base, ptr := strings.CutPrefix(goType, "*")
	complexType := f.typ.kind == kindComplex || f.typ.kind == kindArray
	if complexType && !ptr {
		return fmt.Errorf("a complex element needs a pointer, gowsdl wrote %s", goType)
	}
	val := expr
	if ptr {
		if complexType {
			e.p("if %s != nil {", expr)
			e.p("b = wire.AppendComplex(b, %s, %s)", name, expr)
		} else {
			e.p("if %s != nil {", expr)
			val = "*" + expr
			if err := e.appendSimple(f, base, val, name); err != nil {
				return err
			}
		}
		if f.nillable {
			e.p("} else {")
			e.p("b = wire.AppendNil(b, %s)", name)
		}
		e.p("}")
		return nil
	}
	if f.typ.kind == kindBase64 {
		e.p("if %s != nil {", expr)
		if err := e.appendSimple(f, base, val, name); err != nil {
			return err
		}
		if f.nillable {
			e.p("} else {")
			e.p("b = wire.AppendNil(b, %s)", name)
		}
		e.p("}")
		return nil
	}
	return e.appendSimple(f, base, val, name)
}

func (e *emitter) appendSimple(f *xsdField, goType, val, name string) error {
	if err := checkGoType(f.typ, goType); err != nil {
		return err
	}
	switch f.typ.kind {
	case kindString:
		e.p("b = wire.AppendString(b, %s, %s)", name, val)
	case kindEnum:
		e.p("b = wire.AppendString(b, %s, %s.wireText())", name, val)
	case kindInt, kindLong, kindShort:
		e.p("b = wire.AppendInt(b, %s, int64(%s))", name, val)
	case kindBoolean:
		e.p("b = wire.AppendBool(b, %s, %s)", name, val)
	case kindDouble:
		e.p("b = wire.AppendDouble(b, %s, %s)", name, val)
	case kindFloat:
		e.p("b = wire.AppendFloat(b, %s, %s)", name, val)
	case kindDateTime:
		e.p("b = wire.AppendDateTime(b, %s, %s)", name, val)
	case kindBase64:
		e.p("b = wire.AppendBase64(b, %s, %s)", name, val)
	case kindDecimal:
		e.p("b = wire.AppendDecimal(b, %s, %s)", name, val)
	case kindGUID:
		e.p("b = wire.AppendGUID(b, %s, %s)", name, val)
	default:
		return fmt.Errorf("type %s has no simple encoding", f.typ.name)
	}
	return nil
}

// checkGoType refuses a Go type gowsdl chose that the codec does not expect for the XSD type, so a
// mismatch fails generation instead of miscompiling or losing data.
func checkGoType(t *xsdType, goType string) error {
	want := map[xsdKind]string{
		kindString: "string", kindInt: "int32", kindLong: "int64", kindShort: "int16", kindBoolean: "bool",
		kindDouble: "float64", kindFloat: "float32", kindDateTime: "wire.DateTime", kindBase64: "[]byte",
		kindDecimal: "wire.Decimal", kindGUID: "wire.GUID",
	}[t.kind]
	if t.kind == kindEnum {
		want = goTypeName(t.name)
	}
	if want != "" && goType != want {
		return fmt.Errorf("xsd:%s is %s in gowsdl's types; the codec expects %s", t.name, goType, want)
	}
	return nil
}

// decodeValue writes statements decoding the element el into expr (appending when repeated).
// err is declared by the caller.
func (e *emitter) decodeValue(f *xsdField, goType, expr, label string, repeated bool) error {
	if repeated {
		item, ok := strings.CutPrefix(goType, "[]")
		if !ok {
			return fmt.Errorf("a repeated element needs a slice, gowsdl wrote %s", goType)
		}
		e.p("{")
		e.p("var item %s", item)
		if err := e.decodeOne(f, item, "item", label); err != nil {
			return err
		}
		e.p("%s = append(%s, item)", expr, expr)
		e.p("}")
		return nil
	}
	return e.decodeOne(f, goType, expr, label)
}

func (e *emitter) decodeOne(f *xsdField, goType, expr, label string) error {
	base, ptr := strings.CutPrefix(goType, "*")
	complexType := f.typ.kind == kindComplex || f.typ.kind == kindArray
	if ptr || f.typ.kind == kindBase64 {
		e.p("if el.Nil() {")
		e.p("%s = nil", expr)
		e.p("err = r.Skip(el)")
		e.p("} else {")
		if complexType {
			e.p("%s = new(%s)", expr, base)
			e.p("err = %s.DecodeXML(r)", expr)
		} else {
			e.p("var x %s", base)
			if err := e.decodeSimple(f, base, "x", label); err != nil {
				return err
			}
			if ptr {
				e.p("%s = &x", expr)
			} else {
				e.p("%s = x", expr)
			}
		}
		e.p("}")
		return nil
	}
	if complexType {
		return fmt.Errorf("a complex element needs a pointer, gowsdl wrote %s", goType)
	}
	return e.decodeSimple(f, base, expr, label)
}

func (e *emitter) decodeSimple(f *xsdField, goType, target, label string) error {
	if err := checkGoType(f.typ, goType); err != nil {
		return err
	}
	switch f.typ.kind {
	case kindString:
		e.p("%s, err = r.Text(el, %s)", target, label)
	case kindEnum:
		e.p("var text string")
		e.p("if text, err = r.Text(el, %s); err == nil {", label)
		e.p("switch text {")
		e.p("case %s:", quoteList(f.typ.enum))
		e.p("%s = %s(text)", target, goType)
		e.p("default:")
		e.p("err = wire.BadValue(%s, %q, text)", label, f.typ.name)
		e.p("}")
		e.p("}")
	case kindInt, kindLong, kindShort:
		bits := map[xsdKind]int{kindInt: 32, kindLong: 64, kindShort: 16}[f.typ.kind]
		e.p("var n int64")
		e.p("n, err = r.ReadInt(el, %s, %q, %d)", label, f.typ.name, bits)
		e.p("%s = %s(n)", target, goType)
	case kindBoolean:
		e.p("%s, err = r.ReadBool(el, %s)", target, label)
	case kindDouble:
		e.p("%s, err = r.ReadDouble(el, %s, \"double\", 64)", target, label)
	case kindFloat:
		e.p("var f float64")
		e.p("f, err = r.ReadDouble(el, %s, \"float\", 32)", label)
		e.p("%s = float32(f)", target)
	case kindDateTime:
		e.p("%s, err = r.ReadDateTime(el, %s)", target, label)
	case kindBase64:
		e.p("%s, err = r.ReadBase64(el, %s)", target, label)
	case kindDecimal:
		e.p("%s, err = r.ReadDecimal(el, %s)", target, label)
	case kindGUID:
		e.p("%s, err = r.ReadGUID(el, %s)", target, label)
	default:
		return fmt.Errorf("type %s has no simple decoding", f.typ.name)
	}
	return nil
}

func quoteList(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}

// form writes DecodeForm and EncodeForm of an operation offered on HTTP GET/POST.
func (e *emitter) form(op *contractOperation, req string) error {
	gs := e.structs[req]
	if gs == nil {
		return fmt.Errorf("gowsdl generated no struct %s", req)
	}
	e.p("DecodeForm: func(form *wire.Form) (wire.Message, error) {")
	e.p("req := new(%s)", req)
	for _, f := range op.request.fields {
		gf, ok := gs.fields[f.name]
		if !ok {
			return fmt.Errorf("gowsdl's struct %s has no field for element %s", req, f.name)
		}
		base, ptr := strings.CutPrefix(gf.typ, "*")
		if err := checkGoType(f.typ, base); err != nil {
			return fmt.Errorf("parameter %s: %w", f.name, err)
		}
		name := strconv.Quote(f.name)
		target := "req." + gf.name
		e.p("{")
		switch f.typ.kind {
		case kindString, kindEnum:
			e.p("v, present, err := wire.FormValue(form, %s)", name)
			e.p("if err != nil { return nil, err }")
			e.p("_ = present")
			if f.typ.kind == kindEnum {
				e.p("switch {")
				e.p("case !present:")
				if f.minOccurs > 0 && !ptr {
					e.p("return nil, wire.FormRequired(%s)", name)
				}
				e.p("case %s:", strings.Join(enumConds(f.typ.enum), " || "))
				e.p("default: return nil, wire.BadValue(\"parameter \"+%s, %q, v)", name, f.typ.name)
				e.p("}")
			}
			val := "v"
			if f.typ.kind == kindEnum {
				val = base + "(v)"
			}
			if ptr {
				e.p("if present { x := %s; %s = &x }", val, target)
			} else {
				e.p("%s = %s", target, val)
			}
		default:
			call := map[xsdKind]string{
				kindInt:      fmt.Sprintf("wire.FormInt(form, %s, \"int\", 32)", name),
				kindLong:     fmt.Sprintf("wire.FormInt(form, %s, \"long\", 64)", name),
				kindShort:    fmt.Sprintf("wire.FormInt(form, %s, \"short\", 16)", name),
				kindBoolean:  fmt.Sprintf("wire.FormBool(form, %s)", name),
				kindDouble:   fmt.Sprintf("wire.FormDouble(form, %s, \"double\", 64)", name),
				kindFloat:    fmt.Sprintf("wire.FormDouble(form, %s, \"float\", 32)", name),
				kindDateTime: fmt.Sprintf("wire.FormDateTime(form, %s)", name),
				kindBase64:   fmt.Sprintf("wire.FormBase64(form, %s)", name),
				kindDecimal:  fmt.Sprintf("wire.FormDecimal(form, %s)", name),
				kindGUID:     fmt.Sprintf("wire.FormGUID(form, %s)", name),
			}[f.typ.kind]
			if call == "" {
				return fmt.Errorf("parameter %s: type %s cannot be a form parameter", f.name, f.typ.name)
			}
			if ptr {
				e.p("if _, present, _ := wire.FormValue(form, %s); present {", name)
			}
			e.p("v, err := %s", call)
			e.p("if err != nil { return nil, err }")
			conv := "v"
			switch f.typ.kind {
			case kindInt, kindLong, kindShort, kindFloat:
				conv = base + "(v)"
			}
			if ptr {
				e.p("x := %s", conv)
				e.p("%s = &x", target)
				e.p("}")
			} else {
				e.p("%s = %s", target, conv)
			}
		}
		e.p("}")
	}
	e.p("return req, nil")
	e.p("},")

	e.p("EncodeForm: func(m wire.Message, form url.Values) {")
	if len(op.request.fields) > 0 {
		e.p("req := m.(*%s)", req)
	}
	for _, f := range op.request.fields {
		gf := gs.fields[f.name]
		_, ptr := strings.CutPrefix(gf.typ, "*")
		val := "req." + gf.name
		if ptr {
			e.p("if %s != nil {", val)
			val = "*" + val
		}
		if f.typ.kind == kindBase64 {
			e.p("if %s != nil {", val)
		}
		text := map[xsdKind]string{
			kindString: val, kindEnum: val + ".wireText()",
			kindInt: "wire.FormatInt(int64(" + val + "))", kindLong: "wire.FormatInt(int64(" + val + "))", kindShort: "wire.FormatInt(int64(" + val + "))",
			kindBoolean: "wire.FormatBool(" + val + ")", kindDouble: "wire.FormatDouble(" + val + ")", kindFloat: "wire.FormatFloat(" + val + ")",
			kindDateTime: val + ".String()", kindBase64: "string(wire.AppendBase64Value(nil, " + val + "))",
			kindDecimal: val + ".String()", kindGUID: val + ".String()",
		}[f.typ.kind]
		e.p("form.Set(%q, %s)", f.name, text)
		if f.typ.kind == kindBase64 {
			e.p("}")
		}
		if ptr {
			e.p("}")
		}
	}
	e.p("},")
	return nil
}

func enumConds(vs []string) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = "v == " + strconv.Quote(v)
	}
	return out
}

// client writes the client stub: the gowsdl interface implemented over a wire.Invoker.
func (e *emitter) client() {
	name := e.c.portType + "Client"
	e.p("")
	e.p("// %s implements %s (both method variants) by sending each call through Invoker, which", name, e.c.portType)
	e.p("// server/client implements over the four bindings.")
	e.p("type %s struct {", name)
	e.p("Invoker wire.Invoker")
	e.p("}")
	e.p("")
	e.p("var _ %s = (*%s)(nil)", e.c.portType, name)
	for _, op := range e.c.operations {
		req, resp := goTypeName(op.requestElement), goTypeName(op.responseElement)
		e.p("")
		e.p("// %sContext calls %s.", op.name, op.name)
		e.p("func (c *%s) %sContext(ctx context.Context, request *%s) (*%s, error) {", name, op.name, req, resp)
		e.p("response := new(%s)", resp)
		e.p("if err := c.Invoker.Invoke(ctx, op%s, request, response); err != nil { return nil, err }", goTypeName(op.name))
		e.p("return response, nil")
		e.p("}")
		e.p("")
		e.p("// %s is %sContext without a context.", op.name, op.name)
		e.p("func (c *%s) %s(request *%s) (*%s, error) {", name, op.name, req, resp)
		e.p("return c.%sContext(context.Background(), request)", op.name)
		e.p("}")
	}
	server := e.c.portType + "Server"
	adapter := e.c.portType + "Adapter"
	e.p("")
	e.p("// %s gives a %s the context-free methods of %s too, for code written against gowsdl's", adapter, server, e.c.portType)
	e.p("// interface.")
	e.p("type %s struct {", adapter)
	e.p("%s", server)
	e.p("}")
	e.p("")
	e.p("var _ %s = %s{}", e.c.portType, adapter)
	for _, op := range e.c.operations {
		req, resp := goTypeName(op.requestElement), goTypeName(op.responseElement)
		e.p("")
		e.p("// %s calls %sContext with a background context.", op.name, op.name)
		e.p("func (a %s) %s(request *%s) (*%s, error) {", adapter, op.name, req, resp)
		e.p("return a.%sContext(context.Background(), request)", op.name)
		e.p("}")
	}
}
