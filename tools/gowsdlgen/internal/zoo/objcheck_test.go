package zoo_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/anytype"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/open"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/zoo3"
)

// nestedWidgets answers zoo3's GetObject and EchoBox with an object nested somewhere in the response
// that holds a widget, a complex value of a type the contract does not have, as the request's kind
// (GetObject) or the box's Seen (EchoBox) asks; "ok" answers values the contract can write.
type nestedWidgets struct {
	zoo3.UnimplementedSyncSoapServer
	calls atomic.Int32
}

func (s *nestedWidgets) GetObjectContext(_ context.Context, req *zoo3.GetObject) (*zoo3.GetObjectResponse, error) {
	s.calls.Add(1)
	var o anytype.Object
	switch req.Kind {
	case "box": // object → Box → object
		o = anytype.ObjectOf(&zoo3.Box{Value: anytype.ObjectOf(widget{})})
	case "items": // object → Box → ArrayOfAnyType → item
		o = anytype.ObjectOf(&zoo3.Box{Items: &zoo3.ArrayOfAnyType{AnyType: []anytype.Object{anytype.ObjectInt(1), anytype.ObjectOf(widget{})}}})
	case "deep": // object[] → object → Box → object → Box → object
		o = anytype.ObjectArray(anytype.ObjectOf(&zoo3.Box{Value: anytype.ObjectOf(&zoo3.Box{Value: anytype.ObjectOf(widget{})})}))
	case "ok":
		o = anytype.ObjectOf(&zoo3.Box{Value: anytype.ObjectInt(1), Items: &zoo3.ArrayOfAnyType{AnyType: []anytype.Object{anytype.ObjectOf(&zoo3.Box{})}}})
	}
	return &zoo3.GetObjectResponse{GetObjectResult: o}, nil
}

func (s *nestedWidgets) EchoBoxContext(_ context.Context, req *zoo3.EchoBox) (*zoo3.EchoBoxResponse, error) {
	s.calls.Add(1)
	box := &zoo3.Box{Seen: req.Box.Seen}
	switch req.Box.Seen {
	case "value": // Box result → object
		box.Value = anytype.ObjectOf(widget{})
	case "items": // Box result → ArrayOfAnyType → object → Box → object
		box.Items = &zoo3.ArrayOfAnyType{AnyType: []anytype.Object{anytype.ObjectOf(&zoo3.Box{Value: anytype.ObjectOf(widget{})})}}
	case "ok":
		box.Value = anytype.ObjectOf(&zoo3.Box{Value: anytype.ObjectString("x")})
	}
	return &zoo3.EchoBoxResponse{EchoBoxResult: box}, nil
}

// TestNestedObjectsCheckedBeforeWriting: a response holding, anywhere inside it, an object the
// contract cannot write is answered as an internal error on every binding that offers the operation
// (SOAP 1.1's Server fault, SOAP 1.2's Receiver, a 500 on HTTP GET/POST and the JSON endpoint), as
// ASMX answers soap11-GetObject-widget and get-GetObject-widget: the operation's CheckResult finds
// it before a byte is written, so the handler never recovers a panic from the writer. The same
// shapes holding contract values only are answered whole.
func TestNestedObjectsCheckedBeforeWriting(t *testing.T) {
	logs := &syncBuffer{}
	svc := &nestedWidgets{}
	h, err := server.NewHandler(zoo3.Bind(svc), server.Config{BaseURL: "http://localhost", Logger: slog.New(slog.NewJSONHandler(logs, nil)),
		Protocols: []string{"soap11", "soap12", "get", "post", "json"}})
	require.NoError(t, err)
	every := []client.Binding{client.SOAP11, client.SOAP12, client.HTTPGet, client.HTTPPost, client.JSON}
	soapAndJSON := []client.Binding{client.SOAP11, client.SOAP12, client.JSON}
	getObject, echoBox := zoo3.Operations[opIndex(t, "GetObject")], zoo3.Operations[opIndex(t, "EchoBox")]
	for _, tt := range []struct {
		name     string
		op       *wire.Operation
		req      wire.Message
		bindings []client.Binding
		bad      bool
	}{
		{"object holding a box holding a widget", getObject, &zoo3.GetObject{Kind: "box"}, every, true},
		{"object holding a box whose items hold a widget", getObject, &zoo3.GetObject{Kind: "items"}, every, true},
		{"object array holding boxes down to a widget", getObject, &zoo3.GetObject{Kind: "deep"}, every, true},
		{"object holding boxes of contract values", getObject, &zoo3.GetObject{Kind: "ok"}, every, false},
		{"box result holding a widget", echoBox, &zoo3.EchoBox{Box: &zoo3.Box{Seen: "value"}}, soapAndJSON, true},
		{"box result whose items hold a box holding a widget", echoBox, &zoo3.EchoBox{Box: &zoo3.Box{Seen: "items"}}, soapAndJSON, true},
		{"box result holding a box", echoBox, &zoo3.EchoBox{Box: &zoo3.Box{Seen: "ok"}}, soapAndJSON, false},
	} {
		for _, b := range tt.bindings {
			t.Run(tt.name+"/"+string(b), func(t *testing.T) {
				c := &client.Client{Endpoint: "http://localhost" + zoo3.Contract.Path, Namespace: zoo3.Contract.Namespace, Binding: b}
				httpReq, err := c.NewRequest(context.Background(), tt.op, tt.req)
				require.NoError(t, err)
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, httpReq)
				body := rec.Body.String()
				if !tt.bad {
					assert.Equal(t, http.StatusOK, rec.Code, body)
					return
				}
				assert.Equal(t, http.StatusInternalServerError, rec.Code, body)
				assert.NotContains(t, body, "Widget", "the detail is logged, not sent")
				switch b {
				case client.SOAP11:
					assert.Contains(t, body, "<faultcode>soap:Server</faultcode>")
				case client.SOAP12:
					assert.Contains(t, body, "<soap12:Value>soap12:Receiver</soap12:Value>")
				}
			})
		}
	}
	var failed int
	for _, l := range logs.lines(t) {
		assert.NotContains(t, l["msg"], "panic", "no answer came from a recovered panic")
		if l["msg"] == "request failed" {
			failed++
			assert.Contains(t, l["error"], "the type Widget of an object value is not a type of the contract", l)
		}
	}
	assert.Equal(t, 3*len(every)+2*len(soapAndJSON), failed, "one internal error logged per refused response")
}

// TestOpenStockChecked: zoo/open's Stock reaches an object through a derived result (Crate behind
// Any<Shelf>), an object out parameter and an Out header: a widget in any of them is an internal error
// on each binding (SOAP 1.1 and the JSON endpoint), found by CheckResult, not a recovered panic; with
// contract values only, all three are written and read back by the generated client.
func TestOpenStockChecked(t *testing.T) {
	logs := &syncBuffer{}
	h, err := server.NewHandler(open.Bind(openTwin{}), server.Config{BaseURL: "http://localhost", Logger: slog.New(slog.NewJSONHandler(logs, nil)),
		Protocols: []string{"soap11", "json"}})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	for _, b := range []client.Binding{client.SOAP11, client.JSON} {
		c := &open.OpenSoapClient{Invoker: &client.Client{Endpoint: srv.URL + open.Contract.Path, Namespace: open.Contract.Namespace, Binding: b, HTTP: srv.Client()}}
		for _, kind := range []string{"crate", "extra", "tag"} {
			_, err := c.Stock(&open.Stock{Kind: kind})
			assert.Error(t, err, "%s/%s", kind, b)
		}
		got, err := c.Stock(&open.Stock{Kind: "ok"})
		require.NoError(t, err, b)
		crate, ok := got.StockResult.(*open.Crate)
		require.True(t, ok, "%s: %#v", b, got.StockResult)
		box, ok := crate.Content.Complex().(*open.Box)
		require.True(t, ok, "%s: %v", b, crate.Content)
		n, _ := box.Value.Int()
		assert.Equal(t, int32(1), n, b)
		extra, _ := got.Extra.String()
		assert.Equal(t, "e", extra, b)
		if b == client.SOAP11 { // the JSON endpoint carries no SOAP header
			require.NotNil(t, got.Tag, b)
			tag, _ := got.Tag.Value.String()
			assert.Equal(t, "t", tag, b)
		}
	}
	var failed int
	for _, l := range logs.lines(t) {
		assert.NotContains(t, l["msg"], "panic", "no answer came from a recovered panic")
		if l["msg"] == "request failed" {
			failed++
			assert.Contains(t, l["error"], "the type Widget of an object value is not a type of the contract", l)
		}
	}
	assert.Equal(t, 6, failed, "one internal error logged per refused response")
}

// TestClientRefusesUnwritableRequest: the generated client refuses a request holding, anywhere inside
// it, an object its contract cannot write, before sending a byte, instead of panicking in the writer.
func TestClientRefusesUnwritableRequest(t *testing.T) {
	svc := &nestedWidgets{}
	h, err := server.NewHandler(zoo3.Bind(svc), server.Config{BaseURL: "http://localhost", Protocols: []string{"soap11", "soap12", "json"}})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	for _, tt := range []struct {
		name string
		box  *zoo3.Box
	}{
		{"box holding a widget", &zoo3.Box{Value: anytype.ObjectOf(widget{})}},
		{"box whose items hold a box holding a widget", &zoo3.Box{Items: &zoo3.ArrayOfAnyType{AnyType: []anytype.Object{anytype.ObjectOf(&zoo3.Box{Value: anytype.ObjectOf(widget{})})}}}},
	} {
		for _, b := range []client.Binding{client.SOAP11, client.SOAP12, client.JSON} {
			c := &zoo3.SyncSoapClient{Invoker: &client.Client{Endpoint: srv.URL + zoo3.Contract.Path, Namespace: zoo3.Contract.Namespace, Binding: b, HTTP: srv.Client()}}
			_, err := c.EchoBox(&zoo3.EchoBox{Box: tt.box})
			var fe *fault.Error
			if assert.ErrorAs(t, err, &fe, "%s/%s", tt.name, b) {
				assert.Equal(t, fault.Internal, fe.Code)
				assert.ErrorContains(t, fe.Err, "Widget")
			}
		}
	}
	assert.Zero(t, svc.calls.Load(), "no request was sent")
}

// opIndex is the index of zoo3's operation name in zoo3.Operations.
func opIndex(t *testing.T, name string) int {
	for i, op := range zoo3.Operations {
		if strings.EqualFold(op.Name, name) {
			return i
		}
	}
	t.Fatalf("zoo3 has no operation %s", name)
	return -1
}
