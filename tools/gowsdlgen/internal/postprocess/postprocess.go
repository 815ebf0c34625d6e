// Package postprocess fixes what gowsdl gets wrong in the Go source it generates, through go/ast
// (PostProcess), and checks that gowsdl's structs are the ones the wire code is written against
// (CheckStructs).
//
// It imports the standard library, model, names and postprocess/hierarchy (a contract's inheritance).
package postprocess

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/postprocess/anyxml"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/postprocess/attrdecl"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/postprocess/hierarchy"
)

// RetypedField is a field PostProcess gives a runtime type.
type RetypedField struct {
	// Path is the Go type name followed by the XML names down to the field.
	Path []string
	// GoType is the runtime type, "xsd.Decimal" or "xsd.GUID"; "" to keep gowsdl's type.
	GoType string
	// Deref drops the pointer gowsdl puts around a named type (under the slice of a repeated field).
	Deref bool
}

// Options configure PostProcess.
type Options struct {
	// Required lists the struct fields whose XML elements the schema requires. Each entry is a Go type
	// name followed by the XML names from that struct down to the field, as RequiredFields reports them.
	Required [][]string
	// Retyped lists struct fields whose Go type is replaced by a runtime type (xsd.Decimal,
	// xsd.GUID): the type name and XML names as in Required, and the new type. Pointers and slices
	// around the type gowsdl chose stay.
	Retyped []RetypedField
	// Source names the WSDL file in the header line PostProcess adds, e.g. "wsdl/contactsync.wsdl".
	Source string
	// Contract, when set, is the model of the contract gowsdl's code was generated from: PostProcess
	// gives gowsdl's declarations the model's Go names where gowsdl's differ (rename), first, so
	// Required and Retyped name the structs by their Go names; and writes each operation's
	// description above its interface method (addOperationDocs). Declared are the types of the model
	// gowsdl declared (model.Contract.Declared less what the SOAP-only view cut), in its order.
	Contract *model.Contract
	Declared []*model.Type
	// Added are fields appended to gowsdl's structs (HeaderFields).
	Added []AddedField
}

// PostProcess fixes what gowsdl gets wrong in generated Go source and returns it gofmt-formatted:
//
//   - With Options.Contract, it gives gowsdl's types, fields and methods the model's Go names where
//     gowsdl's differ (rename: names differing only in case, names gowsdl spells inconsistently), and
//     writes each operation's description above its interface method as "//" lines.
//   - It refuses code that declares a top-level name of Go's universe scope (int, string, error, len,
//     …): such a declaration compiles but silently changes the meaning of every later use in the
//     package, which is how the HTTP bindings' global element "int" once broke gen/.
//   - It removes omitempty from the xml and json tags of every Required field, so a required element
//     is sent even when it holds the zero value, and fails if a Required field is not in the code,
//     because then the schema and this mapping have drifted apart.
//   - With Options.Contract, it replaces gowsdl's declarations of a contract's hierarchies
//     (package hierarchy): a derived type embeds its base by value, every use of a base with
//     derived types has its sealed interface type Any<Base>, declared after gowsdl's code with the
//     XSDType methods (hierarchy.SealedDecls). A contract without derived types is left as it was.
//   - It adds a "// Source:" line naming the WSDL right below gowsdl's "Code generated … DO NOT EDIT."
//     marker, which stays the first line so tools keep recognising the file as generated.
//
// Edits go through go/ast and go/format rather than text substitution, so they cannot match inside
// strings or comments, and the result is the same bytes for the same input.
func PostProcess(src []byte, opts Options) ([]byte, error) {
	if strings.ContainsAny(opts.Source, "\r\n") {
		return nil, fmt.Errorf("source name %q spans lines", opts.Source)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "generated.go", src, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("gowsdl produced Go source that does not parse: %w", err)
	}
	if err := checkPredeclared(fset, f); err != nil {
		return nil, err
	}
	if opts.Contract != nil {
		if err := rename(f, opts.Contract, opts.Declared); err != nil {
			return nil, fmt.Errorf("naming gowsdl's declarations: %w", err)
		}
	}
	if err := keepZeroValues(f, opts.Required); err != nil {
		return nil, err
	}
	if err := exportFields(f); err != nil {
		return nil, err
	}
	useRuntimeDateTime(f)
	if err := useRuntimeTypes(f, opts.Retyped); err != nil {
		return nil, err
	}
	if opts.Contract != nil {
		if err := hierarchy.Replace(f, opts.Contract); err != nil {
			return nil, fmt.Errorf("declaring the derived types: %w", err)
		}
		if err := anyxml.Replace(f, opts.Contract); err != nil {
			return nil, fmt.Errorf("typing the object, raw XML and DataSet fields: %w", err)
		}
		if usesXSD, err := attrdecl.Replace(f, opts.Contract); err != nil || usesXSD {
			if err != nil {
				return nil, fmt.Errorf("declaring the types with attributes: %w", err)
			}
			addRuntimeImport(f)
		}
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, f); err != nil {
		return nil, fmt.Errorf("formatting generated code: %w", err)
	}
	out := buf.Bytes()
	if opts.Contract != nil {
		if out, err = addOperationDocs(out, opts.Contract); err != nil {
			return nil, err
		}
		out = append(out, hierarchy.SealedDecls(opts.Contract)...)
	}
	out, err = addSourceLine(out, opts.Source)
	if err != nil {
		return nil, err
	}
	if out, err = addFields(out, opts.Added); err != nil {
		return nil, err
	}
	return format.Source(out)
}

// checkPredeclared rejects top-level declarations that shadow Go's predeclared identifiers.
// types.Universe is the compiler's own list, so the check follows the Go version (any, min, clear …).
func checkPredeclared(fset *token.FileSet, f *ast.File) error {
	var bad []string
	check := func(id *ast.Ident) {
		if types.Universe.Lookup(id.Name) != nil {
			bad = append(bad, fmt.Sprintf("%s (line %d)", id.Name, fset.Position(id.Pos()).Line))
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				check(d.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					check(s.Name)
				case *ast.ValueSpec:
					for _, id := range s.Names {
						check(id)
					}
				}
			}
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("generated code declares %s, shadowing Go's predeclared identifiers; "+
			"a schema element or type with that name reached gowsdl (is something outside the SOAP bindings left in the view?)",
			strings.Join(bad, ", "))
	}
	return nil
}

// fieldTrie holds the Required paths below one struct, keyed by XML name.
type fieldTrie struct {
	children map[string]*fieldTrie
	required bool
	found    bool
}

func (t *fieldTrie) child(name string) *fieldTrie {
	if t.children == nil {
		t.children = make(map[string]*fieldTrie)
	}
	c := t.children[name]
	if c == nil {
		c = &fieldTrie{}
		t.children[name] = c
	}
	return c
}

// keepZeroValues removes omitempty from the tags of the required fields.
func keepZeroValues(f *ast.File, required [][]string) error {
	root := &fieldTrie{}
	for _, p := range required {
		if len(p) < 2 {
			return fmt.Errorf("required field path %q needs a type name and at least one XML name", p)
		}
		t := root
		for _, name := range p {
			t = t.child(name)
		}
		t.required = true
	}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, s := range gd.Specs {
			ts := s.(*ast.TypeSpec)
			st, isStruct := ts.Type.(*ast.StructType)
			t := root.children[ts.Name.Name]
			if !isStruct || t == nil {
				continue
			}
			if err := editStruct(st, t); err != nil {
				return fmt.Errorf("type %s: %w", ts.Name.Name, err)
			}
		}
	}
	var missing []string
	for _, p := range required {
		t := root
		for _, name := range p {
			t = t.children[name]
		}
		if !t.found {
			missing = append(missing, strings.Join(p, "."))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("the schema requires %s, but the generated code has no such field", strings.Join(missing, ", "))
	}
	return nil
}

// editStruct edits the fields of one struct type (named or an inline anonymous one) that t describes.
func editStruct(st *ast.StructType, t *fieldTrie) error {
	for _, fld := range st.Fields.List {
		if fld.Tag == nil {
			continue
		}
		raw, err := strconv.Unquote(fld.Tag.Value)
		if err != nil {
			return fmt.Errorf("field tag %s: %w", fld.Tag.Value, err)
		}
		tag, err := parseTag(raw)
		if err != nil {
			return err
		}
		name, ok := tag.xmlElementName()
		if !ok {
			continue
		}
		c := t.children[name]
		if c == nil {
			continue
		}
		c.found = true
		if c.required {
			tag.removeOption("xml", "omitempty")
			tag.removeOption("json", "omitempty")
			fld.Tag.Value = tag.literal()
		}
		if inner := inlineStruct(fld.Type); inner != nil && len(c.children) > 0 {
			if err := editStruct(inner, c); err != nil {
				return err
			}
		}
	}
	return nil
}

// inlineStruct returns the anonymous struct gowsdl generates for an element with an inline complex
// type: struct{…}, or []struct{…} when the element repeats.
func inlineStruct(e ast.Expr) *ast.StructType {
	for {
		switch x := e.(type) {
		case *ast.StructType:
			return x
		case *ast.ArrayType:
			e = x.Elt
		case *ast.StarExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// structTag is a parsed struct tag, its key:"value" pairs in written order so a rewrite changes only
// what it must.
type structTag []tagPair

type tagPair struct{ key, value string }

// parseTag parses the conventional struct tag format reflect.StructTag documents.
func parseTag(s string) (structTag, error) {
	orig := s
	var tag structTag
	for {
		s = strings.TrimLeft(s, " ")
		if s == "" {
			return tag, nil
		}
		i := 0
		for i < len(s) && s[i] > ' ' && s[i] != ':' && s[i] != '"' && s[i] != 0x7f {
			i++
		}
		if i == 0 || i+1 >= len(s) || s[i] != ':' || s[i+1] != '"' {
			return nil, fmt.Errorf("malformed struct tag %q", orig)
		}
		key := s[:i]
		s = s[i+1:]
		i = 1
		for i < len(s) && s[i] != '"' {
			if s[i] == '\\' {
				i++
			}
			i++
		}
		if i >= len(s) {
			return nil, fmt.Errorf("malformed struct tag %q", orig)
		}
		value, err := strconv.Unquote(s[:i+1])
		if err != nil {
			return nil, fmt.Errorf("malformed struct tag %q", orig)
		}
		tag = append(tag, tagPair{key, value})
		s = s[i+1:]
	}
}

// xmlElementName returns the element name of an xml tag that maps a child element; attributes,
// character data and the like are not elements and report false.
func (t structTag) xmlElementName() (string, bool) {
	for _, p := range t {
		if p.key != "xml" {
			continue
		}
		opts := strings.Split(p.value, ",")
		for _, o := range opts[1:] {
			if o != "omitempty" {
				return "", false
			}
		}
		name := opts[0]
		if i := strings.LastIndexByte(name, ' '); i >= 0 { // "namespace-URI name"
			name = name[i+1:]
		}
		return name, name != "" && name != "-"
	}
	return "", false
}

func (t structTag) removeOption(key, option string) {
	for i, p := range t {
		if p.key != key {
			continue
		}
		name, opts, _ := strings.Cut(p.value, ",")
		kept := slices.DeleteFunc(strings.Split(opts, ","), func(o string) bool { return o == option || o == "" })
		t[i].value = strings.Join(append([]string{name}, kept...), ",")
	}
}

// literal renders the tag as a Go literal, raw-quoted as gofmt'd code usually has it.
func (t structTag) literal() string {
	parts := make([]string, len(t))
	for i, p := range t {
		parts[i] = p.key + ":" + strconv.Quote(p.value)
	}
	s := strings.Join(parts, " ")
	if strings.ContainsRune(s, '`') {
		return strconv.Quote(s)
	}
	return "`" + s + "`"
}

// addSourceLine inserts the line naming the WSDL after the generated-code marker, which must be the
// first line. A blank line keeps the pair apart from the package clause, so it never becomes the
// package's doc comment (gen/generate.go owns that).
func addSourceLine(src []byte, source string) ([]byte, error) {
	first, rest, _ := bytes.Cut(src, []byte("\n"))
	// The convention's pattern is ^// Code generated .* DO NOT EDIT\.$ (see go help generate).
	if !bytes.HasPrefix(first, []byte("// Code generated ")) || !bytes.HasSuffix(first, []byte(" DO NOT EDIT.")) {
		return nil, fmt.Errorf("generated code does not start with a \"// Code generated … DO NOT EDIT.\" line but %q", first)
	}
	var out bytes.Buffer
	out.Write(first)
	fmt.Fprintf(&out, "\n// Source: %s (SOAP-only view derived by tools/gowsdlgen).\n", source)
	if !bytes.HasPrefix(rest, []byte("\n")) {
		out.WriteByte('\n')
	}
	out.Write(rest)
	return out.Bytes(), nil
}

// useRuntimeDateTime replaces gowsdl's soap.XSDDateTime with the runtime's xsd.DateTime in every
// declaration. soap.XSDDateTime keeps whether the value had a zone in an unexported field and writes
// itself only through encoding/xml, so an append-style codec could neither read nor write it without
// reflection; xsd.DateTime holds the same information in the open. The runtime's import is added when
// a replacement was made.
func useRuntimeDateTime(f *ast.File) {
	replaced := false
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); ok && x.Name == "soap" && sel.Sel.Name == "XSDDateTime" {
			x.Name, sel.Sel.Name = "xsd", "DateTime"
			replaced = true
		}
		return true
	})
	if replaced {
		addRuntimeImport(f)
	}
}

// addRuntimeImport adds the import of the runtime's XSD value types (model.ValuesImport) to the file's first import declaration, once.
func addRuntimeImport(f *ast.File) {
	quoted := strconv.Quote(model.ValuesImport)
	for _, imp := range f.Imports {
		if imp.Path.Value == quoted {
			return
		}
	}
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			spec := &ast.ImportSpec{Path: &ast.BasicLit{Kind: token.STRING, Value: quoted}}
			gd.Specs = append(gd.Specs, spec)
			f.Imports = append(f.Imports, spec)
			return
		}
	}
}

// useRuntimeTypes gives the Retyped fields their runtime type: gowsdl's float64 for an xsd:decimal
// becomes xsd.Decimal and the string of a guid becomes xsd.GUID, keeping any pointer (nillable) or
// slice (repeated) around it. A listed field that is not in the code is an error, as for Required.
func useRuntimeTypes(f *ast.File, retyped []RetypedField) error {
	if len(retyped) == 0 {
		return nil
	}
	root := &fieldTrie{}
	goTypes := map[*fieldTrie]string{}
	derefs := map[*fieldTrie]bool{}
	for _, r := range retyped {
		if len(r.Path) < 2 {
			return fmt.Errorf("retyped field path %q needs a type name and at least one XML name", r.Path)
		}
		pkg, name, ok := strings.Cut(r.GoType, ".")
		if r.GoType != "" && (!ok || pkg != "xsd" || !token.IsIdentifier(name)) {
			return fmt.Errorf("retyped field %s: %q is not a runtime type", strings.Join(r.Path, "."), r.GoType)
		}
		t := root
		for _, n := range r.Path {
			t = t.child(n)
		}
		t.required = true
		goTypes[t] = name
		if r.Deref {
			derefs[t] = true
		}
	}
	var visit func(st *ast.StructType, t *fieldTrie) error
	visit = func(st *ast.StructType, t *fieldTrie) error {
		for _, fld := range st.Fields.List {
			if fld.Tag == nil {
				continue
			}
			raw, err := strconv.Unquote(fld.Tag.Value)
			if err != nil {
				return fmt.Errorf("field tag %s: %w", fld.Tag.Value, err)
			}
			tag, err := parseTag(raw)
			if err != nil {
				return err
			}
			name, ok := tag.xmlElementName()
			c := t.children[name]
			if !ok || c == nil {
				continue
			}
			c.found = true
			if c.required && derefs[c] {
				if err := dropPointer(&fld.Type); err != nil {
					return fmt.Errorf("field %s: %w", name, err)
				}
			}
			if c.required && goTypes[c] != "" {
				if err := replaceBaseType(&fld.Type, goTypes[c]); err != nil {
					return fmt.Errorf("field %s: %w", name, err)
				}
			}
			if inner := inlineStruct(fld.Type); inner != nil && len(c.children) > 0 {
				if err := visit(inner, c); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, s := range gd.Specs {
			ts := s.(*ast.TypeSpec)
			st, isStruct := ts.Type.(*ast.StructType)
			t := root.children[ts.Name.Name]
			if !isStruct || t == nil {
				continue
			}
			if err := visit(st, t); err != nil {
				return fmt.Errorf("type %s: %w", ts.Name.Name, err)
			}
		}
	}
	var missing []string
	for _, r := range retyped {
		t := root
		for _, n := range r.Path {
			t = t.children[n]
		}
		if !t.found {
			missing = append(missing, strings.Join(r.Path, "."))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("the schema types %s with a runtime type, but the generated code has no such field", strings.Join(missing, ", "))
	}
	for _, r := range retyped {
		if r.GoType != "" {
			addRuntimeImport(f)
			break
		}
	}
	return nil
}

// dropPointer turns *T into T and []*T into []T.
func dropPointer(e *ast.Expr) error {
	if a, ok := (*e).(*ast.ArrayType); ok {
		e = &a.Elt
	}
	star, ok := (*e).(*ast.StarExpr)
	if !ok {
		return fmt.Errorf("gowsdl wrote no pointer to drop")
	}
	*e = star.X
	return nil
}

// replaceBaseType replaces the named type at the bottom of *e (under pointers and slices) by
// wire.<name>. Only the basic types gowsdl gives these schema types are expected there.
func replaceBaseType(e *ast.Expr, name string) error {
	switch x := (*e).(type) {
	case *ast.StarExpr:
		return replaceBaseType(&x.X, name)
	case *ast.ArrayType:
		return replaceBaseType(&x.Elt, name)
	case *ast.Ident:
		if x.Name != "float64" && x.Name != "string" && x.Name != "uint16" { // uint16: ASMX's char (msPlain)
			return fmt.Errorf("gowsdl wrote %s where float64, string or uint16 was expected", x.Name)
		}
		*e = &ast.SelectorExpr{X: ast.NewIdent("xsd"), Sel: ast.NewIdent(name)}
		return nil
	}
	return fmt.Errorf("gowsdl wrote an unexpected type expression (%T)", *e)
}

// exportFields exports the struct fields gowsdl left unexported. gowsdl v0.5.0 leaves an element name
// that is also a Go basic type name as it is, so ArrayOfInt's item element "int" becomes the field
// "int": code outside the package could not fill the array, and encoding/xml would ignore the field.
// Such a field gets its name with the first letter upper-cased ("Int"); a clash with another field of
// the struct is an error rather than a silent rename.
func exportFields(f *ast.File) error {
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, s := range gd.Specs {
			ts := s.(*ast.TypeSpec)
			var err error
			ast.Inspect(ts.Type, func(n ast.Node) bool {
				st, ok := n.(*ast.StructType)
				if !ok || err != nil {
					return err == nil
				}
				names := map[string]bool{}
				for _, fld := range st.Fields.List {
					for _, id := range fld.Names {
						names[id.Name] = true
					}
				}
				for _, fld := range st.Fields.List {
					for _, id := range fld.Names {
						if id.IsExported() || id.Name == "_" || fld.Tag == nil {
							continue
						}
						exported := strings.ToUpper(id.Name[:1]) + id.Name[1:]
						if names[exported] || !token.IsExported(exported) {
							err = fmt.Errorf("type %s: field %s cannot be exported as %s", ts.Name.Name, id.Name, exported)
							return false
						}
						names[exported] = true
						id.Name = exported
					}
				}
				return true
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}
