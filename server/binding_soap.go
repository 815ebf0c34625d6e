package server

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
)

// soapBinding serves SOAP 1.1 (version12 false) and SOAP 1.2 (version12 true). The two differ only in
// the envelope namespace and prefix, where the action travels, the content type and the fault shape.
type soapBinding struct {
	version12 bool
	namespace string // the service namespace
	limits    Limits
	// The per-version constants: binding name for logs, envelope namespace and the prefix the spec
	// shows for it (§4.1: soap and soap12), and the response content type.
	bindingName, envNS, envPrefix, contentType string
	// prefix and suffix hold, per operation, the precomputed bytes around the result value.
	prefix, suffix map[string][]byte
}

func newSOAPBinding(version12 bool, namespace string, limits Limits) *soapBinding {
	b := &soapBinding{version12: version12, namespace: namespace, limits: limits,
		bindingName: "soap11", envNS: nsSOAP11, envPrefix: "soap", contentType: "text/xml; charset=utf-8",
		prefix: map[string][]byte{}, suffix: map[string][]byte{}}
	if version12 {
		b.bindingName, b.envNS, b.envPrefix, b.contentType = "soap12", nsSOAP12, "soap12", "application/soap+xml; charset=utf-8"
	}
	for _, op := range operations {
		b.prefix[op.name] = []byte(b.envelopeStart() + `<` + op.name + `Response xmlns="` +
			string(appendEscaped(nil, namespace)) + `"><` + op.name + `Result>`)
		b.suffix[op.name] = []byte(`</` + op.name + `Result></` + op.name + `Response>` + b.envelopeEnd())
	}
	return b
}

func (b *soapBinding) name() string { return b.bindingName }

// envelopeStart is everything before the body's content of a response without SOAP headers.
func (b *soapBinding) envelopeStart() string {
	return b.envelopeOpen() + `<` + b.envPrefix + `:Body>`
}

func (b *soapBinding) envelopeOpen() string {
	p := b.envPrefix
	return xmlDeclaration + `<` + p + `:Envelope xmlns:` + p + `="` + b.envNS + `" xmlns:xsi="` + nsXSI +
		`" xmlns:xsd="` + nsXSD + `">`
}

func (b *soapBinding) envelopeEnd() string {
	p := b.envPrefix
	return `</` + p + `:Body></` + p + `:Envelope>`
}

// action returns the action the client declared, unquoted: the SOAPAction header for SOAP 1.1 (SOAP 1.1
// §6.1.1), the action parameter of the media type for SOAP 1.2 (RFC 3902). ok is false when none was
// declared; an empty action counts as none, as SOAP 1.1 lets "" mean "the request URI".
func (b *soapBinding) action(r *http.Request) (action string, ok bool) {
	if b.version12 {
		_, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil {
			return "", false
		}
		action = params["action"]
	} else {
		values, present := r.Header["Soapaction"]
		if !present || len(values) == 0 {
			return "", false
		}
		action = strings.TrimSpace(values[0])
		if len(action) >= 2 && action[0] == '"' && action[len(action)-1] == '"' {
			action = action[1 : len(action)-1]
		}
	}
	return action, action != ""
}

func (b *soapBinding) decode(r *http.Request, body []byte) (*operation, string, *Error) {
	op, id, _, err := b.decodeWithSecurity(r, body)
	return op, id, err
}

// decodeWithSecurity is decode that also returns the request's WS-Security header, if it had one (nil
// otherwise), even when decoding failed after it: the handler checks credentials first (auth.go).
func (b *soapBinding) decodeWithSecurity(r *http.Request, body []byte) (*operation, string, *wsseSecurity, *Error) {
	var byAction *operation
	if action, ok := b.action(r); ok {
		name, inNamespace := strings.CutPrefix(action, b.namespace)
		if inNamespace {
			byAction = operationByName(name)
		}
		if byAction == nil {
			// The envelope is still read for its WS-Security header, so that a caller with a good
			// UsernameToken gets this fault rather than a 401 saying it sent no credentials.
			env, _ := decodeEnvelope(body, b.envNS, b.namespace, b.limits)
			return nil, "", env.security, errorf(CodeUnknownOperation, "Server did not recognize the value of the SOAP action: %s.", action)
		}
	}
	env, err := decodeEnvelope(body, b.envNS, b.namespace, b.limits)
	if err != nil {
		return nil, "", env.security, err
	}
	if env.wrapper.Space != b.namespace {
		return nil, "", env.security, errorf(CodeUnknownOperation, "The body element %s in namespace %q is not an operation of this service; operations are in namespace %q.",
			env.wrapper.Local, env.wrapper.Space, b.namespace)
	}
	op := operationByName(env.wrapper.Local)
	if op == nil {
		return nil, "", env.security, errorf(CodeUnknownOperation, "The body element %s is not an operation of this service.", env.wrapper.Local)
	}
	if byAction != nil && byAction != op {
		return nil, "", env.security, errorf(CodeUnknownOperation, "The SOAP action names %s but the body holds %s.", byAction.name, op.name)
	}
	if env.idInWrongNamespace && !env.idSet {
		return nil, "", env.security, errorf(CodeInvalidArgument, "The element id must be in the namespace %q.", b.namespace)
	}
	return op, env.id, env.security, nil
}

func (b *soapBinding) writeResult(w http.ResponseWriter, op *operation, r result) {
	buf := getBuffer()
	defer putBuffer(buf)
	if op.result == resultContact && r.contact == nil {
		// A null contact is written as an absent Result element, as ASMX does for minOccurs="0".
		*buf = append(*buf, b.envelopeStart()...)
		*buf = append(*buf, `<`+op.name+`Response xmlns="`...)
		*buf = appendEscaped(*buf, b.namespace)
		*buf = append(*buf, `" />`...)
		*buf = append(*buf, b.envelopeEnd()...)
	} else {
		*buf = append(*buf, b.prefix[op.name]...)
		*buf = appendResultValue(*buf, op.result, r)
		*buf = append(*buf, b.suffix[op.name]...)
	}
	writeBody(w, http.StatusOK, b.contentType, *buf)
}

// soapFaultCode maps an error code to the fault code local name. SOAP 1.1 §4.4.1 defines Client, Server,
// VersionMismatch and MustUnderstand; SOAP 1.2 Part 1 §5.4.6 renames the first two Sender and Receiver.
func (b *soapBinding) soapFaultCode(code Code) string {
	switch code {
	case CodeVersionMismatch:
		return "VersionMismatch"
	case CodeMustUnderstand:
		return "MustUnderstand"
	}
	switch {
	case code.callerFault() && b.version12:
		return "Sender"
	case code.callerFault():
		return "Client"
	case b.version12:
		return "Receiver"
	default:
		return "Server"
	}
}

// writeError writes a SOAP fault. Faults use HTTP 500: SOAP 1.1 §6.2 requires it, and for SOAP 1.2 it
// is the status .NET's SOAP 1.2 proxies read a fault from (they raise a bare WebException on 400),
// while JAX-WS and zeep accept either. The one exception is Unavailable (overload, store down): it is
// sent with 503 and Retry-After, which load balancers and retry policies act on, still with a fault
// body for clients that read it. The detail carries the machine-readable code; SOAP 1.1 §4.4 forbids
// detail for header faults, so VersionMismatch and MustUnderstand have none, and instead carry the
// SOAP 1.2 Upgrade and NotUnderstood headers (SOAP 1.2 Part 1 §5.4.7, §5.4.8, Appendix A).
func (b *soapBinding) writeError(w http.ResponseWriter, e *Error) {
	buf := getBuffer()
	defer putBuffer(buf)
	p := b.envPrefix
	fc := p + ":" + b.soapFaultCode(e.Code)
	headerFault := e.Code == CodeVersionMismatch || e.Code == CodeMustUnderstand
	// A refused UsernameToken carries the WS-Security fault code (WSS 1.1 §12): as the faultcode in
	// SOAP 1.1, as the Subcode under Sender in SOAP 1.2 (whose Code must be a SOAP one).
	wsseCode, wsseNS := "", ""
	if e.wsseFault != "" {
		wsseCode, wsseNS = "wsse:"+e.wsseFault, ` xmlns:wsse="`+nsWSSE+`"`
		if !b.version12 {
			fc = wsseCode
		}
	}
	*buf = append(*buf, b.envelopeOpen()...)
	switch {
	case e.Code == CodeVersionMismatch:
		*buf = append(*buf, `<`+p+`:Header><upg:Upgrade xmlns:upg="`+nsSOAP12+`">`+
			`<upg:SupportedEnvelope qname="ns12:Envelope" xmlns:ns12="`+nsSOAP12+`" />`+
			`<upg:SupportedEnvelope qname="ns11:Envelope" xmlns:ns11="`+nsSOAP11+`" />`+
			`</upg:Upgrade></`+p+`:Header>`...)
	case e.Code == CodeMustUnderstand && b.version12 && e.header.Local != "":
		*buf = append(*buf, `<`+p+`:Header><`+p+`:NotUnderstood qname="h:`...)
		*buf = appendEscaped(*buf, e.header.Local)
		*buf = append(*buf, `" xmlns:h="`...)
		*buf = appendEscaped(*buf, e.header.Space)
		*buf = append(*buf, `" /></`+p+`:Header>`...)
	}
	*buf = append(*buf, `<`+p+`:Body>`...)
	if b.version12 {
		*buf = append(*buf, `<`+p+`:Fault xmlns:cs="`...)
		*buf = appendEscaped(*buf, b.namespace)
		*buf = append(*buf, `"`+wsseNS+`><`+p+`:Code><`+p+`:Value>`+fc+`</`+p+`:Value>`...)
		switch {
		case wsseCode != "":
			*buf = append(*buf, `<`+p+`:Subcode><`+p+`:Value>`+wsseCode+`</`+p+`:Value><`+p+`:Subcode><`+p+`:Value>cs:`+string(e.Code)+
				`</`+p+`:Value></`+p+`:Subcode></`+p+`:Subcode>`...)
		case !headerFault:
			*buf = append(*buf, `<`+p+`:Subcode><`+p+`:Value>cs:`+string(e.Code)+`</`+p+`:Value></`+p+`:Subcode>`...)
		}
		*buf = append(*buf, `</`+p+`:Code><`+p+`:Reason><`+p+`:Text xml:lang="en">`...)
		*buf = appendEscaped(*buf, e.Message)
		*buf = append(*buf, `</`+p+`:Text></`+p+`:Reason>`...)
		if !headerFault {
			*buf = append(*buf, `<`+p+`:Detail><ErrorCode xmlns="`...)
			*buf = appendEscaped(*buf, b.namespace)
			*buf = append(*buf, `">`+string(e.Code)+`</ErrorCode></`+p+`:Detail>`...)
		}
		*buf = append(*buf, `</`+p+`:Fault>`...)
	} else {
		*buf = append(*buf, `<`+p+`:Fault`+wsseNS+`><faultcode>`+fc+`</faultcode><faultstring>`...)
		*buf = appendEscaped(*buf, e.Message)
		*buf = append(*buf, `</faultstring>`...)
		if !headerFault {
			*buf = append(*buf, `<detail><ErrorCode xmlns="`...)
			*buf = appendEscaped(*buf, b.namespace)
			*buf = append(*buf, `">`+string(e.Code)+`</ErrorCode></detail>`...)
		}
		*buf = append(*buf, `</`+p+`:Fault>`...)
	}
	*buf = append(*buf, b.envelopeEnd()...)
	status := http.StatusInternalServerError
	if e.Code == CodeUnavailable {
		status = http.StatusServiceUnavailable
		w.Header().Set("Retry-After", "1")
	}
	if e.challenge { // missing or bad HTTP credentials: 401 makes .NET proxies retry with Basic (auth.go)
		status = http.StatusUnauthorized
		w.Header().Set("WWW-Authenticate", basicChallenge)
	}
	writeBody(w, status, b.contentType, *buf)
}

// envelope is what decodeEnvelope extracts from a request.
type envelope struct {
	wrapper xml.Name // the Body's child: the operation wrapper element
	id      string
	idSet   bool
	// idInWrongNamespace records an id element outside the service namespace, the most common mistake
	// in hand-written requests, so the error can say so instead of "id is required".
	idInWrongNamespace bool
	// security is the WS-Security header addressed to this service, nil when there is none (auth.go).
	security *wsseSecurity
}

// WS-Addressing namespaces. .NET and WCF clients send the Action header with mustUnderstand="1"; the
// service understands it in the sense SOAP requires (it dispatches consistently with it), so it must
// not fault on it.
var understoodHeaderNamespaces = map[string]bool{
	"http://www.w3.org/2005/08/addressing":                    true,
	"http://schemas.xmlsoap.org/ws/2004/08/addressing":        true,
	"http://schemas.microsoft.com/ws/2005/05/addressing/none": true,
}

// decodeEnvelope parses a SOAP envelope of the given version with a streaming decoder. It refuses
// DOCTYPE declarations (so no entity is ever expanded or fetched), bounds nesting depth and element
// count, checks mustUnderstand headers, and extracts the wrapper element and its id child.
func decodeEnvelope(body []byte, envNS, serviceNS string, limits Limits) (envelope, *Error) {
	if err := checkXMLBudget(body, limits.XMLBudget); err != nil { // xmlbudget.go, before any parsing
		return envelope{}, err
	}
	if env, ok := fastDecodeEnvelope(body, envNS, serviceNS, limits); ok {
		return env, nil // the common shape, parsed without encoding/xml (soapfast.go)
	}
	return decodeEnvelopeXML(body, envNS, serviceNS, limits)
}

// decodeEnvelopeXML is decodeEnvelope with encoding/xml, for every document: the reference the fast
// path is checked against, and what decides every error.
func decodeEnvelopeXML(body []byte, envNS, serviceNS string, limits Limits) (envelope, *Error) {
	var env envelope
	d := newLimitedDecoder(body, limits)

	root, err := d.rootElement()
	if err != nil {
		return env, err
	}
	// SOAP 1.1 §4.1.2 and SOAP 1.2 Part 1 §5.4.7: an Envelope in another namespace is a version
	// mismatch; a root that is not an Envelope at all is simply not a SOAP message.
	switch {
	case root.Name.Local != "Envelope":
		return env, errorf(CodeMalformedRequest, "The root element must be a SOAP Envelope, not %s.", root.Name.Local)
	case root.Name.Space != envNS:
		return env, errorf(CodeVersionMismatch, "The envelope namespace %q does not match the content type, which requires %q.", root.Name.Space, envNS)
	}

	seenHeader, seenBody := false, false
	for {
		tok, err := d.token()
		if err != nil {
			return env, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch {
			case t.Name.Space == envNS && t.Name.Local == "Header" && !seenHeader && !seenBody:
				seenHeader = true
				if err := d.checkHeaders(envNS, &env); err != nil {
					return env, err
				}
			case t.Name.Space == envNS && t.Name.Local == "Body" && !seenBody:
				seenBody = true
				if err := d.readBody(&env, serviceNS); err != nil {
					return env, err
				}
			default:
				return env, errorf(CodeMalformedRequest, "Unexpected element %s in the SOAP Envelope.", t.Name.Local)
			}
		case xml.EndElement:
			if !seenBody {
				return env, errorf(CodeMalformedRequest, "The SOAP Envelope has no Body.")
			}
			return env, d.expectEOF()
		case xml.CharData:
			if len(bytes.TrimSpace(t)) > 0 {
				return env, errorf(CodeMalformedRequest, "Unexpected text in the SOAP Envelope.")
			}
		}
	}
}

// checkHeaders reads the Header's blocks, faulting on one that must be understood and is not. A block
// aimed at another node (SOAP 1.1 actor, SOAP 1.2 role other than next or ultimateReceiver) is not ours
// to understand and is skipped.
func (d *limitedDecoder) checkHeaders(envNS string, env *envelope) *Error {
	for {
		tok, err := d.token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			mustUnderstand, targeted := false, true
			for _, a := range t.Attr {
				if a.Name.Space != envNS {
					continue
				}
				switch a.Name.Local {
				case "mustUnderstand":
					mustUnderstand = a.Value == "1" || a.Value == "true"
				case "actor", "role":
					targeted = a.Value == "http://schemas.xmlsoap.org/soap/actor/next" ||
						a.Value == "http://www.w3.org/2003/05/soap-envelope/role/next" ||
						a.Value == "http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver"
				}
			}
			if targeted && t.Name == securityHeader { // understood, even with auth off (auth_soap.go)
				if err := d.readSecurity(env); err != nil {
					return err
				}
				continue
			}
			if mustUnderstand && targeted && !understoodHeaderNamespaces[t.Name.Space] {
				e := errorf(CodeMustUnderstand, "The header %s in namespace %q was marked mustUnderstand but is not understood by this service.", t.Name.Local, t.Name.Space)
				e.header = t.Name
				return e
			}
			if err := d.skip(); err != nil {
				return err
			}
		case xml.EndElement:
			return nil
		}
	}
}

// readBody reads the Body: exactly one wrapper element, whose id child (if any) becomes the argument.
// Other children of the wrapper are ignored, as ASMX ignores unknown elements.
func (d *limitedDecoder) readBody(env *envelope, serviceNS string) *Error {
	for {
		tok, err := d.token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if env.wrapper.Local != "" {
				return errorf(CodeMalformedRequest, "The SOAP Body must hold exactly one element.")
			}
			env.wrapper = t.Name
			if err := d.readWrapper(env, serviceNS); err != nil {
				return err
			}
		case xml.EndElement:
			if env.wrapper.Local == "" {
				return errorf(CodeMalformedRequest, "The SOAP Body is empty; it must hold the operation element.")
			}
			return nil
		case xml.CharData:
			if len(bytes.TrimSpace(t)) > 0 {
				return errorf(CodeMalformedRequest, "Unexpected text in the SOAP Body.")
			}
		}
	}
}

func (d *limitedDecoder) readWrapper(env *envelope, serviceNS string) *Error {
	for {
		tok, err := d.token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Local != "id" {
				if err := d.skip(); err != nil {
					return err
				}
				continue
			}
			if t.Name.Space != serviceNS {
				env.idInWrongNamespace = true
				if err := d.skip(); err != nil {
					return err
				}
				continue
			}
			if env.idSet {
				return errorf(CodeInvalidArgument, "The parameter id is given more than once.")
			}
			text, isNil, err := d.textContent(t)
			if err != nil {
				return err
			}
			if !isNil {
				env.id, env.idSet = text, true
			}
		case xml.EndElement:
			return nil
		}
	}
}

// limitedDecoder wraps encoding/xml's decoder with the limits and refusals untrusted input needs.
type limitedDecoder struct {
	d        *xml.Decoder
	limits   Limits
	depth    int
	elements int
}

func newLimitedDecoder(body []byte, limits Limits) *limitedDecoder {
	// A UTF-8 byte order mark is allowed before the XML declaration (XML 1.0 §4.3.3); encoding/xml does
	// not skip it itself.
	body = bytes.TrimPrefix(body, []byte("\xEF\xBB\xBF"))
	d := xml.NewDecoder(bytes.NewReader(body))
	d.Strict = true
	d.CharsetReader = func(charset string, input io.Reader) (io.Reader, error) {
		// Only UTF-8 is accepted; encoding/xml calls this for any other declared encoding.
		return nil, errUnsupportedCharset{charset}
	}
	return &limitedDecoder{d: d, limits: limits}
}

type errUnsupportedCharset struct{ charset string }

func (e errUnsupportedCharset) Error() string { return "unsupported charset " + e.charset }

// token returns the next token with limits enforced, refusing DOCTYPE and other declarations.
func (d *limitedDecoder) token() (xml.Token, *Error) {
	tok, err := d.d.Token()
	if err != nil {
		return nil, d.syntaxError(err)
	}
	switch tok.(type) {
	case xml.StartElement:
		d.depth++
		d.elements++
		if d.depth > d.limits.MaxXMLDepth {
			return nil, errorf(CodeTooLarge, "The XML is nested deeper than %d elements.", d.limits.MaxXMLDepth)
		}
		if d.elements > d.limits.MaxXMLElements {
			return nil, errorf(CodeTooLarge, "The XML has more than %d elements.", d.limits.MaxXMLElements)
		}
	case xml.EndElement:
		d.depth--
	case xml.Directive:
		return nil, errorf(CodeMalformedRequest, "DOCTYPE and other XML declarations are not allowed.")
	}
	return tok, nil
}

func (d *limitedDecoder) syntaxError(err error) *Error {
	var charset errUnsupportedCharset
	switch {
	case errors.As(err, &charset):
		return errorf(CodeMalformedRequest, "The request declares the encoding %q; only UTF-8 is accepted.", charset.charset)
	case err == io.EOF:
		return errorf(CodeMalformedRequest, "The request body ended before the XML document was complete.")
	}
	var syntax *xml.SyntaxError
	if errors.As(err, &syntax) {
		return errorf(CodeMalformedRequest, "The request is not well-formed XML: line %d: %s.", syntax.Line, syntax.Msg)
	}
	return errorf(CodeMalformedRequest, "The request is not well-formed XML: %v.", err)
}

// rootElement skips the prolog (XML declaration, comments, white space) and returns the root element.
func (d *limitedDecoder) rootElement() (xml.StartElement, *Error) {
	for {
		tok, err := d.d.Token()
		if err == io.EOF {
			return xml.StartElement{}, errorf(CodeMalformedRequest, "The request body is empty; a SOAP envelope is required.")
		}
		if err != nil {
			return xml.StartElement{}, d.syntaxError(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			d.depth, d.elements = 1, 1
			return t, nil
		case xml.Directive:
			return xml.StartElement{}, errorf(CodeMalformedRequest, "DOCTYPE and other XML declarations are not allowed.")
		case xml.CharData:
			if len(bytes.TrimSpace(t)) > 0 {
				return xml.StartElement{}, errorf(CodeMalformedRequest, "The request is not an XML document.")
			}
		}
	}
}

// skip consumes the rest of the element whose start tag was just read, with limits enforced.
func (d *limitedDecoder) skip() *Error {
	for target := d.depth - 1; d.depth > target; {
		if _, err := d.token(); err != nil {
			return err
		}
	}
	return nil
}

// textContent reads an element that must hold only text. isNil reports xsi:nil="true".
func (d *limitedDecoder) textContent(start xml.StartElement) (text string, isNil bool, err *Error) {
	for _, a := range start.Attr {
		if a.Name.Space == nsXSI && a.Name.Local == "nil" && (a.Value == "true" || a.Value == "1") {
			isNil = true
		}
	}
	var sb strings.Builder
	for {
		tok, err := d.token()
		if err != nil {
			return "", false, err
		}
		switch t := tok.(type) {
		case xml.CharData:
			sb.Write(t)
		case xml.StartElement:
			return "", false, errorf(CodeInvalidArgument, "The parameter %s must hold text, not elements.", start.Name.Local)
		case xml.EndElement:
			return sb.String(), isNil, nil
		}
	}
}

// expectEOF checks that nothing but white space and comments follows the root element.
func (d *limitedDecoder) expectEOF() *Error {
	for {
		tok, err := d.d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return d.syntaxError(err)
		}
		switch t := tok.(type) {
		case xml.CharData:
			if len(bytes.TrimSpace(t)) > 0 {
				return errorf(CodeMalformedRequest, "Unexpected content after the SOAP Envelope.")
			}
		case xml.Comment:
		default:
			return errorf(CodeMalformedRequest, "Unexpected content after the SOAP Envelope.")
		}
	}
}
