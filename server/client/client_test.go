package client_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"io"
	"testing"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const ns = "http://localhost:8080/contactsync/v1/"

// echoOp is an operation whose request is a complex value with a nil item, the shape of a complex
// parameter (the current contract has none; contract patches add them).
var echoOp = &wire.Operation{
	Name: "Echo", Bindings: wire.SOAP11 | wire.SOAP12,
	RequestElement: "Echo", ResponseElement: "EchoResponse",
}

func nilItem() wire.Message {
	s := "a"
	return &gen.ArrayOfString{Astring: []*string{&s, nil}}
}

// TestNewRequestDeclaresXSI: a nil item is written xsi:nil="true"; the request must declare xsi, or a
// namespace-aware reader sees an attribute in no known namespace and the nil is lost.
func TestNewRequestDeclaresXSI(t *testing.T) {
	for _, b := range []client.Binding{client.SOAP11, client.SOAP12} {
		t.Run(string(b), func(t *testing.T) {
			c := &client.Client{Endpoint: "http://127.0.0.1/x", Namespace: ns, Binding: b}
			req, err := c.NewRequest(context.Background(), echoOp, nilItem())
			require.NoError(t, err)
			body, err := io.ReadAll(req.Body)
			require.NoError(t, err)
			assert.Equal(t, 1, countNil(t, body), "%s", body)
		})
	}
}

// TestMessageNil: the printed message keeps the nil item, with xsi bound to its namespace.
func TestMessageNil(t *testing.T) {
	out, err := client.Message("Echo", ns, nilItem())
	require.NoError(t, err)
	assert.Equal(t, "<Echo xmlns=\""+ns+"\" xmlns:xsi=\""+xmlwire.NSXSI+"\">\n  <string>a</string>\n  <string xsi:nil=\"true\" />\n</Echo>", string(out))
	assert.Equal(t, 1, countNil(t, out))
}

// countNil counts the xsi:nil="true" attributes a namespace-aware parser sees in doc.
func countNil(t *testing.T, doc []byte) int {
	t.Helper()
	n := 0
	d := xml.NewDecoder(bytes.NewReader(doc))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return n
		}
		require.NoError(t, err)
		if se, ok := tok.(xml.StartElement); ok {
			for _, a := range se.Attr {
				if a.Name.Space == xmlwire.NSXSI && a.Name.Local == "nil" && a.Value == "true" {
					n++
				}
			}
		}
	}
}
