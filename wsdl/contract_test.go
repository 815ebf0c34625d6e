package wsdl_test

// Structural tests of the hand-written contract, contactsync.wsdl, against the service specification
// (shared/spec/contactsync-spec.md §2 and §4) and WSDL 1.1 (https://www.w3.org/TR/2001/NOTE-wsdl-20010315).
//
// The document is read with encoding/xml into the small model at the end of this file. Schema
// validation with xmllint lives in schema_validation_test.go and the WS-I Basic Profile 1.1 checks of
// the SOAP bindings in basicprofile_test.go.

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/wsdl"
)

// Namespaces of WSDL 1.1, its binding extensions and XML Schema.
const (
	nsWSDL    = "http://schemas.xmlsoap.org/wsdl/"
	nsSOAP11  = "http://schemas.xmlsoap.org/wsdl/soap/"
	nsSOAP12  = "http://schemas.xmlsoap.org/wsdl/soap12/"
	nsHTTP    = "http://schemas.xmlsoap.org/wsdl/http/"
	nsMIME    = "http://schemas.xmlsoap.org/wsdl/mime/"
	nsXSD     = "http://www.w3.org/2001/XMLSchema"
	nsSOAPEnc = "http://schemas.xmlsoap.org/soap/encoding/"

	// soapOverHTTP is the transport URI of SOAP over HTTP in soap:binding and soap12:binding.
	soapOverHTTP = "http://schemas.xmlsoap.org/soap/http"
)

// update rewrites the golden files under testdata/ (`make update-golden` runs it after a contract edit).
var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with the file, or rewrites the file under -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run make update-golden")
	require.Equal(t, string(want), got, "%s differs; if the contract was edited on purpose, run make update-golden", path)
}

// contractFile is the contract on disk; the package embeds the same bytes as wsdl.Contract.
const contractFile = "contactsync.wsdl"

// operation is one row of the contract's operation table (spec §4.2 as the contract is edited), as
// the generated table (gen.Operations) has it: the tests below hold the document to it, each element
// where ASMX writes it. What the table holds is pinned by testdata/operations.golden
// (TestContractOperations), which `make update-golden` rewrites after an edit.
type operation struct {
	name        string
	description string
	params      []param // the request wrapper's elements
	result      string  // QName of the <Op>Result type in the SOAP response ("" when none)
	resultMin   string  // minOccurs of <Op>Result
	httpResult  string  // QName of the root element returned by HTTP GET and POST; "" when offered over SOAP only
}

// param is an element of a request wrapper, and its part in the HTTP GET and POST messages.
type param struct {
	name, typ, minOccurs, maxOccurs string
	httpType                        string // the HTTP message part's type: s:string, or s2:StringArray for an array
}

// operations lists the contract's operations in the order the contract declares them.
var operations = operationsOf(gen.Operations)

// operationsOf turns the generated table into the rows the tests check the document against.
func operationsOf(ops []*wire.Operation) []operation {
	var out []operation
	for _, op := range ops {
		row := operation{name: op.Name, description: op.Doc}
		if op.Result != nil { // nil for an operation without a result (a one-way one)
			row.result, row.resultMin = qname(op.Result.Type), strconv.Itoa(op.Result.MinOccurs)
		}
		for _, p := range op.Params {
			pr := param{name: p.Name, typ: qname(p.Type), minOccurs: strconv.Itoa(p.MinOccurs), maxOccurs: strconv.Itoa(p.MaxOccurs), httpType: "s:string"}
			if p.MaxOccurs < 0 {
				pr.maxOccurs = "unbounded"
			}
			if p.Type.Kind == wire.KindArray {
				pr.httpType = "s2:StringArray" // whatever the item type, as ASMX writes it
			}
			row.params = append(row.params, pr)
		}
		if op.Bindings.Has(wire.HTTPGet | wire.HTTPPost) {
			row.httpResult = "tns:" + op.HTTPRoot
		}
		out = append(out, row)
	}
	return out
}

// qname is the QName the contract writes for a type: s: for XML Schema's, tns: for its own.
func qname(t *wire.Type) string {
	switch t.Kind {
	case wire.KindEnum, wire.KindComplex, wire.KindArray:
		return "tns:" + t.Name
	}
	return "s:" + t.Name
}

// httpOperations are the operations offered on HTTP GET and POST.
func httpOperations() []operation {
	var out []operation
	for _, op := range operations {
		if op.httpResult != "" {
			out = append(out, op)
		}
	}
	return out
}

func operationNames(ops []operation) []string {
	names := make([]string, len(ops))
	for i, op := range ops {
		names[i] = op.name
	}
	return names
}

// TestContractOperations pins the contract's operations as the generated table has them:
// testdata/operations.golden, one paragraph per operation (its description, parameters, SOAP result
// and HTTP result root), which -update rewrites after a contract edit.
func TestContractOperations(t *testing.T) {
	var b strings.Builder
	for _, op := range operations {
		fmt.Fprintf(&b, "%s: %s\n", op.name, op.description)
		for _, p := range op.params {
			fmt.Fprintf(&b, "  param %s %s minOccurs=%s maxOccurs=%s http=%s\n", p.name, p.typ, p.minOccurs, p.maxOccurs, p.httpType)
		}
		fmt.Fprintf(&b, "  result %s minOccurs=%s\n", op.result, op.resultMin)
		if op.httpResult != "" {
			fmt.Fprintf(&b, "  http result %s\n", op.httpResult)
		} else {
			fmt.Fprintf(&b, "  SOAP only\n")
		}
	}
	golden(t, filepath.Join("testdata", "operations.golden"), b.String())
}

// family is one of the three abstract interfaces (portTypes) and the message suffix it uses.
type family struct {
	portType string // portType name
	suffix   string // message name suffix: <Op><suffix>In / <Op><suffix>Out
}

var (
	familySOAP     = family{"SyncServiceSoap", "Soap"}
	familyHTTPGet  = family{"SyncServiceHttpGet", "HttpGet"}
	familyHTTPPost = family{"SyncServiceHttpPost", "HttpPost"}
	families       = []family{familySOAP, familyHTTPGet, familyHTTPPost}
)

func TestContractEmbeddedMatchesFile(t *testing.T) {
	onDisk, err := os.ReadFile(contractFile)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(onDisk, wsdl.Contract), "wsdl.Contract must embed %s byte for byte", contractFile)
}

func TestContractConstants(t *testing.T) {
	assert.Equal(t, wsdl.DefaultBaseURL+"/contactsync/v1/", wsdl.DefaultNamespace, "spec §1: namespace is {base_url}/contactsync/v1/")
	assert.Equal(t, "/contactsync/v1/sync.asmx", wsdl.Path, "spec §4: endpoint path")
	assert.Equal(t, wsdl.DefaultBaseURL+wsdl.Path, wsdl.DefaultAddress)
}

// TestContractWellFormed reads the whole document with a strict encoding/xml decoder: it must be
// well-formed XML 1.0, have no DOCTYPE (nor any other directive) and exactly one root element,
// wsdl:definitions. (xmllint re-checks well-formedness with a full XML parser in
// TestContractValidAgainstWSDLSchemas.)
func TestContractWellFormed(t *testing.T) {
	data := wsdl.Contract
	require.True(t, utf8.Valid(data), "the contract must be valid UTF-8")

	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	var (
		roots    []xml.Name
		depth    int
		sawDecl  bool
		elements int
	)
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err, "the contract is not well-formed XML")
		switch tok := tok.(type) {
		case xml.ProcInst:
			require.Equal(t, "xml", tok.Target, "no processing instruction other than the XML declaration")
			require.False(t, sawDecl, "one XML declaration")
			sawDecl = true
		case xml.Directive:
			t.Fatalf("the contract must not contain a DOCTYPE or other directive: <!%s>", tok)
		case xml.StartElement:
			if depth == 0 {
				roots = append(roots, tok.Name)
			}
			depth++
			elements++
		case xml.EndElement:
			depth--
		case xml.CharData:
			if depth == 0 {
				assert.Empty(t, strings.TrimSpace(string(tok)), "no text outside the root element")
			}
		}
	}
	assert.True(t, sawDecl, "the contract starts with an XML declaration")
	assert.True(t, bytes.HasPrefix(data, []byte("<?xml ")), "the XML declaration is the very first thing in the file")
	require.Equal(t, []xml.Name{{Space: nsWSDL, Local: "definitions"}}, roots, "exactly one root element, wsdl:definitions")
	assert.Greater(t, elements, 100)

	// The typed model must read it too.
	d := loadContract(t)
	assert.Equal(t, "definitions", d.XMLName.Local)
}

// TestContractNamespacePrefixes makes sure every prefix used in a QName-valued attribute is declared on
// wsdl:definitions and that no element re-declares a prefix with another URI, so resolving QNames
// against the root's declarations (as the model does) is exact.
func TestContractNamespacePrefixes(t *testing.T) {
	root := loadTree(t)
	rootDecls := root.decls
	require.Equal(t, wsdl.DefaultNamespace, rootDecls["tns"])
	require.Equal(t, nsXSD, rootDecls["s"])
	require.Equal(t, nsWSDL, rootDecls["wsdl"])

	root.walk(func(n *node) {
		for prefix, uri := range n.decls {
			if want, ok := rootDecls[prefix]; ok {
				assert.Equal(t, want, uri, "element %s re-declares prefix %q with another namespace", n.path(), prefix)
			}
		}
		// Every element lives in a namespace the contract declares (no undeclared prefixes).
		assert.Contains(t, []string{nsWSDL, nsSOAP11, nsSOAP12, nsHTTP, nsMIME, nsXSD}, n.name.Space, "element %s", n.path())
		for _, a := range n.attr {
			if !isQNameAttr(n.name, a.Name.Local) || a.Name.Space != "" {
				continue
			}
			prefix, _, ok := strings.Cut(a.Value, ":")
			if assert.True(t, ok, "%s/@%s=%q must be a prefixed QName", n.path(), a.Name.Local, a.Value) {
				assert.Contains(t, rootDecls, prefix, "%s/@%s=%q uses an undeclared prefix", n.path(), a.Name.Local, a.Value)
			}
		}
	})
}

// isQNameAttr reports whether the unqualified attribute local of element el holds a QName.
func isQNameAttr(el xml.Name, local string) bool {
	switch el.Space {
	case nsWSDL:
		switch {
		case el.Local == "part" && (local == "element" || local == "type"):
			return true
		case (el.Local == "input" || el.Local == "output" || el.Local == "fault") && local == "message":
			return true
		case el.Local == "binding" && local == "type", el.Local == "port" && local == "binding":
			return true
		}
	case nsXSD:
		return local == "type" || local == "ref" || local == "base" || local == "itemType" || local == "substitutionGroup"
	case nsSOAP11, nsSOAP12:
		return local == "message" // soap:header, soap:headerfault
	}
	return false
}

func TestContractDefinitions(t *testing.T) {
	d := loadContract(t)
	assert.Equal(t, wsdl.DefaultNamespace, d.TargetNamespace, "definitions/@targetNamespace is the service namespace (spec §1)")
	assert.Equal(t, wsdl.DefaultNamespace, d.ns["tns"], "xmlns:tns is the service namespace")
	require.Len(t, d.Documentation, 1, "the definitions carry one wsdl:documentation")
	assert.NotEmpty(t, strings.TrimSpace(d.Documentation[0].Text))
	assert.Empty(t, d.Imports, "the contract is self-contained: no wsdl:import")
}

// TestContractSchema checks the one embedded XML schema: its namespace and form, the wrapper element
// of every request and response, the Contact and ArrayOfString types and the global elements the
// HTTP bindings return.
func TestContractSchema(t *testing.T) {
	d := loadContract(t)
	require.Len(t, d.Types, 1, "one wsdl:types")
	require.NotEmpty(t, d.Types[0].Schemas, "an XML schema in wsdl:types")
	for _, other := range d.Types[0].Schemas[1:] {
		// ASMX's schema for an array parameter on HTTP GET and POST (docs/contract.md).
		assert.Equal(t, wsdl.DefaultNamespace+"AbstractTypes", other.TargetNamespace, "the only other schema is AbstractTypes")
	}
	assert.Empty(t, d.Types[0].Other, "nothing but the xs:schema in wsdl:types")
	schema := d.schema()
	assert.Equal(t, wsdl.DefaultNamespace, schema.TargetNamespace, "schema targetNamespace is the service namespace")
	assert.Equal(t, "qualified", schema.ElementFormDefault, "elementFormDefault")
	assert.Empty(t, schema.Imports, "the schema imports nothing")
	assert.Empty(t, schema.Includes, "the schema includes nothing")

	t.Run("global elements", func(t *testing.T) {
		var want []string
		for _, op := range operations {
			want = append(want, op.name, op.name+"Response")
		}
		for _, op := range httpOperations() {
			if root := strings.TrimPrefix(op.httpResult, "tns:"); !slices.Contains(want, root) {
				want = append(want, root)
			}
		}
		var got []string
		for _, e := range schema.Elements {
			got = append(got, e.Name)
		}
		assert.ElementsMatch(t, want, got, "the schema declares exactly the wrapper elements and the HTTP results' roots (Contact, string, int)")
		assert.Equal(t, len(got), len(uniq(got)), "global element names are unique")

		for _, tc := range []struct{ name, typ, nillable string }{
			{"Contact", "tns:Contact", "true"},
			{"string", "s:string", "true"},
			{"int", "s:int", ""},
		} {
			e := schema.element(tc.name)
			if assert.NotNil(t, e, "global element %q", tc.name) {
				assert.Equal(t, tc.typ, e.Type, "element %q type", tc.name)
				assert.Equal(t, tc.nillable, e.Nillable, "element %q nillable", tc.name)
			}
		}
	})

	for _, op := range operations {
		t.Run("wrappers/"+op.name, func(t *testing.T) {
			req := schema.element(op.name)
			require.NotNil(t, req, "request wrapper element <%s>", op.name)
			assert.Empty(t, req.Type, "the request wrapper has an anonymous type")
			require.NotNil(t, req.ComplexType, "<%s> has an anonymous complexType", op.name)
			var params []param
			for _, p := range req.ComplexType.particles() {
				params = append(params, param{name: p.Name, typ: p.Type, minOccurs: p.MinOccurs, maxOccurs: p.MaxOccurs})
			}
			var want []param
			for _, p := range op.params {
				p.httpType = ""
				want = append(want, p)
			}
			assert.Equal(t, want, params, "<%s> holds one child per parameter, in order, typed as the table has it", op.name)

			resp := schema.element(op.name + "Response")
			require.NotNil(t, resp, "response wrapper element <%sResponse>", op.name)
			require.NotNil(t, resp.ComplexType, "<%sResponse> has an anonymous complexType", op.name)
			require.NotNil(t, resp.ComplexType.Sequence, "<%sResponse> is a sequence", op.name)
			results := resp.ComplexType.particles()
			require.Len(t, results, 1, "<%sResponse> holds exactly <%sResult>", op.name, op.name)
			r := results[0]
			assert.Equal(t, op.name+"Result", r.Name)
			assert.Equal(t, op.result, r.Type, "<%sResult> type", op.name)
			assert.Equal(t, op.resultMin, r.MinOccurs, "<%sResult> minOccurs", op.name)
			assert.Equal(t, "1", r.MaxOccurs, "<%sResult> maxOccurs", op.name)
		})
	}

	t.Run("Contact", func(t *testing.T) {
		ct := schema.complexType("Contact")
		require.NotNil(t, ct, "complexType Contact")
		require.NotNil(t, ct.Sequence, "Contact is a sequence: its fields come in a fixed order")
		assert.Empty(t, ct.Attributes, "Contact has no attributes")
	})

	t.Run("ArrayOfString", func(t *testing.T) {
		ct := schema.complexType("ArrayOfString")
		require.NotNil(t, ct, "complexType ArrayOfString")
		require.Nil(t, ct.ComplexContent, "ArrayOfString is a plain sequence, not a soapenc:Array derivation")
		items := ct.particles()
		require.Len(t, items, 1)
		assert.Equal(t, "string", items[0].Name, "RoleIds items are elements named string (spec §2)")
		assert.Equal(t, "s:string", items[0].Type)
		assert.Equal(t, "0", items[0].MinOccurs)
		assert.Equal(t, "unbounded", items[0].MaxOccurs)
	})

	t.Run("types", func(t *testing.T) {
		// The named types are the contract's (Contact's fields are spec §2 as the contract is
		// edited): testdata/schema-types.golden pins each, a complex type's elements in schema order
		// (name, type, minOccurs, maxOccurs, nillable), a simple type's restriction and values;
		// `make update-golden` (-update) rewrites it after an edit.
		var b strings.Builder
		for _, ct := range schema.ComplexTypes {
			fmt.Fprintf(&b, "complexType %s\n", ct.Name)
			for _, f := range ct.particles() {
				nillable := f.Nillable
				if nillable == "" {
					nillable = "false"
				}
				fmt.Fprintf(&b, "  %s %s minOccurs=%s maxOccurs=%s nillable=%s\n", f.Name, f.Type, f.MinOccurs, f.MaxOccurs, nillable)
			}
		}
		for _, st := range schema.SimpleTypes {
			fmt.Fprintf(&b, "simpleType %s\n", st.Name)
			if r := st.Restriction; r != nil {
				var values []string
				for _, e := range r.Enumerations {
					values = append(values, e.Value)
				}
				fmt.Fprintf(&b, "  restriction %s: %s\n", r.Base, strings.Join(values, " "))
			}
		}
		golden(t, filepath.Join("testdata", "schema-types.golden"), b.String())
	})
}

// TestContractMessages checks the messages of the three interfaces: SOAP messages carry the wrapper
// element as their single part "parameters"; HTTP GET/POST requests carry one xsd:string part per
// parameter and their responses one part "Body" holding the returned root element.
func TestContractMessages(t *testing.T) {
	d := loadContract(t)
	assert.Len(t, d.Messages, 2*len(operations)+2*2*len(httpOperations()), "one input and one output message per operation and interface that offers it")
	seen := map[string]bool{}
	for _, m := range d.Messages {
		assert.False(t, seen[m.Name], "message %q declared twice", m.Name)
		seen[m.Name] = true
	}

	for _, op := range operations {
		t.Run(op.name, func(t *testing.T) {
			in := d.message(op.name + "SoapIn")
			if assert.NotNil(t, in, "message %sSoapIn", op.name) {
				assert.Equal(t, []part{{Name: "parameters", Element: "tns:" + op.name}}, in.Parts)
			}
			out := d.message(op.name + "SoapOut")
			if assert.NotNil(t, out, "message %sSoapOut", op.name) {
				assert.Equal(t, []part{{Name: "parameters", Element: "tns:" + op.name + "Response"}}, out.Parts)
			}
			if op.httpResult == "" {
				return // offered over SOAP only
			}
			for _, f := range []family{familyHTTPGet, familyHTTPPost} {
				in := d.message(op.name + f.suffix + "In")
				if assert.NotNil(t, in, "message %s%sIn", op.name, f.suffix) {
					var want []part
					for _, p := range op.params {
						want = append(want, part{Name: p.name, Type: p.httpType})
					}
					assert.Equal(t, want, in.Parts, "message %s%sIn", op.name, f.suffix)
				}
				out := d.message(op.name + f.suffix + "Out")
				if assert.NotNil(t, out, "message %s%sOut", op.name, f.suffix) {
					assert.Equal(t, []part{{Name: "Body", Element: op.httpResult}}, out.Parts, "message %s%sOut", op.name, f.suffix)
				}
			}
		})
	}
}

// TestContractPortTypes checks the three interfaces: every operation, in the spec's order, with its
// one-line description and its input and output messages.
func TestContractPortTypes(t *testing.T) {
	d := loadContract(t)
	var names []string
	for _, pt := range d.PortTypes {
		names = append(names, pt.Name)
	}
	require.Equal(t, []string{familySOAP.portType, familyHTTPGet.portType, familyHTTPPost.portType}, names, "portTypes")

	for _, f := range families {
		pt := d.portType(f.portType)
		var got []string
		for _, o := range pt.Operations {
			got = append(got, o.Name)
		}
		ops := operations
		if f != familySOAP {
			ops = httpOperations()
		}
		require.Equal(t, operationNames(ops), got, "operations of portType %s", f.portType)
		for i, op := range ops {
			t.Run(f.portType+"/"+op.name, func(t *testing.T) {
				o := pt.Operations[i]
				require.Len(t, o.Documentation, 1, "wsdl:documentation of %s", op.name)
				doc := o.Documentation[0].Text
				assert.Equal(t, op.description, doc, "the description, verbatim (spec §4.2; testdata/operations.golden)")
				assert.NotContains(t, doc, "\n", "the description is one line")
				require.NotNil(t, o.Input)
				require.NotNil(t, o.Output)
				assert.Equal(t, "tns:"+op.name+f.suffix+"In", o.Input.Message)
				assert.Equal(t, "tns:"+op.name+f.suffix+"Out", o.Output.Message)
				assert.Empty(t, o.Faults, "no wsdl:fault (errors are not part of the spec)")
				assert.Empty(t, o.ParameterOrder)
			})
		}
	}
}

// TestContractBindings checks the four bindings: SOAP 1.1 and SOAP 1.2 (document/literal, SOAPAction =
// namespace + operation name), HTTP GET (urlEncoded input) and HTTP POST (form-encoded input), the
// latter two answering with the Body part as bare XML.
func TestContractBindings(t *testing.T) {
	d := loadContract(t)
	var names []string
	for _, b := range d.Bindings {
		names = append(names, b.Name)
	}
	require.Equal(t, []string{"SyncServiceSoap", "SyncServiceSoap12", "SyncServiceHttpGet", "SyncServiceHttpPost"}, names, "bindings")

	for _, tc := range []struct {
		binding, portType, ns string
	}{
		{"SyncServiceSoap", familySOAP.portType, nsSOAP11},
		{"SyncServiceSoap12", familySOAP.portType, nsSOAP12},
	} {
		t.Run(tc.binding, func(t *testing.T) {
			b := d.binding(tc.binding)
			assert.Equal(t, "tns:"+tc.portType, b.Type)
			ext := b.ext(tc.ns, "binding")
			require.NotNil(t, ext, "%s:binding", tc.ns)
			assert.Equal(t, soapOverHTTP, ext.attr("transport"))
			require.Len(t, b.Operations, len(operations))
			for i, op := range operations {
				bo := b.Operations[i]
				assert.Equal(t, op.name, bo.Name)
				so := bo.ext(tc.ns, "operation")
				if assert.NotNil(t, so, "%s: soap operation element of %s", tc.binding, op.name) {
					assert.Equal(t, wsdl.DefaultNamespace+op.name, so.attr("soapAction"), "SOAPAction of %s is namespace + operation name", op.name)
					assert.Equal(t, "document", so.attr("style"), "%s style", op.name)
				}
				for _, io := range []*bindingIO{bo.Input, bo.Output} {
					require.NotNil(t, io, "%s has input and output", op.name)
					require.Len(t, io.Ext, 1, "%s: one extension element", op.name)
					body := io.Ext[0]
					assert.Equal(t, xml.Name{Space: tc.ns, Local: "body"}, body.XMLName)
					assert.Equal(t, "literal", body.attr("use"))
				}
			}
		})
	}

	for _, tc := range []struct {
		binding, portType, verb string
		input                   xml.Name
		inputAttrs              map[string]string
	}{
		{"SyncServiceHttpGet", familyHTTPGet.portType, "GET", xml.Name{Space: nsHTTP, Local: "urlEncoded"}, nil},
		{"SyncServiceHttpPost", familyHTTPPost.portType, "POST", xml.Name{Space: nsMIME, Local: "content"},
			map[string]string{"type": "application/x-www-form-urlencoded"}},
	} {
		t.Run(tc.binding, func(t *testing.T) {
			b := d.binding(tc.binding)
			assert.Equal(t, "tns:"+tc.portType, b.Type)
			hb := b.ext(nsHTTP, "binding")
			require.NotNil(t, hb, "http:binding")
			assert.Equal(t, tc.verb, hb.attr("verb"))
			require.Len(t, b.Operations, len(httpOperations()))
			for i, op := range httpOperations() {
				bo := b.Operations[i]
				assert.Equal(t, op.name, bo.Name)
				ho := bo.ext(nsHTTP, "operation")
				if assert.NotNil(t, ho, "http:operation of %s", op.name) {
					assert.Equal(t, "/"+op.name, ho.attr("location"))
				}
				require.NotNil(t, bo.Input)
				require.Len(t, bo.Input.Ext, 1, "%s input: one extension element", op.name)
				assert.Equal(t, tc.input, bo.Input.Ext[0].XMLName, "%s input", op.name)
				for k, v := range tc.inputAttrs {
					assert.Equal(t, v, bo.Input.Ext[0].attr(k), "%s input @%s", op.name, k)
				}
				require.NotNil(t, bo.Output)
				require.Len(t, bo.Output.Ext, 1, "%s output: one extension element", op.name)
				out := bo.Output.Ext[0]
				assert.Equal(t, xml.Name{Space: nsMIME, Local: "mimeXml"}, out.XMLName, "%s output", op.name)
				assert.Equal(t, "Body", out.attr("part"), "%s output names the Body part", op.name)
			}
		})
	}
}

// TestContractService checks the one service and its four ports, all at the same address.
func TestContractService(t *testing.T) {
	d := loadContract(t)
	require.Len(t, d.Services, 1, "one service")
	svc := d.Services[0]
	assert.Equal(t, "SyncService", svc.Name)
	require.Len(t, svc.Documentation, 1)
	assert.NotEmpty(t, strings.TrimSpace(svc.Documentation[0].Text))

	want := []struct {
		port    string
		address xml.Name
	}{
		{"SyncServiceSoap", xml.Name{Space: nsSOAP11, Local: "address"}},
		{"SyncServiceSoap12", xml.Name{Space: nsSOAP12, Local: "address"}},
		{"SyncServiceHttpGet", xml.Name{Space: nsHTTP, Local: "address"}},
		{"SyncServiceHttpPost", xml.Name{Space: nsHTTP, Local: "address"}},
	}
	require.Len(t, svc.Ports, len(want), "four ports")
	for i, w := range want {
		p := svc.Ports[i]
		assert.Equal(t, w.port, p.Name)
		assert.Equal(t, "tns:"+w.port, p.Binding, "port %s binds the binding of the same name", w.port)
		if assert.Len(t, p.Ext, 1, "port %s has one address", w.port) {
			assert.Equal(t, w.address, p.Ext[0].XMLName, "port %s address element", w.port)
			assert.Equal(t, wsdl.DefaultAddress, p.Ext[0].attr("location"), "port %s address", w.port)
		}
	}
}

// TestContractReferencesResolve checks that every QName reference resolves (WSDL 1.1 §2; WS-I BP 1.1
// R2101, R2102): message parts to global elements or types, portType operations to messages, bindings
// to portTypes, ports to bindings, and schema type references to the schema or XML Schema's built-ins.
func TestContractReferencesResolve(t *testing.T) {
	forEachServedContract(t, contractReferencesResolve)
}

func contractReferencesResolve(t *testing.T, doc []byte) {
	d := loadContractFrom(t, doc)
	schema := d.schema()

	resolveType := func(qn string) bool {
		n := d.resolve(qn)
		switch n.Space {
		case nsXSD:
			return xsdBuiltins[n.Local]
		case d.TargetNamespace:
			return schema.complexType(n.Local) != nil || schema.simpleType(n.Local) != nil
		}
		return false
	}
	resolveElement := func(qn string) bool {
		n := d.resolve(qn)
		return n.Space == schema.TargetNamespace && schema.element(n.Local) != nil
	}

	schema.walkElements(func(path string, e xsdElement) {
		if e.Type != "" {
			assert.True(t, resolveType(e.Type), "schema element %s: type %q does not resolve", path, e.Type)
		}
		if e.Ref != "" {
			assert.True(t, resolveElement(e.Ref), "schema element %s: ref %q does not resolve", path, e.Ref)
		}
	})
	// A part may also name a type of the AbstractTypes schema ASMX adds for array parameters on HTTP
	// GET/POST (abstractTypesNamespace); nothing else may.
	resolvePartType := func(qn string) bool {
		n := d.resolve(qn)
		if n.Space != abstractTypesNamespace(d) {
			return resolveType(qn)
		}
		for _, types := range d.Types {
			for _, s := range types.Schemas {
				if s.TargetNamespace == n.Space && s.complexType(n.Local) != nil {
					return true
				}
			}
		}
		return false
	}
	for _, m := range d.Messages {
		for _, p := range m.Parts {
			if p.Element != "" {
				assert.True(t, resolveElement(p.Element), "message %s part %s: element %q is not a global element", m.Name, p.Name, p.Element)
			}
			if p.Type != "" {
				assert.True(t, resolvePartType(p.Type), "message %s part %s: type %q does not resolve", m.Name, p.Name, p.Type)
			}
		}
	}
	local := func(qn string) (string, bool) {
		n := d.resolve(qn)
		return n.Local, n.Space == d.TargetNamespace
	}
	for _, pt := range d.PortTypes {
		for _, o := range pt.Operations {
			for _, io := range append([]*ioRef{o.Input, o.Output}, o.faultRefs()...) {
				if io == nil {
					continue
				}
				name, ok := local(io.Message)
				assert.True(t, ok && d.message(name) != nil, "portType %s operation %s: message %q does not resolve", pt.Name, o.Name, io.Message)
			}
		}
	}
	for _, b := range d.Bindings {
		name, ok := local(b.Type)
		assert.True(t, ok && d.portType(name) != nil, "binding %s: type %q does not resolve", b.Name, b.Type)
	}
	for _, s := range d.Services {
		for _, p := range s.Ports {
			name, ok := local(p.Binding)
			assert.True(t, ok && d.binding(name) != nil, "port %s: binding %q does not resolve", p.Name, p.Binding)
		}
	}
}

// xsdBuiltins are XML Schema 1.0 built-in type names the contract may reference.
var xsdBuiltins = map[string]bool{
	"string": true, "boolean": true, "decimal": true, "float": true, "double": true, "duration": true,
	"dateTime": true, "time": true, "date": true, "base64Binary": true, "hexBinary": true, "anyURI": true,
	"QName": true, "normalizedString": true, "token": true, "language": true, "integer": true, "long": true,
	"int": true, "short": true, "byte": true, "unsignedLong": true, "unsignedInt": true, "unsignedShort": true,
	"unsignedByte": true, "nonNegativeInteger": true, "positiveInteger": true, "anyType": true,
}

// ---- the model ----

// definitions is wsdl:definitions with the parts of WSDL 1.1 the contract uses. Extension elements of
// the bindings and ports are kept generic (ext) so every binding family reads the same way.
type definitions struct {
	XMLName         xml.Name    `xml:"http://schemas.xmlsoap.org/wsdl/ definitions"`
	TargetNamespace string      `xml:"targetNamespace,attr"`
	Attrs           []xml.Attr  `xml:",any,attr"`
	Documentation   []docText   `xml:"http://schemas.xmlsoap.org/wsdl/ documentation"`
	Imports         []wsdlImp   `xml:"http://schemas.xmlsoap.org/wsdl/ import"`
	Types           []wsdlTypes `xml:"http://schemas.xmlsoap.org/wsdl/ types"`
	Messages        []message   `xml:"http://schemas.xmlsoap.org/wsdl/ message"`
	PortTypes       []portType  `xml:"http://schemas.xmlsoap.org/wsdl/ portType"`
	Bindings        []binding   `xml:"http://schemas.xmlsoap.org/wsdl/ binding"`
	Services        []service   `xml:"http://schemas.xmlsoap.org/wsdl/ service"`
	Ext             []ext       `xml:",any"`

	ns map[string]string // namespace declarations on the root: prefix ("" for default) → URI
}

type docText struct {
	Text string `xml:",chardata"`
}

type wsdlImp struct {
	Namespace string `xml:"namespace,attr"`
	Location  string `xml:"location,attr"`
}

type wsdlTypes struct {
	Schemas []xsdSchema `xml:"http://www.w3.org/2001/XMLSchema schema"`
	Other   []ext       `xml:",any"`
}

type message struct {
	Name  string `xml:"name,attr"`
	Parts []part `xml:"http://schemas.xmlsoap.org/wsdl/ part"`
}

type part struct {
	Name    string `xml:"name,attr"`
	Element string `xml:"element,attr"`
	Type    string `xml:"type,attr"`
}

type portType struct {
	Name       string              `xml:"name,attr"`
	Operations []portTypeOperation `xml:"http://schemas.xmlsoap.org/wsdl/ operation"`
}

type portTypeOperation struct {
	Name           string    `xml:"name,attr"`
	ParameterOrder string    `xml:"parameterOrder,attr"`
	Documentation  []docText `xml:"http://schemas.xmlsoap.org/wsdl/ documentation"`
	Input          *ioRef    `xml:"http://schemas.xmlsoap.org/wsdl/ input"`
	Output         *ioRef    `xml:"http://schemas.xmlsoap.org/wsdl/ output"`
	Faults         []ioRef   `xml:"http://schemas.xmlsoap.org/wsdl/ fault"`
}

func (o portTypeOperation) faultRefs() []*ioRef {
	var refs []*ioRef
	for i := range o.Faults {
		refs = append(refs, &o.Faults[i])
	}
	return refs
}

type ioRef struct {
	Name    string `xml:"name,attr"`
	Message string `xml:"message,attr"`
}

type binding struct {
	Name       string             `xml:"name,attr"`
	Type       string             `xml:"type,attr"`
	Operations []bindingOperation `xml:"http://schemas.xmlsoap.org/wsdl/ operation"`
	Ext        []ext              `xml:",any"`
}

type bindingOperation struct {
	Name   string         `xml:"name,attr"`
	Input  *bindingIO     `xml:"http://schemas.xmlsoap.org/wsdl/ input"`
	Output *bindingIO     `xml:"http://schemas.xmlsoap.org/wsdl/ output"`
	Faults []bindingFault `xml:"http://schemas.xmlsoap.org/wsdl/ fault"`
	Ext    []ext          `xml:",any"`
}

type bindingIO struct {
	Name string `xml:"name,attr"`
	Ext  []ext  `xml:",any"`
}

type bindingFault struct {
	Name string `xml:"name,attr"`
	Ext  []ext  `xml:",any"`
}

type service struct {
	Name          string    `xml:"name,attr"`
	Documentation []docText `xml:"http://schemas.xmlsoap.org/wsdl/ documentation"`
	Ports         []port    `xml:"http://schemas.xmlsoap.org/wsdl/ port"`
}

type port struct {
	Name    string `xml:"name,attr"`
	Binding string `xml:"binding,attr"`
	Ext     []ext  `xml:",any"`
}

// ext is any extensibility element (soap:*, soap12:*, http:*, mime:*), with its attributes and children.
type ext struct {
	XMLName  xml.Name
	Attrs    []xml.Attr `xml:",any,attr"`
	Children []ext      `xml:",any"`
}

// attr returns the value of the unqualified attribute local, or "" when it is absent.
func (e ext) attr(local string) string {
	v, _ := e.lookup(local)
	return v
}

// lookup returns the value of the unqualified attribute local and whether it is present.
func (e ext) lookup(local string) (string, bool) {
	for _, a := range e.Attrs {
		if a.Name.Space == "" && a.Name.Local == local {
			return a.Value, true
		}
	}
	return "", false
}

func findExt(list []ext, space, local string) *ext {
	for i := range list {
		if list[i].XMLName.Space == space && list[i].XMLName.Local == local {
			return &list[i]
		}
	}
	return nil
}

func findAllExt(list []ext, space, local string) []ext {
	var out []ext
	for _, e := range list {
		if e.XMLName.Space == space && e.XMLName.Local == local {
			out = append(out, e)
		}
	}
	return out
}

func (b binding) ext(space, local string) *ext          { return findExt(b.Ext, space, local) }
func (o bindingOperation) ext(space, local string) *ext { return findExt(o.Ext, space, local) }

// xsdSchema is the part of xs:schema the contract uses.
type xsdSchema struct {
	TargetNamespace    string           `xml:"targetNamespace,attr"`
	ElementFormDefault string           `xml:"elementFormDefault,attr"`
	Imports            []xsdImport      `xml:"http://www.w3.org/2001/XMLSchema import"`
	Includes           []xsdImport      `xml:"http://www.w3.org/2001/XMLSchema include"`
	Elements           []xsdElement     `xml:"http://www.w3.org/2001/XMLSchema element"`
	ComplexTypes       []xsdComplexType `xml:"http://www.w3.org/2001/XMLSchema complexType"`
	SimpleTypes        []xsdSimpleType  `xml:"http://www.w3.org/2001/XMLSchema simpleType"`
}

type xsdImport struct {
	Namespace      string `xml:"namespace,attr"`
	SchemaLocation string `xml:"schemaLocation,attr"`
}

// xsdSimpleType is a named simple type: an enumeration is a restriction of s:string listing its
// values.
type xsdSimpleType struct {
	Name        string `xml:"name,attr"`
	Restriction *struct {
		Base         string     `xml:"base,attr"`
		Enumerations []xsdValue `xml:"http://www.w3.org/2001/XMLSchema enumeration"`
	} `xml:"http://www.w3.org/2001/XMLSchema restriction"`
}

type xsdValue struct {
	Value string `xml:"value,attr"`
}

type xsdNamed struct {
	Name string `xml:"name,attr"`
}

type xsdElement struct {
	Name        string          `xml:"name,attr"`
	Type        string          `xml:"type,attr"`
	Ref         string          `xml:"ref,attr"`
	MinOccurs   string          `xml:"minOccurs,attr"`
	MaxOccurs   string          `xml:"maxOccurs,attr"`
	Nillable    string          `xml:"nillable,attr"`
	ComplexType *xsdComplexType `xml:"http://www.w3.org/2001/XMLSchema complexType"`
}

type xsdComplexType struct {
	Name           string     `xml:"name,attr"`
	Sequence       *xsdGroup  `xml:"http://www.w3.org/2001/XMLSchema sequence"`
	All            *xsdGroup  `xml:"http://www.w3.org/2001/XMLSchema all"`
	Choice         *xsdGroup  `xml:"http://www.w3.org/2001/XMLSchema choice"`
	ComplexContent *ext       `xml:"http://www.w3.org/2001/XMLSchema complexContent"`
	SimpleContent  *ext       `xml:"http://www.w3.org/2001/XMLSchema simpleContent"`
	Attributes     []xsdNamed `xml:"http://www.w3.org/2001/XMLSchema attribute"`
}

type xsdGroup struct {
	Elements []xsdElement `xml:"http://www.w3.org/2001/XMLSchema element"`
	Any      []xsdNamed   `xml:"http://www.w3.org/2001/XMLSchema any"`
}

// particles returns the elements of the type's sequence (or all/choice), in document order.
func (ct *xsdComplexType) particles() []xsdElement {
	for _, g := range []*xsdGroup{ct.Sequence, ct.All, ct.Choice} {
		if g != nil {
			return g.Elements
		}
	}
	return nil
}

func (s xsdSchema) element(name string) *xsdElement {
	for i := range s.Elements {
		if s.Elements[i].Name == name {
			return &s.Elements[i]
		}
	}
	return nil
}

func (s xsdSchema) complexType(name string) *xsdComplexType {
	for i := range s.ComplexTypes {
		if s.ComplexTypes[i].Name == name {
			return &s.ComplexTypes[i]
		}
	}
	return nil
}

func (s xsdSchema) simpleType(name string) *xsdSimpleType {
	for i := range s.SimpleTypes {
		if s.SimpleTypes[i].Name == name {
			return &s.SimpleTypes[i]
		}
	}
	return nil
}

// walkElements calls fn for every element declaration in the schema, global or local.
func (s xsdSchema) walkElements(fn func(path string, e xsdElement)) {
	var inType func(path string, ct *xsdComplexType)
	inType = func(path string, ct *xsdComplexType) {
		if ct == nil {
			return
		}
		for _, e := range ct.particles() {
			fn(path+"/"+e.Name, e)
			inType(path+"/"+e.Name, e.ComplexType)
		}
	}
	for _, e := range s.Elements {
		fn(e.Name, e)
		inType(e.Name, e.ComplexType)
	}
	for i := range s.ComplexTypes {
		inType("type "+s.ComplexTypes[i].Name, &s.ComplexTypes[i])
	}
}

func (d *definitions) schema() xsdSchema {
	if len(d.Types) == 0 || len(d.Types[0].Schemas) == 0 {
		return xsdSchema{}
	}
	return d.Types[0].Schemas[0]
}

func (d *definitions) message(name string) *message {
	for i := range d.Messages {
		if d.Messages[i].Name == name {
			return &d.Messages[i]
		}
	}
	return nil
}

func (d *definitions) portType(name string) *portType {
	for i := range d.PortTypes {
		if d.PortTypes[i].Name == name {
			return &d.PortTypes[i]
		}
	}
	return nil
}

func (d *definitions) binding(name string) *binding {
	for i := range d.Bindings {
		if d.Bindings[i].Name == name {
			return &d.Bindings[i]
		}
	}
	return nil
}

// resolve expands a QName attribute value with the root's namespace declarations (sound because
// TestContractNamespacePrefixes rules out re-declarations). An unknown prefix yields an empty Space.
func (d *definitions) resolve(qname string) xml.Name {
	prefix, local, ok := strings.Cut(qname, ":")
	if !ok {
		return xml.Name{Space: d.ns[""], Local: qname}
	}
	return xml.Name{Space: d.ns[prefix], Local: local}
}

// loadContract reads wsdl.Contract into the model.
func loadContract(t *testing.T) *definitions {
	t.Helper()
	return loadContractFrom(t, wsdl.Contract)
}

// loadContractFrom reads a WSDL document into the model.
func loadContractFrom(t *testing.T, doc []byte) *definitions {
	t.Helper()
	var d definitions
	require.NoError(t, xml.Unmarshal(doc, &d), "unmarshal the contract")
	d.ns = map[string]string{}
	for _, a := range d.Attrs {
		switch {
		case a.Name.Space == "xmlns":
			d.ns[a.Name.Local] = a.Value
		case a.Name.Space == "" && a.Name.Local == "xmlns":
			d.ns[""] = a.Value
		}
	}
	return &d
}

// node is a generic element tree, for the document-wide checks (order of children, attributes
// anywhere) that the typed model does not keep.
type node struct {
	name     xml.Name
	attr     []xml.Attr
	decls    map[string]string // namespace declarations made on this element
	parent   *node
	children []*node
	text     strings.Builder
}

func (n *node) walk(fn func(*node)) {
	fn(n)
	for _, c := range n.children {
		c.walk(fn)
	}
}

func (n *node) path() string {
	var parts []string
	for p := n; p != nil; p = p.parent {
		s := p.name.Local
		for _, a := range p.attr {
			if a.Name.Space == "" && a.Name.Local == "name" {
				s += "[@name=" + a.Value + "]"
			}
		}
		parts = append([]string{s}, parts...)
	}
	return "/" + strings.Join(parts, "/")
}

func (n *node) attrValue(local string) (string, bool) {
	for _, a := range n.attr {
		if a.Name.Space == "" && a.Name.Local == local {
			return a.Value, true
		}
	}
	return "", false
}

func (n *node) is(space, local string) bool { return n.name.Space == space && n.name.Local == local }

func parseTree(data []byte) (*node, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	var root, cur *node
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return root, nil
		}
		if err != nil {
			return nil, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			n := &node{name: tok.Name, parent: cur, decls: map[string]string{}}
			for _, a := range tok.Attr {
				switch {
				case a.Name.Space == "xmlns":
					n.decls[a.Name.Local] = a.Value
				case a.Name.Space == "" && a.Name.Local == "xmlns":
					n.decls[""] = a.Value
				default:
					n.attr = append(n.attr, a)
				}
			}
			if cur == nil {
				root = n
			} else {
				cur.children = append(cur.children, n)
			}
			cur = n
		case xml.EndElement:
			cur = cur.parent
		case xml.CharData:
			if cur != nil {
				cur.text.Write(tok)
			}
		}
	}
}

func loadTree(t *testing.T) *node {
	t.Helper()
	return loadTreeFrom(t, wsdl.Contract)
}

func loadTreeFrom(t *testing.T, doc []byte) *node {
	t.Helper()
	root, err := parseTree(doc)
	require.NoError(t, err)
	require.NotNil(t, root)
	return root
}

func uniq(list []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// forEachServedContract runs check on the contract as the service serves it for every combination of
// the four bindings (--protocols), each with the documents on: a disabled binding is left out of the
// WSDL, and what remains must still be a valid, WS-I conformant description. The combination of all
// four is the contract file itself.
func forEachServedContract(t *testing.T, check func(t *testing.T, doc []byte)) {
	t.Helper()
	all := []string{"soap11", "soap12", "get", "post"}
	for mask := 1; mask < 1<<len(all); mask++ {
		var names []string
		for i, n := range all {
			if mask&(1<<i) != 0 {
				names = append(names, n)
			}
		}
		doc, err := server.ContractFor(gen.Contract, wsdl.DefaultBaseURL, wsdl.DefaultAddress, append(names, "docs"))
		require.NoError(t, err)
		if len(names) == len(all) {
			require.True(t, gen.Contract.Document == string(doc), "with every binding on, the served contract is the file without its comments")
		}
		t.Run(strings.Join(names, "+"), func(t *testing.T) { check(t, doc) })
	}
}
