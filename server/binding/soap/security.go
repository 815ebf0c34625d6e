package soap

import (
	"encoding/xml"

	"github.com/contactsync/contactsync/server/auth"
	"github.com/contactsync/contactsync/server/binding"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// nsWSSE and nsWSU are the OASIS WS-Security 1.0 namespaces a UsernameToken lives in.
const (
	nsWSSE = auth.NSSecurityExt
	nsWSU  = auth.NSSecurityUtil
)

// request is a decoded envelope: the operation, its request value and the WS-Security header.
type request struct {
	op  *wire.Operation
	msg wire.Message
	// security is the WS-Security header addressed to this service, nil when there is none.
	security *wsseSecurity
	// hdr is what a contract with headers records of the other header blocks (headers.go); nil
	// otherwise, so a request of a contract without headers carries one nil pointer more.
	hdr *headerState
}

// public is the request as the handler sees it, the header's UsernameToken as its credentials.
func (r request) public() binding.Request {
	out := binding.Request{Op: r.op, Msg: r.msg}
	if r.hdr != nil {
		out.UnknownHeaders = r.hdr.unknown
	}
	if sec := r.security; sec != nil {
		out.Credentials.Problem = sec.problem
		if sec.hasToken {
			out.Credentials.Token = &sec.token
		}
	}
	return out
}

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
func readSecurity(rd *xmlwire.Reader, req *request) error {
	if req.security != nil {
		req.security.problem = "the message has more than one wsse:Security header for this service"
		return rd.Discard()
	}
	sec := &wsseSecurity{}
	req.security = sec
	for {
		el, ok, err := rd.Child()
		if err != nil || !ok {
			return err
		}
		if el.Name(rd) != (xml.Name{Space: nsWSSE, Local: "UsernameToken"}) {
			if err := rd.Discard(); err != nil { // Timestamp and anything else: not ours to check
				return err
			}
			continue
		}
		if sec.hasToken {
			sec.problem = "the wsse:Security header has more than one UsernameToken"
		}
		sec.hasToken = true
		if err := readUsernameToken(rd, sec); err != nil {
			return err
		}
	}
}

func readUsernameToken(rd *xmlwire.Reader, sec *wsseSecurity) error {
	t := &sec.token
	for {
		el, ok, err := rd.Child()
		if err != nil || !ok {
			return err
		}
		name := el.Name(rd)
		var target *string
		switch name {
		case xml.Name{Space: nsWSSE, Local: "Username"}:
			target = &t.Username
		case xml.Name{Space: nsWSSE, Local: "Password"}:
			target = &t.Password
			t.PasswordType, _ = el.Attr("", "Type")
		case xml.Name{Space: nsWSSE, Local: "Nonce"}:
			target, t.HasNonce = &t.Nonce, true
			t.NonceEncoding, _ = el.Attr("", "EncodingType")
		case xml.Name{Space: nsWSU, Local: "Created"}, xml.Name{Space: nsWSSE, Local: "Created"}:
			// WSS 1.0 puts Created in wsu; some early clients used wsse. Both mean the same.
			target, t.HasCreated = &t.Created, true
		default:
			if err := rd.Discard(); err != nil {
				return err
			}
			continue
		}
		text, ok, err := rd.TextOnly()
		if err != nil {
			return err
		}
		if !ok {
			sec.problem = "the UsernameToken's " + name.Local + " must hold text only"
		}
		*target = text
	}
}
