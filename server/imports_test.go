package server_test

import (
	"encoding/json"
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

// The binding families: one package per wire family, which never import each other.
var bindingFamilies = []string{module + "/server/binding/soap", module + "/server/binding/httpform", module + "/server/binding/json"}

// TestImportRules keeps the picture of which package may use which from rotting: it reads the direct
// imports of every package of the module (non-test files) with `go list` and checks the rules each
// package's doc comment states, and that every package has one.
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
	std := func(path string) bool { return !strings.Contains(strings.Split(path, "/")[0], ".") }
	family := func(path string) bool { return slices.Contains(bindingFamilies, path) }
	for _, p := range pkgs {
		// A package of tests only (docs/, deploy/) has its doc comment in a test file, which go list
		// does not read for Doc.
		if p.Doc == "" && len(p.GoFiles) > 0 {
			t.Errorf("%s has no package doc comment saying what it owns and what it may import", p.ImportPath)
		}
		for _, imp := range p.Imports {
			switch {
			case family(imp) && p.ImportPath != module+"/server":
				// Only the root wires the bindings (handler.go's allBindings); everything else reaches
				// them through binding.Binding, so adding a binding touches no other package.
				t.Errorf("%s imports the binding family %s; only the server root may", p.ImportPath, imp)
			case strings.HasPrefix(p.ImportPath, module+"/server/") && imp == module+"/server":
				t.Errorf("%s imports the root package server; only cmd/, tools/ and tests may", p.ImportPath)
			case p.ImportPath == module+"/server/fault" && !std(imp):
				t.Errorf("server/fault imports %s; it may import only the standard library", imp)
			case p.ImportPath == module+"/server/wire" && !std(imp) && imp != module+"/server/fault":
				t.Errorf("server/wire imports %s; it may import only the standard library and server/fault", imp)
			case p.ImportPath == module+"/gen" && !std(imp) && imp != module+"/server/wire" && imp != "github.com/hooklift/gowsdl/soap":
				t.Errorf("gen imports %s; generated code may import only the standard library, gowsdl's soap package and server/wire", imp)
			case strings.HasPrefix(p.ImportPath, module+"/server/store") && (imp == module+"/gen" || strings.HasPrefix(imp, module+"/server/wire")):
				t.Errorf("%s imports %s; the stores know nothing of the wire", p.ImportPath, imp)
			case p.ImportPath == module+"/server/service" && (imp == module+"/server/binding" || imp == module+"/server/admission"):
				t.Errorf("server/service imports %s; the service knows no binding: every binding calls it through the generated table", imp)
			case p.ImportPath == module+"/server/auth" && !std(imp) && !strings.HasPrefix(imp, "golang.org/x/crypto/"):
				t.Errorf("server/auth imports %s; it may import only the standard library and golang.org/x/crypto", imp)
			}
		}
	}
	// The rules are read from real data: these edges exist, so a broken `go list` reading cannot pass.
	assert.Contains(t, importsOf(pkgs, module+"/gen"), module+"/server/wire")
	assert.Contains(t, importsOf(pkgs, module+"/server/binding/soap"), module+"/server/binding")
	assert.Contains(t, importsOf(pkgs, module+"/server"), module+"/server/docs")
	for _, f := range bindingFamilies {
		assert.Contains(t, importsOf(pkgs, module+"/server"), f, "the root wires every binding")
	}
}

func importsOf(pkgs []goPackage, path string) []string {
	for _, p := range pkgs {
		if p.ImportPath == path {
			return p.Imports
		}
	}
	return nil
}
