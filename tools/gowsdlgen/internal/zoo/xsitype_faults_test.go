package zoo_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/polyrec"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/zoo3"
)

// TestXSITypeFaults: an xsi:type the hierarchy decoders cannot honour is the client's fault on SOAP 1.1
// and 1.2, naming what is wrong: a type attribute whose own prefix no declaration binds (it used to
// read as no xsi:type, the declared type, silently; ASMX's XML reader refuses the document, as it
// refuses an undeclared prefix in the value: soap11-EchoAnimal-undeclared-prefix), on a concrete and
// an abstract declared type.
func TestXSITypeFaults(t *testing.T) {
	h, err := server.NewHandler(zoo3.Bind(zoo3Service{}), server.Config{BaseURL: zooBaseURL})
	require.NoError(t, err)
	const ns = "http://localhost:8080/zoo3/v1/"
	for _, tt := range []struct {
		name, op, body, says string
	}{
		{"unbound attribute prefix on Animal", "EchoAnimal", `<EchoAnimal xmlns="` + ns + `"><animal i:type="Dog"><Name>Rex</Name></animal></EchoAnimal>`,
			"The attribute i:type of the element animal uses the namespace prefix i, which is not declared."},
		{"unbound attribute prefix on the abstract Shape", "DescribeShape", `<DescribeShape xmlns="` + ns + `"><shape i:type="Circle"><Radius>1</Radius></shape></DescribeShape>`,
			"The attribute i:type of the element shape uses the namespace prefix i, which is not declared."},
		{"undeclared prefix in the value", "EchoAnimal", `<EchoAnimal xmlns="` + ns + `"><animal xsi:type="nope:Dog"><Name>Rex</Name></animal></EchoAnimal>`,
			"uses the namespace prefix nope, which is not declared."},
	} {
		for _, soap12 := range []bool{false, true} {
			env := `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` + tt.body + `</soap:Body></soap:Envelope>`
			req := httptest.NewRequest(http.MethodPost, zoo3.Contract.Path, strings.NewReader(env))
			req.Header.Set("Content-Type", "text/xml; charset=utf-8")
			req.Header.Set("SOAPAction", `"`+ns+tt.op+`"`)
			code := "soap:Client"
			if soap12 {
				env = strings.ReplaceAll(env, "http://schemas.xmlsoap.org/soap/envelope/", "http://www.w3.org/2003/05/soap-envelope")
				req = httptest.NewRequest(http.MethodPost, zoo3.Contract.Path, strings.NewReader(env))
				req.Header.Set("Content-Type", `application/soap+xml; charset=utf-8; action="`+ns+tt.op+`"`)
				code = "soap12:Sender"
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			got := rec.Body.String()
			assert.Equal(t, http.StatusInternalServerError, rec.Code, "%s (SOAP 1.2 %v): %s", tt.name, soap12, got)
			assert.Contains(t, got, code, "%s (SOAP 1.2 %v)", tt.name, soap12)
			assert.Contains(t, got, tt.says, "%s (SOAP 1.2 %v)", tt.name, soap12)
		}
	}
}

// TestXSITypeAbstractDerived: an xsi:type naming an abstract type derived from the declared one (Bird,
// between polyrec's concrete Animal and Parrot) is the client's fault naming Bird as abstract; it used
// to name the concrete declared Animal.
func TestXSITypeAbstractDerived(t *testing.T) {
	ns := polyrec.Contract.Namespace
	doc := `<Pen xmlns="` + ns + `" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><Id>p</Id><Favorite xsi:type="Bird"><Name>Tweety</Name></Favorite></Pen>`
	r := xmlwire.NewReader([]byte(doc), ns, xmlwire.Limits{MaxDepth: 16, MaxElements: 64}, false)
	_, err := r.Root()
	require.NoError(t, err)
	err = new(polyrec.Pen).DecodeXML(r)
	require.Error(t, err)
	f := fault.As(err)
	assert.True(t, f.Code.CallerFault(), "%v", err)
	assert.Equal(t, "The xsi:type Bird of the element Favorite names an abstract type: it must name a type derived from Bird.", f.Message)
}
