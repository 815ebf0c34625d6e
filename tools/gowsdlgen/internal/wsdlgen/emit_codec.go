package wsdlgen

import (
	"fmt"
	"strconv"
	"strings"
)

// codec writes AppendXML and DecodeXML for a wrapper or complex type whose Go struct is goName.
// what is "parameter" for request wrappers, "element" otherwise; it names elements in errors.
func (e *emitter) codec(t *xsdType, goName, what string) error {
	var fields []goField
	for _, f := range t.fields {
		fields = append(fields, goFieldOf(f))
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
	e.p("func (v *%s) DecodeXML(r *xmlwire.Reader) error {", goName)
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
			e.p("if seen[%d] { return xsd.Duplicate(%s) }", i, label)
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
		e.p("for _, item := range %s {", expr)
		if err := e.appendOne(f, strings.TrimPrefix(goType, "[]"), "item"); err != nil {
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
	val := expr
	if ptr {
		if complexType {
			e.p("if %s != nil {", expr)
			e.p("b = xmlwire.AppendComplex(b, %s, %s)", name, expr)
		} else {
			e.p("if %s != nil {", expr)
			val = "*" + expr
			if err := e.appendSimple(f, base, val, name); err != nil {
				return err
			}
		}
		if f.nillable {
			e.p("} else {")
			e.p("b = xmlwire.AppendNil(b, %s)", name)
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
			e.p("b = xmlwire.AppendNil(b, %s)", name)
		}
		e.p("}")
		return nil
	}
	return e.appendSimple(f, base, val, name)
}

func (e *emitter) appendSimple(f *xsdField, goType, val, name string) error {
	switch f.typ.kind {
	case kindString:
		e.p("b = xmlwire.AppendString(b, %s, %s)", name, val)
	case kindEnum:
		e.p("b = xmlwire.AppendString(b, %s, %s.wireText())", name, val)
	case kindInt, kindLong, kindShort:
		e.p("b = xmlwire.AppendInt(b, %s, int64(%s))", name, val)
	case kindBoolean:
		e.p("b = xmlwire.AppendBool(b, %s, %s)", name, val)
	case kindDouble:
		e.p("b = xmlwire.AppendDouble(b, %s, %s)", name, val)
	case kindFloat:
		e.p("b = xmlwire.AppendFloat(b, %s, %s)", name, val)
	case kindDateTime:
		e.p("b = xmlwire.AppendDateTime(b, %s, %s)", name, val)
	case kindBase64:
		e.p("b = xmlwire.AppendBase64(b, %s, %s)", name, val)
	case kindDecimal:
		e.p("b = xmlwire.AppendDecimal(b, %s, %s)", name, val)
	case kindGUID:
		e.p("b = xmlwire.AppendGUID(b, %s, %s)", name, val)
	default:
		return fmt.Errorf("type %s has no simple encoding", f.typ.name)
	}
	return nil
}

// decodeValue writes statements decoding the element el into expr (appending when repeated).
// err is declared by the caller.
func (e *emitter) decodeValue(f *xsdField, goType, expr, label string, repeated bool) error {
	if repeated {
		item := strings.TrimPrefix(goType, "[]")
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
	return e.decodeSimple(f, base, expr, label)
}

func (e *emitter) decodeSimple(f *xsdField, goType, target, label string) error {
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
		e.p("err = xsd.BadValue(%s, %q, text)", label, f.typ.name)
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

// form writes DecodeForm and EncodeForm of an operation offered on HTTP GET/POST, from the model's
// httpParams: a simple parameter is one value (formwire.Param), an array parameter one value per
// item (Form.Values), each converted by the formwire.Form reader of its XSD type.
func (e *emitter) form(op *contractOperation, req string) error {
	type param struct {
		*httpParam
		gf           goField // the request struct's field
		list         string  // an array parameter's Go struct ("ArrayOfString")
		itemField    goField // and its item field
		base         string  // the Go type of one value
		ptr, itemPtr bool
	}
	var params []param
	for _, hp := range op.httpParams {
		p := param{httpParam: hp, gf: goFieldOf(hp.field)}
		p.base, p.ptr = strings.CutPrefix(p.gf.typ, "*")
		if hp.item != nil {
			p.list = p.base
			p.itemField = goFieldOf(hp.field.typ.fields[0])
			p.base, p.itemPtr = strings.CutPrefix(strings.TrimPrefix(p.itemField.typ, "[]"), "*")
		}
		params = append(params, p)
	}

	e.p("DecodeForm: func(form *formwire.Form) (wire.Message, error) {")
	e.p("req := new(%s)", req)
	for _, p := range params {
		name := strconv.Quote(p.field.name)
		e.p("{")
		if p.item != nil {
			e.p("values := form.Values(%s)", name)
			e.p("list := &%s{%s: make(%s, 0, len(values))}", p.list, p.itemField.name, p.itemField.typ)
			index := "i"
			if p.httpParam.item.kind == kindString {
				index = "_" // a string item cannot be bad
			}
			e.p("for %s, v := range values {", index)
			x, err := e.formConvert(p.httpParam.item, p.base, name, "i")
			if err != nil {
				return fmt.Errorf("parameter %s: %w", p.field.name, err)
			}
			if p.itemPtr {
				x = "&" + x
			}
			e.p("list.%s = append(list.%s, %s)", p.itemField.name, p.itemField.name, x)
			e.p("}")
			e.p("req.%s = list", p.gf.name)
		} else {
			e.p("v, err := formwire.Param(form, %s)", name)
			e.p("if err != nil { return nil, err }")
			x, err := e.formConvert(p.field.typ, p.base, name, "formwire.Scalar")
			if err != nil {
				return fmt.Errorf("parameter %s: %w", p.field.name, err)
			}
			if p.ptr {
				x = "&" + x
			}
			e.p("req.%s = %s", p.gf.name, x)
		}
		e.p("}")
	}
	e.p("return req, nil")
	e.p("},")

	e.p("EncodeForm: func(m wire.Message, form url.Values) {")
	if len(params) > 0 {
		e.p("req := m.(*%s)", req)
	}
	for _, p := range params {
		val := "req." + p.gf.name
		if p.item != nil {
			// A nil item of a reference type has no form value; it is sent as the empty string, the
			// nearest value a form can carry, so the array keeps its length.
			e.p("if %s != nil {", val)
			e.p("for _, item := range %s.%s {", val, p.itemField.name)
			item := "item"
			if p.itemPtr {
				e.p("if item == nil { form.Add(%q, \"\"); continue }", p.field.name)
				item = "*item"
			}
			e.p("form.Add(%q, %s)", p.field.name, formText(p.httpParam.item.kind, item))
			e.p("}")
			e.p("}")
			continue
		}
		if p.ptr {
			e.p("if %s != nil {", val)
			val = "*" + val
		}
		if p.field.typ.kind == kindBase64 {
			e.p("if %s != nil {", val)
		}
		e.p("form.Set(%q, %s)", p.field.name, formText(p.field.typ.kind, val))
		if p.field.typ.kind == kindBase64 {
			e.p("}")
		}
		if p.ptr {
			e.p("}")
		}
	}
	e.p("},")
	return nil
}

// formConvert writes statements converting the form value v to goType (the Go type of one value of
// t), returning the formwire.Form reader's error, and returns the variable holding the value (v itself for
// a string); item is the Go expression of the item index, or formwire.Scalar.
func (e *emitter) formConvert(t *xsdType, goType, name, item string) (string, error) {
	switch t.kind {
	case kindString:
		return "v", nil
	case kindEnum:
		e.p("text, err := formwire.Enum(%s, %s, v, %q, %s.Enum)", name, item, t.name, typeRef(t))
		e.p("if err != nil { return nil, err }")
		e.p("x := %s(text)", goType)
		return "x", nil
	}
	var call, conv string
	switch t.kind {
	case kindInt, kindLong, kindShort:
		bits := map[xsdKind]int{kindInt: 32, kindLong: 64, kindShort: 16}[t.kind]
		call, conv = fmt.Sprintf("formwire.Int(%s, %s, v, %q, %d)", name, item, t.name, bits), goType
	case kindBoolean:
		call = fmt.Sprintf("formwire.Bool(%s, %s, v)", name, item)
	case kindDouble:
		call = fmt.Sprintf("formwire.Double(%s, %s, v, \"double\", 64)", name, item)
	case kindFloat:
		call, conv = fmt.Sprintf("formwire.Double(%s, %s, v, \"float\", 32)", name, item), goType
	case kindDateTime:
		call = fmt.Sprintf("formwire.DateTime(%s, %s, v)", name, item)
	case kindDecimal:
		call = fmt.Sprintf("formwire.Decimal(%s, %s, v)", name, item)
	case kindBase64:
		call = fmt.Sprintf("formwire.Base64(%s, %s, v)", name, item)
	default:
		return "", fmt.Errorf("type %s cannot be a form value", t.name)
	}
	if conv == "" {
		e.p("x, err := %s", call)
		e.p("if err != nil { return nil, err }")
		return "x", nil
	}
	e.p("n, err := %s", call)
	e.p("if err != nil { return nil, err }")
	e.p("x := %s(n)", conv)
	return "x", nil
}

// formText is the expression of a simple value's form text.
func formText(kind xsdKind, val string) string {
	return map[xsdKind]string{
		kindString: val, kindEnum: val + ".wireText()",
		kindInt: "formwire.FormatInt(int64(" + val + "))", kindLong: "formwire.FormatInt(int64(" + val + "))", kindShort: "formwire.FormatInt(int64(" + val + "))",
		kindBoolean: "formwire.FormatBool(" + val + ")", kindDouble: "formwire.FormatDouble(" + val + ")", kindFloat: "formwire.FormatFloat(" + val + ")",
		kindDateTime: val + ".String()", kindBase64: "string(xsd.AppendBase64(nil, " + val + "))",
		kindDecimal: val + ".String()",
	}[kind]
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
}
