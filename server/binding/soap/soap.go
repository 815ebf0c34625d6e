package soap

import (
	"encoding/xml"
	"net/http"
	"strings"

	"github.com/contactsync/contactsync/server/auth"
	"github.com/contactsync/contactsync/server/bare"
	"github.com/contactsync/contactsync/server/binding"
	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// Namespaces of the wire format (SOAP 1.1 §4.1.1; SOAP 1.2 Part 1 §5.1).
const (
	EnvelopeNS11 = "http://schemas.xmlsoap.org/soap/envelope/"
	EnvelopeNS12 = "http://www.w3.org/2003/05/soap-envelope"
)

// Binding serves SOAP 1.1 (version12 false) or SOAP 1.2 (version12 true). The two differ only in the
// envelope namespace and prefix, where the action travels, the content type and the fault shape.
// Everything per operation comes from the generated operation table (gen.Operations by default).
type Binding struct {
	version12 bool
	namespace string // the service namespace
	// limits bound an envelope: the fast reader holds it to all of them, so it never accepts what the
	// parse budget (budget.go) refuses, and the budget is checked only when it steps aside (parse).
	limits xmlwire.Limits
	// The per-version constants: binding name for logs, envelope namespace and the prefix the spec
	// shows for it (§4.1: soap and soap12), and the response content type.
	bindingName, envNS, envPrefix, contentType string
	// open holds, per operation, the precomputed bytes of a response up to the response wrapper's
	// start tag without its closing '>': `<?xml …?><soap:Envelope …><soap:Body><OpResponse xmlns="ns"`.
	open map[*wire.Operation][]byte
	ops  []*wire.Operation // the generated operation table
	// actions are the operations this binding offers by their SOAPAction (wire.Operation.SOAPAction).
	actions map[string]*wire.Operation
	// foreign: some operation's request wrapper is in another namespace than the service's.
	foreign bool
	// headers: an operation of the table has SOAP headers, so the Header pass records the blocks
	// for after routing (headers.go).
	headers bool
	bare    *bare.Routes // the document/literal bare operations offered (package bare); nil for none
}

// New returns the SOAP 1.1 (version12 false) or SOAP 1.2 binding of the operations ops, whose elements
// are in namespace, bounding every envelope by limits (every field set: DefaultLimits, or the server's
// limits tree with its defaults filled).
func New(version12 bool, namespace string, limits xmlwire.Limits, ops []*wire.Operation) *Binding {
	b := &Binding{version12: version12, namespace: namespace, ops: ops, limits: limits,
		bindingName: "soap11", envNS: EnvelopeNS11, envPrefix: "soap", contentType: "text/xml; charset=utf-8",
		open: map[*wire.Operation][]byte{}, actions: map[string]*wire.Operation{}}
	if version12 {
		b.bindingName, b.envNS, b.envPrefix, b.contentType = "soap12", EnvelopeNS12, "soap12", "application/soap+xml; charset=utf-8"
	}
	for _, op := range ops {
		if b.Offers(op) {
			b.actions[op.SOAPAction(namespace, version12)] = op
			b.bare = b.bare.Add(op, namespace)
		}
		b.foreign = b.foreign || op.RequestNamespace != ""
		b.headers = b.headers || op.Headers != nil
		if op.OneWay {
			continue // no response envelope (oneway.go)
		}
		ns := namespace
		if op.ResponseNamespace != "" {
			ns = op.ResponseNamespace
		}
		b.open[op] = []byte(b.envelopeStart() + `<` + op.ResponseElement + ` xmlns="` + string(xmlwire.AppendEscaped(nil, ns)) + `"`)
	}
	return b
}

// Name is soap11 or soap12.
func (b *Binding) Name() string { return b.bindingName }

// Route: a POST of the endpoint itself, with text/xml (SOAP 1.1) or application/soap+xml (SOAP 1.2);
// off, a request of that media type is answered 415 naming the protocol.
func (b *Binding) Route() binding.Route {
	title, mediaType := "SOAP 1.1", "text/xml"
	if b.version12 {
		title, mediaType = "SOAP 1.2", "application/soap+xml"
	}
	return binding.Route{Title: title, Methods: []string{http.MethodPost}, MediaType: mediaType,
		Off: fault.Errorf(fault.UnsupportedMediaType, "%s (%s) is not enabled on this service.", title, mediaType)}
}

// CarriesTokens: a SOAP request may carry its credentials in a WS-Security header (security.go).
func (b *Binding) CarriesTokens() bool { return true }

// CheckPrefix refuses an envelope whose first bytes already exceed the parse budget (budget.go).
func (b *Binding) CheckPrefix(prefix []byte) *fault.Error { return checkXMLBudget(prefix, b.limits) }

// Namespace is the service namespace the operations' elements are in.
func (b *Binding) Namespace() string { return b.namespace }

// Offers reports whether the binding offers op (the WSDL's SOAP binding lists it).
func (b *Binding) Offers(op *wire.Operation) bool {
	if b.version12 {
		return op.Bindings.Has(wire.SOAP12)
	}
	return op.Bindings.Has(wire.SOAP11)
}

// envelopeStart is everything before the body's content of a response without SOAP headers.
func (b *Binding) envelopeStart() string {
	return b.envelopeOpen() + `<` + b.envPrefix + `:Body>`
}

func (b *Binding) envelopeOpen() string {
	p := b.envPrefix
	return xmlwire.XMLDeclaration + `<` + p + `:Envelope xmlns:` + p + `="` + b.envNS + `" xmlns:xsi="` + xmlwire.NSXSI +
		`" xmlns:xsd="` + xmlwire.NSXSD + `">`
}

func (b *Binding) envelopeEnd() string {
	p := b.envPrefix
	return `</` + p + `:Body></` + p + `:Envelope>`
}

// expects says which namespace the service expects and what sets it, for the faults of a request
// naming no operation: the usual cause is a client built from the WSDL of a deployment with another
// --base-url (another host name or port), whose actions and elements are in that deployment's
// namespace.
func (b *Binding) expects() string {
	return "This service expects the namespace \"" + b.namespace + "\"" +
		" (set by --base-url when the service was started); its ?WSDL gives every action and element in it."
}

// action returns the action the client declared, unquoted: the SOAPAction header for SOAP 1.1 (SOAP 1.1
// §6.1.1), the action parameter of the media type for SOAP 1.2 (RFC 3902). ok is false when none was
// declared; an empty action counts as none, as SOAP 1.1 lets "" mean "the request URI".
func (b *Binding) action(r *http.Request) (action string, ok bool) {
	if b.version12 {
		action = actionParam(r.Header.Get("Content-Type"))
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

// Decode reads a SOAP request. The credentials of the request's WS-Security header, if it had one, are
// returned even when decoding failed after it: the handler judges credentials first.
func (b *Binding) Decode(r *http.Request, _ string, body []byte) (binding.Request, *fault.Error) {
	req, err := b.decode(r, body)
	return req.public(), err
}

func (b *Binding) decode(r *http.Request, body []byte) (request, *fault.Error) {
	var byAction *wire.Operation
	if action, ok := b.action(r); ok {
		byAction = b.actions[action] // exact, as ASMX matches it (soap11-FetchItem-default-action)
		if byAction == nil {
			// The envelope is still read for its WS-Security header, so that a caller with a good
			// UsernameToken gets this fault rather than a 401 saying it sent no credentials.
			req, _ := b.parse(body, nil)
			return request{security: req.security}, fault.Errorf(fault.UnknownOperation, "Server did not recognize the value of the SOAP action: %s. %s", action, b.expects())
		}
	}
	req, err := b.parse(body, byAction)
	if err != nil {
		return req, err
	}
	if byAction != nil && byAction != req.op {
		return request{security: req.security}, fault.Errorf(fault.UnknownOperation, "The SOAP action names %s but the body holds %s.", byAction.Name, req.op.Name)
	}
	if byAction != nil && byAction.Bare { // its Body must hold one of its parameters first (package bare)
		if err := bare.CheckBody(body, b.envNS, b.namespace, b.limits, byAction); err != nil {
			return request{security: req.security}, err
		}
	}
	if b.headers {
		if err := b.applyHeaders(body, &req); err != nil {
			return request{security: req.security}, err
		}
	}
	return req, nil
}

// parse decodes an envelope with the fast reader, and again with the full one when the document leaves
// the fast path's shape or has any error, so every error comes from one decoder. The parse budget
// (budget.go) is checked before the full decoder runs: the fast reader holds the budget's bounds
// (its Limits) and refuses comments, processing instructions and CDATA outright, so a document it
// accepts is within the budget, and the common request pays no second pass over its bytes. byAction
// is the operation the SOAPAction names, nil for none: a bare one's Body is read as its parameters.
func (b *Binding) parse(body []byte, byAction *wire.Operation) (request, *fault.Error) {
	rd := xmlwire.GetReader(body, b.namespace, b.limits, true)
	defer xmlwire.PutReader(rd)
	if req, err := b.parseWith(rd, byAction); err == nil {
		return req, nil
	}
	if err := checkXMLBudget(body, b.limits); err != nil {
		return request{}, err
	}
	rd = xmlwire.NewReader(body, b.namespace, b.limits, false)
	req, err := b.parseWith(rd, byAction)
	var op *wire.Operation
	if op, err = bare.Routed(err, byAction); op != nil {
		return b.parse(body, op) // its first element named a bare operation: read it as that one's
	}
	if err != nil {
		return req, fault.As(err)
	}
	return req, nil
}

// parseWith reads Envelope, Header and Body (SOAP 1.1 §4; SOAP 1.2 Part 1 §5) and the operation
// wrapper in the Body through the generated decoder of the operation's request.
func (b *Binding) parseWith(rd *xmlwire.Reader, byAction *wire.Operation) (request, error) {
	var req request
	root, err := rd.Root()
	if err != nil {
		return req, err
	}
	// SOAP 1.1 §4.1.2 and SOAP 1.2 Part 1 §5.4.7: an Envelope in another namespace is a version
	// mismatch; a root that is not an Envelope at all is simply not a SOAP message.
	if !rd.IsElement(root, b.envNS, "Envelope") {
		if rd.Fast() {
			return req, xmlwire.ErrFallback
		}
		if root.Local() != "Envelope" {
			return req, fault.Errorf(fault.MalformedRequest, "The root element must be a SOAP Envelope, not %s.", root.Local())
		}
		return req, fault.Errorf(fault.VersionMismatch, "The envelope namespace %q does not match the content type, which requires %q.", root.Name(rd).Space, b.envNS)
	}
	var late error // an error found in the Body that is reported only if the rest of the document is sound
	seenHeader, seenBody := false, false
	for {
		el, ok, stray, err := rd.ChildStrict()
		if err != nil {
			return req, err
		}
		if stray {
			return req, fault.Errorf(fault.MalformedRequest, "Unexpected text in the SOAP Envelope.")
		}
		if !ok {
			break
		}
		switch {
		case !seenHeader && !seenBody && rd.IsElement(el, b.envNS, "Header"):
			seenHeader = true
			if rd.Fast() {
				return req, xmlwire.ErrFallback // headers carry attributes the fast path does not read
			}
			if b.headers {
				req.hdr = &headerState{decls: headerScope(headerScope(nil, root), el)}
			}
			if err := b.readHeader(rd, &req); err != nil {
				return req, err
			}
		case !seenBody && rd.IsElement(el, b.envNS, "Body"):
			seenBody = true
			if late, err = b.readBody(rd, &req, byAction); err != nil {
				return req, err
			}
		default:
			return req, fault.Errorf(fault.MalformedRequest, "Unexpected element %s in the SOAP Envelope.", el.Local())
		}
	}
	if !seenBody {
		return req, fault.Errorf(fault.MalformedRequest, "The SOAP Envelope has no Body.")
	}
	if err := rd.End(); err != nil {
		return req, err
	}
	return req, late
}

// readBody reads the Body: exactly one element, the operation wrapper. An element that names no
// operation of this service is skipped and reported as late, after the rest of the document was
// found sound.
func (b *Binding) readBody(rd *xmlwire.Reader, req *request, byAction *wire.Operation) (late error, err error) {
	if byAction != nil && byAction.Bare { // the Body is its parameters' wrapper (package bare)
		req.op, req.msg = byAction, byAction.NewRequest()
		return nil, req.msg.DecodeXML(rd)
	}
	seenWrapper := false
	for {
		el, ok, stray, err := rd.ChildStrict()
		if err != nil {
			return nil, err
		}
		if stray {
			return nil, fault.Errorf(fault.MalformedRequest, "Unexpected text in the SOAP Body.")
		}
		if !ok {
			if !seenWrapper {
				return nil, fault.Errorf(fault.MalformedRequest, "The SOAP Body is empty; it must hold the operation element.")
			}
			return late, nil
		}
		if seenWrapper {
			return nil, fault.Errorf(fault.MalformedRequest, "The SOAP Body must hold exactly one element.")
		}
		seenWrapper = true
		op := b.wrapperOperation(rd, el)
		if op == nil {
			if rd.Fast() {
				return nil, xmlwire.ErrFallback
			}
			if err := b.bare.Find(el); err != nil {
				return nil, err // a bare operation's parameter (package bare)
			}
			name := el.Name(rd)
			if name.Space != b.namespace {
				late = fault.Errorf(fault.UnknownOperation, "The body element %s in namespace %q is not an operation of this service. %s",
					name.Local, name.Space, b.expects())
			} else {
				late = fault.Errorf(fault.UnknownOperation, "The body element %s is not an operation of this service. %s", name.Local, b.expects())
			}
			if err := rd.Discard(); err != nil {
				return nil, err
			}
			continue
		}
		req.op, req.msg = op, op.NewRequest()
		if err := req.msg.DecodeXML(rd); err != nil {
			return nil, err
		}
	}
}

// wrapperOperation finds the operation whose request wrapper el is, without allocating; a wrapper in
// another namespace than the service's (wire.Operation.RequestNamespace) is looked for only when el
// is not in the service namespace and the contract has one.
func (b *Binding) wrapperOperation(rd *xmlwire.Reader, el xmlwire.Start) *wire.Operation {
	for _, op := range b.ops {
		if op.RequestNamespace == "" && el.Is(op.RequestElement) && !op.Bare && b.Offers(op) {
			return op
		}
	}
	if b.foreign {
		for _, op := range b.ops {
			if op.RequestNamespace != "" && rd.IsElement(el, op.RequestNamespace, op.RequestElement) && !op.Bare && b.Offers(op) {
				return op
			}
		}
	}
	return nil
}

// WS-Addressing namespaces. .NET and WCF clients send the Action header with mustUnderstand="1"; the
// service understands it in the sense SOAP requires (it dispatches consistently with it), so it must
// not fault on it.
var understoodHeaderNamespaces = map[string]bool{
	"http://www.w3.org/2005/08/addressing":                    true,
	"http://schemas.xmlsoap.org/ws/2004/08/addressing":        true,
	"http://schemas.microsoft.com/ws/2005/05/addressing/none": true,
}

// notUnderstood is the cause of a MustUnderstand error: the header block it is about, which SOAP 1.2
// names in a NotUnderstood header (SOAP 1.2 Part 1 §5.4.8).
type notUnderstood struct{ header xml.Name }

func (n notUnderstood) Error() string {
	return "not understood: {" + n.header.Space + "}" + n.header.Local
}

// readHeader reads the Header's blocks, faulting on one that must be understood and is not. A block
// aimed at another node (SOAP 1.1 actor, SOAP 1.2 role other than next or ultimateReceiver) is not ours
// to understand and is skipped.
func (b *Binding) readHeader(rd *xmlwire.Reader, req *request) error {
	for {
		start := rd.InputOffset()
		el, ok, err := rd.Child()
		if err != nil || !ok {
			return err
		}
		name := el.Name(rd)
		mustUnderstand, targeted, actor := false, true, ""
		if v, ok := el.Attr(b.envNS, "mustUnderstand"); ok {
			mustUnderstand = v == "1" || v == "true"
		}
		for _, attr := range []string{"actor", "role"} {
			if v, ok := el.Attr(b.envNS, attr); ok {
				actor = v
				targeted = v == "http://schemas.xmlsoap.org/soap/actor/next" ||
					v == "http://www.w3.org/2003/05/soap-envelope/role/next" ||
					v == "http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver"
			}
		}
		if targeted && name == securityHeader { // understood, even with auth off (security.go)
			if err := readSecurity(rd, req); err != nil {
				return err
			}
			continue
		}
		if targeted && b.headers { // decided after routing (headers.go)
			if err := rd.Discard(); err != nil {
				return err
			}
			req.hdr.blocks = append(req.hdr.blocks, headerBlock{name: name, mustUnderstand: mustUnderstand, actor: actor, start: start, end: rd.InputOffset()})
			continue
		}
		if mustUnderstand && targeted && !understoodHeaderNamespaces[name.Space] {
			return mustUnderstandFault(name)
		}
		if err := rd.Discard(); err != nil {
			return err
		}
	}
}

// WriteResult writes the response envelope of a successful call.
func (b *Binding) WriteResult(w http.ResponseWriter, op *wire.Operation, resp wire.Message) {
	buf := binding.GetBuffer()
	defer binding.PutBuffer(buf)
	*buf = b.appendResponse(*buf, op, resp)
	binding.WriteBody(w, http.StatusOK, b.contentType, *buf)
}

// WriteSample writes the response envelope around a help-page sample.
func (b *Binding) WriteSample(w http.ResponseWriter, op *wire.Operation, sample binding.Sample) {
	if op.OneWay {
		b.Acknowledge(w) // a one-way operation has no response envelope: its answer is the 202 (oneway.go)
		return
	}
	b.WriteResult(w, op, sample)
}

// appendResponse appends the response envelope of op. A response wrapper without content (a null
// result, or an operation without one) is written as an empty-element tag, as ASMX does.
func (b *Binding) appendResponse(buf []byte, op *wire.Operation, resp wire.Message) []byte {
	open := b.open[op]
	if op.Headers != nil {
		buf = b.appendHeaders(buf, resp)
		open = open[len(b.envelopeStart()):]
	}
	if op.Bare { // the result element alone, or nothing (package bare)
		if op.Headers == nil {
			buf = append(buf, b.envelopeStart()...)
		}
		return b.bare.AppendBody(buf, op, resp, b.envPrefix)
	}
	buf = append(buf, open...)
	mark := len(buf)
	buf = append(buf, '>')
	content := len(buf)
	buf = resp.AppendXML(buf)
	if len(buf) == content {
		buf = append(buf[:mark], " />"...)
	} else {
		buf = xmlwire.AppendEnd(buf, op.ResponseElement)
	}
	return append(buf, b.envelopeEnd()...)
}

// soapFaultCode is an error code's fault code local name (fault's table): SOAP 1.1 §4.4.1 defines
// Client, Server, VersionMismatch and MustUnderstand; SOAP 1.2 Part 1 §5.4.6 renames the first two
// Sender and Receiver.
func (b *Binding) soapFaultCode(code fault.Code) string {
	if b.version12 {
		return code.Mapping().SOAP12
	}
	return code.Mapping().SOAP11
}

// WriteError writes a SOAP fault. Faults use HTTP 500: SOAP 1.1 §6.2 requires it, and for SOAP 1.2 it
// is the status .NET's SOAP 1.2 proxies read a fault from (they raise a bare WebException on 400),
// while JAX-WS and zeep accept either. The one exception is Unavailable (overload, store down): it is
// sent with 503 and Retry-After, which load balancers and retry policies act on, still with a fault
// body for clients that read it. The detail carries the machine-readable code; SOAP 1.1 §4.4 forbids
// detail for header faults, so VersionMismatch and MustUnderstand have none, and instead carry the
// SOAP 1.2 Upgrade and NotUnderstood headers (SOAP 1.2 Part 1 §5.4.7, §5.4.8, Appendix A).
func (b *Binding) WriteError(w http.ResponseWriter, e *fault.Error) {
	buf := binding.GetBuffer()
	defer binding.PutBuffer(buf)
	p := b.envPrefix
	fc := p + ":" + b.soapFaultCode(e.Code)
	headerFault := e.Code == fault.VersionMismatch || e.Code == fault.MustUnderstand
	// A refused UsernameToken carries the WS-Security fault code (WSS 1.1 §12): as the faultcode in
	// SOAP 1.1, as the Subcode under Sender in SOAP 1.2 (whose Code must be a SOAP one).
	wsseCode, wsseNS := "", ""
	// The causes are set directly as Err (the handler's token check, readHeader), so a type assertion
	// finds them without errors.As, which would allocate on this path clients hit for every unknown id.
	wsse, _ := e.Err.(auth.TokenFault)
	if wsse != "" {
		wsseCode, wsseNS = "wsse:"+string(wsse), ` xmlns:wsse="`+auth.NSSecurityExt+`"`
		if !b.version12 {
			fc = wsseCode
		}
	}
	header, _ := e.Err.(notUnderstood)
	*buf = append(*buf, b.envelopeOpen()...)
	switch {
	case e.Code == fault.VersionMismatch:
		*buf = append(*buf, `<`+p+`:Header><upg:Upgrade xmlns:upg="`+EnvelopeNS12+`">`+
			`<upg:SupportedEnvelope qname="ns12:Envelope" xmlns:ns12="`+EnvelopeNS12+`" />`+
			`<upg:SupportedEnvelope qname="ns11:Envelope" xmlns:ns11="`+EnvelopeNS11+`" />`+
			`</upg:Upgrade></`+p+`:Header>`...)
	case e.Code == fault.MustUnderstand && b.version12 && header.header.Local != "":
		*buf = append(*buf, `<`+p+`:Header><`+p+`:NotUnderstood qname="h:`...)
		*buf = xmlwire.AppendEscaped(*buf, header.header.Local)
		*buf = append(*buf, `" xmlns:h="`...)
		*buf = xmlwire.AppendEscaped(*buf, header.header.Space)
		*buf = append(*buf, `" /></`+p+`:Header>`...)
	}
	*buf = append(*buf, `<`+p+`:Body>`...)
	if b.version12 {
		*buf = append(*buf, `<`+p+`:Fault xmlns:cs="`...)
		*buf = xmlwire.AppendEscaped(*buf, b.namespace)
		*buf = append(*buf, `"`+wsseNS+`><`+p+`:Code><`+p+`:Value>`+fc+`</`+p+`:Value>`...)
		switch {
		case wsseCode != "":
			*buf = append(*buf, `<`+p+`:Subcode><`+p+`:Value>`+wsseCode+`</`+p+`:Value><`+p+`:Subcode><`+p+`:Value>cs:`+string(e.Code)+
				`</`+p+`:Value></`+p+`:Subcode></`+p+`:Subcode>`...)
		case !headerFault:
			*buf = append(*buf, `<`+p+`:Subcode><`+p+`:Value>cs:`+string(e.Code)+`</`+p+`:Value></`+p+`:Subcode>`...)
		}
		*buf = append(*buf, `</`+p+`:Code><`+p+`:Reason><`+p+`:Text xml:lang="en">`...)
		*buf = xmlwire.AppendEscaped(*buf, e.Message)
		*buf = append(*buf, `</`+p+`:Text></`+p+`:Reason>`...)
		if !headerFault {
			*buf = append(*buf, `<`+p+`:Detail><ErrorCode xmlns="`...)
			*buf = xmlwire.AppendEscaped(*buf, b.namespace)
			*buf = append(*buf, `">`+string(e.Code)+`</ErrorCode></`+p+`:Detail>`...)
		}
		*buf = append(*buf, `</`+p+`:Fault>`...)
	} else {
		*buf = append(*buf, `<`+p+`:Fault`+wsseNS+`><faultcode>`+fc+`</faultcode><faultstring>`...)
		*buf = xmlwire.AppendEscaped(*buf, e.Message)
		*buf = append(*buf, `</faultstring>`...)
		if !headerFault {
			*buf = append(*buf, `<detail><ErrorCode xmlns="`...)
			*buf = xmlwire.AppendEscaped(*buf, b.namespace)
			*buf = append(*buf, `">`+string(e.Code)+`</ErrorCode></detail>`...)
		}
		*buf = append(*buf, `</`+p+`:Fault>`...)
	}
	*buf = append(*buf, b.envelopeEnd()...)
	status := e.Code.Mapping().SOAPStatus
	if wsseCode != "" {
		status = http.StatusInternalServerError // a refused UsernameToken is a SOAP fault (WSS 1.1 §12)
	}
	// Retry-After on Unavailable; on other Unauthenticated errors (missing or bad HTTP credentials,
	// answered 401) the Basic challenge, which makes .NET proxies retry with their credentials.
	binding.SetErrorHeaders(w, e)
	binding.WriteBody(w, status, b.contentType, *buf)
}
