// Command gowsdlgen generates the Go types and operation interface in gen/ from the WSDL contract.
//
// It runs github.com/hooklift/gowsdl, but on the contract's SOAP-only view rather than the whole file,
// and post-processes the result; internal/wsdlgen explains why each step is needed. gen/generate.go
// runs it through go generate:
//
//	go run ../tools/gowsdlgen -wsdl ../wsdl/contactsync.wsdl -o contactsync.go -pkg gen
//
// Flags:
//
//	-wsdl path  the WSDL 1.1 contract to read (required)
//	-o path     the Go file of gowsdl's types and interface to write (required)
//	-wire path  also the Go file of the wire codec and operation table, in the same package
//	            (the files are written only when generation succeeds)
//	-pkg name   the Go package name of the output (default "gen")
//	-view path  also write the SOAP-only view gowsdl was run on, for inspecting what it saw
//	-rebase-namespace
//	            mark the contract's namespace as a deployment setting in the generated descriptor
//	            (wire.Contract.RebaseNamespace): a handler serves it moved onto its base URL, keeping
//	            the namespace's path. Without it the namespace and SOAPActions are served as the WSDL
//	            writes them, as clients compiled against the WSDL send them.
//	-record Type, -record-key Field, -record-index Field
//	            also generate, in the -wire file, the record codec of the complex type Type (the
//	            canonical JSON document the store keeps and the record formats carry), keyed by its
//	            element Field and indexed by another: AppendRecord and DecodeRecord for Type and every
//	            complex type reachable from it, RecordKey and RecordIndex, and the descriptor TypeRecord
//
// The header of the output names the contract by its path from the module root, so the bytes do not
// depend on the directory the command runs in.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit/record"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdlgen"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "gowsdlgen:", err)
		}
		os.Exit(2)
	}
}

func run(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("gowsdlgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	wsdlPath := fs.String("wsdl", "", "the WSDL 1.1 contract to read (required)")
	out := fs.String("o", "", "the Go file to write (required)")
	pkg := fs.String("pkg", "gen", "the Go package name of the output")
	viewPath := fs.String("view", "", "also write the SOAP-only view gowsdl was run on to this file")
	wireOut := fs.String("wire", "", "also generate the wire codec and operation table into this Go file")
	recordType := fs.String("record", "", "also generate the record codec of this complex type (needs -wire, -record-key and -record-index)")
	recordKey := fs.String("record-key", "", "the record type's key element")
	recordIndex := fs.String("record-index", "", "the record type's indexed element")
	rebase := fs.Bool("rebase-namespace", false, "serve the contract's namespace moved onto the deployment's base URL (needs -wire)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: gowsdlgen -wsdl contract.wsdl -o out.go [-wire wire.go [-rebase-namespace] [-record Type -record-key Field -record-index Field]] [-pkg name] [-view view.wsdl]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *wsdlPath == "" || *out == "" || fs.NArg() > 0 {
		fs.Usage()
		return errors.New("-wsdl and -o are required, and there are no positional arguments")
	}

	if *rebase && *wireOut == "" {
		fs.Usage()
		return errors.New("-rebase-namespace is part of the wire code's descriptor: it needs -wire")
	}
	var recordOpts *record.Options
	switch {
	case *recordType == "" && *recordKey == "" && *recordIndex == "":
	case *recordType == "" || *recordKey == "" || *recordIndex == "" || *wireOut == "":
		fs.Usage()
		return errors.New("-record, -record-key and -record-index go together, with -wire")
	default:
		recordOpts = &record.Options{Type: *recordType, Key: *recordKey, Index: *recordIndex}
	}

	contract, err := os.ReadFile(*wsdlPath)
	if err != nil {
		return err
	}
	res, err := wsdlgen.Generate(contract, wsdlgen.Options{Package: *pkg, Source: sourceName(*wsdlPath), Wire: *wireOut != "", Record: recordOpts,
		RebaseNamespace: *rebase})
	if err != nil {
		return fmt.Errorf("%s: %w", *wsdlPath, err)
	}
	if *viewPath != "" {
		if err := os.WriteFile(*viewPath, res.View.WSDL, 0o644); err != nil {
			return err
		}
	}
	if *wireOut != "" {
		if err := os.WriteFile(*wireOut, res.Wire, 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(*out, res.Code, 0o644)
}

// sourceName returns the WSDL's path relative to the root of the module it is in (the nearest
// directory above it with a go.mod), with forward slashes: "wsdl/contactsync.wsdl" whether go generate
// passes ../wsdl/contactsync.wsdl or a test passes an absolute path. Outside a module it is the base
// name.
func sourceName(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Base(path)
	}
	for dir := filepath.Dir(abs); ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			if rel, err := filepath.Rel(dir, abs); err == nil {
				return filepath.ToSlash(rel)
			}
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return filepath.Base(path)
}
