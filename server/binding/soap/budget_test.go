package soap

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/internal/hostile"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// tinyBudget is small enough that each table row can sit just at and just over a limit.
var tinyBudget = xmlwire.Limits{
	MaxAttrsPerElement: 2,
	MaxAttrs:           3,
	MaxNamespaces:      2,
	MaxNameBytes:       8,
	MaxAttrValueBytes:  4,
	MaxSpecialTokens:   2,
	MaxSpecialBytes:    6,
}

// unlimitedBudget makes scanXML count a whole document.
var unlimitedBudget = xmlwire.Limits{MaxAttrsPerElement: math.MaxInt, MaxAttrs: math.MaxInt, MaxNamespaces: math.MaxInt,
	MaxNameBytes: math.MaxInt, MaxAttrValueBytes: math.MaxInt, MaxSpecialTokens: math.MaxInt, MaxSpecialBytes: math.MaxInt}

func TestXMLBudgetLimits(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		refused    string // a fragment of the refusal message; "" means accepted
	}{
		{"attrs per element at limit", `<a x="1" y="2"/>`, ""},
		{"attrs per element over", `<a x="1" y="2" z="3"/>`, "more than 2 attributes"},
		{"attrs in total at limit", `<a x="1" y="2"><b z="3"/></a>`, ""},
		{"attrs in total over", `<a x="1" y="2"><b z="3"/><b z="4"/></a>`, "more than 3 attributes"},
		{"namespace declarations are not attributes", `<a xmlns="u" xmlns:p="v" x="1" y="2"/>`, ""},
		{"namespaces over", `<a xmlns="u" xmlns:p="v"><b xmlns:q="w"/></a>`, "more than 2 namespaces"},
		{"xmlns: with an empty local part is an attribute", `<a xmlns:="u" xmlns="v" xmlns:p="w"/>`, ""},
		{"name at limit", `<abcdefgh/>`, ""},
		{"element name over", `<abcdefghi/>`, "name longer than 8"},
		{"prefixed name counts the prefix", `<p:abcdefg/>`, "name longer than 8"},
		{"end tag name over", `<a></abcdefghi>`, "name longer than 8"},
		{"attribute name over", `<a abcdefghi="1"/>`, "name longer than 8"},
		{"a PI target counts as content", `<?abcdefg?><a/>`, "more than 6 bytes"},
		{"attribute value at limit", `<a x="abcd" y='abcd'/>`, ""},
		{"attribute value over", `<a x="abcde"/>`, "attribute value longer than 4"},
		{"namespace URI over", `<a xmlns="abcde"/>`, "attribute value longer than 4"},
		{"specials at limit", `<a><!--c--><![CDATA[d]]></a>`, ""},
		{"comments over", `<a><!--c--><!--c--><!--c--></a>`, "more than 2 comments"},
		{"PIs over", `<a><?p?><?p?><?p?></a>`, "more than 2 comments"},
		{"CDATA over", `<a><![CDATA[]]><![CDATA[]]><![CDATA[]]></a>`, "more than 2 comments"},
		{"special bytes at limit", `<a><!--abc--><![CDATA[abc]]></a>`, ""},
		{"special bytes over", `<a><!--abcd--><![CDATA[abc]]></a>`, "more than 6 bytes"},
		{"the XML declaration is not counted", `<?xml version="1.0"?><a><!--c--><!--c--></a>`, ""},
		{"nor after a byte order mark", "\xEF\xBB\xBF<?xml version=\"1.0\"?><a><!--c--><!--c--></a>", ""},
		{"a later XML declaration is", `<a/><?xml?><?xml?><?xml?>`, "more than 2 comments"},
		// Lexical states: markup-like bytes inside a construct are part of it.
		{"tags inside an attribute value", `<a x="<b/>" y='">'/>`, ""},
		{"tags inside a comment", `<a><!-- <b x="1" y="2" z="3"/> --></a>`, "more than 6 bytes"},
		{"tags inside CDATA", `<a><![CDATA[<b x="1" y="2" z="3">]]></a>`, "more than 6 bytes"},
		{"tags inside a PI", `<a><?p <b x="1" y="2" z="3"/>?></a>`, "more than 6 bytes"},
		{"a quote of the other kind inside a value", `<a x="'" y='"'/>`, ""},
		{"spaces around =", "<a x \t= \n\"1\" y\r\n='2'/>", ""},
		{"> in text", `<a>x > y</a>`, ""},
		// Stops where encoding/xml stops: nothing after the malformed point is counted.
		{"DOCTYPE stops the scan", `<!DOCTYPE a><a x="1" y="2" z="3"/>`, ""},
		{"unquoted value stops the scan", `<a x=1 y="2" z="3" w="4"/>`, ""},
		{"unterminated comment stops the scan", `<a><!-- x`, ""},
		{"-- in a comment stops the scan", `<a><!-- -- --><!--c--><!--c--><!--c--></a>`, ""},
		{"empty", ``, ""},
		{"a lone <", `<`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkXMLBudget([]byte(tc.body), tinyBudget)
			if tc.refused == "" {
				assert.Nil(t, err)
				return
			}
			require.NotNil(t, err)
			assert.Equal(t, fault.TooLarge, err.Code)
			assert.Contains(t, err.Message, tc.refused)
		})
	}
}

// TestXMLBudgetDefaults checks that every request the golden files hold (what real clients send,
// WS-Security headers included in the fuzz seeds) fits the default budget with room to spare.
func TestXMLBudgetDefaults(t *testing.T) {
	for _, seed := range fuzzEnvelopeSeeds {
		assert.Nil(t, checkXMLBudget([]byte(seed), DefaultLimits()), "%q", seed)
	}
}

// TestXMLBudgetInDecoder checks the hook: the SOAP decoder refuses an over-budget envelope with
// TooLarge before parsing, even one that is otherwise a valid request.
func TestXMLBudgetInDecoder(t *testing.T) {
	var attrs strings.Builder
	for i := range 40 {
		attrs.WriteString(` a` + strconv.Itoa(i) + `="1"`)
	}
	body := `<soap:Envelope xmlns:soap="` + nsSOAP11 + `"><soap:Body><ReadContact xmlns="` + fuzzNS + `"` + attrs.String() + `><id>1</id></ReadContact></soap:Body></soap:Envelope>`
	_, err := New(false, fuzzNS, DefaultLimits(), gen.Operations).parse([]byte(body), nil)
	require.NotNil(t, err)
	assert.Equal(t, fault.TooLarge, err.Code)
}

// hostileBodies are the 1 MiB bodies of each shape issue 14 found expensive.
func hostileBodies() map[string][]byte { return hostile.Bodies(fuzzNS, "ReadContact") }

func TestHostileBodiesRefused(t *testing.T) {
	for name, body := range hostileBodies() {
		t.Run(name, func(t *testing.T) {
			assert.InDelta(t, 1<<20, len(body), 64)
			err := checkXMLBudget(body, DefaultLimits())
			require.NotNil(t, err)
			assert.Equal(t, fault.TooLarge, err.Code)
			allocs := testing.AllocsPerRun(10, func() { _ = checkXMLBudget(body, unlimitedBudget) })
			assert.Zero(t, allocs, "the pre-scan of an accepted body allocates nothing")
		})
	}
}

// BenchmarkHostileBodies measures what a 1 MiB hostile body costs the SOAP decoder (pre-scan
// included): issue 14's target is at most 5 ms and at most twice the body's size allocated.
// The handler-level cost, body reading included, is BenchmarkHostileHandler (admission_test.go).
func BenchmarkHostileBodies(b *testing.B) {
	for name, body := range hostileBodies() {
		b.Run(name, func(b *testing.B) {
			sb := New(false, fuzzNS, DefaultLimits(), gen.Operations)
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := sb.parse(body, nil); err == nil || err.Code != fault.TooLarge {
					b.Fatalf("not refused as too large: %v", err)
				}
			}
		})
	}
}

// rawXMLStats counts with encoding/xml what scanXML counts, for a document encoding/xml reads
// whole; ok is false when it does not, or holds a DOCTYPE (which the decoder refuses, and the
// pre-scan stops at).
func rawXMLStats(body []byte) (s xmlStats, ok bool) {
	body = bytes.TrimPrefix(body, []byte("\xEF\xBB\xBF"))
	check := xml.NewDecoder(bytes.NewReader(body))
	check.Strict = true
	for {
		_, err := check.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return s, false
		}
	}
	d := xml.NewDecoder(bytes.NewReader(body))
	d.Strict = true
	nameLen := func(n xml.Name) int {
		if n.Space != "" {
			return len(n.Space) + 1 + len(n.Local)
		}
		return len(n.Local)
	}
	for {
		off := d.InputOffset()
		tok, err := d.RawToken()
		if errors.Is(err, io.EOF) {
			return s, true
		}
		if err != nil {
			return s, false
		}
		switch t := tok.(type) {
		case xml.StartElement:
			s.maxName = max(s.maxName, nameLen(t.Name))
			per := 0
			for _, a := range t.Attr {
				s.maxName = max(s.maxName, nameLen(a.Name))
				s.maxAttrValue = max(s.maxAttrValue, len(a.Value))
				if a.Name.Space == "xmlns" || a.Name.Space == "" && a.Name.Local == "xmlns" {
					s.namespaces++
				} else {
					s.attrs++
					per++
				}
			}
			s.maxAttrsPerElement = max(s.maxAttrsPerElement, per)
		case xml.EndElement:
			s.maxName = max(s.maxName, nameLen(t.Name))
		case xml.ProcInst:
			if off != 0 || t.Target != "xml" {
				s.specialTokens++
				s.specialBytes += len(t.Target) + len(t.Inst)
			}
		case xml.Comment:
			s.specialTokens++
			s.specialBytes += len(t)
		case xml.CharData:
			if bytes.HasPrefix(body[off:], []byte("<![CDATA[")) {
				s.specialTokens++
				s.specialBytes += len(t)
			}
		case xml.Directive:
			return s, false
		}
	}
}

// FuzzXMLBudget checks the pre-scan on arbitrary bytes: it never panics; on every document
// encoding/xml reads whole (no DOCTYPE), it counts attributes, namespace declarations, names and
// comment/PI/CDATA tokens exactly as encoding/xml sees them, and never fewer value or content bytes;
// a budget equal to what it counted accepts the document, and lowering any exceeded-by-one limit
// refuses it with TooLarge.
func FuzzXMLBudget(f *testing.F) {
	for _, s := range fuzzEnvelopeSeeds {
		f.Add([]byte(s))
	}
	for _, s := range []string{`<a x="<b/>" y='"'><!-- <c> --><![CDATA[<d e="1">]]><?p <f/>?></a>`,
		`<a xmlns="u" xmlns:p="v" p:x="1"></a>`, `<?xml version="1.0"?><a/><?xml version="1.0"?>`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		got, err := scanXML(body, unlimitedBudget)
		if err != nil {
			t.Fatalf("refused under an unlimited budget: %v", err)
		}
		if want, ok := rawXMLStats(body); ok {
			if got.attrs != want.attrs || got.namespaces != want.namespaces || got.maxAttrsPerElement != want.maxAttrsPerElement ||
				got.maxName != want.maxName || got.specialTokens != want.specialTokens ||
				got.maxAttrValue < want.maxAttrValue || got.specialBytes < want.specialBytes {
				t.Fatalf("counted %+v, encoding/xml sees %+v in %q", got, want, body)
			}
		}
		exact := xmlwire.Limits{
			MaxAttrsPerElement: max(got.maxAttrsPerElement, 1),
			MaxAttrs:           max(got.attrs, 1),
			MaxNamespaces:      max(got.namespaces, 1),
			MaxNameBytes:       max(got.maxName, 1),
			MaxAttrValueBytes:  max(got.maxAttrValue, 1),
			MaxSpecialTokens:   max(got.specialTokens, 1),
			MaxSpecialBytes:    max(got.specialBytes, 1),
		}
		if err := checkXMLBudget(body, exact); err != nil {
			t.Fatalf("refused under a budget equal to its own counts %+v: %v", got, err)
		}
		for _, lower := range []func(*xmlwire.Limits) bool{
			func(b *xmlwire.Limits) bool { b.MaxAttrsPerElement--; return got.maxAttrsPerElement > 1 },
			func(b *xmlwire.Limits) bool { b.MaxAttrs--; return got.attrs > 1 },
			func(b *xmlwire.Limits) bool { b.MaxNamespaces--; return got.namespaces > 1 },
			func(b *xmlwire.Limits) bool { b.MaxNameBytes--; return got.maxName > 1 },
			func(b *xmlwire.Limits) bool { b.MaxAttrValueBytes--; return got.maxAttrValue > 1 },
			func(b *xmlwire.Limits) bool { b.MaxSpecialTokens--; return got.specialTokens > 1 },
			func(b *xmlwire.Limits) bool { b.MaxSpecialBytes--; return got.specialBytes > 1 },
		} {
			tight := exact
			if !lower(&tight) {
				continue
			}
			if err := checkXMLBudget(body, tight); err == nil || err.Code != fault.TooLarge {
				t.Fatalf("accepted under %+v though it counted %+v: %q", tight, got, body)
			}
		}
	})
}
