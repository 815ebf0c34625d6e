package zoo_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/wire/anytype"
	"github.com/contactsync/contactsync/server/wire/xmlany"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
	"github.com/contactsync/contactsync/server/wire/xsd"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/open"
)

// openTwin serves zoo/open: Put answers the DataSet it was given and keeps the request it read, Get
// answers a Box (a complex value of the contract) or an int as an object, Stock answers a Crate, an
// object out parameter and a Tag header, one of which holds a widget (a value of no contract type)
// as the kind names it ("crate", "extra", "tag"; none for any other kind).
type openTwin struct{ got chan *open.Put }

func (s openTwin) PutContext(_ context.Context, req *open.Put) (*open.PutResponse, error) {
	s.got <- req
	return &open.PutResponse{PutResult: req.Ds}, nil
}

func (openTwin) GetContext(_ context.Context, req *open.Get) (*open.GetResponse, error) {
	if req.Kind == "box" {
		return &open.GetResponse{GetResult: anytype.ObjectOf(&open.Box{Value: anytype.ObjectString("v")})}, nil
	}
	return &open.GetResponse{GetResult: anytype.ObjectInt(7)}, nil
}

func (openTwin) StockContext(_ context.Context, req *open.Stock) (*open.StockResponse, error) {
	resp := &open.StockResponse{
		StockResult: &open.Crate{Shelf: open.Shelf{Label: "c"}, Content: anytype.ObjectOf(&open.Box{Value: anytype.ObjectInt(1)})},
		Extra:       anytype.ObjectString("e"),
		Tag:         &open.Tag{Value: anytype.ObjectString("t")},
	}
	switch req.Kind {
	case "crate":
		resp.StockResult = &open.Crate{Content: anytype.ObjectOf(&open.Box{Value: anytype.ObjectOf(widget{})})}
	case "extra":
		resp.Extra = anytype.ObjectArray(anytype.ObjectOf(widget{}))
	case "tag":
		resp.Tag = &open.Tag{Value: anytype.ObjectOf(widget{})}
	}
	return resp, nil
}

// TestOpenRoundTrip: every open shape of zoo/open's generated code (object parameter and field,
// ArrayOfAnyType with a nil item, XmlElement, XmlNode, XmlNode[], a DataSet of the s:schema form read
// and one of zoo3's form written) goes through the generated client and server on every binding that
// offers it and arrives as it was sent; an object result on HTTP GET reads back, a complex one too.
func TestOpenRoundTrip(t *testing.T) {
	twin := openTwin{got: make(chan *open.Put, 1)}
	h, err := server.NewHandler(open.Bind(twin), server.Config{BaseURL: "http://localhost", Protocols: []string{"soap11", "get", "json"}})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	raw := func(s string) xmlany.RawXML {
		x, err := xmlany.ParseRawXML(s, xmlwire.Limits{MaxDepth: 16, MaxElements: 64})
		require.NoError(t, err)
		return x
	}
	sent := &open.Put{
		Value:   anytype.ObjectDecimal(xsd.MustParseDecimal("1.10")),
		Box:     &open.Box{Value: anytype.ObjectRaw(raw(`<p>1</p>`)), Items: &open.ArrayOfAnyType{AnyType: []anytype.Object{anytype.ObjectBool(true), {}, anytype.ObjectString("x")}}},
		Element: raw(`<r:Report xmlns:r="urn:r" id="1"><r:Line>a &amp; b</r:Line></r:Report>`),
		Node:    raw(`just text`),
		Nodes:   raw(`a<b xmlns="urn:b">c</b>d`),
		Ds:      &xmlany.DataSet{Content: raw(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" id="S"></xs:schema><diffgr:diffgram xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1"></diffgr:diffgram>`)},
	}
	for _, b := range []client.Binding{client.SOAP11, client.JSON} {
		t.Run(string(b), func(t *testing.T) {
			c := &open.OpenSoapClient{Invoker: &client.Client{Endpoint: srv.URL + open.Contract.Path, Namespace: open.Contract.Namespace, Binding: b, HTTP: srv.Client()}}
			resp, err := c.Put(sent)
			require.NoError(t, err)
			got := <-twin.got
			got.XMLName = sent.XMLName
			assert.Equal(t, sent, got, "the request as the service read it")
			assert.Equal(t, sent.Ds, resp.PutResult, "the DataSet written back")
		})
	}
	for _, b := range []client.Binding{client.SOAP11, client.HTTPGet, client.JSON} {
		c := &open.OpenSoapClient{Invoker: &client.Client{Endpoint: srv.URL + open.Contract.Path, Namespace: open.Contract.Namespace, Binding: b, HTTP: srv.Client()}}
		got, err := c.Get(&open.Get{Kind: "int"})
		require.NoError(t, err, b)
		n, ok := got.GetResult.Int()
		assert.True(t, ok && n == 7, "%s: %v", b, got.GetResult)
		got, err = c.Get(&open.Get{Kind: "box"})
		require.NoError(t, err, b)
		box, ok := got.GetResult.Complex().(*open.Box)
		require.True(t, ok, "%s: %v", b, got.GetResult)
		s, _ := box.Value.String()
		assert.Equal(t, "v", s, b)
	}
}
