package server

import (
	"bytes"
	"net/http/httptest"
	"regexp"
	"testing"

	"github.com/contactsync/contactsync/wsdl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIndentXMLOnlyAddsWhiteSpace: the samples show the encoders' bytes; indenting adds white space
// between tags and nothing else.
func TestIndentXMLOnlyAddsWhiteSpace(t *testing.T) {
	betweenTags := regexp.MustCompile(`>\s+<`)
	ns := wsdl.DefaultNamespace
	for _, b := range []binding{newSOAPBinding(false, ns, DefaultLimits()), newSOAPBinding(true, ns, DefaultLimits()), newHTTPBinding(false, ns)} {
		for i := range operations {
			for _, r := range []result{placeholderResult(), {}} {
				rec := httptest.NewRecorder()
				b.writeResult(rec, &operations[i], r)
				raw := rec.Body.Bytes()
				indented := indentXML(raw)
				assert.Equal(t, string(betweenTags.ReplaceAll(raw, []byte("><"))), string(betweenTags.ReplaceAll(bytes.TrimSpace(indented), []byte("><"))),
					"%s %s", b.name(), operations[i].name)
			}
		}
	}
	assert.Equal(t, "id=string", string(indentXML([]byte("id=string"))), "a form body is not XML and stays as it is")
	assert.Equal(t, "<a>\n  <b />\n  <c>t</c>\n</a>\n", string(indentXML([]byte("<a><b /><c>t</c></a>"))))
}

func TestHelpModelFromContract(t *testing.T) {
	require.Len(t, helpModel.Operations, len(operations))
	for i, op := range helpModel.Operations {
		assert.Equal(t, operations[i].name, op.Name)
		assert.NotEmpty(t, op.Description)
		assert.Equal(t, operations[i].hasID, len(op.Params) == 1, "%s: the HTTP POST input matches the table", op.Name)
		for _, p := range op.Params {
			assert.Equal(t, helpParam{Name: "id", Type: "string"}, p)
		}
	}
	assert.Equal(t, []string{"SyncServiceSoap", "SyncServiceSoap12"}, helpModel.soapPorts)

	broken := bytes.Replace(wsdl.Contract, []byte(">Read a contact from the system<"), []byte("><"), -1)
	_, err := parseHelpModel(broken)
	assert.ErrorContains(t, err, "ReadContact")
}
