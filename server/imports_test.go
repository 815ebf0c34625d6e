package server_test

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/contactsync/contactsync"

// goPackage is what `go list -json` says of a package that matters here.
type goPackage struct {
	ImportPath string
	Doc        string
	GoFiles    []string
	Imports    []string
}

// bindingPrefix is the path under which every concrete binding package lives (binding/soap,
// binding/httpform, binding/json, and any added later): one package per wire family.
const bindingPrefix = module + "/server/binding/"

// concreteBinding reports whether path is a concrete binding package: any package under
// server/binding/, so a binding added later falls under the rules without editing them.
func concreteBinding(path string) bool { return strings.HasPrefix(path, bindingPrefix) }

// TestImportRules keeps the picture of which package may use which from rotting: it reads the direct
// imports of every package of the module (non-test files) with `go list` and checks the rules each
// package's doc comment states (importViolations), and that every package has one.
func TestImportRules(t *testing.T) {
	out, err := exec.Command("go", "list", "-json", module+"/...").Output()
	require.NoError(t, err, "go list")
	var pkgs []goPackage
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p goPackage
		require.NoError(t, dec.Decode(&p))
		pkgs = append(pkgs, p)
	}
	require.NotEmpty(t, pkgs)
	for _, p := range pkgs {
		// A package of tests only (docs/, deploy/) has its doc comment in a test file, which go list
		// does not read for Doc.
		if p.Doc == "" && len(p.GoFiles) > 0 {
			t.Errorf("%s has no package doc comment saying what it owns and what it may import", p.ImportPath)
		}
	}
	for _, v := range importViolations(pkgs) {
		t.Error(v)
	}
	// The rules are read from real data: these edges exist, so a broken `go list` reading cannot pass.
	assert.Contains(t, importsOf(pkgs, module+"/gen"), module+"/server/wire")
	for path := range wireImports {
		assert.NotNil(t, importsOf(pkgs, path), "%s, a package of the wire runtime go list did not name", path)
	}
	assert.Contains(t, importsOf(pkgs, module+"/server/binding/soap"), module+"/server/binding")
	assert.Contains(t, importsOf(pkgs, module+"/server"), module+"/server/docs")
	var concrete []string
	for _, p := range pkgs {
		if concreteBinding(p.ImportPath) {
			concrete = append(concrete, p.ImportPath)
			assert.Contains(t, importsOf(pkgs, module+"/server"), p.ImportPath, "the root wires every binding")
		}
	}
	for _, f := range []string{"soap", "httpform", "json"} {
		assert.Contains(t, concrete, bindingPrefix+f, "a concrete binding package go list did not name")
	}
}

// testSupport is the package of the helpers the server packages' tests share.
const testSupport = module + "/server/internal/testsupport"

// frozenContract is the package generated from a frozen copy of contract 1.0, the record formats'
// test fixture.
const frozenContract = module + "/server/internal/frozencontract"

// wireRuntime is the path of the generated code's runtime: the operation table, with one package per encoding
// below it.
const wireRuntime = module + "/server/wire"

// wireImports are the packages of the generated code's runtime and what each may import beside the
// standard library, as their doc comments say: the value forms under everything, each encoding on
// the value forms alone, the table on the encodings its function fields name, the record format on
// the table's type descriptors, the JSON endpoint and the record format on the one JSON tokenizer, open
// XML content (raw XML, xsi:type) on the XML reader, object values on both. No other encoding
// imports another, so each can change alone.
var wireImports = map[string][]string{
	wireRuntime + "/xsd":        {module + "/server/fault"},
	wireRuntime + "/xmlwire":    {module + "/server/fault", wireRuntime + "/xsd", wireRuntime + "/internal/xmlchars"},
	wireRuntime + "/formwire":   {module + "/server/fault", wireRuntime + "/xsd"},
	wireRuntime + "/jsonwire":   {module + "/server/fault", wireRuntime + "/xsd", wireRuntime + "/internal/jsontext"},
	wireRuntime:                 {module + "/server/fault", wireRuntime + "/xmlwire", wireRuntime + "/formwire", wireRuntime + "/jsonwire"},
	wireRuntime + "/recordwire": {wireRuntime, wireRuntime + "/xsd", wireRuntime + "/internal/jsontext", wireRuntime + "/recordtypes"},
	// The record types of the descriptors' values and paths, what the store records of its fields.
	wireRuntime + "/recordtypes": {wireRuntime},
	wireRuntime + "/xmlany":      {module + "/server/fault", wireRuntime + "/xmlwire"},
	wireRuntime + "/anytype":     {module + "/server/fault", wireRuntime + "/xsd", wireRuntime + "/xmlwire", wireRuntime + "/xmlany"},
	// The record form of object and raw XML, over the record format and the open XML values.
	wireRuntime + "/recordany": {wireRuntime + "/recordwire", wireRuntime + "/anytype", wireRuntime + "/xmlany", wireRuntime + "/xmlwire"},
	// The one JSON tokenizer, under the JSON endpoint and the record format.
	wireRuntime + "/internal/jsontext": {},
	wireRuntime + "/internal/xmlchars": {},
}

// generatedMayImport reports whether generated code (gen/) may import imp: gowsdl's soap package and
// the runtime's packages, not its internal ones.
func generatedMayImport(imp string) bool {
	return imp == "github.com/hooklift/gowsdl/soap" || wireImports[imp] != nil && !strings.Contains(imp, "/internal/")
}

// importViolations checks the import rules on the direct imports of pkgs and returns one message per
// import that breaks one.
func importViolations(pkgs []goPackage) []string {
	var out []string
	std := func(path string) bool { return !strings.Contains(strings.Split(path, "/")[0], ".") }
	for _, p := range pkgs {
		for _, imp := range p.Imports {
			switch {
			case inServer(p.ImportPath) && imp == module+"/gen" && p.ImportPath != module+"/server/service":
				// The runtime serves whatever contract it is bound to (wire.Bound, wire.Contract), as
				// connect-go's runtime never imports generated code; only the service implements
				// this contract's generated interface.
				out = append(out, fmt.Sprintf("%s imports gen; under server/ only server/service may: the runtime takes the contract from what is bound", p.ImportPath))
			case imp == module+"/wsdl" && !strings.HasPrefix(p.ImportPath, module+"/cmd/"):
				// The contract file reaches the runtime through the generated descriptor; only the
				// command's wiring reads the wsdl package (its defaults and constants).
				out = append(out, fmt.Sprintf("%s imports wsdl; only the command's wiring (cmd/) may: the served contract is the generated descriptor", p.ImportPath))
			case concreteBinding(imp) && p.ImportPath != module+"/server":
				// Only the root wires the bindings (handler.go's allBindings); everything else, the other
				// bindings included, reaches them through binding.Binding, so adding a binding touches no
				// other package. Tests may import them (go list's Imports leaves test files out).
				out = append(out, fmt.Sprintf("%s imports the concrete binding package %s; only the server root may", p.ImportPath, imp))
			case strings.HasPrefix(p.ImportPath, module+"/server/") && imp == module+"/server":
				out = append(out, fmt.Sprintf("%s imports the root package server; only cmd/, tools/ and tests may", p.ImportPath))
			case p.ImportPath == module+"/server/fault" && !std(imp):
				out = append(out, fmt.Sprintf("server/fault imports %s; it may import only the standard library", imp))
			case wireImports[p.ImportPath] != nil && !std(imp) && !slices.Contains(wireImports[p.ImportPath], imp):
				out = append(out, fmt.Sprintf("%s imports %s; it may import only the standard library and %s", p.ImportPath, imp, strings.Join(wireImports[p.ImportPath], ", ")))
			case (p.ImportPath == module+"/server/transfer/internal/input" || p.ImportPath == module+"/server/transfer/internal/names") && !std(imp):
				out = append(out, fmt.Sprintf("%s imports %s; it may import only the standard library", p.ImportPath, imp))
			case p.ImportPath == frozenContract && !std(imp) && !generatedMayImport(imp):
				out = append(out, fmt.Sprintf("server/internal/frozencontract imports %s; generated code may import only the standard library, gowsdl's soap package and server/wire's packages", imp))
			case imp == frozenContract:
				// Contract 1.0's frozen record type is a fixture of the record formats' tests; go list's
				// Imports leaves test files out, so any import seen here is a non-test one.
				out = append(out, fmt.Sprintf("%s imports %s; only tests may", p.ImportPath, imp))
			case p.ImportPath == module+"/gen" && !std(imp) && !generatedMayImport(imp):
				out = append(out, fmt.Sprintf("gen imports %s; generated code may import only the standard library, gowsdl's soap package and server/wire's packages", imp))
			case strings.HasPrefix(p.ImportPath, module+"/server/store") && (imp == module+"/gen" || strings.HasPrefix(imp, module+"/server/wire")):
				out = append(out, fmt.Sprintf("%s imports %s; the stores know nothing of the wire", p.ImportPath, imp))
			case p.ImportPath == module+"/server/service" && (imp == module+"/server/binding" || imp == module+"/server/admission"):
				out = append(out, fmt.Sprintf("server/service imports %s; the service knows no binding: every binding calls it through the generated table", imp))
			case imp == testSupport:
				// The shared test helpers fail tests through testify; a package that served requests with
				// them would carry test code into the binary. go list's Imports leaves test files out, so
				// any import seen here is a non-test one.
				out = append(out, fmt.Sprintf("%s imports %s; only tests may", p.ImportPath, imp))
			case p.ImportPath == module+"/server/auth" && !std(imp) && !strings.HasPrefix(imp, "golang.org/x/crypto/") && imp != module+"/server/fault":
				out = append(out, fmt.Sprintf("server/auth imports %s; it may import only the standard library, golang.org/x/crypto and server/fault", imp))
			}
		}
	}
	return out
}

// TestImportViolations holds importViolations to the binding rule, the test-helper rule, auth's rule and
// the contract rules on made-up graphs, so a rule that stopped firing would be noticed: only the root may
// import a concrete binding package, whichever it is; no package but a test imports the shared test
// helpers; auth imports nothing of the service but fault; under server/ only the service imports gen;
// and only cmd/ imports wsdl.
func TestImportViolations(t *testing.T) {
	root, srv := module+"/server", module+"/server/"
	for _, tc := range []struct {
		name     string
		pkg, imp string
		broken   bool
	}{
		{"the root wires a binding", root, srv + "binding/soap", false},
		{"the root wires a binding added later", root, srv + "binding/grpc", false},
		{"anyone may import the interface", srv + "docs", srv + "binding", false},
		{"docs imports a binding", srv + "docs", srv + "binding/soap", true},
		{"a binding imports another", srv + "binding/json", srv + "binding/httpform", true},
		{"the interface imports a binding", srv + "binding", srv + "binding/soap", true},
		{"a binding added later, imported by observe", srv + "observe", srv + "binding/grpc", true},
		{"a nested binding package", srv + "admission", srv + "binding/soap/internal/x", true},
		{"cmd imports a binding", module + "/cmd/contactsync", srv + "binding/json", true},
		{"tools import a binding", module + "/tools/loadbench", srv + "binding/soap", true},
		{"a name that only starts alike", srv + "docs", srv + "bindings", false},
		{"the service imports the test helpers", srv + "service", testSupport, true},
		{"the root imports the test helpers", root, testSupport, true},
		{"auth answers with fault's errors", srv + "auth", srv + "fault", false},
		{"auth reads what a binding decoded", srv + "auth", srv + "binding", true},
		{"auth reports to observe", srv + "auth", srv + "observe", true},
		{"the service implements the generated interface", srv + "service", module + "/gen", false},
		{"the root imports gen", root, module + "/gen", true},
		{"observe imports gen", srv + "observe", module + "/gen", true},
		{"the test helpers import gen", testSupport, module + "/gen", true},
		{"cmd imports gen", module + "/cmd/contactsync", module + "/gen", false},
		{"cmd reads the contract file", module + "/cmd/contactsync", module + "/wsdl", false},
		{"docs reads the contract file", srv + "docs", module + "/wsdl", true},
		{"a tool reads the contract file", module + "/tools/databench/writer", module + "/wsdl", true},
		{"the frozen contract uses the wire runtime", frozenContract, wireRuntime + "/recordwire", false},
		{"the frozen contract imports the service", frozenContract, srv + "service", true},
		{"transfer imports the frozen contract", srv + "transfer", frozenContract, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := importViolations([]goPackage{{ImportPath: tc.pkg, Imports: []string{tc.imp}}})
			if tc.broken {
				require.Len(t, v, 1)
				switch {
				case tc.pkg == srv+"auth":
					assert.Contains(t, v[0], "server/auth imports")
				case tc.imp == testSupport || tc.imp == frozenContract:
					assert.Contains(t, v[0], "only tests may")
				case tc.pkg == frozenContract:
					assert.Contains(t, v[0], "generated code may import only")
				case tc.imp == module+"/gen":
					assert.Contains(t, v[0], "only server/service may")
				case tc.imp == module+"/wsdl":
					assert.Contains(t, v[0], "only the command's wiring")
				default:
					assert.Contains(t, v[0], "only the server root may")
				}
			} else {
				assert.Empty(t, v)
			}
		})
	}
}

// inServer reports whether path is the server root or a package under it.
func inServer(path string) bool {
	return path == module+"/server" || strings.HasPrefix(path, module+"/server/")
}

func importsOf(pkgs []goPackage, path string) []string {
	for _, p := range pkgs {
		if p.ImportPath == path {
			return p.Imports
		}
	}
	return nil
}
