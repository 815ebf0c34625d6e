package client_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/xml"
	"io"
	"testing"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/auth"
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

// typedPet is a request holding a derived value, as the generated writer writes it: xsi:type with the
// prefix the document root must declare.
type typedPet struct{}

func (typedPet) AppendXML(b []byte) []byte {
	return append(b, `<Pet xsi:type="Dog"><Barks>3</Barks></Pet>`...)
}
func (typedPet) DecodeXML(*xmlwire.Reader) error { return nil }

// TestNewRequestDeclaresXSIForType: a derived value's xsi:type needs the declaration too, or the
// service reads the declared type and drops the derived members.
func TestNewRequestDeclaresXSIForType(t *testing.T) {
	c := &client.Client{Endpoint: "http://127.0.0.1/x", Namespace: ns, Binding: client.SOAP11}
	req, err := c.NewRequest(context.Background(), echoOp, typedPet{})
	require.NoError(t, err)
	body, err := io.ReadAll(req.Body)
	require.NoError(t, err)
	d := xml.NewDecoder(bytes.NewReader(body))
	typed := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		if se, ok := tok.(xml.StartElement); ok {
			for _, a := range se.Attr {
				if a.Name.Space == xmlwire.NSXSI && a.Name.Local == "type" {
					typed++
				}
			}
		}
	}
	assert.Equal(t, 1, typed, "%s", body)
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

// TestSecurityHeaderPasswordTypes: WSSecurity sends a PasswordDigest over a fresh nonce and time, and
// with PasswordText the password itself (escaped), with a nonce and time all the same; the password
// never appears in a digest request.
func TestSecurityHeaderPasswordTypes(t *testing.T) {
	const password = `pw <&> "quoted"`
	cases := []struct {
		name         string
		passwordText bool
		wantType     string
	}{
		{"digest", false, auth.PasswordDigest},
		{"text", true, auth.PasswordText},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := &client.Client{Endpoint: "http://127.0.0.1/x", Namespace: ns, User: "alice", Password: password,
				WSSecurity: true, PasswordText: tc.passwordText}
			req, err := c.NewRequest(context.Background(), echoOp, nilItem())
			require.NoError(t, err)
			assert.Empty(t, req.Header.Get("Authorization"), "WS-Security replaces HTTP Basic")
			body, err := io.ReadAll(req.Body)
			require.NoError(t, err)
			var env struct {
				Token struct {
					Username string `xml:"Username"`
					Password struct {
						Type  string `xml:"Type,attr"`
						Value string `xml:",chardata"`
					} `xml:"Password"`
					Nonce   string `xml:"Nonce"`
					Created string `xml:"Created"`
				} `xml:"Header>Security>UsernameToken"`
			}
			require.NoError(t, xml.Unmarshal(body, &env), "%s", body)
			tok := env.Token
			assert.Equal(t, "alice", tok.Username)
			assert.Equal(t, tc.wantType, tok.Password.Type)
			assert.NotEmpty(t, tok.Nonce)
			assert.NotEmpty(t, tok.Created)
			if tc.passwordText {
				assert.Equal(t, password, tok.Password.Value)
				return
			}
			nonce, err := base64.StdEncoding.DecodeString(tok.Nonce)
			require.NoError(t, err)
			assert.Equal(t, auth.Digest(nonce, tok.Created, password), tok.Password.Value)
			assert.NotContains(t, string(body), "quoted", "a digest request does not carry the password")
		})
	}
}

// typedValue is a request whose content names its value's type with xsi:type, as an object or a
// derived value does (xsi:type="xsd:int").
type typedValue struct{}

func (typedValue) AppendXML(b []byte) []byte {
	return append(b, `<value xsi:type="xsd:int">7</value>`...)
}

func (typedValue) DecodeXML(r *xmlwire.Reader) error { return r.Discard() }

// TestNewRequestDeclaresXSIType: a request carrying xsi:type declares xsi and xsd on the operation
// element, as ASMX's envelope declares both, so the type's prefix resolves (xsd:int).
func TestNewRequestDeclaresXSIType(t *testing.T) {
	c := &client.Client{Endpoint: "http://127.0.0.1/x", Namespace: ns, Binding: client.SOAP11}
	req, err := c.NewRequest(context.Background(), echoOp, typedValue{})
	require.NoError(t, err)
	body, err := io.ReadAll(req.Body)
	require.NoError(t, err)
	assert.Contains(t, string(body), `<Echo xmlns="`+ns+`" xmlns:xsi="`+xmlwire.NSXSI+`" xmlns:xsd="`+xmlwire.NSXSD+`"><value xsi:type="xsd:int">7</value></Echo>`)
}

// nickname is a response holding simple content with an attribute, as the generated writer writes it
// ([XmlAttribute] Lang, [XmlText] the text): the attribute's tab as a character reference.
type nickname struct{}

func (nickname) AppendXML(b []byte) []byte {
	return append(b, `<Nickname Lang="en &amp; &quot;pt&quot;&#x9;br&#xA;x">Pol &lt;ly&gt;</Nickname><Nickname Lang="" />`...)
}
func (nickname) DecodeXML(*xmlwire.Reader) error { return nil }

// TestMessageAttributes: the printed message keeps an attribute's value as sent, a tab and a line
// feed included (escaped as the generated encoders escape them), so the output read back as XML, or
// given back to call as a --param-file, holds the same value.
func TestMessageAttributes(t *testing.T) {
	out, err := client.Message("EchoResponse", ns, nickname{})
	require.NoError(t, err)
	assert.Equal(t, "<EchoResponse xmlns=\""+ns+"\">\n"+
		"  <Nickname Lang=\"en &amp; &quot;pt&quot;&#x9;br&#xA;x\">Pol &lt;ly&gt;</Nickname>\n"+
		"  <Nickname Lang=\"\" />\n"+
		"</EchoResponse>", string(out))
	var got struct {
		Nicknames []struct {
			Lang string `xml:"Lang,attr"`
			Text string `xml:",chardata"`
		} `xml:"Nickname"`
	}
	require.NoError(t, xml.Unmarshal(out, &got))
	require.Len(t, got.Nicknames, 2)
	assert.Equal(t, "en & \"pt\"\tbr\nx", got.Nicknames[0].Lang)
	assert.Equal(t, "Pol <ly>", got.Nicknames[0].Text)
	assert.Equal(t, "", got.Nicknames[1].Lang)
}
