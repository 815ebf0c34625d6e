package wsdl_test

// Validation of the contract with xmllint (Debian package libxml2-utils) against the published schemas,
// taken at run time from the Debian package python3-xmlschema, which installs them under
// /usr/lib/python3/dist-packages/xmlschema/schemas/:
//
//	WSDL/wsdl.xsd          WSDL 1.1 (namespace http://schemas.xmlsoap.org/wsdl/, the 2003-02-11 schema)
//	WSDL/wsdl-soap.xsd     WSDL 1.1 SOAP 1.1 binding (http://schemas.xmlsoap.org/wsdl/soap/, 2003-02-11)
//	XSD_1.0/XMLSchema.xsd  the XML Schema 1.0 schema for schemas (http://www.w3.org/2001/XMLSchema)
//	XML/xml_minimal.xsd    the xml: namespace (xml:lang), which XMLSchema.xsd imports from www.w3.org
//
// No Debian package ships schemas for the WSDL 1.1 SOAP 1.2, HTTP or MIME binding namespaces; their
// elements are matched by wsdl.xsd's lax wildcards and checked in Go instead (contract_test.go).
// Nothing is fetched from the network: xmllint runs with --nonet and an XML catalog, written to a
// temporary directory, maps XMLSchema.xsd's import of http://www.w3.org/2001/xml.xsd to the packaged
// copy.
//
// These tests skip when xmllint or the schemas are missing, except when CI=true, where they fail.
// Set WSDL_TEST_SCHEMA_DIR to use another copy of the xmlschema package's schemas/ directory.

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	csservice "github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/wsdl"
)

const (
	// debSchemaDir is where the Debian package python3-xmlschema installs its schemas.
	debSchemaDir = "/usr/lib/python3/dist-packages/xmlschema/schemas"
	// schemaPackage and xmllintPackage are the Debian packages these tests need.
	schemaPackage  = "python3-xmlschema"
	xmllintPackage = "libxml2-utils"
)

// toolMissing skips the test, or fails it when CI=true: CI must never skip these checks silently.
func toolMissing(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s (CI=true, so this is a failure, not a skip)", msg)
	}
	t.Skip(msg)
}

// validator runs xmllint against the packaged schemas.
type validator struct {
	xmllint string
	dir     string // the xmlschema package's schemas/ directory
	catalog string // XML catalog file mapping xml.xsd to the packaged copy
	tmp     string
}

func (v *validator) wsdlXSD() string       { return filepath.Join(v.dir, "WSDL", "wsdl.xsd") }
func (v *validator) wsdlSOAPXSD() string   { return filepath.Join(v.dir, "WSDL", "wsdl-soap.xsd") }
func (v *validator) metaSchemaXSD() string { return filepath.Join(v.dir, "XSD_1.0", "XMLSchema.xsd") }
func (v *validator) xmlNamespaceXSD() string {
	return filepath.Join(v.dir, "XML", "xml_minimal.xsd")
}

func newValidator(t *testing.T) *validator {
	t.Helper()
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		toolMissing(t, "xmllint not found: install the Debian package %s (apt-get install -y %s %s)", xmllintPackage, xmllintPackage, schemaPackage)
	}
	dir := os.Getenv("WSDL_TEST_SCHEMA_DIR")
	if dir == "" {
		dir = debSchemaDir
	}
	v := &validator{xmllint: xmllint, dir: dir, tmp: t.TempDir()}
	for _, f := range []string{v.wsdlXSD(), v.wsdlSOAPXSD(), v.metaSchemaXSD(), v.xmlNamespaceXSD()} {
		if _, err := os.Stat(f); err != nil {
			toolMissing(t, "schema %s not found: install the Debian package %s (apt-get install -y %s %s)", f, schemaPackage, xmllintPackage, schemaPackage)
		}
	}
	v.catalog = v.write(t, "catalog.xml", fmt.Sprintf(`<?xml version="1.0"?>
<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">
  <system systemId="http://www.w3.org/2001/xml.xsd" uri="%[1]s"/>
  <uri name="http://www.w3.org/2001/xml.xsd" uri="%[1]s"/>
</catalog>
`, fileURI(v.xmlNamespaceXSD())))
	return v
}

func (v *validator) write(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(v.tmp, name)
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

// validate runs xmllint --schema xsd doc. It returns xmllint's output and an error when the document
// is invalid; a schema that does not compile fails the test.
func (v *validator) validate(t *testing.T, xsd, doc string) (string, error) {
	t.Helper()
	cmd := exec.Command(v.xmllint, "--nonet", "--noout", "--schema", xsd, doc)
	cmd.Env = append(os.Environ(), "XML_CATALOG_FILES="+v.catalog)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() != 3 {
		// 3 is "validation error"; anything else (4, 5: the schema did not load or compile) is a broken setup.
		t.Fatalf("xmllint --schema %s %s: exit %d (schema or setup error, not a validation failure):\n%s", xsd, doc, exit.ExitCode(), out)
	}
	if err != nil && exit == nil {
		t.Fatalf("run xmllint: %v", err)
	}
	return string(out), err
}

// wsdlSchemaSet writes a driver schema that imports WSDL 1.1, its SOAP 1.1 binding and the XML Schema
// schema for schemas, so one validation checks the definitions, the soap:* elements and the embedded
// xs:schema (wsdl:types admits it through a lax wildcard, which validates it once its declaration is
// known).
func (v *validator) wsdlSchemaSet(t *testing.T) string {
	t.Helper()
	return v.write(t, "wsdl-set.xsd", fmt.Sprintf(`<?xml version="1.0" encoding="utf-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:import namespace="%s" schemaLocation="%s"/>
  <xs:import namespace="%s" schemaLocation="%s"/>
  <xs:import namespace="%s" schemaLocation="%s"/>
</xs:schema>
`, nsWSDL, fileURI(v.wsdlXSD()), nsSOAP11, fileURI(v.wsdlSOAPXSD()), nsXSD, fileURI(v.metaSchemaXSD())))
}

func fileURI(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// TestContractValidAgainstWSDLSchemas validates the whole contract against the WSDL 1.1 schema, the
// WSDL SOAP 1.1 binding schema and the XML Schema schema for schemas (WS-I BP 1.1 R2028, R2029 ask for
// validity against WS-I's corrected copies of the first two), and proves the check can fail.
func TestContractValidAgainstWSDLSchemas(t *testing.T) {
	v := newValidator(t)
	set := v.wsdlSchemaSet(t)

	out, err := v.validate(t, set, contractFile)
	require.NoError(t, err, "contactsync.wsdl is not valid:\n%s", out)
	assert.Contains(t, out, "validates")
	forEachServedContract(t, func(t *testing.T, doc []byte) {
		out, err := v.validate(t, set, v.write(t, "served.wsdl", string(doc)))
		require.NoError(t, err, "the served contract is not valid:\n%s", out)
	})

	// Broken copies of the contract, to prove each schema is applied.
	contract := string(wsdl.Contract)
	for _, tc := range []struct {
		name, old, new, want string
	}{
		{"WSDL 1.1: part without a name", `<wsdl:part name="parameters" element="tns:ReadContact" />`,
			`<wsdl:part element="tns:ReadContact" />`, "attribute 'name' is required"},
		{"WSDL 1.1: message names are unique (xs:key)", `<wsdl:message name="ReadContactSoapOut">`,
			`<wsdl:message name="ReadContactSoapIn">`, "Duplicate key-sequence ['ReadContactSoapIn']"},
		{"WSDL 1.1: port without a binding", `<wsdl:port name="SyncServiceSoap" binding="tns:SyncServiceSoap">`,
			`<wsdl:port name="SyncServiceSoap">`, "attribute 'binding' is required"},
		{"SOAP binding: use is literal or encoded", `<soap:body use="literal" />`, `<soap:body use="literally" />`, "'literally' is not an element of the set"},
		{"SOAP binding: style is document or rpc", `style="document" />`, `style="wrapped" />`, "'wrapped' is not an element of the set"},
		{"schema for schemas: elementFormDefault", `elementFormDefault="qualified"`, `elementFormDefault="qualifed"`, "'qualifed' is not an element of the set"},
		{"schema for schemas: maxOccurs", `maxOccurs="unbounded" name="string"`, `maxOccurs="many" name="string"`, "maxOccurs"},
	} {
		t.Run("rejects/"+tc.name, func(t *testing.T) {
			require.Contains(t, contract, tc.old, "the mutation no longer applies; update the test")
			broken := v.write(t, "broken.wsdl", strings.Replace(contract, tc.old, tc.new, 1))
			out, err := v.validate(t, set, broken)
			require.Error(t, err, "the broken contract must not validate")
			assert.Contains(t, out, tc.want)
		})
	}
}

// appendsXML is a generated value that writes its elements (the wire codec's Message).
type appendsXML interface{ AppendXML(b []byte) []byte }

// writeContactInstances rewrites, under -update (make update-golden), the valid instances that hold
// the contract's Contact from the generated encoder: a full contact (service.TestContact), one with
// its key alone, and a ReadContact response. They pin the contract as it is, so a contract edit
// changes them (an added required element, a renamed one) and make update-golden keeps them true;
// the invalid instances test the schema's rules on fields every contract version has.
func writeContactInstances(t *testing.T) {
	t.Helper()
	element := func(comment, name string, m appendsXML) []byte {
		b := []byte(`<?xml version="1.0" encoding="utf-8"?>` + "\n<!-- " + comment + " (written by make update-golden from the generated encoder) -->\n")
		b = append(b, "<"+name+` xmlns="`+wsdl.DefaultNamespace+`">`...)
		b = m.AppendXML(b)
		return append(b, "</"+name+">\n"...)
	}
	for file, doc := range map[string][]byte{
		"contact.xml":              element("A Contact with every field set", "Contact", csservice.TestContact("c-1001")),
		"contact-empty.xml":        element("A Contact with its key alone", "Contact", &gen.Contact{Id: "c-1002"}),
		"ReadContact.response.xml": element("The SOAP body of a ReadContact response", "ReadContactResponse", &gen.ReadContactResponse{ReadContactResult: csservice.TestContact("c-1001")}),
	} {
		require.NoError(t, os.WriteFile(filepath.Join("testdata", "instances", file), doc, 0o644))
	}
}

// TestContractSchemaValid extracts the xs:schema embedded in wsdl:types as a stand-alone schema
// document, validates it against the XML Schema schema for schemas, compiles it with xmllint and
// validates sample instance documents (testdata/instances) against it: the SOAP wrappers, a Contact
// with RoleIds, and documents that must be rejected.
func TestContractSchemaValid(t *testing.T) {
	if *update {
		writeContactInstances(t)
	}
	v := newValidator(t)
	schemaDoc, err := extractSchema(wsdl.Contract)
	require.NoError(t, err)
	xsd := v.write(t, "contactsync.xsd", string(schemaDoc))

	t.Run("valid against the schema for schemas", func(t *testing.T) {
		out, err := v.validate(t, v.metaSchemaXSD(), xsd)
		require.NoError(t, err, "the embedded schema is not a valid XML Schema 1.0 document:\n%s", out)
	})

	for _, tc := range []struct {
		file  string
		valid bool
		want  string // expected in xmllint's message when invalid
	}{
		{"contact.xml", true, ""},
		{"contact-empty.xml", true, ""},
		{"contact-nil.xml", true, ""},
		{"contact-fields-out-of-order.xml", false, "AccountId': This element is not expected"},
		{"contact-unknown-field.xml", false, "MiddleName': This element is not expected"},
		{"contact-unqualified-fields.xml", false, "Element 'Id': This element is not expected"},
		{"contact-roleids-wrong-item.xml", false, "RoleId': This element is not expected"},
		{"string.xml", true, ""},
		{"int.xml", true, ""},
		{"int-not-a-number.xml", false, "is not a valid value of the atomic type 'xs:int'"},
		{"ReadContact.request.xml", true, ""},
		{"ReadContact.request-two-ids.xml", false, "id': This element is not expected"},
		{"ReadContact.response.xml", true, ""},
		{"TestCreateContact.request.xml", true, ""},
		{"TestCreateContact.response-empty.xml", true, ""},
		{"Version.request.xml", true, ""},
		{"Version.request-with-parameter.xml", false, "Element content is not allowed, because the content type is empty"},
		{"Version.response.xml", true, ""},
		{"VersionMajor.response.xml", true, ""},
		{"VersionMajor.response-missing-result.xml", false, "Missing child element(s)"},
		{"VersionMinor.response-not-an-int.xml", false, "is not a valid value of the atomic type 'xs:int'"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			doc := filepath.Join("testdata", "instances", tc.file)
			out, err := v.validate(t, xsd, doc)
			if tc.valid {
				require.NoError(t, err, "%s should be valid:\n%s", tc.file, out)
				return
			}
			require.Error(t, err, "%s must be rejected", tc.file)
			assert.Contains(t, out, tc.want)
		})
	}

	t.Run("rejects a broken schema", func(t *testing.T) {
		broken := v.write(t, "broken.xsd", strings.Replace(string(schemaDoc), `type="tns:ArrayOfString"`, `type="tns:ListOfString"`, 1))
		cmd := exec.Command(v.xmllint, "--nonet", "--noout", "--schema", broken, filepath.Join("testdata", "instances", "contact.xml"))
		out, err := cmd.CombinedOutput()
		require.Error(t, err, "a schema with a dangling type reference must not compile")
		assert.Contains(t, string(out), "ListOfString")
	})
}

// extractSchema cuts the (first) xs:schema element out of wsdl:types and makes it a stand-alone document by
// copying onto it the namespace declarations it inherits from wsdl:definitions.
func extractSchema(doc []byte) ([]byte, error) {
	type frame struct {
		name  xml.Name
		decls []xml.Attr // xmlns declarations made on this element
	}
	dec := xml.NewDecoder(bytes.NewReader(doc))
	var (
		stack      []frame
		inherited  []xml.Attr // declarations of the schema's ancestors, outermost first
		own        = map[string]bool{}
		start, end int64
		depth      = -1 // stack depth of the xs:schema while inside it
	)
	for {
		offset := dec.InputOffset()
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			f := frame{name: tok.Name}
			for _, a := range tok.Attr {
				if a.Name.Space == "xmlns" || (a.Name.Space == "" && a.Name.Local == "xmlns") {
					f.decls = append(f.decls, a)
				}
			}
			// The first schema, the service's; a later one (ASMX's AbstractTypes schema of an array
			// parameter on HTTP GET and POST, which imports the SOAP encoding schema) is left out.
			if tok.Name == (xml.Name{Space: nsXSD, Local: "schema"}) && depth < 0 && start == 0 &&
				len(stack) > 0 && stack[len(stack)-1].name == (xml.Name{Space: nsWSDL, Local: "types"}) {
				start, depth = offset, len(stack)
				for _, anc := range stack {
					inherited = append(inherited, anc.decls...)
				}
				for _, a := range f.decls {
					own[declPrefix(a)] = true
				}
			}
			stack = append(stack, f)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
			if len(stack) == depth {
				end, depth = dec.InputOffset(), -1
			}
		}
	}
	if start == 0 || end == 0 {
		return nil, errors.New("no xs:schema in wsdl:types")
	}
	raw := doc[start:end]
	// Insert the inherited declarations right after the element name of the start tag.
	nameEnd := bytes.IndexAny(raw, " \t\r\n/>")
	if nameEnd < 0 {
		return nil, errors.New("malformed xs:schema start tag")
	}
	var decls bytes.Buffer
	seen := map[string]bool{}
	for i := len(inherited) - 1; i >= 0; i-- { // the innermost declaration of a prefix wins
		a := inherited[i]
		prefix := declPrefix(a)
		if own[prefix] || seen[prefix] {
			continue
		}
		seen[prefix] = true
		if prefix == "" {
			decls.WriteString(` xmlns="`)
		} else {
			decls.WriteString(` xmlns:` + prefix + `="`)
		}
		if err := xml.EscapeText(&decls, []byte(a.Value)); err != nil {
			return nil, err
		}
		decls.WriteString(`"`)
	}
	var out bytes.Buffer
	out.WriteString("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n")
	out.Write(raw[:nameEnd])
	out.Write(decls.Bytes())
	out.Write(raw[nameEnd:])
	out.WriteString("\n")
	return out.Bytes(), nil
}

// declPrefix returns the prefix an xmlns attribute declares, "" for the default namespace.
func declPrefix(a xml.Attr) string {
	if a.Name.Space == "xmlns" {
		return a.Name.Local
	}
	return ""
}

func TestExtractSchema(t *testing.T) {
	got, err := extractSchema(wsdl.Contract)
	require.NoError(t, err)
	root, err := parseTree(got)
	require.NoError(t, err)
	assert.True(t, root.is(nsXSD, "schema"), "the extracted document is an xs:schema")
	assert.Equal(t, wsdl.DefaultNamespace, root.decls["tns"], "tns is declared on the extracted schema")
	tns, _ := root.attrValue("targetNamespace")
	assert.Equal(t, wsdl.DefaultNamespace, tns)
	var elements int
	for _, c := range root.children {
		if c.is(nsXSD, "element") {
			elements++
		}
	}
	assert.Equal(t, len(loadContract(t).schema().Elements), elements, "all global elements are carried over")

	_, err = extractSchema([]byte(`<definitions xmlns="` + nsWSDL + `"><types/></definitions>`))
	assert.Error(t, err, "no schema")
}
