package main_test

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"
)

// binary is the gowsdlgen command, built once for all tests.
//
// The tests run the command rather than calling wsdlgen.Generate for two reasons: it is what go
// generate runs, flags and all; and gowsdl v0.5.0's Start has a data race (see wsdlgen.RunGowsdl) that
// `go test -race` would report in-process, while `go build` here makes an ordinary binary.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gowsdlgen-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "gowsdlgen")
	if runtime.GOOS == "windows" {
		binary += ".exe"
	}
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	code := 1
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building gowsdlgen:", err)
	} else {
		code = m.Run()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// gowsdlgen runs the command in dir and returns its stderr; err is non-nil when it exits non-zero.
func gowsdlgen(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	err := cmd.Run()
	return stderr.String(), err
}

// TestGeneratedCodeIsUpToDate runs the go:generate command of each generated package (gen/, the
// type zoos the golden tests use, the one-way contract, the header contract, the contracts cut from
// the third zoo (outref, renamed, overloads, fetchitem, bare), the record type with hierarchies (polyrec), the hierarchy with attributes (hierattrs), and the record formats'
// frozen contract 1.0), writing to scratch files, and requires the committed files to be
// exactly what it produces.
func TestGeneratedCodeIsUpToDate(t *testing.T) {
	for _, pkg := range []struct {
		dir, prefix, source string
	}{
		{"../../gen", "//go:generate go run ../tools/gowsdlgen ", "wsdl/contactsync.wsdl"},
		{"internal/zoo", "//go:generate go run ../.. ", "tools/gowsdlgen/internal/zoo/testdata/zoo.wsdl"},
		{"internal/zoo/zoo2", "//go:generate go run ../../.. ", "tools/gowsdlgen/internal/zoo/testdata/more/zoo2.wsdl"},
		{"internal/zoo/oneway", "//go:generate go run ../../.. ", "tools/gowsdlgen/internal/zoo/testdata/oneway/oneway.wsdl"},
		{"internal/zoo/outref", "//go:generate go run ../../.. ", "tools/gowsdlgen/internal/zoo/testdata/outref/outref.wsdl"},
		{"internal/zoo/renamed", "//go:generate go run ../../.. ", "tools/gowsdlgen/internal/zoo/testdata/renamed/renamed.wsdl"},
		{"internal/zoo/overloads", "//go:generate go run ../../.. ", "tools/gowsdlgen/internal/zoo/testdata/overloads/overloads.wsdl"},
		{"internal/zoo/fetchitem", "//go:generate go run ../../.. ", "tools/gowsdlgen/internal/zoo/testdata/fetchitem/fetchitem.wsdl"},
		{"internal/zoo/zoohdr", "//go:generate go run ../../.. ", "tools/gowsdlgen/internal/zoo/testdata/hdr/hdr.wsdl"},
		{"internal/zoo/bare", "//go:generate go run ../../.. ", "tools/gowsdlgen/internal/zoo/testdata/bare/bare.wsdl"},
		{"internal/zoo/polyrec", "//go:generate go run ../../.. ", "tools/gowsdlgen/internal/zoo/testdata/polyrec/polyrec.wsdl"},
		{"internal/zoo/hierattrs", "//go:generate go run ../../.. ", "tools/gowsdlgen/internal/zoo/testdata/hierattrs/hierattrs.wsdl"},
		{"../../server/internal/frozencontract", "//go:generate go run ../../../tools/gowsdlgen ", "server/internal/frozencontract/testdata/contactsync-v1.wsdl"},
	} {
		t.Run(pkg.dir, func(t *testing.T) {
			directive, err := os.ReadFile(filepath.Join(pkg.dir, "generate.go"))
			require.NoError(t, err)
			var args []string
			for line := range strings.Lines(string(directive)) {
				if rest, ok := strings.CutPrefix(strings.TrimSpace(line), pkg.prefix); ok {
					require.Nil(t, args, "%s/generate.go has more than one gowsdlgen directive", pkg.dir)
					args = strings.Fields(rest)
				}
			}
			require.NotNil(t, args, "%s/generate.go has no %q directive", pkg.dir, pkg.prefix)
			scratch := t.TempDir()
			outputs := map[string]string{} // scratch file -> committed file
			for _, flag := range []string{"-o", "-wire"} {
				o := slices.Index(args, flag)
				require.True(t, o >= 0 && o+1 < len(args), "the directive has no %s", flag)
				outputs[filepath.Join(scratch, flag)] = filepath.Join(pkg.dir, args[o+1])
				args[o+1] = filepath.Join(scratch, flag)
			}

			stderr, err := gowsdlgen(t, pkg.dir, args...)
			require.NoError(t, err, stderr)
			assert.Empty(t, stderr, "a successful run is silent, as go generate steps should be")

			for generated, committed := range outputs {
				want, err := os.ReadFile(committed)
				require.NoError(t, err)
				got, err := os.ReadFile(generated)
				require.NoError(t, err)
				if !assert.Equal(t, string(want), string(got), committed) {
					t.Logf("%s is out of step with %s or tools/gowsdlgen: run `make generate` and commit the result", pkg.dir, pkg.source)
				}
			}
		})
	}
}

// TestGeneratedCode checks the properties of the committed output that the fixes exist for.
func TestGeneratedCode(t *testing.T) {
	src, err := os.ReadFile("../../gen/contactsync.go")
	require.NoError(t, err)
	f, err := parser.ParseFile(token.NewFileSet(), "contactsync.go", src, parser.ParseComments)
	require.NoError(t, err)

	assert.True(t, strings.HasPrefix(string(src), "// Code generated by gowsdl DO NOT EDIT.\n"+
		"// Source: wsdl/contactsync.wsdl (SOAP-only view derived by tools/gowsdlgen).\n\n"))
	assert.True(t, ast.IsGenerated(f))
	assert.Nil(t, f.Doc, "the package doc belongs to gen/generate.go")

	var typeNames []string
	var methods []string
	tags := make(map[string]string)
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, s := range gd.Specs {
			ts := s.(*ast.TypeSpec)
			typeNames = append(typeNames, ts.Name.Name)
			switch typ := ts.Type.(type) {
			case *ast.StructType:
				for _, fld := range typ.Fields.List {
					if fld.Tag != nil {
						tag, err := strconv.Unquote(fld.Tag.Value)
						require.NoError(t, err)
						tags[ts.Name.Name+"."+fld.Names[0].Name] = tag
					}
				}
			case *ast.InterfaceType:
				for _, m := range typ.Methods.List {
					methods = append(methods, ts.Name.Name+"."+m.Names[0].Name)
				}
			}
		}
	}

	assert.Equal(t, []string{
		"AnyType", "AnyURI", "NCName",
		"TestCreateContact", "TestCreateContactResponse", "TestUpdateContact", "TestUpdateContactResponse",
		"DeleteContact", "DeleteContactResponse", "ReadContact", "ReadContactResponse",
		"Version", "VersionResponse", "VersionMajor", "VersionMajorResponse", "VersionMinor", "VersionMinorResponse",
		"Contact", "ArrayOfString",
		"SyncServiceSoap", "syncServiceSoap",
	}, typeNames, "one interface (SOAP) and no type named after a Go predeclared identifier")

	var wantMethods []string
	for _, op := range []string{"TestCreateContact", "TestUpdateContact", "DeleteContact", "ReadContact", "Version", "VersionMajor", "VersionMinor"} {
		wantMethods = append(wantMethods, "SyncServiceSoap."+op, "SyncServiceSoap."+op+"Context")
	}
	assert.Equal(t, wantMethods, methods)

	for field, tag := range tags {
		switch {
		case field == "VersionMajorResponse.VersionMajorResult", field == "VersionMinorResponse.VersionMinorResult":
			name := strings.Split(field, ".")[1]
			assert.Equal(t, `xml:"`+name+`" json:"`+name+`"`, tag, "minOccurs=1: sent even when 0")
		case strings.HasSuffix(field, ".XMLName"), field == "AnyType.InnerXML":
		default:
			assert.Contains(t, tag, ",omitempty", "%s has minOccurs=0", field)
		}
	}
	assert.Contains(t, tags, "VersionMajorResponse.VersionMajorResult")
	assert.Contains(t, tags, "VersionMinorResponse.VersionMinorResult")
}

func TestViewFlag(t *testing.T) {
	dir := t.TempDir()
	stderr, err := gowsdlgen(t, ".", "-wsdl", "../../wsdl/contactsync.wsdl", "-o", filepath.Join(dir, "out.go"), "-view", filepath.Join(dir, "view.wsdl"))
	require.NoError(t, err, stderr)

	contract, err := os.ReadFile("../../wsdl/contactsync.wsdl")
	require.NoError(t, err)
	want, err := wsdl.SOAPView(contract)
	require.NoError(t, err)
	got, err := os.ReadFile(filepath.Join(dir, "view.wsdl"))
	require.NoError(t, err)
	assert.Equal(t, string(want.WSDL), string(got))
}

// oneOpWSDL is a one-operation SOAP contract; the %s verbs take schema elements and the input
// message's parts.
const oneOpWSDL = `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:t" targetNamespace="urn:t">
  <types><xs:schema targetNamespace="urn:t">%s</xs:schema></types>
  <message name="In">%s</message>
  <message name="Out"><part name="parameters" element="t:OpResponse" /></message>
  <portType name="P"><operation name="Op"><input message="t:In" /><output message="t:Out" /></operation></portType>
  <binding name="B" type="t:P"><soap:binding transport="http://schemas.xmlsoap.org/soap/http" /><operation name="Op"><soap:operation soapAction="urn:t/Op" /></operation></binding>
</definitions>
`

const opElements = `<xs:element name="Op"><xs:complexType /></xs:element>
  <xs:element name="OpResponse"><xs:complexType><xs:sequence><xs:element name="OpResult" type="xs:int" /></xs:sequence></xs:complexType></xs:element>`

func TestCommand(t *testing.T) {
	tests := []struct {
		name    string
		wsdl    string // written to in.wsdl; empty: no file
		args    []string
		wantErr string // empty: success
	}{
		{
			name: "a valid one-operation contract",
			wsdl: fmt.Sprintf(oneOpWSDL, opElements, `<part name="parameters" element="t:Op" />`),
			args: []string{"-wsdl", "in.wsdl", "-o", "out.go", "-pkg", "one"},
		},
		{
			// The contract model reads every run and refuses a SOAP message without parts first; an
			// import without a schemaLocation is within the subset, and gowsdl warns that it cannot
			// find its XSD.
			name:    "gowsdl's warnings are errors: an import it cannot resolve",
			wsdl:    fmt.Sprintf(oneOpWSDL, `<xs:import namespace="urn:elsewhere" />`+opElements, `<part name="parameters" element="t:Op" />`),
			args:    []string{"-wsdl", "in.wsdl", "-o", "out.go"},
			wantErr: "gowsdl reported problems with the SOAP view:\n\t[WARN] Don't know where to find XSD for urn:elsewhere\n",
		},
		{
			// A message without parts is bare (an ASMX bare method without parameters), and the
			// output here is wrapped: ASMX never mixes the two.
			name:    "a bare input without parts beside a wrapped output is refused, with its line",
			wsdl:    fmt.Sprintf(oneOpWSDL, opElements, ""),
			args:    []string{"-wsdl", "in.wsdl", "-o", "out.go"},
			wantErr: "in.wsdl: line 6: <operation>: operation Op has a bare message and a wrapped one (ASMX writes both bare or both wrapped): not supported yet",
		},
		{
			// The element named int is no operation's wrapper, so the model lets it pass and the view
			// keeps it; gowsdl declares a type int for it, which PostProcess refuses.
			name:    "an element named int",
			wsdl:    fmt.Sprintf(oneOpWSDL, opElements+`<xs:element name="int" type="xs:int" />`, `<part name="parameters" element="t:Op" />`),
			args:    []string{"-wsdl", "in.wsdl", "-o", "out.go"},
			wantErr: "generated code declares int (line",
		},
		{
			name:    "a bare input (its element is named int) beside a wrapped output is refused, with its line",
			wsdl:    fmt.Sprintf(oneOpWSDL, opElements+`<xs:element name="int" type="xs:int" />`, `<part name="parameters" element="t:int" />`),
			args:    []string{"-wsdl", "in.wsdl", "-o", "out.go"},
			wantErr: "in.wsdl: line 6: <operation>: operation Op has a bare message and a wrapped one (ASMX writes both bare or both wrapped): not supported yet",
		},
		{name: "no flags", wantErr: "-wsdl and -o are required"},
		{name: "no such WSDL", args: []string{"-wsdl", "missing.wsdl", "-o", "out.go"}, wantErr: "missing.wsdl"},
		{name: "positional argument", args: []string{"-wsdl", "in.wsdl", "-o", "out.go", "extra"}, wantErr: "no positional arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.wsdl != "" {
				require.NoError(t, os.WriteFile(filepath.Join(dir, "in.wsdl"), []byte(tt.wsdl), 0o644))
			}
			stderr, err := gowsdlgen(t, dir, tt.args...)
			out := filepath.Join(dir, "out.go")
			if tt.wantErr == "" {
				require.NoError(t, err, stderr)
				code, err := os.ReadFile(out)
				require.NoError(t, err)
				assert.Contains(t, string(code), "\npackage one\n")
				assert.Contains(t, string(code), "// Source: in.wsdl (SOAP-only view")
				return
			}
			require.Error(t, err)
			assert.Equal(t, 1, strings.Count(stderr, tt.wantErr), "want %q once in:\n%s", tt.wantErr, stderr)
			assert.NoFileExists(t, out, "a failed run must not leave output behind")
		})
	}
}

// TestRecordFlags: the -record flags go together, with -wire, and name a complex type and two of its
// simple elements; a mistake is refused with what there is to choose from.
func TestRecordFlags(t *testing.T) {
	contract, err := filepath.Abs("../../wsdl/contactsync.wsdl")
	require.NoError(t, err)
	base := []string{"-wsdl", contract, "-o", "out.go", "-wire", "wire.go", "-pkg", "gen"}
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"all three", []string{"-record", "Contact", "-record-key", "Id", "-record-index", "AccountId"}, ""},
		{"no key", []string{"-record", "Contact", "-record-index", "AccountId"}, "-record, -record-key and -record-index go together, with -wire"},
		{"no such type", []string{"-record", "Person", "-record-key", "Id", "-record-index", "AccountId"},
			"-record Person: the contract has no complex type Person (its complex types: Contact)"},
		{"no such key", []string{"-record", "Contact", "-record-key", "Key", "-record-index", "AccountId"},
			"-record-key Key: Contact has no element Key (its elements: Id, AccountId, FirstName, LastName, PhoneMobile, PhoneWork, EmailAddress, RoleIds)"},
		{"complex index", []string{"-record", "Contact", "-record-key", "Id", "-record-index", "RoleIds"},
			"-record-index RoleIds: Contact.RoleIds must be an element of a simple type other than base64Binary, occurring once and not nillable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			stderr, err := gowsdlgen(t, dir, append(slices.Clone(base), tt.args...)...)
			if tt.wantErr == "" {
				require.NoError(t, err, stderr)
				code, err := os.ReadFile(filepath.Join(dir, "wire.go"))
				require.NoError(t, err)
				assert.Contains(t, string(code), "var ContactRecord = &recordwire.Type{")
				return
			}
			require.Error(t, err)
			assert.Contains(t, stderr, tt.wantErr)
			assert.NoFileExists(t, filepath.Join(dir, "wire.go"))
		})
	}
	stderr, err := gowsdlgen(t, t.TempDir(), "-wsdl", contract, "-o", "out.go", "-record", "Contact", "-record-key", "Id", "-record-index", "AccountId")
	require.Error(t, err)
	assert.Contains(t, stderr, "with -wire")
}
