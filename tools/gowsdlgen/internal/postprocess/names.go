package postprocess

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/names"
)

// rename gives gowsdl's declarations the model's Go names where gowsdl's differ (model.Contract's
// GoName fields; names.Go decides): gowsdl capitalises an XML name itself, and its name can be
// unusable (two XML names differing only in case give two declarations of one name, which do not
// compile) or not what the wire code is written against. The wire code never uses the Go names on
// the wire, so a renamed type, field or method keeps its XML name there.
//
//   - Type declarations are matched to declared in order, so the second of two gowsdl declarations of
//     one name is the second model type with that gowsdl name. A type whose gowsdl name is unique is
//     renamed wherever it is used; one whose name is shared, in each place by what the model says is
//     there (a field's type, an operation's request and response).
//   - Struct fields are matched by the XML name in their tag.
//   - The portType's interface, its methods (Op, OpContext per operation, in order) and gowsdl's
//     client methods (OpContext, Op per operation, in order) take the operation's GoName.
func rename(f *ast.File, c *model.Contract, declared []*model.Type) error {
	queue := map[string][]*model.Type{}
	for _, t := range declared {
		g := names.GowsdlType(t.Name)
		queue[g] = append(queue[g], t)
	}
	global := map[string]string{} // gowsdl's name -> ours, for names only one declaration has
	for g, ts := range queue {
		if len(ts) == 1 && ts[0].GoName != g {
			global[g] = ts[0].GoName
		}
		// gowsdl refers to a type by another spelling than it declares it with when the XML name is a
		// keyword: it declares "map" as Map_ (replaceReservedWords, then makePublic) but types a field
		// of it *Map (makePublic, then replaceReservedWords), which does not compile.
		if len(ts) == 1 {
			if ref := names.GowsdlMethod(ts[0].Name); ref != g && queue[ref] == nil {
				global[ref] = ts[0].GoName
			}
		}
	}
	gowsdlPortType := gowsdlPublic(c.PortType)
	if c.PortTypeGoName != gowsdlPortType {
		global[gowsdlPortType] = c.PortTypeGoName
		global["New"+gowsdlPortType] = "New" + c.PortTypeGoName
	}
	// typeIdent renames, in a type expression, the idents naming gowsdl's type for model type t.
	typeIdent := func(e ast.Node, t *model.Type) {
		if t == nil || t.Node == nil {
			return
		}
		g, ref := names.GowsdlType(t.Name), names.GowsdlMethod(t.Name) // declared as, referred to as
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && (id.Name == g || id.Name == ref) {
				id.Name = t.GoName
			}
			return true
		})
	}

	done := map[*ast.Ident]bool{} // idents renamed by context, which the global pass leaves alone
	mark := func(e ast.Node) {
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				done[id] = true
			}
			return true
		})
	}
	var iface *ast.InterfaceType
	var clientType string
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, s := range gd.Specs {
			ts := s.(*ast.TypeSpec)
			if it, ok := ts.Type.(*ast.InterfaceType); ok && ts.Name.Name == gowsdlPortType {
				iface = it
				continue
			}
			if ts.Name.Name == gowsdlPrivate(c.PortType) {
				clientType = ts.Name.Name
				continue
			}
			q := queue[ts.Name.Name]
			if len(q) == 0 {
				continue
			}
			t := q[0]
			queue[ts.Name.Name] = q[1:]
			ts.Name.Name = t.GoName
			done[ts.Name] = true
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				continue
			}
			for _, fld := range st.Fields.List {
				if len(fld.Names) != 1 || fld.Tag == nil || fld.Names[0].Name == "XMLName" {
					continue
				}
				raw, err := strconv.Unquote(fld.Tag.Value)
				if err != nil {
					return err
				}
				tag, err := parseTag(raw)
				if err != nil {
					return err
				}
				xmlName, ok := tag.xmlElementName()
				if !ok {
					continue
				}
				for _, mf := range t.Fields {
					if mf.Name == xmlName {
						fld.Names[0].Name = mf.GoName
						done[fld.Names[0]] = true
						typeIdent(fld.Type, mf.Type)
						mark(fld.Type)
					}
				}
			}
		}
	}
	// The methods are matched by position only when one of them, or a type in one's signature, is
	// renamed; otherwise the global pass covers what is left.
	needMethods := false
	for _, op := range c.Operations {
		needMethods = needMethods || op.GoName != names.GowsdlMethod(op.Name) ||
			op.Request.GoName != names.GowsdlType(op.Request.Name) ||
			(op.Response != nil && op.Response.GoName != names.GowsdlType(op.Response.Name)) // nil: one-way
	}
	if !needMethods {
		iface, clientType = nil, ""
	}
	if iface == nil && needMethods {
		return fmt.Errorf("gowsdl declared no interface %s for the portType %s", gowsdlPortType, c.PortType)
	}
	var methods []*ast.Field
	if iface != nil {
		methods = iface.Methods.List
	}
	if needMethods && len(methods) != 2*len(c.Operations) {
		return fmt.Errorf("gowsdl's interface %s has %d methods, not two per operation (%d)", gowsdlPortType, len(methods), len(c.Operations))
	}
	for i, op := range c.Operations {
		if !needMethods {
			break
		}
		for j, suffix := range []string{"", "Context"} {
			m := methods[2*i+j]
			if len(m.Names) != 1 || m.Names[0].Name != names.GowsdlMethod(op.Name)+suffix {
				return fmt.Errorf("gowsdl's interface %s: method %d is not %s%s", gowsdlPortType, 2*i+j, names.GowsdlMethod(op.Name), suffix)
			}
			m.Names[0].Name = op.GoName + suffix
			done[m.Names[0]] = true
			typeIdent(m.Type, op.Request)
			typeIdent(m.Type, op.Response)
			mark(m.Type)
		}
	}
	if clientType != "" {
		k := 0
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || k >= 2*len(c.Operations) {
				continue
			}
			op := c.Operations[k/2]
			suffix := "Context"
			if k%2 == 1 {
				suffix = ""
			}
			if fd.Name.Name != names.GowsdlMethod(op.Name)+suffix {
				return fmt.Errorf("gowsdl's client: method %s is not %s%s", fd.Name.Name, names.GowsdlMethod(op.Name), suffix)
			}
			k++
			fd.Name.Name = op.GoName + suffix
			typeIdent(fd.Type, op.Request)
			typeIdent(fd.Type, op.Response)
			typeIdent(fd.Body, op.Response)
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == names.GowsdlMethod(op.Name)+"Context" {
					sel.Sel.Name = op.GoName + "Context"
				}
				return true
			})
			mark(fd)
		}
	}
	if len(global) == 0 {
		return nil
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			done[n.Sel] = true // a field or method, not a type
		case *ast.Field:
			// A field's or method's own name is not a type's.
			for _, id := range n.Names {
				done[id] = true
			}
		case *ast.Ident:
			if to, ok := global[n.Name]; ok && !done[n] {
				n.Name = to
			}
		}
		return true
	})
	return nil
}

// gowsdlPublic and gowsdlPrivate are gowsdl's makePublic and makePrivate of the portType's name, its
// interface and its client struct.
func gowsdlPublic(name string) string {
	r := []rune(name)
	if len(r) == 0 {
		return name
	}
	return strings.ToUpper(string(r[0])) + string(r[1:])
}

func gowsdlPrivate(name string) string {
	r := []rune(name)
	if len(r) == 0 {
		return name
	}
	return strings.ToLower(string(r[0])) + string(r[1:])
}

// addOperationDocs writes each operation's description (model.Operation.Doc) above its method of
// the portType's interface in formatted source, as "//" lines (names.Comment), so nothing in a
// description can end the comment or become code. gowsdl never sees a description: the SOAP-only
// view drops them, because gowsdl copies one into a "/* */" comment, which "*/" ends.
func addOperationDocs(src []byte, c *model.Contract) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	type insertion struct {
		at    int
		lines []string
	}
	var ins []insertion
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, s := range gd.Specs {
			ts := s.(*ast.TypeSpec)
			it, ok := ts.Type.(*ast.InterfaceType)
			if !ok || ts.Name.Name != c.PortTypeGoName || len(it.Methods.List) != 2*len(c.Operations) {
				continue
			}
			for i, op := range c.Operations {
				lines := names.Comment(op.Doc)
				if len(lines) == 0 {
					continue
				}
				off := fset.Position(it.Methods.List[2*i].Pos()).Offset
				ins = append(ins, insertion{off, lines})
			}
		}
	}
	for i := len(ins) - 1; i >= 0; i-- {
		at := ins[i].at
		var b bytes.Buffer
		for _, l := range ins[i].lines {
			b.WriteString(l)
			b.WriteString("\n\t")
		}
		src = append(src[:at:at], append(b.Bytes(), src[at:]...)...)
	}
	return src, nil
}
