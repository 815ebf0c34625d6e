package docs

import (
	"bytes"
	"net/http/httptest"
	"net/url"
	"regexp"
	"testing"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/binding"
	"github.com/contactsync/contactsync/server/binding/httpform"
	"github.com/contactsync/contactsync/server/binding/soap"
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
	for _, b := range []binding.Binding{soap.New(false, ns, soap.DefaultLimits(), gen.Operations), soap.New(true, ns, soap.DefaultLimits(), gen.Operations), httpform.New(false, ns, gen.Operations)} {
		for _, op := range gen.Operations {
			sample, result := httptest.NewRecorder(), httptest.NewRecorder()
			b.WriteSample(sample, op, responsePlaceholder(op))
			b.WriteResult(result, op, op.NewResponse())
			for _, rec := range []*httptest.ResponseRecorder{sample, result} {
				raw := rec.Body.Bytes()
				indented := indentXML(raw)
				assert.Equal(t, string(betweenTags.ReplaceAll(raw, []byte("><"))), string(betweenTags.ReplaceAll(bytes.TrimSpace(indented), []byte("><"))),
					"%s %s", b.Name(), op.Name)
			}
		}
	}
	assert.Equal(t, "id=string", string(indentXML([]byte("id=string"))), "a form body is not XML and stays as it is")
	assert.Equal(t, "<a>\n  <b />\n  <c>t</c>\n</a>\n", string(indentXML([]byte("<a><b /><c>t</c></a>"))))
}

func TestHelpModelFromContract(t *testing.T) {
	helpModel, err := parseHelpModel([]byte(gen.Contract.Document), gen.Operations)
	require.NoError(t, err)
	assert.Equal(t, "SyncService", helpModel.Name)
	require.Len(t, helpModel.Operations, len(gen.Operations))
	for i, op := range helpModel.Operations {
		assert.Equal(t, gen.Operations[i].Name, op.Name)
		assert.NotEmpty(t, op.Description)
		assert.Equal(t, len(gen.Operations[i].Params), len(op.Params), "%s: the form fields are the parameters", op.Name)
		for j, p := range op.Params {
			want := gen.Operations[i].Params[j]
			assert.Equal(t, helpParam{Name: want.Name, Type: want.Type.Name}, p, "%s: the form field of each parameter, by its XSD type", op.Name)
		}
	}
	assert.Equal(t, []soapPort{{"SyncServiceSoap", "soap11"}, {"SyncServiceSoap12", "soap12"}}, helpModel.soapPorts)
}

// TestPlaceholderForm: the help pages' sample form of an array parameter shows two items, as their
// XML samples show two array items, and a simple parameter its type.
func TestPlaceholderForm(t *testing.T) {
	ids := &wire.Type{Name: "ArrayOfString", Kind: wire.KindArray, Item: &wire.Field{Name: "string", Type: wire.TypeString, MaxOccurs: -1, Nillable: true}}
	op := &wire.Operation{Name: "ReadContactList", Params: []wire.Field{{Name: "ids", Type: ids}, {Name: "asOf", Type: wire.TypeDateTime, MinOccurs: 1, MaxOccurs: 1}}}
	form := url.Values{}
	requestPlaceholder(op).EncodeForm(form)
	assert.Equal(t, "asOf=dateTime&ids=string&ids=string", form.Encode())
}
