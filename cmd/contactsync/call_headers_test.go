package main

import (
	"encoding/xml"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// hdrRequest is a request whose operation reads the header Trace (RequestId string, Step int), as a
// generated one would read it.
type hdrRequest struct {
	requestID string
	step      int64
}

func (*hdrRequest) AppendXML(b []byte) []byte         { return b }
func (*hdrRequest) DecodeXML(r *xmlwire.Reader) error { return r.Discard() }
func (q *hdrRequest) DecodeHeader(r *xmlwire.Reader, s xmlwire.Start, _ bool) (bool, error) {
	if !s.Is("Trace") {
		return false, nil
	}
	for {
		el, ok, err := r.Child()
		if err != nil || !ok {
			return true, err
		}
		switch {
		case el.Is("Step"):
			q.step, err = r.ReadInt(el, "element Step", "int", 32)
		default:
			q.requestID, err = r.Text(el, "element "+el.Local())
		}
		if err != nil {
			return true, err
		}
	}
}

func TestCallHeaders(t *testing.T) {
	trace := &wire.Type{Name: "Trace", Kind: wire.KindComplex, AnyAttribute: true, Fields: []wire.Field{
		{Name: "RequestId", Type: wire.TypeString, MaxOccurs: 1}, {Name: "Step", Type: wire.TypeInt, MinOccurs: 1, MaxOccurs: 1},
		{Name: "Parts", Type: &wire.Type{Name: "ArrayOfString", Kind: wire.KindArray}, MaxOccurs: 1}}}
	op := &wire.Operation{Name: "Ping", NewRequest: func() wire.Message { return new(hdrRequest) },
		Headers: []wire.Header{{Element: xml.Name{Space: "urn:t", Local: "Trace"}, Type: trace, Direction: wire.HeaderInOut},
			{Element: xml.Name{Space: "urn:t", Local: "Out"}, Type: trace, Direction: wire.HeaderOut}}}

	hv, err := callHeaders(op, "urn:t", client.SOAP11, []string{"Trace.Step=5", "Trace.RequestId=a&b"})
	require.NoError(t, err)
	assert.Equal(t, `<Trace xmlns="urn:x"><RequestId>a&amp;b</RequestId><Step>5</Step></Trace>`, string(hv.AppendHeaders(nil, "soap", "urn:x")),
		"fields in the type's order, in the service's namespace")
	hv, err = callHeaders(op, "urn:t", client.SOAP12, nil)
	require.NoError(t, err)
	assert.Nil(t, hv)

	for _, tt := range []struct {
		name    string
		binding client.Binding
		flags   []string
		wantErr string
	}{
		{"GET", client.HTTPGet, []string{"Trace.Step=5"}, "--header: SOAP headers travel in the SOAP envelope; the get binding cannot carry them (use soap11 or soap12)"},
		{"no field", client.SOAP11, []string{"Trace=5"}, `--header "Trace=5": want Part.Field=value`},
		{"an Out header", client.SOAP11, []string{"Out.Step=5"}, `--header Out.Step: Ping reads no header "Out" (headers: Trace)`},
		{"an unknown field", client.SOAP11, []string{"Trace.Nope=5"}, `--header Trace.Nope: the header Trace has no field "Nope" (fields: RequestId, Step, Parts)`},
		{"a complex field", client.SOAP11, []string{"Trace.Parts=5"}, "--header Trace.Parts: the field is of the type ArrayOfString; only fields of a simple type can be given yet"},
		{"twice", client.SOAP11, []string{"Trace.Step=5", "Trace.Step=6"}, "--header Trace.Step is given more than once"},
		{"a bad value", client.SOAP11, []string{"Trace.Step=five"}, "--header Trace: "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := callHeaders(op, "urn:t", tt.binding, tt.flags)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}
	_, err = callHeaders(&wire.Operation{Name: "Version"}, "urn:t", client.SOAP11, []string{"A.b=c"})
	assert.EqualError(t, err, "--header: Version reads no SOAP header")
}

// outResponse is a response that read the Out header Trace.
type outResponse struct{ step string }

func (*outResponse) AppendXML(b []byte) []byte         { return b }
func (*outResponse) DecodeXML(r *xmlwire.Reader) error { return r.Discard() }
func (o *outResponse) AppendHeaders(b []byte, envPrefix, namespace string) []byte {
	if o.step == "" {
		return b
	}
	return append(b, `<Trace `+envPrefix+`:mustUnderstand="1" xmlns="`+namespace+`"><Step>`+o.step+`</Step></Trace>`...)
}

func TestCallPrintsOutHeaders(t *testing.T) {
	assert.Equal(t, `<soap12:Header xmlns:soap12="http://www.w3.org/2003/05/soap-envelope"><Trace soap12:mustUnderstand="1" xmlns="urn:t"><Step>5</Step></Trace></soap12:Header>`,
		string(outHeaders(&outResponse{step: "5"}, "urn:t", client.SOAP12)))
	assert.Nil(t, outHeaders(&outResponse{}, "urn:t", client.SOAP11), "none carried")
	assert.Nil(t, outHeaders(&outResponse{step: "5"}, "urn:t", client.HTTPGet), "GET carries none")
	assert.Nil(t, outHeaders(&hdrRequest{}, "urn:t", client.SOAP11), "a type without headers")
}
