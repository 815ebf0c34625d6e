package xmlwire

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const testNS = "urn:t"

// walk reads a document with a Reader and returns its elements as "name=text" or "name{...}" lines,
// the structure the generated decoders see.
func walk(r *Reader) (string, error) {
	root, err := r.Root()
	if err != nil {
		return "", err
	}
	out := root.Local()
	inner, err := walkChildren(r)
	if err != nil {
		return "", err
	}
	if err := r.End(); err != nil {
		return "", err
	}
	return out + inner, nil
}

func walkChildren(r *Reader) (string, error) {
	out := "{"
	for {
		el, ok, err := r.Child()
		if err != nil {
			return "", err
		}
		if !ok {
			return out + "}", nil
		}
		out += el.Local()
		if el.Nil() {
			out += "(nil)"
		}
		if el.Local() == "t" {
			text, err := r.Text(el, "element t")
			if err != nil {
				return "", err
			}
			out += "=" + text + ";"
			continue
		}
		inner, err := walkChildren(r)
		if err != nil {
			return "", err
		}
		out += inner
	}
}

func TestReaderModesAgree(t *testing.T) {
	limits := Limits{MaxDepth: 8, MaxElements: 50}
	for _, tt := range []struct {
		doc  string
		fast bool // whether the fast mode takes it
	}{
		{`<a xmlns="urn:t"><b><t>1</t><t/><t></t></b><c/></a>`, true},
		{"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<p:a xmlns:p=\"urn:t\" x='1'>\n  <p:t>é 😀</p:t>\n</p:a>\n", true},
		{`<a xmlns="urn:t" xmlns:i="http://www.w3.org/2001/XMLSchema-instance"><t i:nil="true"/></a>`, true},
		{`<a xmlns="urn:t"><t>a&amp;b</t></a>`, false},
		{`<a xmlns="urn:t"><!-- c --><t>1</t></a>`, false},
		{`<a xmlns="urn:t"><t><![CDATA[<x>]]></t></a>`, false},
		{"<a xmlns=\"urn:t\"><t>1\r\n</t></a>", false},
	} {
		full, err := walk(NewReader([]byte(tt.doc), testNS, limits, false))
		require.NoError(t, err, tt.doc)
		fast, ferr := walk(NewReader([]byte(tt.doc), testNS, limits, true))
		if !tt.fast {
			assert.ErrorIs(t, ferr, ErrFallback, tt.doc)
			continue
		}
		require.NoError(t, ferr, tt.doc)
		assert.Equal(t, full, fast, tt.doc)
	}
}

func TestReaderLimitsAndRefusals(t *testing.T) {
	limits := Limits{MaxDepth: 3, MaxElements: 4}
	for _, tt := range []struct{ doc, want string }{
		{`<a><b><c><d/></c></b></a>`, "nested deeper than 3"},
		{`<a><b/><b/><b/><b/></a>`, "more than 4 elements"},
		{`<!DOCTYPE a><a/>`, "DOCTYPE"},
		{`<?xml version="1.0" encoding="ISO-8859-1"?><a/>`, "only UTF-8"},
		{`<a>`, "not well-formed"},
		{``, "empty"},
		{`<a/>x`, "after the document element"},
		{`<a><t><x/></t></a>`, "must hold text"},
	} {
		_, err := walk(NewReader([]byte(tt.doc), testNS, limits, false))
		assert.ErrorContains(t, err, tt.want, tt.doc)
		_, ferr := walk(NewReader([]byte(tt.doc), testNS, limits, true))
		assert.ErrorIs(t, ferr, ErrFallback, "the fast mode leaves every error to the full one: %s", tt.doc)
	}
}

// TestOnlyXMLChars holds the word-at-a-time check to the byte-at-a-time definition around every
// position of an 8-byte word.
func TestOnlyXMLChars(t *testing.T) {
	slow := func(b []byte) bool {
		for i := 0; i < len(b); {
			r, width := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && width == 1 || !IsXMLChar(r) {
				return false
			}
			i += width
		}
		return true
	}
	base := []byte("<soap:Envelope xmlns:soap=\"x\"><a>text</a></soap:Envelope>")
	for _, bad := range []string{"\x00", "\x1f", "\x7f", "\t", "\n", "\r", "é", "\xff", "\uFFFE", "😀", "\x08"} {
		for pos := 0; pos <= 17; pos++ {
			doc := append(append(append([]byte{}, base[:pos]...), bad...), base[pos:]...)
			assert.Equal(t, slow(doc), onlyXMLChars(doc), "%q at %d", bad, pos)
		}
	}
	assert.True(t, onlyXMLChars(base))
}

// TestSetNamespace: elements read after SetNamespace are checked against the new namespace, in both
// modes, and the one it returns restores the service namespace for what follows (a wrapper of another
// namespace reads its qualified children in it: {urn:items}GetItem).
func TestSetNamespace(t *testing.T) {
	doc := []byte(`<w xmlns="urn:items"><id>7</id><x xmlns="urn:t">t</x></w>`)
	for _, fast := range []bool{true, false} {
		r := NewReader(doc, testNS, Limits{MaxDepth: 8, MaxElements: 100}, fast)
		root, err := r.Root()
		require.NoError(t, err)
		assert.False(t, root.Is("w"), "the root is not in the service namespace")
		previous := r.SetNamespace("urn:items")
		assert.Equal(t, testNS, previous)
		assert.Equal(t, "urn:items", r.Namespace())
		el, ok, err := r.Child()
		require.NoError(t, err)
		require.True(t, ok)
		assert.True(t, el.Is("id"), "fast=%v", fast)
		_, err = r.Text(el, "id")
		require.NoError(t, err)
		r.SetNamespace(previous)
		el, ok, err = r.Child()
		require.NoError(t, err)
		require.True(t, ok)
		assert.True(t, el.Is("x"), "fast=%v: back in the service namespace", fast)
	}
}
