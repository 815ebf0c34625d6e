package wsdl_test

// WS-I Basic Profile 1.1 checks of the contract's description and SOAP bindings:
// https://www.ws-i.org/Profiles/BasicProfile-1.1.html (§4, "Service Description"). Each subtest is named
// after the requirement it checks.
//
// Scope. BP 1.1 profiles SOAP 1.1 over HTTP: its binding requirements target wsdl:binding elements that
// use the WSDL SOAP 1.1 binding (R2401), here SyncServiceSoap. A description may also hold bindings
// the profile does not cover (the HTTP GET and POST bindings); they are checked in contract_test.go
// only. The SOAP 1.2 binding, SyncServiceSoap12, is held to the same rules, which WS-I Basic Profile 2.0
// carries over to SOAP 1.2 under the same requirement numbers. Requirements about messages on the
// wire (R2712, R2744, R2745, R1xxx, …) belong to the server's tests; only their description-side
// preconditions are checked here. R2028 and R2029 (validity against the WSDL 1.1 and WSDL SOAP binding
// schemas) are checked with xmllint in schema_validation_test.go.

import (
	"bytes"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/wsdl"
)

// soapBindingView is a wsdl:binding that uses a WSDL SOAP binding, with its version's namespace.
type soapBindingView struct {
	binding
	ns string // nsSOAP11 or nsSOAP12
}

// soapBindings returns the bindings that carry soap:binding or soap12:binding.
func soapBindings(t *testing.T, d *definitions) []soapBindingView {
	t.Helper()
	var out []soapBindingView
	for _, b := range d.Bindings {
		for _, ns := range []string{nsSOAP11, nsSOAP12} {
			if b.ext(ns, "binding") != nil {
				out = append(out, soapBindingView{b, ns})
			}
		}
	}
	return out
}

// bodies returns the soap:body elements of a binding input or output.
func (v soapBindingView) bodies(io *bindingIO) []ext {
	if io == nil {
		return nil
	}
	return findAllExt(io.Ext, v.ns, "body")
}

// headers returns the soap:header elements of a binding input or output and their soap:headerfaults.
func (v soapBindingView) headers(io *bindingIO) (headers, headerfaults []ext) {
	if io == nil {
		return nil, nil
	}
	headers = findAllExt(io.Ext, v.ns, "header")
	for _, h := range headers {
		headerfaults = append(headerfaults, findAllExt(h.Children, v.ns, "headerfault")...)
	}
	return headers, headerfaults
}

// style returns the operation's effective style: soap:operation/@style, else soap:binding/@style, else
// "document" (WSDL 1.1 §3.4).
func (v soapBindingView) style(op bindingOperation) string {
	if so := op.ext(v.ns, "operation"); so != nil {
		if s, ok := so.lookup("style"); ok {
			return s
		}
	}
	if s, ok := v.ext(v.ns, "binding").lookup("style"); ok {
		return s
	}
	return "document"
}

// portTypeMessage returns the wsdl:message bound by a binding operation's input (or output).
func portTypeMessage(t *testing.T, d *definitions, v soapBindingView, opName string, input bool) *message {
	t.Helper()
	pt := d.portType(d.resolve(v.Type).Local)
	require.NotNil(t, pt, "portType of binding %s", v.Name)
	for _, o := range pt.Operations {
		if o.Name != opName {
			continue
		}
		ref := o.Output
		if input {
			ref = o.Input
		}
		require.NotNil(t, ref, "portType %s operation %s input/output", pt.Name, opName)
		m := d.message(d.resolve(ref.Message).Local)
		require.NotNil(t, m, "message %s", ref.Message)
		return m
	}
	t.Fatalf("portType %s has no operation %s", pt.Name, opName)
	return nil
}

// TestBasicProfileDescription checks the profile's requirements on the description as a document.
func TestBasicProfileDescription(t *testing.T) {
	forEachServedContract(t, basicProfileDescription)
}

func basicProfileDescription(t *testing.T, doc []byte) {
	d := loadContractFrom(t, doc)
	root := loadTreeFrom(t, doc)

	t.Run("R4003 description uses UTF-8 or UTF-16", func(t *testing.T) {
		enc := xmlDeclAttr(t, doc, "encoding")
		assert.Contains(t, []string{"utf-8", "utf-16"}, strings.ToLower(enc), "R4003: encoding=%q", enc)
	})
	t.Run("R4004 description uses XML 1.0", func(t *testing.T) {
		assert.Equal(t, "1.0", xmlDeclAttr(t, doc, "version"), "R4004")
	})

	t.Run("R2001 R2002 R2007 wsdl:import imports WSDL only, with a location", func(t *testing.T) {
		for _, imp := range d.Imports {
			assert.NotEmpty(t, imp.Location, "R2007: wsdl:import needs a non-empty location")
			assert.NotEmpty(t, imp.Namespace, "R2005: wsdl:import needs a namespace")
			assert.False(t, strings.HasSuffix(strings.ToLower(imp.Location), ".xsd"),
				"R2001/R2002: import XML Schema with xs:import, not wsdl:import (%s)", imp.Location)
		}
	})

	t.Run("R2003 xs:import only inside xs:schema in wsdl:types", func(t *testing.T) {
		root.walk(func(n *node) {
			if !n.is(nsXSD, "import") {
				return
			}
			ok := n.parent != nil && n.parent.is(nsXSD, "schema") &&
				n.parent.parent != nil && n.parent.parent.is(nsWSDL, "types")
			assert.True(t, ok, "R2003: xs:import at %s", n.path())
		})
	})

	t.Run("R2004 R2105 schemas in wsdl:types have a targetNamespace; imports name a namespace", func(t *testing.T) {
		for _, typ := range d.Types {
			for i, s := range typ.Schemas {
				onlyImports := len(s.Elements) == 0 && len(s.ComplexTypes) == 0 && len(s.SimpleTypes) == 0 && len(s.Includes) == 0
				if !onlyImports {
					assert.NotEmpty(t, s.TargetNamespace, "R2105: xs:schema #%d in wsdl:types has no targetNamespace", i+1)
				}
				for _, imp := range s.Imports {
					assert.NotEmpty(t, imp.Namespace, "R2004/R2105: xs:import needs a namespace")
					assert.False(t, strings.HasSuffix(strings.ToLower(imp.SchemaLocation), ".wsdl"),
						"R2004: xs:import must point at an xs:schema document, not a WSDL (%s)", imp.SchemaLocation)
				}
			}
		}
	})

	t.Run("R2022 R2023 wsdl:import, then wsdl:types, before the other WSDL elements", func(t *testing.T) {
		// Order of the WSDL-namespace children of wsdl:definitions, wsdl:documentation aside.
		rank := map[string]int{"import": 0, "types": 1, "message": 2, "portType": 2, "binding": 2, "service": 2}
		last := -1
		for _, c := range root.children {
			if c.name.Space != nsWSDL || c.name.Local == "documentation" {
				continue
			}
			r, ok := rank[c.name.Local]
			require.True(t, ok, "unexpected element %s", c.path())
			assert.GreaterOrEqual(t, r, last, "R2022/R2023: %s comes too late", c.path())
			last = r
		}
	})

	t.Run("R2030 wsdl:documentation is the first child", func(t *testing.T) {
		root.walk(func(n *node) {
			for i, c := range n.children {
				if c.is(nsWSDL, "documentation") {
					assert.Zero(t, i, "R2030 (and the WSDL 1.1 schema): wsdl:documentation must be the first child of %s", n.path())
				}
			}
		})
	})

	t.Run("R2026 no wsdl:required=true", func(t *testing.T) {
		root.walk(func(n *node) {
			for _, a := range n.attr {
				if a.Name.Space == nsWSDL && a.Name.Local == "required" {
					assert.NotEqual(t, "true", strings.TrimSpace(a.Value), "R2026: %s has wsdl:required=true", n.path())
				}
			}
		})
	})

	t.Run("R2101 R2102 QName references use declared namespaces", func(t *testing.T) {
		// Every reference resolves (TestContractReferencesResolve); here: each namespace is this
		// document's target namespace or XML Schema's (there is no import), but for the AbstractTypes
		// schema ASMX adds for array parameters on HTTP GET/POST: its types are named by HTTP message
		// parts, and it refers to the SOAP encoding namespace (see abstractTypesNamespace).
		root.walk(func(n *node) {
			for _, a := range n.attr {
				if a.Name.Space != "" || !isQNameAttr(n.name, a.Name.Local) {
					continue
				}
				allowed := []string{d.TargetNamespace, nsXSD}
				switch {
				case n.is(nsWSDL, "part") && a.Name.Local == "type":
					allowed = append(allowed, abstractTypesNamespace(d))
				case inSchemaOf(n, abstractTypesNamespace(d)):
					allowed = append(allowed, nsSOAPEnc)
				}
				ns := d.resolve(a.Value).Space
				assert.Contains(t, allowed, ns, "R2101/R2102: %s/@%s=%q", n.path(), a.Name.Local, a.Value)
			}
		})
	})

	t.Run("R2110 R2111 arrays do not use soapenc:Array or wsdl:arrayType", func(t *testing.T) {
		assert.Empty(t, soapencArrayDerivations(d, root), "R2110: types outside the AbstractTypes schema derive from soapenc:Array")
		root.walk(func(n *node) {
			for _, a := range n.attr {
				assert.False(t, a.Name.Space == nsWSDL && a.Name.Local == "arrayType", "R2111: %s uses wsdl:arrayType", n.path())
			}
		})
	})

	t.Run("R2112 no element named ArrayOfXXX", func(t *testing.T) {
		d.schema().walkElements(func(path string, e xsdElement) {
			assert.False(t, strings.HasPrefix(e.Name, "ArrayOf"), "R2112: element %s is named ArrayOfXXX (types may be)", path)
		})
	})

	t.Run("R2303 only one-way and request-response operations", func(t *testing.T) {
		root.walk(func(n *node) {
			if !n.is(nsWSDL, "operation") || n.parent == nil || !n.parent.is(nsWSDL, "portType") {
				return
			}
			var seq []string
			for _, c := range n.children {
				if c.is(nsWSDL, "input") || c.is(nsWSDL, "output") {
					seq = append(seq, c.name.Local)
				}
			}
			require.NotEmpty(t, seq, "%s has no input", n.path())
			assert.Equal(t, "input", seq[0], "R2303: %s is a solicit-response or notification operation", n.path())
		})
	})

	t.Run("R2304 operation names are unique within a portType", func(t *testing.T) {
		for _, pt := range d.PortTypes {
			var names []string
			for _, o := range pt.Operations {
				names = append(names, o.Name)
			}
			assert.Equal(t, uniq(names), names, "R2304: overloaded operation in portType %s", pt.Name)
		}
	})

	t.Run("R2306 a part has element or type, not both", func(t *testing.T) {
		for _, m := range d.Messages {
			for _, p := range m.Parts {
				assert.False(t, p.Element != "" && p.Type != "", "R2306: message %s part %s has both element and type", m.Name, p.Name)
				assert.True(t, p.Element != "" || p.Type != "", "message %s part %s has neither element nor type", m.Name, p.Name)
			}
		}
	})

	t.Run("R2206 element parts refer to global element declarations", func(t *testing.T) {
		schema := d.schema()
		for _, m := range d.Messages {
			for _, p := range m.Parts {
				if p.Element == "" {
					continue
				}
				n := d.resolve(p.Element)
				assert.True(t, n.Space == schema.TargetNamespace && schema.element(n.Local) != nil,
					"R2206: message %s part %s element %q is not a global element declaration", m.Name, p.Name, p.Element)
			}
		}
	})

	t.Run("R2711 no two ports at the same soapbind:address", func(t *testing.T) {
		// Checked per SOAP version: one soap:address and one soap12:address share the endpoint, as
		// ASMX does; the SOAP version tells them apart on the wire.
		for _, ns := range []string{nsSOAP11, nsSOAP12} {
			seen := map[string]string{}
			for _, s := range d.Services {
				for _, p := range s.Ports {
					for _, a := range findAllExt(p.Ext, ns, "address") {
						loc := a.attr("location")
						if other, dup := seen[loc]; dup {
							t.Errorf("R2711: ports %s and %s share the address %s", other, p.Name, loc)
						}
						seen[loc] = p.Name
					}
				}
			}
		}
	})

	t.Run("R2801 XML Schema 1.0 for types", func(t *testing.T) {
		for _, c := range root.children {
			if !c.is(nsWSDL, "types") {
				continue
			}
			for _, s := range c.children {
				assert.True(t, s.is(nsXSD, "schema"), "R2801: %s is not an XML Schema 1.0 (%s) schema", s.path(), nsXSD)
			}
		}
	})
}

// TestBasicProfileSOAPBindings checks the profile's binding requirements on each SOAP binding.
func TestBasicProfileSOAPBindings(t *testing.T) {
	bs := soapBindings(t, loadContract(t))
	require.Len(t, bs, 2, "the contract has a SOAP 1.1 and a SOAP 1.2 binding")
	require.Equal(t, nsSOAP11, bs[0].ns, "SyncServiceSoap uses the WSDL SOAP 1.1 binding")
	forEachServedContract(t, basicProfileSOAPBindings)
}

func basicProfileSOAPBindings(t *testing.T, doc []byte) {
	d := loadContractFrom(t, doc)
	for _, v := range soapBindings(t, d) {
		t.Run(v.Name, func(t *testing.T) {
			soapBinding := v.ext(v.ns, "binding")

			t.Run("R2401 uses the WSDL SOAP binding", func(t *testing.T) {
				for _, op := range v.Operations {
					assert.NotNil(t, op.ext(v.ns, "operation"), "R2401: operation %s has no soap operation element", op.Name)
					for _, io := range []*bindingIO{op.Input, op.Output} {
						if io != nil {
							assert.Len(t, v.bodies(io), 1, "R2401: operation %s input/output has one soap body", op.Name)
						}
					}
				}
			})

			t.Run("R2701 R2702 transport is SOAP over HTTP", func(t *testing.T) {
				transport, ok := soapBinding.lookup("transport")
				assert.True(t, ok, "R2701: soap binding element needs a transport attribute")
				assert.Equal(t, soapOverHTTP, transport, "R2702")
			})

			t.Run("R2705 document-literal or rpc-literal, one style per binding", func(t *testing.T) {
				styles := map[string]bool{}
				for _, op := range v.Operations {
					s := v.style(op)
					styles[s] = true
					assert.Contains(t, []string{"document", "rpc"}, s, "operation %s style", op.Name)
				}
				assert.Len(t, styles, 1, "R2705: the binding mixes styles %v", styles)
				assert.True(t, styles["document"], "this contract is document/literal wrapped")
			})

			t.Run("R2706 R2707 use is literal everywhere", func(t *testing.T) {
				check := func(where string, e ext) {
					use, ok := e.lookup("use")
					if ok { // R2707: absent means literal
						assert.Equal(t, "literal", use, "R2706: %s has use=%q", where, use)
					}
					_, enc := e.lookup("encodingStyle")
					assert.False(t, enc, "R2706: %s has an encodingStyle (SOAP encoding is not profiled)", where)
				}
				for _, op := range v.Operations {
					for _, io := range []*bindingIO{op.Input, op.Output} {
						for _, b := range v.bodies(io) {
							check(op.Name+" soap:body", b)
						}
						hs, hfs := v.headers(io)
						for _, h := range append(hs, hfs...) {
							check(op.Name+" soap:header", h)
						}
					}
					for _, f := range op.Faults {
						for _, sf := range findAllExt(f.Ext, v.ns, "fault") {
							check(op.Name+" soap:fault", sf)
						}
					}
				}
			})

			t.Run("R2716 no namespace on document-literal soap elements", func(t *testing.T) {
				// R2717 and R2726 (namespace rules of rpc-literal) do not apply: R2705 above finds
				// document style only.
				for _, op := range v.Operations {
					if v.style(op) != "document" {
						continue
					}
					var els []ext
					for _, io := range []*bindingIO{op.Input, op.Output} {
						hs, hfs := v.headers(io)
						els = append(append(append(els, v.bodies(io)...), hs...), hfs...)
					}
					for _, f := range op.Faults {
						els = append(els, findAllExt(f.Ext, v.ns, "fault")...)
					}
					for _, e := range els {
						_, has := e.lookup("namespace")
						assert.False(t, has, "R2716: operation %s: %s has a namespace attribute", op.Name, e.XMLName.Local)
					}
				}
			})

			t.Run("R2201 R2210 R2209 document-literal body has at most one part and binds them all", func(t *testing.T) {
				for _, op := range v.Operations {
					for _, input := range []bool{true, false} {
						io := op.Output
						if input {
							io = op.Input
						}
						m := portTypeMessage(t, d, v, op.Name, input)
						for _, b := range v.bodies(io) {
							if parts, ok := b.lookup("parts"); ok {
								listed := strings.Fields(parts)
								assert.LessOrEqual(t, len(listed), 1, "R2201: operation %s lists %d parts", op.Name, len(listed))
								assert.Len(t, listed, len(m.Parts), "R2209: operation %s leaves a part of %s unbound", op.Name, m.Name)
							} else {
								assert.LessOrEqual(t, len(m.Parts), 1, "R2210: message %s of operation %s has %d parts", m.Name, op.Name, len(m.Parts))
							}
						}
					}
				}
			})

			t.Run("R2204 document-literal body parts use element", func(t *testing.T) {
				for _, op := range v.Operations {
					for _, input := range []bool{true, false} {
						m := portTypeMessage(t, d, v, op.Name, input)
						for _, p := range m.Parts {
							assert.NotEmpty(t, p.Element, "R2204: message %s part %s (operation %s) must use element=", m.Name, p.Name, op.Name)
							assert.Empty(t, p.Type, "R2204: message %s part %s (operation %s) must not use type=", m.Name, p.Name, op.Name)
						}
					}
				}
			})

			t.Run("R2205 R2720 R2721 R2754 headers and faults", func(t *testing.T) {
				// The contract binds no headers or faults; this keeps future ones profiled.
				for _, op := range v.Operations {
					for _, io := range []*bindingIO{op.Input, op.Output} {
						hs, hfs := v.headers(io)
						for _, h := range append(hs, hfs...) {
							m := d.message(d.resolve(h.attr("message")).Local)
							if !assert.NotNil(t, m, "operation %s: header message %q", op.Name, h.attr("message")) {
								continue
							}
							partName, ok := h.lookup("part")
							assert.True(t, ok, "R2720: operation %s: header needs a part attribute", op.Name)
							for _, p := range m.Parts {
								if p.Name == partName {
									assert.NotEmpty(t, p.Element, "R2205: header part %s of %s must use element=", p.Name, m.Name)
								}
							}
						}
					}
					pt := d.portType(d.resolve(v.Type).Local)
					for _, f := range op.Faults {
						sf := findExt(f.Ext, v.ns, "fault")
						if assert.NotNil(t, sf, "operation %s fault %s has no soap fault element", op.Name, f.Name) {
							assert.NotEmpty(t, sf.attr("name"), "R2721: soap:fault of %s needs a name", op.Name)
							assert.Equal(t, f.Name, sf.attr("name"), "R2754: soap:fault name matches wsdl:fault name")
						}
						var found bool
						for _, o := range pt.Operations {
							for _, pf := range o.Faults {
								if o.Name == op.Name && pf.Name == f.Name {
									found = true
									m := d.message(d.resolve(pf.Message).Local)
									if assert.NotNil(t, m) {
										for _, p := range m.Parts {
											assert.NotEmpty(t, p.Element, "R2205: fault part %s of %s must use element=", p.Name, m.Name)
										}
									}
								}
							}
						}
						assert.True(t, found, "fault %s of binding operation %s is not in the portType", f.Name, op.Name)
					}
				}
			})

			t.Run("R2710 operations have distinct wire signatures", func(t *testing.T) {
				// The wire signature of a document-literal operation is the qualified name of the
				// soap:Body child of its input: the element of the input message's single part.
				seen := map[xml.Name]string{}
				for _, op := range v.Operations {
					m := portTypeMessage(t, d, v, op.Name, true)
					var sig xml.Name // empty body: the empty name
					if len(m.Parts) == 1 {
						sig = d.resolve(m.Parts[0].Element)
					}
					if other, dup := seen[sig]; dup {
						t.Errorf("R2710: operations %s and %s share the wire signature {%s}%s", other, op.Name, sig.Space, sig.Local)
					}
					seen[sig] = op.Name
					assert.Equal(t, xml.Name{Space: wsdl.DefaultNamespace, Local: op.Name}, sig,
						"wrapped convention: the input element is named after the operation")
				}
			})

			t.Run("R2718 same operations as the portType", func(t *testing.T) {
				pt := d.portType(d.resolve(v.Type).Local)
				require.NotNil(t, pt, "portType %s", v.Type)
				var want, got []string
				for _, o := range pt.Operations {
					want = append(want, o.Name)
				}
				for _, o := range v.Operations {
					got = append(got, o.Name)
				}
				assert.ElementsMatch(t, want, got, "R2718")
				assert.Equal(t, uniq(got), got, "R2718: an operation is bound twice")
				for _, o := range v.Operations {
					for _, po := range pt.Operations {
						if po.Name == o.Name {
							assert.Equal(t, po.Input != nil, o.Input != nil, "R2718: %s input", o.Name)
							assert.Equal(t, po.Output != nil, o.Output != nil, "R2718: %s output", o.Name)
						}
					}
				}
			})

			t.Run("R2744 R2745 soapAction is an absolute URI or empty", func(t *testing.T) {
				// The SOAPAction header a client sends is the quoted soapAction (R2744), or "" when it
				// is absent or empty (R2745); a useful one is an absolute URI.
				for _, op := range v.Operations {
					so := op.ext(v.ns, "operation")
					require.NotNil(t, so)
					action := so.attr("soapAction")
					if action != "" {
						assert.Regexp(t, absoluteURI, action, "operation %s soapAction", op.Name)
						assert.NotContains(t, action, `"`, "operation %s soapAction", op.Name)
					}
				}
			})
		})
	}
}

var absoluteURI = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:[^\s]+$`)

// xmlDeclAttr returns a pseudo-attribute of the XML declaration at the start of doc.
func xmlDeclAttr(t *testing.T, doc []byte, name string) string {
	t.Helper()
	doc = bytes.TrimPrefix(doc, []byte("\xef\xbb\xbf")) // R4002: a BOM may precede it
	require.True(t, bytes.HasPrefix(doc, []byte("<?xml ")), "the description starts with an XML declaration")
	end := bytes.Index(doc, []byte("?>"))
	require.Positive(t, end)
	m := regexp.MustCompile(name + `\s*=\s*["']([^"']*)["']`).FindSubmatch(doc[:end])
	require.NotNil(t, m, "the XML declaration has no %s", name)
	return string(m[1])
}

// abstractTypesNamespace is the namespace of the schema ASMX adds to a contract that offers an array
// parameter on HTTP GET or POST: the service namespace followed by "AbstractTypes". It holds
// StringArray, a restriction of soapenc:Array that types those parameters' message parts. R2110 is
// about SOAP messages' arrays; these types describe HTTP GET/POST parameters, which no SOAP message
// carries, so the checks allow soapenc:Array there, and only there (tools/gowsdlgen holds a contract
// to the same rule).
func abstractTypesNamespace(d *definitions) string { return d.TargetNamespace + "AbstractTypes" }

// inSchemaOf reports whether n is inside the xs:schema whose targetNamespace is ns.
func inSchemaOf(n *node, ns string) bool {
	for p := n; p != nil; p = p.parent {
		if p.is(nsXSD, "schema") {
			tns, _ := p.attrValue("targetNamespace")
			return tns == ns
		}
	}
	return false
}

// soapencArrayDerivations lists the derivations from soapenc:Array (R2110) outside the AbstractTypes
// schema.
func soapencArrayDerivations(d *definitions, root *node) []string {
	var out []string
	root.walk(func(n *node) {
		if base, ok := n.attrValue("base"); ok && n.name.Space == nsXSD && !inSchemaOf(n, abstractTypesNamespace(d)) &&
			d.resolve(base) == (xml.Name{Space: nsSOAPEnc, Local: "Array"}) {
			out = append(out, n.path())
		}
	})
	return out
}

// withArrayOperation is contract 1.0 (the frozen copy server/internal/frozencontract is generated
// from, which a contract edit leaves alone, so the patch always applies) with tools/contractevo's
// 05-readcontactlist patch applied: ReadContactList(ids ArrayOfString, asOf dateTime) on all four
// bindings, written as ASMX writes an array parameter on HTTP GET and POST (the AbstractTypes
// schema, s2:StringArray parts).
func withArrayOperation(t *testing.T) []byte {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git is not installed (CI=true: the AbstractTypes checks must run)")
		}
		t.Skip("git is not installed; skipping (in CI this fails)")
	}
	patch, err := filepath.Abs(filepath.Join("..", "tools", "contractevo", "testdata", "patches", "05-readcontactlist", "wsdl.patch"))
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "wsdl"), 0o755))
	v1, err := os.ReadFile(filepath.Join("..", "server", "internal", "frozencontract", "testdata", "contactsync-v1.wsdl"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "wsdl", "contactsync.wsdl"), v1, 0o644))
	cmd := exec.Command("git", "apply", "-p1", patch)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git apply: %s", out)
	doc, err := os.ReadFile(filepath.Join(dir, "wsdl", "contactsync.wsdl"))
	require.NoError(t, err)
	require.Contains(t, string(doc), `base="soapenc:Array"`)
	return doc
}

// TestBasicProfileAllowsAbstractTypes: a contract with an array parameter on HTTP GET/POST, written as
// ASMX writes it, passes the profile's checks (soapenc:Array is allowed in the AbstractTypes schema)
// and its references resolve; the same derivation anywhere else is still a violation.
func TestBasicProfileAllowsAbstractTypes(t *testing.T) {
	doc := withArrayOperation(t)
	t.Run("description", func(t *testing.T) { basicProfileDescription(t, doc) })
	t.Run("SOAP bindings", func(t *testing.T) { basicProfileSOAPBindings(t, doc) })
	t.Run("references", func(t *testing.T) { contractReferencesResolve(t, doc) })

	moved := strings.Replace(string(doc), `<s:schema targetNamespace="`+wsdl.DefaultNamespace+`AbstractTypes">`,
		`<s:schema targetNamespace="urn:elsewhere">`, 1)
	require.NotEqual(t, string(doc), moved)
	d, root := loadContractFrom(t, []byte(moved)), loadTreeFrom(t, []byte(moved))
	assert.Len(t, soapencArrayDerivations(d, root), 1, "soapenc:Array outside the AbstractTypes schema is refused")
}
