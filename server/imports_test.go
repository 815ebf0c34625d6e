package server_test

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/contactsync/contactsync"

// goPackage is what `go list -json` says of a package that matters here.
type goPackage struct {
	ImportPath string
	Imports    []string
}

// TestImportRules keeps the picture of which package may use which from rotting: it reads the direct
// imports of every package of the module (non-test files) with `go list` and checks the rules each
// package's doc comment states.
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
	for _, p := range pkgs {
		for _, imp := range p.Imports {
			switch {
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
			}
		}
	}
	assert.Contains(t, importsOf(pkgs, module+"/gen"), module+"/server/wire", "the rules are read from real data")
}

func importsOf(pkgs []goPackage, path string) []string {
	for _, p := range pkgs {
		if p.ImportPath == path {
			return p.Imports
		}
	}
	return nil
}
