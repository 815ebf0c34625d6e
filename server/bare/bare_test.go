package bare_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/bare"
	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

const (
	ns    = "urn:t"
	env11 = "http://schemas.xmlsoap.org/soap/envelope/"
)

// twoParts and oneParam are bare operations; wrapped is not.
var (
	oneParam = &wire.Operation{Name: "One", Bare: true, Params: []wire.Field{{Name: "phrase"}}}
	twoParts = &wire.Operation{Name: "Two", Bare: true, Params: []wire.Field{{Name: "word"}, {Name: "times"}}}
	shared   = &wire.Operation{Name: "Shared", Bare: true, Params: []wire.Field{{Name: "word"}}}
	wrapped  = &wire.Operation{Name: "Wrapped", Params: []wire.Field{{Name: "x"}}}
)

// first reads the first body element of a SOAP 1.1 envelope with body as its Body's content.
func first(t *testing.T, body string) xmlwire.Start {
	t.Helper()
	rd := xmlwire.NewReader([]byte(`<soap:Envelope xmlns:soap="`+env11+`"><soap:Body>`+body+`</soap:Body></soap:Envelope>`), ns, xmlwire.Limits{MaxDepth: 16, MaxElements: 100}, false)
	_, err := rd.Root()
	require.NoError(t, err)
	_, ok, err := rd.Child()
	require.True(t, ok)
	require.NoError(t, err)
	el, ok, err := rd.Child()
	require.True(t, ok)
	require.NoError(t, err)
	return el
}

// TestFind: without a SOAPAction, the one parameter of a one-parameter operation routes to it; a
// parameter of a several-parameter operation, or one two operations share, asks for the action; any
// other element is none of package bare's business.
func TestFind(t *testing.T) {
	var r *bare.Routes
	assert.NoError(t, r.Find(first(t, `<phrase xmlns="urn:t" />`)), "nil routes find nothing")
	for _, op := range []*wire.Operation{oneParam, twoParts, shared, wrapped} {
		r = r.Add(op, ns)
	}
	assert.Equal(t, bare.Route{Op: oneParam}, r.Find(first(t, `<phrase xmlns="urn:t" />`)))
	for _, body := range []string{`<word xmlns="urn:t" />`, `<times xmlns="urn:t" />`} {
		err := r.Find(first(t, body))
		require.Error(t, err, body)
		assert.Equal(t, fault.UnknownOperation, fault.As(err).Code)
		assert.Contains(t, err.Error(), bare.AskForAction)
	}
	assert.NoError(t, r.Find(first(t, `<phrase xmlns="urn:other" />`)), "another namespace")
	assert.NoError(t, r.Find(first(t, `<x xmlns="urn:t" />`)), "a wrapped operation's parameter")
}

// TestRouted: a Route without an action is the operation to read the body as; with an action naming
// another operation, that operation's body does not match it.
func TestRouted(t *testing.T) {
	op, err := bare.Routed(bare.Route{Op: oneParam}, nil)
	assert.Same(t, oneParam, op)
	assert.NoError(t, err)
	op, err = bare.Routed(bare.Route{Op: oneParam}, wrapped)
	assert.Nil(t, op)
	assert.Equal(t, "The SOAP action names Wrapped but the body holds a parameter of One.", fault.As(err).Message)
	other := fault.Errorf(fault.MalformedRequest, "x")
	op, err = bare.Routed(other, nil)
	assert.Nil(t, op)
	assert.Same(t, other, err)
}

// TestCheckBody: with a bare operation's action, the Body's first element must be one of its
// parameters, or the Body empty; a document the reader cannot read is left to the decoding.
func TestCheckBody(t *testing.T) {
	limits := xmlwire.Limits{MaxDepth: 16, MaxElements: 100}
	envelope := func(body string) []byte {
		return []byte(`<soap:Envelope xmlns:soap="` + env11 + `"><soap:Header><h xmlns="urn:h" /></soap:Header><soap:Body>` + body + `</soap:Body></soap:Envelope>`)
	}
	tests := []struct {
		name, body string
		op         *wire.Operation
		refused    string
	}{
		{"a parameter first", `<times xmlns="urn:t">2</times><x />`, twoParts, ""},
		{"an empty body", ``, twoParts, ""},
		{"a wrapper", `<Two xmlns="urn:t"><word>a</word></Two>`, twoParts, "The SOAP action names Two but the body holds Two, which is none of its parameters."},
		{"another namespace", `<word xmlns="urn:x">a</word>`, twoParts, "the body holds word"},
		{"a wrapped operation is not checked", `<y />`, wrapped, ""},
		{"no operation", `<y />`, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := bare.CheckBody(envelope(tt.body), env11, ns, limits, tt.op)
			if tt.refused == "" {
				assert.Nil(t, err)
				return
			}
			require.NotNil(t, err)
			assert.Equal(t, fault.UnknownOperation, err.Code)
			assert.Contains(t, err.Error(), tt.refused)
		})
	}
	assert.Nil(t, bare.CheckBody([]byte(`<soap:Envelope`), env11, ns, limits, twoParts), "unreadable: left to the decoding")
}

// message is a wire.Message whose AppendXML writes xml.
type message string

func (m message) AppendXML(b []byte) []byte     { return append(b, m...) }
func (message) DecodeXML(*xmlwire.Reader) error { return nil }

// TestAppendBody: the result element gets its namespace declaration after its name, whatever follows
// the name; no content makes the Body an empty-element tag.
func TestAppendBody(t *testing.T) {
	r := (*bare.Routes)(nil).Add(oneParam, ns)
	for content, want := range map[string]string{
		`<R>x</R>`:                    `<soap:Body><R xmlns="urn:t">x</R></soap:Body></soap:Envelope>`,
		`<R />`:                       `<soap:Body><R xmlns="urn:t" /></soap:Body></soap:Envelope>`,
		`<R xsi:nil="true" />`:        `<soap:Body><R xmlns="urn:t" xsi:nil="true" /></soap:Body></soap:Envelope>`,
		`<Order><Sku>a</Sku></Order>`: `<soap:Body><Order xmlns="urn:t"><Sku>a</Sku></Order></soap:Body></soap:Envelope>`,
		``:                            `<soap:Body /></soap:Envelope>`,
	} {
		assert.Equal(t, want, string(r.AppendBody([]byte(`<soap:Body>`), oneParam, message(content), "soap")), content)
	}
}
