package wsdlgen

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"path"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// RuntimeImport is the package of the hand-written runtime's operation table, which every generated
// codec imports; runtimeImports are all the runtime's packages, of which the generated code imports
// those it uses (one per encoding, as in encoding/protowire and protojson).
const RuntimeImport = "github.com/contactsync/contactsync/server/wire"

// ValuesImport is the runtime package of the XSD value types (xsd.DateTime, xsd.Decimal, xsd.GUID),
// which gowsdl's post-processed types refer to.
const ValuesImport = RuntimeImport + "/xsd"

var runtimeImports = []string{
	RuntimeImport, ValuesImport, RuntimeImport + "/xmlwire", RuntimeImport + "/formwire",
	RuntimeImport + "/jsonwire", RuntimeImport + "/recordwire",
}

// goField is the Go field of an element in gowsdl's struct, as PostProcess leaves it.
type goField struct {
	name string // Go field name
	typ  string // Go type expression, e.g. "*ArrayOfString", "[]*string", "xsd.DateTime"
}

// simpleGoTypes are the Go types of the simple kinds once PostProcess has made its replacements.
var simpleGoTypes = map[xsdKind]string{
	kindString: "string", kindInt: "int32", kindLong: "int64", kindShort: "int16", kindBoolean: "bool",
	kindDouble: "float64", kindFloat: "float32", kindDateTime: "xsd.DateTime", kindBase64: "[]byte",
	kindDecimal: "xsd.Decimal", kindGUID: "xsd.GUID",
}

// goFieldOf is the Go field of element f that the wire code reads and writes, derived from the model:
// gowsdl v0.5.0's types template names it replaceAttrReservedWords (goTypeName's rules, except that
// "string" becomes "astring") made public, and types it toGoType: a pointer when the element is
// nillable or of a named type, a slice when it repeats; PostProcess then exports every field name and
// gives the runtime's DateTime, Decimal and GUID and a required, non-nillable enumeration its value
// rather than a pointer (TypedFields). checkStructs confirms gowsdl's output agrees.
func goFieldOf(f *xsdField) goField {
	name := f.name
	if name == "string" {
		name = "astring"
	}
	typ := simpleGoTypes[f.typ.kind]
	switch {
	case typ == "":
		typ = goTypeName(f.typ.name)
		if f.typ.kind != kindEnum || f.minOccurs == 0 || f.nillable {
			typ = "*" + typ
		}
	case f.nillable:
		typ = "*" + typ
	}
	if f.maxOccurs != 1 {
		typ = "[]" + typ
	}
	return goField{name: goTypeName(name), typ: typ}
}

// checkStructs confirms that gowsdl's (post-processed) types have the struct of every wrapper and
// complex type of the model, with the field goFieldOf names for each element: the wire code is
// written against those fields, so a difference is a generation error here rather than a compile
// error in the generated package.
func checkStructs(c *contractModel, src []byte) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "types.go", src, 0)
	if err != nil {
		return err
	}
	structs := map[string]map[string]goField{} // Go type name -> XML element name -> field
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				continue
			}
			fields := map[string]goField{}
			for _, fl := range st.Fields.List {
				if len(fl.Names) != 1 || fl.Tag == nil {
					continue
				}
				tag, _ := strconv.Unquote(fl.Tag.Value)
				xmlName, _, _ := strings.Cut(reflect.StructTag(tag).Get("xml"), ",")
				if xmlName == "" || strings.Contains(xmlName, " ") {
					continue
				}
				var buf bytes.Buffer
				if err := format.Node(&buf, fset, fl.Type); err != nil {
					return err
				}
				fields[xmlName] = goField{name: fl.Names[0].Name, typ: buf.String()}
			}
			structs[ts.Name.Name] = fields
		}
	}
	types := slices.Clone(c.types)
	for _, op := range c.operations {
		types = append(types, op.request, op.response)
	}
	for _, t := range types {
		if t.simple() {
			continue
		}
		name := goTypeName(t.name)
		fields, ok := structs[name]
		if !ok {
			return fmt.Errorf("gowsdl generated no struct %s for %s", name, t.name)
		}
		for _, f := range t.fields {
			got, ok := fields[f.name]
			if want := goFieldOf(f); !ok || got != want {
				return fmt.Errorf("gowsdl's struct %s has %s for element %s, not the field %s %s the wire code is written against",
					name, describeField(got, ok), f.name, want.name, want.typ)
			}
		}
	}
	return nil
}

func describeField(f goField, ok bool) string {
	if !ok {
		return "no field"
	}
	return "the field " + f.name + " " + f.typ
}

// emitter writes the generated wire code.
type emitter struct {
	c   *contractModel
	pkg string
	buf bytes.Buffer
	// desc is the contract's descriptor (emit_contract.go).
	desc *contractDescriptor
}

func (e *emitter) p(format string, args ...any) {
	fmt.Fprintf(&e.buf, format, args...)
	e.buf.WriteByte('\n')
}

// emitWire generates the wire code for a contract: the operation table, the XML codec of every wrapper
// and complex type, the HTTP form binding, the server interface and the client stub. It is written
// from the model alone (goFieldOf); typesSrc, gowsdl's post-processed types, is only checked against
// it (checkStructs).
func emitWire(c *contractModel, desc *contractDescriptor, typesSrc []byte, pkg, source string, record *RecordOptions) ([]byte, error) {
	if err := checkStructs(c, typesSrc); err != nil {
		return nil, fmt.Errorf("reading gowsdl's types: %w", err)
	}
	if err := checkContractName(c); err != nil {
		return nil, err
	}
	e := &emitter{c: c, pkg: pkg, desc: desc}
	if err := e.file(source); err != nil {
		return nil, err
	}
	if record != nil {
		if err := e.record(record); err != nil {
			return nil, err
		}
	}
	e.contractDocumentDecl()
	src, err := dropUnusedImports(e.buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("generated wire code does not parse: %w\n%s", err, e.buf.Bytes())
	}
	out, err := format.Source(src)
	if err != nil {
		return nil, fmt.Errorf("generated wire code does not parse: %w\n%s", err, src)
	}
	return out, nil
}

// dropUnusedImports removes from src's import declaration the packages no selector of the file uses:
// the emitter imports every package of the runtime (and the standard library's few), and which of
// them a contract needs depends on its types and bindings.
func dropUnusedImports(src []byte) ([]byte, error) {
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

func (e *emitter) file(source string) error {
	e.p("// Code generated by gowsdlgen DO NOT EDIT.")
	e.p("// Source: %s (the wire codec and operation table, generated by tools/gowsdlgen).", source)
	e.p("")
	e.p("package %s", e.pkg)
	e.p("")
	e.p("import (")
	e.p(`"context"`)
	e.p(`"encoding/json"`)
	e.p(`"net/url"`)
	e.p("")
	for _, imp := range runtimeImports {
		e.p("%q", imp)
	}
	e.p(")")
	e.p("")
	server := e.c.portType + "Server"
	e.p("// %s is the interface the service implements: one method per operation of the contract, each", server)
	e.p("// taking a context. Bind binds an implementation to the operation table (Operations), for every binding.")
	e.p("type %s interface {", server)
	for _, op := range e.c.operations {
		if op.doc != "" {
			e.p("// %sContext: %s", op.name, op.doc)
		}
		e.p("%sContext(ctx context.Context, request *%s) (*%s, error)", op.name, goTypeName(op.requestElement), goTypeName(op.responseElement))
	}
	e.p("}")
	e.p("")
	e.p("// Operations is the operation table, in the contract's order.")
	e.p("var Operations = []*wire.Operation{")
	for _, op := range e.c.operations {
		e.p("op%s,", goTypeName(op.name))
	}
	e.p("}")
	e.contractDescriptorDecl()
	e.bind(server)
	for _, op := range e.c.operations {
		if err := e.operation(op); err != nil {
			return err
		}
	}
	e.types()
	e.enumTexts()
	for _, op := range e.c.operations {
		if err := e.codec(op.request, goTypeName(op.requestElement), "parameter"); err != nil {
			return err
		}
		if err := e.codec(op.response, goTypeName(op.responseElement), "element"); err != nil {
			return err
		}
		if err := e.jsonCodec(op.request, goTypeName(op.requestElement), true); err != nil {
			return err
		}
	}
	for _, t := range e.c.types {
		if t.kind == kindComplex || t.kind == kindArray {
			if err := e.codec(t, goTypeName(t.name), "element"); err != nil {
				return err
			}
			if err := e.jsonCodec(t, goTypeName(t.name), false); err != nil {
				return err
			}
		}
	}
	e.client()
	return nil
}

// bind writes Bind, which binds an implementation of the server interface to the operation table: the
// typed call of every operation, chosen by the request wrapper's type (each operation has its own), as
// twirp's generated code calls its interface, so no untyped service reaches the serving path.
func (e *emitter) bind(server string) {
	e.p("")
	e.p("// Bind binds svc to the operation table: the handler serves what it returns (server.NewHandler).")
	e.p("func Bind(svc %s) wire.Bound {", server)
	e.p("return wire.Bound{Contract: %s, Ops: Operations, Call: func(ctx context.Context, req wire.Message) (wire.Message, error) {", contractGoName)
	if len(e.c.operations) == 0 {
		e.p("return nil, wire.ForeignRequest(req)")
		e.p("}}")
		e.p("}")
		return
	}
	e.p("switch req := req.(type) {")
	for _, op := range e.c.operations {
		e.p("case *%s:", goTypeName(op.requestElement))
		e.p("resp, err := svc.%sContext(ctx, req)", op.name)
		e.p("if err != nil { return nil, err }")
		e.p("if resp == nil { resp = new(%s) }", goTypeName(op.responseElement))
		e.p("return resp, nil")
	}
	e.p("}")
	e.p("return nil, wire.ForeignRequest(req)")
	e.p("}}")
	e.p("}")
}

// typeRef is the Go expression of a type descriptor.
func typeRef(t *xsdType) string {
	if t.node == nil {
		return "wire.Type" + goTypeName(t.name)
	}
	return "type" + goTypeName(t.name)
}

func fieldLiteral(f *xsdField) string {
	return fmt.Sprintf("{Name: %q, Type: %s, MinOccurs: %d, MaxOccurs: %d, Nillable: %v}", f.name, typeRef(f.typ), f.minOccurs, f.maxOccurs, f.nillable)
}

// types writes the descriptors of the contract's named types.
func (e *emitter) types() {
	e.p("")
	e.p("// The descriptors of the contract's named types, for documentation, samples and tooling.")
	e.p("var (")
	for _, t := range e.c.types {
		e.p("type%s = &wire.Type{Name: %q, Kind: wire.%s}", goTypeName(t.name), t.name, t.kind)
	}
	e.p(")")
	e.p("")
	e.p("func init() {")
	for _, t := range e.c.types {
		switch t.kind {
		case kindComplex:
			e.p("type%s.Fields = []wire.Field{", goTypeName(t.name))
			for _, f := range t.fields {
				e.p("%s,", fieldLiteral(f))
			}
			e.p("}")
		case kindArray:
			e.p("type%s.Item = &wire.Field%s", goTypeName(t.name), fieldLiteral(t.fields[0]))
		case kindEnum:
			e.p("type%s.Enum = %#v", goTypeName(t.name), t.enum)
		}
	}
	e.p("}")
}

func bindingsExpr(bs []string) string {
	var parts []string
	for _, b := range bs {
		parts = append(parts, "wire."+b)
	}
	if len(parts) == 0 {
		return "0"
	}
	return strings.Join(parts, " | ")
}

func (e *emitter) operation(op *contractOperation) error {
	req, resp := goTypeName(op.requestElement), goTypeName(op.responseElement)
	e.p("")
	e.p("var op%s = &wire.Operation{", goTypeName(op.name))
	e.p("Name: %q,", op.name)
	e.p("Doc: %q,", op.doc)
	e.p("Bindings: %s,", bindingsExpr(op.bindings))
	e.p("RequestElement: %q, ResponseElement: %q,", op.requestElement, op.responseElement)
	if len(op.request.fields) > 0 {
		e.p("Params: []wire.Field{")
		for _, f := range op.request.fields {
			e.p("%s,", fieldLiteral(f))
		}
		e.p("},")
	}
	var result *xsdField
	if len(op.response.fields) == 1 {
		result = op.response.fields[0]
		e.p("Result: &wire.Field%s,", fieldLiteral(result))
	}
	e.p("HTTPRoot: %q,", op.httpRoot)
	e.p("NewRequest: func() wire.Message { return new(%s) },", req)
	e.p("NewResponse: func() wire.Message { return new(%s) },", resp)
	offeredHTTP := false
	for _, b := range op.bindings {
		offeredHTTP = offeredHTTP || strings.HasPrefix(b, "HTTP")
	}
	if offeredHTTP {
		if err := e.form(op, req); err != nil {
			return err
		}
	}
	if result != nil {
		gf := goFieldOf(result)
		e.p("AppendResult: func(b []byte, m wire.Message) ([]byte, bool) {")
		e.p("v := m.(*%s)", resp)
		if err := e.appendContent(result, gf, "v."+gf.name); err != nil {
			return err
		}
		e.p("},")
		e.p("DecodeResult: func(r *xmlwire.Reader, el xmlwire.Start, m wire.Message) error {")
		e.p("v := m.(*%s)", resp)
		e.p("var err error")
		if err := e.decodeValue(result, gf.typ, "v."+gf.name, strconv.Quote("result"), false); err != nil {
			return err
		}
		e.p("return err")
		e.p("},")
	}
	if err := e.jsonOperation(op, result); err != nil {
		return err
	}
	e.p("}")
	return nil
}

// appendContent writes the body of AppendResult: the content of the result element.
func (e *emitter) appendContent(f *xsdField, gf goField, expr string) error {
	base, ptr := strings.CutPrefix(gf.typ, "*")
	if f.maxOccurs != 1 {
		return fmt.Errorf("result %s: a repeated result element is not supported; use an ArrayOf type", f.name)
	}
	val := expr
	if ptr {
		e.p("if %s == nil { return b, false }", expr)
		val = "*" + expr
	}
	if f.typ.kind == kindComplex || f.typ.kind == kindArray {
		e.p("return %s.AppendXML(b), true", expr)
		return nil
	}
	if f.typ.kind == kindBase64 {
		e.p("if %s == nil { return b, false }", expr)
	}
	text, err := textExpr(f.typ, base, val)
	if err != nil {
		return fmt.Errorf("result %s: %w", f.name, err)
	}
	e.p("return %s, true", text)
	return nil
}

// textExpr is an expression appending a simple value's text to b.
func textExpr(t *xsdType, goType, val string) (string, error) {
	switch t.kind {
	case kindString:
		return "xmlwire.AppendEscaped(b, " + val + ")", nil
	case kindEnum:
		return "xmlwire.AppendEscaped(b, " + val + ".wireText())", nil
	case kindInt, kindLong, kindShort:
		return "xsd.AppendInt(b, int64(" + val + "))", nil
	case kindBoolean:
		return "xsd.AppendBool(b, " + val + ")", nil
	case kindDouble:
		return "xsd.AppendDouble(b, " + val + ")", nil
	case kindFloat:
		return "xsd.AppendFloat(b, " + val + ")", nil
	case kindDateTime, kindDecimal, kindGUID:
		return val + ".AppendText(b)", nil
	case kindBase64:
		return "xsd.AppendBase64(b, " + val + ")", nil
	}
	return "", fmt.Errorf("type %s (Go %s) has no text form", t.name, goType)
}

// enumTexts writes wireText for every enumeration: the text a value is written as, its first member
// for Go's zero value "". .NET's enums are value types whose default is their first member (value 0),
// and ASMX writes a required enum element that way even when nothing set it
// (soap11-MakeSample-missing-elements writes Bronze); so a Go field left empty is written as that
// member too, never as an empty element the schema does not allow.
func (e *emitter) enumTexts() {
	for _, t := range e.c.types {
		if t.kind != kindEnum {
			continue
		}
		name := goTypeName(t.name)
		e.p("")
		e.p("// wireText is the text v is written as: %q for the zero value, as .NET writes default(%s).", t.enum[0], t.name)
		e.p("func (v %s) wireText() string {", name)
		e.p("if v == \"\" { return %q }", t.enum[0])
		e.p("return string(v)")
		e.p("}")
	}
}
