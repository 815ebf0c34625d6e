package server

import (
	"bytes"
	"net/http/httptest"
	"regexp"
	"testing"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/wsdl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIndentXMLOnlyAddsWhiteSpace: the samples show the encoders' bytes; indenting adds white space
// between tags and nothing else.
func TestIndentXMLOnlyAddsWhiteSpace(t *testing.T) {
	betweenTags := regexp.MustCompile(`>\s+<`)
	ns := wsdl.DefaultNamespace
	for _, b := range []binding{newSOAPBinding(false, ns, DefaultLimits(), gen.Operations), newSOAPBinding(true, ns, DefaultLimits(), gen.Operations), newHTTPBinding(false, ns, gen.Operations)} {
		for _, op := range gen.Operations {
			for _, r := range []wire.Message{wire.NewResponsePlaceholder(op), op.NewResponse()} {
				rec := httptest.NewRecorder()
				b.writeResult(rec, op, r)
				raw := rec.Body.Bytes()
				indented := indentXML(raw)
				assert.Equal(t, string(betweenTags.ReplaceAll(raw, []byte("><"))), string(betweenTags.ReplaceAll(bytes.TrimSpace(indented), []byte("><"))),
					"%s %s", b.name(), op.Name)
			}
		}
	}
	assert.Equal(t, "id=string", string(indentXML([]byte("id=string"))), "a form body is not XML and stays as it is")
	assert.Equal(t, "<a>\n  <b />\n  <c>t</c>\n</a>\n", string(indentXML([]byte("<a><b /><c>t</c></a>"))))
}

func TestHelpModelFromContract(t *testing.T) {
	require.Len(t, helpModel.Operations, len(gen.Operations))
	for i, op := range helpModel.Operations {
		assert.Equal(t, gen.Operations[i].Name, op.Name)
		assert.NotEmpty(t, op.Description)
		assert.Equal(t, len(gen.Operations[i].Params), len(op.Params), "%s: the form fields are the parameters", op.Name)
		for _, p := range op.Params {
			assert.Equal(t, helpParam{Name: "id", Type: "string"}, p)
		}
	}
	assert.Equal(t, []soapPort{{"SyncServiceSoap", "soap11"}, {"SyncServiceSoap12", "soap12"}}, helpModel.soapPorts)
}
