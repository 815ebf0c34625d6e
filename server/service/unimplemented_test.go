package service_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/service"
)

// TestServiceNeverEmbedsUnimplemented: the generated UnimplementedSyncServiceSoapServer lets a service
// serve a contract before every method is written, and answers the rest NotImplemented. Our own
// service must implement the whole contract: were it to embed that type, an operation added to the
// contract would compile and answer NotImplemented instead of the compiler naming the missing method,
// which contract evolution (tools/contractevo) relies on. So no source file of the package may name
// it, and the Service type embeds nothing of the kind.
func TestServiceNeverEmbedsUnimplemented(t *testing.T) {
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	fset := token.NewFileSet()
	checked := 0
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, e.Name(), nil, 0)
		require.NoError(t, err)
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && strings.HasPrefix(id.Name, "Unimplemented") {
				t.Errorf("%s: server/service names %s; it must implement every method itself", fset.Position(id.Pos()), id.Name)
			}
			return true
		})
	}
	require.NotZero(t, checked, "no source file was read")

	typ := reflect.TypeFor[service.Service]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		assert.False(t, f.Anonymous && strings.HasPrefix(f.Type.Name(), "Unimplemented"), "Service embeds %s", f.Type)
	}
}
