package server

import (
	"encoding/xml"

	"github.com/contactsync/contactsync/server/auth"
)

// nsWSSE and nsWSU are the OASIS WS-Security 1.0 namespaces a UsernameToken lives in.
const (
	nsWSSE = auth.NSSecurityExt
	nsWSU  = auth.NSSecurityUtil
)

// securityHeader is the WS-Security header block. The service understands it in the sense SOAP's
// mustUnderstand requires: it processes the UsernameToken in it (when authentication is on) and
// never faults on it, whether or not authentication is on; it does not verify signatures or decrypt.
var securityHeader = xml.Name{Space: nsWSSE, Local: "Security"}

// wsseSecurity is what the SOAP decoder found in the request's WS-Security header.
type wsseSecurity struct {
	token    auth.UsernameToken
	hasToken bool
	// problem says why the header cannot be used (two tokens, two headers, elements where text
	// belongs). It is reported only when authentication is on; with it off, the header is ignored.
	problem string
}

// readSecurity reads a wsse:Security header block whose start tag was just read, extracting its
// UsernameToken. Only XML-level errors (limits, syntax) fail here; content the authenticator cannot
// use is recorded as a problem, because with authentication off the header is simply ignored.
func (d *limitedDecoder) readSecurity(env *envelope) *Error {
	if env.security != nil {
		env.security.problem = "the message has more than one wsse:Security header for this service"
		return d.skip()
	}
	sec := &wsseSecurity{}
	env.security = sec
	for {
		tok, err := d.token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Space != nsWSSE || t.Name.Local != "UsernameToken" {
				if err := d.skip(); err != nil { // Timestamp and anything else: not ours to check
					return err
				}
				continue
			}
			if sec.hasToken {
				sec.problem = "the wsse:Security header has more than one UsernameToken"
			}
			sec.hasToken = true
			if err := d.readUsernameToken(sec); err != nil {
				return err
			}
		case xml.EndElement:
			return nil
		}
	}
}

func (d *limitedDecoder) readUsernameToken(sec *wsseSecurity) *Error {
	t := &sec.token
	for {
		tok, err := d.token()
		if err != nil {
			return err
		}
		switch el := tok.(type) {
		case xml.StartElement:
			var target *string
			switch el.Name {
			case xml.Name{Space: nsWSSE, Local: "Username"}:
				target = &t.Username
			case xml.Name{Space: nsWSSE, Local: "Password"}:
				target = &t.Password
				t.PasswordType = attr(el, "Type")
			case xml.Name{Space: nsWSSE, Local: "Nonce"}:
				target, t.HasNonce = &t.Nonce, true
				t.NonceEncoding = attr(el, "EncodingType")
			case xml.Name{Space: nsWSU, Local: "Created"}, xml.Name{Space: nsWSSE, Local: "Created"}:
				// WSS 1.0 puts Created in wsu; some early clients used wsse. Both mean the same.
				target, t.HasCreated = &t.Created, true
			default:
				if err := d.skip(); err != nil {
					return err
				}
				continue
			}
			text, ok, err := d.plainText()
			if err != nil {
				return err
			}
			if !ok {
				sec.problem = "the UsernameToken's " + el.Name.Local + " must hold text only"
			}
			*target = text
		case xml.EndElement:
			return nil
		}
	}
}

// plainText reads the text of the element whose start tag was just read; ok is false when it holds
// elements (which are skipped).
func (d *limitedDecoder) plainText() (text string, ok bool, err *Error) {
	var buf []byte
	ok = true
	for {
		tok, err := d.token()
		if err != nil {
			return "", false, err
		}
		switch t := tok.(type) {
		case xml.CharData:
			buf = append(buf, t...)
		case xml.StartElement:
			ok = false
			if err := d.skip(); err != nil {
				return "", false, err
			}
		case xml.EndElement:
			return string(buf), ok, nil
		}
	}
}

// attr returns the value of the unqualified attribute name (WSS attributes are unqualified).
func attr(el xml.StartElement, name string) string {
	for _, a := range el.Attr {
		if a.Name.Space == "" && a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}
