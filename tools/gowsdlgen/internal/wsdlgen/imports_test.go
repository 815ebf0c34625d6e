package wsdlgen_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maxPackageLines is the house rule's limit on a package's non-test lines.
const maxPackageLines = 1200

const generator = "github.com/contactsync/contactsync/tools/gowsdlgen/internal/"

// generatorImports are the generator's packages (under internal/, less the zoos, which are generated
// code and their tests) and the generator packages each may import, as package wsdlgen's doc comment
// and each package's own state them. The standard library is always allowed; anything else outside
// the generator (gowsdl) only where listed as a full path.
var generatorImports = map[string][]string{
	"wsdl":                  {},
	"bare":                  {"wsdl"},
	"names":                 {},
	"extension":             {"wsdl"},
	"contract":              {"wsdl", "names"},
	"model":                 {"wsdl", "names", "contract", "extension", "model/anyxml", "model/attrs"},
	"model/anyxml":          {"wsdl", "contract"},
	"model/attrs":           {"wsdl", "contract", "extension"},
	"headers":               {"wsdl", "names", "model"},
	"postprocess":           {"model", "names", "postprocess/hierarchy", "postprocess/anyxml", "postprocess/attrdecl"},
	"postprocess/anyxml":    {"model"},
	"postprocess/attrdecl":  {"model"},
	"postprocess/hierarchy": {"model"},
	"emit":                  {"model", "names"},
	"emit/jsoncodec":        {"emit", "emit/anycodec", "model"},
	"emit/anycodec":         {"emit", "model"},
	"emit/contractdoc":      {"wsdl"},
	"emit/xmlcodec":         {"emit", "emit/anycodec", "emit/contractdoc", "emit/attrcodec", "emit/headercodec", "emit/hierarchycodec", "emit/jsoncodec", "model", "names", "wsdl"},
	"emit/hierarchycodec":   {"emit", "model"},
	"emit/headercodec":      {"emit", "model"},
	"emit/attrcodec":        {"emit", "model"},
	"emit/record":           {"emit", "model"},
	"wsdlgen": {"wsdl", "bare", "names", "contract", "model", "headers", "postprocess", "emit", "emit/contractdoc", "emit/jsoncodec", "emit/xmlcodec", "emit/headercodec", "emit/record",
		"github.com/hooklift/gowsdl"},
}

// TestGeneratorImportRules reads the direct imports of the generator's packages (non-test files) with
// `go list` and holds each to generatorImports, so the split by concern does not rot back into one
// package; every package needs a doc comment, and none may outgrow the house rule of 1,200 non-test
// lines (maxPackageLines): one that would, splits by concern.
func TestGeneratorImportRules(t *testing.T) {
	out, err := exec.Command("go", "list", "-json", generator+"...").Output()
	require.NoError(t, err, "go list")
	dec := json.NewDecoder(strings.NewReader(string(out)))
	seen := 0
	for dec.More() {
		var p struct {
			ImportPath, Doc, Dir string
			GoFiles, Imports     []string
		}
		require.NoError(t, dec.Decode(&p))
		rel := strings.TrimPrefix(p.ImportPath, generator)
		if rel == "zoo" || strings.HasPrefix(rel, "zoo/") {
			continue
		}
		allowed, ok := generatorImports[rel]
		if !assert.True(t, ok, "%s is a generator package generatorImports does not list", p.ImportPath) {
			continue
		}
		seen++
		assert.NotEmpty(t, p.Doc, "%s has no package doc comment", p.ImportPath)
		lines := 0
		for _, f := range p.GoFiles {
			data, err := os.ReadFile(filepath.Join(p.Dir, f))
			require.NoError(t, err)
			lines += bytes.Count(data, []byte("\n"))
		}
		assert.LessOrEqual(t, lines, maxPackageLines, "%s has %d non-test lines", p.ImportPath, lines)
		for _, imp := range p.Imports {
			local, inGenerator := strings.CutPrefix(imp, generator)
			switch {
			case inGenerator && slices.Contains(allowed, local):
			case !inGenerator && !strings.Contains(strings.SplitN(imp, "/", 2)[0], "."): // the standard library
			case !inGenerator && slices.Contains(allowed, imp):
			default:
				t.Errorf("%s imports %s, which its rule does not allow (allowed: std and %v)", p.ImportPath, imp, allowed)
			}
		}
	}
	assert.Equal(t, len(generatorImports), seen, "every listed package exists")
}
