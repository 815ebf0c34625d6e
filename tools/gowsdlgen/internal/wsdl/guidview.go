package wsdl

import (
	"fmt"
	"regexp"
	"slices"
)

// replacement swaps the bytes [start, end) of a document for text.
type replacement struct {
	Start, End int
	text       string
}

// plainGUIDs makes the Microsoft serialization guid a plain xsd:string for gowsdl (and its char an
// xsd:unsignedShort, msPlain). An ASMX contract
// declares guid in a second schema for http://microsoft.com/wsdl/types/ and imports that namespace
// without a schemaLocation; gowsdl v0.5.0 then warns that it does not know where to find the XSD
// (which RunGowsdl rightly treats as an error), and would name the Go type after the local name
// "guid" anyway. So the view drops those imports and that schema, and every type="…:guid" that
// resolves to the Microsoft namespace is rewritten to an xsd:string QName, using a prefix bound to XML
// Schema at that element. PostProcess then gives those fields the runtime's xsd.GUID (TypedFields
// lists them from the contract itself). The rest of the Microsoft schema is not inspected here:
// anything in it other than guid is refused by the contract model, which names its line.
func plainGUIDs(defs *Definitions) ([]dropped, []replacement, error) {
	var drop []dropped
	var repl []replacement
	for _, s := range defs.Schemas {
		if tns, _ := s.Attr("targetNamespace"); tns == NamespaceMSTypes {
			drop = append(drop, dropped{Component{"schema", NamespaceMSTypes}, s})
			continue
		}
		for _, c := range s.Children {
			if ns, _ := c.Attr("namespace"); c.Is(NamespaceXSD, "import") && ns == NamespaceMSTypes {
				drop = append(drop, dropped{Component{"import", NamespaceMSTypes}, c})
			}
		}
		var err error
		s.Walk(func(n *Node) {
			if err != nil || !n.Is(NamespaceXSD, "element") && !n.Is(NamespaceXSD, "attribute") {
				return
			}
			q, ok, qerr := n.QNameAttr("type")
			if qerr != nil {
				err = qerr
				return
			}
			if !ok || q.Space != NamespaceMSTypes || msPlain[q.Local] == "" {
				return
			}
			var r replacement
			if r, err = retypeAs(defs.Data, n, msPlain[q.Local]); err == nil {
				repl = append(repl, r)
			}
		})
		if err != nil {
			return nil, nil, err
		}
	}
	slices.SortFunc(repl, func(a, b replacement) int { return a.Start - b.Start })
	return drop, repl, nil
}

// msPlain are the Microsoft types the view rewrites, and the XML Schema type each becomes for gowsdl:
// guid a string, char (a UTF-16 code unit, ASMX's restriction of unsignedShort) an unsignedShort.
// PostProcess gives both the runtime's type (xsd.GUID, xsd.Char).
var msPlain = map[string]string{"guid": "string", "char": "unsignedShort"}

// typeAttr finds an unprefixed type attribute in a start tag; group 2 is the value.
var typeAttr = regexp.MustCompile(`\stype\s*=\s*(["'])([^"']*)["']`)

// retypeAs returns the replacement of the value of n's type attribute by the QName of the XML Schema
// type local.
func retypeAs(data []byte, n *Node, local string) (replacement, error) {
	tag := startTag(data, n)
	m := typeAttr.FindSubmatchIndex(tag)
	if m == nil {
		return replacement{}, fmt.Errorf("<%s> at byte %d: cannot find its type attribute", qualified(n.Raw), n.Start)
	}
	prefix, ok := prefixFor(n.scope, NamespaceXSD)
	if !ok {
		return replacement{}, fmt.Errorf("<%s> at byte %d: no prefix is bound to %s there, so its Microsoft type cannot be written as xsd:%s", qualified(n.Raw), n.Start, NamespaceXSD, local)
	}
	text := local
	if prefix != "" {
		text = prefix + ":" + local
	}
	return replacement{Start: n.Start + m[4], End: n.Start + m[5], text: text}, nil
}

// startTag returns the bytes of n's start tag, up to and including its '>'.
func startTag(data []byte, n *Node) []byte {
	var quote byte
	for i := n.Start; i < n.End; i++ {
		switch c := data[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			return data[n.Start : i+1]
		}
	}
	return data[n.Start:n.End]
}

// prefixFor returns a prefix that resolves to uri in scope s (the default namespace as ""), the
// alphabetically first if several do, so the output is deterministic.
func prefixFor(s *scope, uri string) (string, bool) {
	var found []string
	for sc := s; sc != nil; sc = sc.parent {
		for p, u := range sc.ns {
			if u == uri {
				if got, _ := s.lookup(p); got == uri && !slices.Contains(found, p) {
					found = append(found, p)
				}
			}
		}
	}
	if len(found) == 0 {
		return "", false
	}
	slices.Sort(found)
	return found[0], true
}
