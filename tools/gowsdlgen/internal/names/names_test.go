package names_test

import (
	"go/token"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/names"
)

func TestExport(t *testing.T) {
	for _, tc := range []struct{ xml, want string }{
		{"deletePerformance", "DeletePerformance"},
		{"urunServisSoap", "UrunServisSoap"},
		{"ürünKodu", "ÜrünKodu"},
		{"x-id", "XId"},
		{"a.b", "AB"},
		{"Already", "Already"},
		{"type", "Type"},
		{"string", "String"},
		{"_hidden", "X_hidden"},
		{"9lives", "X9lives"},
		{"名前", "X名前"},
		{"", "X"},
		{"-", "X"},
	} {
		got := names.Export(tc.xml)
		assert.Equal(t, tc.want, got, tc.xml)
		assert.True(t, token.IsIdentifier(got) && token.IsExported(got), "%q gives %q", tc.xml, got)
	}
}

// TestGo: gowsdl's own name where it is an exported identifier (so today's contracts keep their Go
// API), Export's where it is not.
func TestGo(t *testing.T) {
	for _, tc := range []struct{ xml, gowsdl, want string }{
		{"string", "Astring", "Astring"},
		{"type", "Type_", "Type_"},
		{"x-id", "Xid", "Xid"},
		{"_x", "_x", "X_x"},
		{"int", "int", "Int"},
		{"名前", "名前", "X名前"},
		{"a", "", "A"},
	} {
		assert.Equal(t, tc.want, names.Go(tc.xml, tc.gowsdl), tc.xml)
	}
}

func TestGowsdlNames(t *testing.T) {
	for _, tc := range []struct{ xml, typ, method string }{
		{"deletePerformance", "DeletePerformance", "DeletePerformance"},
		{"map", "Map_", "Map"},
		{"echo.request", "Echo_request", "Echo_request"},
		{"ürün", "Ürün", "Ürün"},
		{"x-id", "Xid", "Xid"},
	} {
		assert.Equal(t, tc.typ, names.GowsdlType(tc.xml), tc.xml)
		assert.Equal(t, tc.method, names.GowsdlMethod(tc.xml), tc.xml)
	}
}

func TestScope(t *testing.T) {
	var s names.Scope
	assert.Equal(t, "Foo", s.Reserve("Foo"))
	assert.Equal(t, "Foo_2", s.Reserve("Foo"))
	assert.Equal(t, "Foo_2_2", s.Reserve("Foo_2"), "a suffixed name taken by a collision is re-checked")
	assert.Equal(t, "Foo_3", s.Reserve("Foo"))
	assert.True(t, s.Taken("Foo_3"))
	assert.False(t, s.Taken("foo"))
	assert.Equal(t, "foo", s.Reserve("foo"), "Go names are case-sensitive: only equal names collide")
}

// TestComment: whatever a description holds, every line of the result is a "//" comment line, so
// nothing in it can end the comment or become code.
func TestComment(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"empty", "", []string{}},
		{"blank", " \n\t\r\n", []string{}},
		{"one line", "Read a contact", []string{"// Read a contact"}},
		{"LF, CRLF and CR", "a\nb\r\nc\rd", []string{"// a", "// b", "// c", "// d"}},
		{"end of a block comment", "x */ y", []string{"// x */ y"}},
		{"a line that reads as code", "one\nfunc init() { panic(1) }", []string{"// one", "// func init() { panic(1) }"}},
		{"markup and entities as text", "<b> & &amp;", []string{"// <b> & &amp;"}},
		{"empty line inside, blank lines around", "\n\na\n\n  b  \n\n", []string{"// a", "//", "//   b"}},
		{"controls", "a\x00b\x1bc\x7f", []string{"// a\uFFFDb\uFFFDc\uFFFD"}},
		{"invalid UTF-8", "a\xffb", []string{"// a\uFFFDb"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := names.Comment(tc.text)
			assert.Equal(t, tc.want, got)
		})
	}
}
