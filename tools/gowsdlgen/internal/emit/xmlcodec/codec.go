package xmlcodec

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit/anycodec"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit/attrcodec"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
)

// codec writes AppendXML and DecodeXML for a wrapper or complex type whose Go struct is goName.
// what is "parameter" for request wrappers, "element" otherwise; it names elements in errors.
func (e *emitter) codec(t *model.Type, goName, what string) error {
	var fields []model.GoField
	all := t.AllFields() // a derived type's base fields first (inherit.go)
	for _, f := range all {
		fields = append(fields, model.GoFieldOf(f))
	}

	if done, err := (attrcodec.Emitter{Writer: e.Writer}).Codec(t, goName); done || err != nil {
		return err
	}
	e.p("")
	e.p("// AppendXML appends the elements of %s in schema order.", t.Name)
	e.p("func (v *%s) AppendXML(b []byte) []byte {", goName)
	if t.HasAttrs() {
		e.p("b = v.appendXMLAttrs(b)")
	}
	for i, f := range all {
		if err := e.appendField(f, fields[i]); err != nil {
			return fmt.Errorf("%s.%s: %w", t.Name, f.Name, err)
		}
	}
	e.p("return b")
	e.p("}")

	e.p("")
	e.p("// DecodeXML reads the elements of %s, in any order, skipping unknown ones as ASMX does.", t.Name)
	e.p("func (v *%s) DecodeXML(r *xmlwire.Reader) error {", goName)
	e.readInWrapperNamespace()
	if len(all) == 0 {
		e.p("for {")
		e.p("el, ok, err := r.Child()")
		e.p("if err != nil || !ok { return err }")
		e.p("if err := r.Skip(el); err != nil { return err }")
		e.p("}")
		e.p("}")
		return nil
	}
	e.p("var seen [%d]bool", len(all))
	e.p("for {")
	e.p("el, ok, err := r.Child()")
	e.p("if err != nil { return err }")
	e.p("if !ok { break }")
	e.p("switch {")
	for i, f := range all {
		label := strconv.Quote(what + " " + f.Name)
		e.p("case el.Is(%q):", f.Name)
		if f.MaxOccurs == 1 {
			e.p("if seen[%d] { return xsd.Duplicate(%s) }", i, label)
		}
		e.p("seen[%d] = true", i)
		if err := e.decodeValue(f, fields[i].Type, "v."+fields[i].Name, label, f.MaxOccurs != 1); err != nil {
			return fmt.Errorf("%s.%s: %w", t.Name, f.Name, err)
		}
	}
	e.p("default:")
	e.p("err = r.Skip(el)")
	e.p("}")
	e.p("if err != nil { return err }")
	e.p("}")
	for i, f := range all {
		e.p("if !seen[%d] && r.Misplaced(%q) { return r.WrongNamespace(%q) }", i, f.Name, f.Name)
	}
	e.p("return nil")
	e.p("}")
	return nil
}

// appendField writes the statements appending one field.
func (e *emitter) appendField(f *model.Field, gf model.GoField) error {
	expr := "v." + gf.Name
	goType := gf.Type
	if f.MaxOccurs != 1 {
		e.p("for _, item := range %s {", expr)
		if err := e.appendOne(f, strings.TrimPrefix(goType, "[]"), "item"); err != nil {
			return err
		}
		e.p("}")
		return nil
	}
	return e.appendOne(f, goType, expr)
}

func (e *emitter) appendOne(f *model.Field, goType, expr string) error {
	if anycodec.Handles(f) {
		e.open().Append(f, expr)
		return nil
	}
	if f.Type.Polymorphic() {
		e.hierarchy().AppendPoly(f, expr)
		return nil
	}
	name := strconv.Quote(f.Name)
	base, ptr := strings.CutPrefix(goType, "*")
	complexType := f.Type.Kind == model.KindComplex || f.Type.Kind == model.KindArray
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
		if f.Nillable {
			e.p("} else {")
			e.p("b = xmlwire.AppendNil(b, %s)", name)
		}
		e.p("}")
		return nil
	}
	if f.Type.Kind == model.KindBase64 {
		e.p("if %s != nil {", expr)
		if err := e.appendSimple(f, base, val, name); err != nil {
			return err
		}
		if f.Nillable {
			e.p("} else {")
			e.p("b = xmlwire.AppendNil(b, %s)", name)
		}
		e.p("}")
		return nil
	}
	return e.appendSimple(f, base, val, name)
}

func (e *emitter) appendSimple(f *model.Field, goType, val, name string) error {
	switch f.Type.Kind {
	case model.KindString:
		e.p("b = xmlwire.AppendString(b, %s, %s)", name, val)
	case model.KindEnum, model.KindFlags:
		e.p("b = xmlwire.AppendString(b, %s, %s.wireText())", name, val)
	case model.KindInt, model.KindLong, model.KindShort:
		e.p("b = xmlwire.AppendInt(b, %s, int64(%s))", name, val)
	case model.KindBoolean:
		e.p("b = xmlwire.AppendBool(b, %s, %s)", name, val)
	case model.KindDouble:
		e.p("b = xmlwire.AppendDouble(b, %s, %s)", name, val)
	case model.KindFloat:
		e.p("b = xmlwire.AppendFloat(b, %s, %s)", name, val)
	case model.KindDateTime:
		e.p("b = xmlwire.AppendDateTime(b, %s, %s)", name, val)
	case model.KindBase64:
		e.p("b = xmlwire.AppendBase64(b, %s, %s)", name, val)
	case model.KindDecimal:
		e.p("b = xmlwire.AppendDecimal(b, %s, %s)", name, val)
	case model.KindGUID:
		e.p("b = xmlwire.AppendGUID(b, %s, %s)", name, val)
	default:
		if e.appendSmall(f, val, name) {
			return nil
		}
		return fmt.Errorf("type %s has no simple encoding", f.Type.Name)
	}
	return nil
}

// decodeValue writes statements decoding the element el into expr (appending when repeated).
// err is declared by the caller.
func (e *emitter) decodeValue(f *model.Field, goType, expr, label string, repeated bool) error {
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

func (e *emitter) decodeOne(f *model.Field, goType, expr, label string) error {
	if anycodec.Handles(f) {
		e.open().Decode(f, expr, label)
		return nil
	}
	if f.Type.Polymorphic() {
		e.hierarchy().DecodePoly(f, expr)
		return nil
	}
	base, ptr := strings.CutPrefix(goType, "*")
	complexType := f.Type.Kind == model.KindComplex || f.Type.Kind == model.KindArray
	if ptr || f.Type.Kind == model.KindBase64 {
		e.p("if el.Nil() {")
		e.p("%s = nil", expr)
		e.p("err = r.Skip(el)")
		e.p("} else {")
		if complexType {
			e.p("%s = new(%s)", expr, base)
			e.p("err = %s", attrcodec.DecodeCall(f.Type, expr))
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

func (e *emitter) decodeSimple(f *model.Field, goType, target, label string) error {
	switch f.Type.Kind {
	case model.KindString:
		e.p("%s, err = r.Text(el, %s)", target, label)
	case model.KindEnum:
		e.p("var text string")
		e.p("if text, err = r.Text(el, %s); err == nil {", label)
		e.p("switch text {")
		e.p("case %s:", emit.QuoteList(f.Type.Enum))
		e.p("%s = %s(text)", target, goType)
		e.p("default:")
		e.p("err = xsd.BadValue(%s, %q, text)", label, f.Type.Name)
		e.p("}")
		e.p("}")
	case model.KindInt, model.KindLong, model.KindShort:
		bits := map[model.Kind]int{model.KindInt: 32, model.KindLong: 64, model.KindShort: 16}[f.Type.Kind]
		e.p("var n int64")
		e.p("n, err = r.ReadInt(el, %s, %q, %d)", label, f.Type.Name, bits)
		e.p("%s = %s(n)", target, goType)
	case model.KindBoolean:
		e.p("%s, err = r.ReadBool(el, %s)", target, label)
	case model.KindDouble:
		e.p("%s, err = r.ReadDouble(el, %s, \"double\", 64)", target, label)
	case model.KindFloat:
		e.p("var f float64")
		e.p("f, err = r.ReadDouble(el, %s, \"float\", 32)", label)
		e.p("%s = float32(f)", target)
	case model.KindDateTime:
		e.p("%s, err = r.ReadDateTime(el, %s)", target, label)
	case model.KindBase64:
		e.p("%s, err = r.ReadBase64(el, %s)", target, label)
	case model.KindDecimal:
		e.p("%s, err = r.ReadDecimal(el, %s)", target, label)
	case model.KindGUID:
		e.p("%s, err = r.ReadGUID(el, %s)", target, label)
	default:
		if e.decodeSmall(f, goType, target, label) {
			return nil
		}
		return fmt.Errorf("type %s has no simple decoding", f.Type.Name)
	}
	return nil
}

// form writes DecodeForm and EncodeForm of an operation offered on HTTP GET/POST, from the model's
// httpParams: a simple parameter is one value (formwire.Param), an array parameter one value per
// item (Form.Values), each converted by the formwire.Form reader of its XSD type.
func (e *emitter) form(op *model.Operation, req string) error {
	type param struct {
		*model.HTTPParam
		gf           model.GoField // the request struct's field
		list         string        // an array parameter's Go struct ("ArrayOfString")
		itemField    model.GoField // and its item field
		base         string        // the Go type of one value
		ptr, itemPtr bool
	}
	var params []param
	for _, hp := range op.HTTPParams {
		p := param{HTTPParam: hp, gf: model.GoFieldOf(hp.Field)}
		p.base, p.ptr = strings.CutPrefix(p.gf.Type, "*")
		if hp.Item != nil {
			p.list = p.base
			p.itemField = model.GoFieldOf(hp.Field.Type.Fields[0])
			p.base, p.itemPtr = strings.CutPrefix(strings.TrimPrefix(p.itemField.Type, "[]"), "*")
		}
		params = append(params, p)
	}

	e.p("DecodeForm: func(form *formwire.Form) (wire.Message, error) {")
	e.p("req := new(%s)", req)
	for _, p := range params {
		name := strconv.Quote(p.Name)
		e.p("{")
		if p.Bytes {
			e.formBytes(p.gf, name)
		} else if p.Item != nil {
			e.p("values := form.Values(%s)", name)
			e.p("list := &%s{%s: make(%s, 0, len(values))}", p.list, p.itemField.Name, p.itemField.Type)
			index := "i"
			if p.HTTPParam.Item.Kind == model.KindString {
				index = "_" // a string item cannot be bad
			}
			e.p("for %s, v := range values {", index)
			x, err := e.formConvert(p.HTTPParam.Item, p.base, name, "i")
			if err != nil {
				return fmt.Errorf("parameter %s: %w", p.Field.Name, err)
			}
			if p.itemPtr {
				x = "&" + x
			}
			e.p("list.%s = append(list.%s, %s)", p.itemField.Name, p.itemField.Name, x)
			e.p("}")
			e.p("req.%s = list", p.gf.Name)
		} else {
			e.p("v, err := formwire.Param(form, %s)", name)
			e.p("if err != nil { return nil, err }")
			x, err := e.formConvert(p.Field.Type, p.base, name, "formwire.Scalar")
			if err != nil {
				return fmt.Errorf("parameter %s: %w", p.Field.Name, err)
			}
			if p.ptr {
				x = "&" + x
			}
			e.p("req.%s = %s", p.gf.Name, x)
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
		val := "req." + p.gf.Name
		if p.Bytes {
			e.p("for _, v := range formwire.FormatBytes(%s) { form.Add(%q, v) }", val, p.Field.Name)
			continue
		}
		if p.Item != nil {
			// A nil item of a reference type has no form value; it is sent as the empty string, the
			// nearest value a form can carry, so the array keeps its length.
			e.p("if %s != nil {", val)
			e.p("for _, item := range %s.%s {", val, p.itemField.Name)
			item := "item"
			if p.itemPtr {
				e.p("if item == nil { form.Add(%q, \"\"); continue }", p.Name)
				item = "*item"
			}
			e.p("form.Add(%q, %s)", p.Name, formText(p.HTTPParam.Item.Kind, item))
			e.p("}")
			e.p("}")
			continue
		}
		if p.ptr {
			e.p("if %s != nil {", val)
			val = "*" + val
		}
		if p.Field.Type.Kind == model.KindBase64 {
			e.p("if %s != nil {", val)
		}
		e.p("form.Set(%q, %s)", p.Name, formText(p.Field.Type.Kind, val))
		if p.Field.Type.Kind == model.KindBase64 {
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
func (e *emitter) formConvert(t *model.Type, goType, name, item string) (string, error) {
	switch t.Kind {
	case model.KindString:
		return "v", nil
	case model.KindEnum:
		e.p("text, err := formwire.Enum(%s, %s, v, %q, %s.Enum)", name, item, t.Name, emit.TypeRef(t))
		e.p("if err != nil { return nil, err }")
		e.p("x := %s(text)", goType)
		return "x", nil
	}
	var call, conv string
	switch t.Kind {
	case model.KindInt, model.KindLong, model.KindShort:
		bits := map[model.Kind]int{model.KindInt: 32, model.KindLong: 64, model.KindShort: 16}[t.Kind]
		call, conv = fmt.Sprintf("formwire.Int(%s, %s, v, %q, %d)", name, item, t.Name, bits), goType
	case model.KindBoolean:
		call = fmt.Sprintf("formwire.Bool(%s, %s, v)", name, item)
	case model.KindDouble:
		call = fmt.Sprintf("formwire.Double(%s, %s, v, \"double\", 64)", name, item)
	case model.KindFloat:
		call, conv = fmt.Sprintf("formwire.Double(%s, %s, v, \"float\", 32)", name, item), goType
	case model.KindDateTime:
		call = fmt.Sprintf("formwire.DateTime(%s, %s, v)", name, item)
	case model.KindDecimal:
		call = fmt.Sprintf("formwire.Decimal(%s, %s, v)", name, item)
	case model.KindBase64:
		call = fmt.Sprintf("formwire.Base64(%s, %s, v)", name, item)
	default:
		var ok bool
		if call, conv, ok = emit.FormSmall(t, goType, name, item); !ok {
			return "", fmt.Errorf("type %s cannot be a form value", t.Name)
		}
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
func formText(kind model.Kind, val string) string {
	if text := emit.FormSmallText(kind, val); text != "" {
		return text
	}
	return map[model.Kind]string{
		model.KindString: val, model.KindEnum: val + ".wireText()",
		model.KindInt: "formwire.FormatInt(int64(" + val + "))", model.KindLong: "formwire.FormatInt(int64(" + val + "))", model.KindShort: "formwire.FormatInt(int64(" + val + "))",
		model.KindBoolean: "formwire.FormatBool(" + val + ")", model.KindDouble: "formwire.FormatDouble(" + val + ")", model.KindFloat: "formwire.FormatFloat(" + val + ")",
		model.KindDateTime: val + ".String()", model.KindBase64: "string(xsd.AppendBase64(nil, " + val + "))",
		model.KindDecimal: val + ".String()",
	}[kind]
}

// client writes the client stub: the gowsdl interface implemented over a wire.Invoker.
func (e *emitter) client() {
	name := e.c.PortTypeGoName + "Client"
	e.p("")
	e.p("// %s implements %s (both method variants) by sending each call through Invoker, which", name, e.c.PortTypeGoName)
	e.p("// server/client implements over the four bindings.")
	e.p("type %s struct {", name)
	e.p("Invoker wire.Invoker")
	e.p("}")
	e.p("")
	e.p("var _ %s = (*%s)(nil)", e.c.PortTypeGoName, name)
	for _, op := range e.c.Operations {
		if op.OneWay {
			e.oneWayClientMethod(name, op)
			continue
		}
		req, resp := op.Request.GoName, op.Response.GoName
		e.p("")
		e.p("// %sContext calls %s.", op.GoName, op.Name)
		e.p("func (c *%s) %sContext(ctx context.Context, request *%s) (*%s, error) {", name, op.GoName, req, resp)
		e.p("response := new(%s)", resp)
		e.p("if err := c.Invoker.Invoke(ctx, op%s, request, response); err != nil { return nil, err }", op.GoName)
		e.p("return response, nil")
		e.p("}")
		e.p("")
		e.p("// %s is %sContext without a context.", op.GoName, op.GoName)
		e.p("func (c *%s) %s(request *%s) (*%s, error) {", name, op.GoName, req, resp)
		e.p("return c.%sContext(context.Background(), request)", op.GoName)
		e.p("}")
	}
}
