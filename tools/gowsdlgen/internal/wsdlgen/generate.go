package wsdlgen

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"strings"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/bare"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit/contractdoc"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit/record"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/headers"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/postprocess"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"
)

// Options configure Generate.
type Options struct {
	// Package is the Go package name of the generated code.
	Package string
	// Source names the WSDL file in the generated header, e.g. "wsdl/contactsync.wsdl".
	Source string
	// Wire asks for the wire code too (Result.Wire): the operation table and codec of the contract.
	Wire bool
	// RebaseNamespace marks the contract's namespace as a deployment setting in its descriptor
	// (wire.Contract.RebaseNamespace): a handler serves it moved onto its base URL. Only a contract
	// whose namespace is an http or https URL with a path can be rebased.
	RebaseNamespace bool
	// Record asks for the record codec of a complex type too (in Result.Wire; needs Wire): see
	// record.Options. Nil means none.
	Record *record.Options
	// Gowsdl turns a WSDL document into gowsdl's code sections. Nil means RunGowsdl, the real library;
	// tests substitute a fake to see what Generate does with the sections.
	Gowsdl func(wsdl []byte, pkg string) (map[string][]byte, error)
}

// Result is what Generate produces.
type Result struct {
	// Code is the generated Go file, gofmt-formatted.
	Code []byte
	// Wire is the generated wire code (operation table, XML codec, form binding, server interface and
	// client stub), a second file of the same package.
	Wire []byte
	// View is the SOAP-only view gowsdl was run on.
	View *wsdl.View
}

// keptSections are the gowsdl sections that make up the output, in order: the imports and helper
// types, the schema types, and one interface plus SOAP 1.1 client per portType. Any other section is
// dropped; later gowsdl versions add a "server" stub, which cannot serve this contract's four bindings.
var keptSections = []string{"header", "types", "operations"}

// Generate turns a WSDL contract into Go code: it parses the contract once, reads the contract model
// and the SOAP-only view (SOAPView) from it, derives from the model the required and retyped fields
// of what the view keeps (RequiredFields, TypedFields), runs gowsdl on the view, keeps the header, types
// and operations sections, and post-processes the result (PostProcess). The same contract always
// yields the same bytes.
func Generate(contract []byte, opts Options) (*Result, error) {
	if !token.IsIdentifier(opts.Package) {
		return nil, fmt.Errorf("package name %q is not a Go identifier", opts.Package)
	}
	if opts.Record != nil && !opts.Wire {
		return nil, errors.New("the record codec is part of the wire code: it needs the wire code too")
	}
	defs, err := wsdl.Read(contract)
	if err != nil {
		return nil, err
	}
	// The descriptor serves the contract as written; everything else reads it with its bare messages
	// rewritten into wrappers (package bare), so gowsdl and the emitters see wrapped operations.
	served := defs
	m, defs, err := readModel(defs)
	if err != nil {
		return nil, err
	}
	if err := headers.Read(defs, m); err != nil {
		return nil, err
	}
	view, cut, err := defs.View()
	if err != nil {
		return nil, fmt.Errorf("deriving the SOAP-only view: %w", err)
	}
	// gowsdl sees the view, so the fields to fix are those of the schema components the view keeps.
	fields, typed := m.GoFieldsToFix(cut)
	run := opts.Gowsdl
	if run == nil {
		run = RunGowsdl
	}
	sections, err := run(view.WSDL, opts.Package)
	if err != nil {
		return nil, err
	}
	var src bytes.Buffer
	var missing []string
	for _, name := range keptSections {
		if len(bytes.TrimSpace(sections[name])) == 0 {
			missing = append(missing, name)
		}
		src.Write(sections[name])
	}
	if len(missing) > 0 {
		return nil, errors.New("gowsdl produced no " + strings.Join(missing, ", ") + " section")
	}
	required := make([][]string, 0, len(fields))
	for _, f := range fields {
		required = append(required, append([]string{f.Owner}, f.Path...))
	}
	var retyped []postprocess.RetypedField
	for _, f := range typed {
		retyped = append(retyped, postprocess.RetypedField{Path: append([]string{f.Owner}, f.Path...), GoType: f.GoType, Deref: f.Deref})
	}
	var declared []*model.Type
	for _, t := range m.Declared {
		if !cut[t.Node] {
			declared = append(declared, t)
		}
	}
	code, err := postprocess.PostProcess(src.Bytes(), postprocess.Options{Required: required, Retyped: retyped, Source: opts.Source,
		Contract: m, Declared: declared, Added: postprocess.HeaderFields(m)})
	if err != nil {
		return nil, fmt.Errorf("post-processing gowsdl's output: %w", err)
	}
	res := &Result{Code: code, View: view}
	if opts.Wire {
		desc, err := contractdoc.Describe(served, opts.RebaseNamespace)
		if err != nil {
			return nil, err
		}
		if res.Wire, err = emitWire(m, desc, code, opts.Package, opts.Source, opts.Record); err != nil {
			return nil, fmt.Errorf("generating the wire code: %w", err)
		}
	}
	return res, nil
}

// readModel reads the contract model of defs with its bare messages rewritten into wrappers
// (bare.Wrap), marking the operations that were bare, and returns the rewritten document too. The
// contract model refuses anything outside the XSD subset with the construct and its line, so it is
// read before gowsdl, whose complaints about the same constructs are vaguer.
func readModel(defs *wsdl.Definitions) (*model.Contract, *wsdl.Definitions, error) {
	wrapped, bareOps, err := bare.Wrap(defs)
	if err != nil {
		return nil, nil, err
	}
	m, err := model.Read(wrapped)
	if err != nil {
		return nil, nil, err
	}
	for _, op := range m.Operations {
		op.Bare = bareOps[op.Name]
	}
	return m, wrapped, nil
}
