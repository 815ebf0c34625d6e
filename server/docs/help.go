package docs

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/xml"
	"html/template"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/contactsync/contactsync/server/binding"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// The help pages are ASMX's discovery and help pages: GET of the endpoint shows the service page (every
// operation with its description), ?op=<Op> an operation's page (a test form for the HTTP POST binding
// and sample messages of every binding) and ?disco a DISCO document. Descriptions come from the
// contract's wsdl:documentation, parsed once at start; sample messages are written by the code that
// writes real ones, so neither can drift from what the service does.

//go:embed help_templates
var helpFS embed.FS

// helpService is the service as the contract describes it: what the pages show of the contract, read
// from its document and operation table when the documents are made (New).
type helpService struct {
	Name        string // the wsdl:service name, SyncService
	Title       string // the service's documentation, its human name
	Description string // the definitions' documentation
	Operations  []helpOperation
	// soapPorts are the SOAP 1.1 and 1.2 bindings the DISCO document lists, in contract order.
	soapPorts []soapPort
}

// helpOperation is one operation: the generated table's entry, which carries the contract's
// description and parameters.
type helpOperation struct {
	op          *wire.Operation
	Name        string
	Description string
	// Params are the operation's parameters: the form fields of the test form.
	Params []helpParam
}

type helpParam struct {
	Name, Type string
}

// soapPort is a SOAP binding of the service: its name and protocol (soap11 or soap12).
type soapPort struct{ binding, protocol string }

// wsdlDefinitions is the part of WSDL 1.1 the help pages read: the service, its documentation and its
// SOAP ports (for DISCO). Everything about operations comes from the generated table.
type wsdlDefinitions struct {
	Documentation string `xml:"http://schemas.xmlsoap.org/wsdl/ documentation"`
	Service       struct {
		Name          string `xml:"name,attr"`
		Documentation string `xml:"http://schemas.xmlsoap.org/wsdl/ documentation"`
		Ports         []struct {
			Binding string    `xml:"binding,attr"`
			SOAP    *struct{} `xml:"http://schemas.xmlsoap.org/wsdl/soap/ address"`
			SOAP12  *struct{} `xml:"http://schemas.xmlsoap.org/wsdl/soap12/ address"`
		} `xml:"http://schemas.xmlsoap.org/wsdl/ port"`
	} `xml:"http://schemas.xmlsoap.org/wsdl/ service"`
}

// parseHelpModel reads the service and its documentation from the contract, and each operation of the
// generated table, ops, with its description and parameters.
func parseHelpModel(contract []byte, ops []*wire.Operation) (*helpService, error) {
	var d wsdlDefinitions
	if err := xml.Unmarshal(contract, &d); err != nil {
		return nil, err
	}
	local := func(qname string) string {
		_, name, found := strings.Cut(qname, ":")
		if !found {
			return qname
		}
		return name
	}
	s := &helpService{
		Name:        d.Service.Name,
		Title:       strings.TrimSpace(d.Service.Documentation),
		Description: strings.TrimSpace(d.Documentation),
	}
	for _, p := range d.Service.Ports {
		switch {
		case p.SOAP != nil:
			s.soapPorts = append(s.soapPorts, soapPort{local(p.Binding), "soap11"})
		case p.SOAP12 != nil:
			s.soapPorts = append(s.soapPorts, soapPort{local(p.Binding), "soap12"})
		}
	}
	for _, op := range ops {
		h := helpOperation{op: op, Name: op.Name, Description: op.Doc}
		for _, p := range op.Params {
			h.Params = append(h.Params, helpParam{Name: p.Name, Type: p.Type.Name})
		}
		s.Operations = append(s.Operations, h)
	}
	return s, nil
}

func (s *helpService) operation(name string) *helpOperation {
	for i := range s.Operations {
		if s.Operations[i].Name == name {
			return &s.Operations[i]
		}
	}
	return nil
}

// The page templates: each page file defines "content" and is parsed with layout.html. The style sheet
// and script are inlined and allowed by hash in the Content-Security-Policy, so the pages load nothing
// else and run no other script.
var (
	helpCSS    = mustRead("help_templates/help.css")
	helpScript = mustRead("help_templates/tryit.js")
	helpCSP    = "default-src 'none'; style-src 'sha256-" + hashOf(helpCSS) + "'; script-src 'sha256-" + hashOf(helpScript) +
		"'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
	helpPages = map[string]*template.Template{
		"service":   mustPage("service.html"),
		"operation": mustPage("operation.html"),
		"notfound":  mustPage("notfound.html"),
	}
)

func mustRead(name string) string {
	b, err := helpFS.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func hashOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return base64.StdEncoding.EncodeToString(sum[:])
}

func mustPage(name string) *template.Template {
	return template.Must(template.New("layout.html").ParseFS(helpFS, "help_templates/layout.html", "help_templates/"+name))
}

// helpPage is the data of every page.
type helpPage struct {
	Title     string
	Service   *helpService
	Namespace string
	Address   string // the endpoint URL as the client reached it
	Self      string // the endpoint's last path segment, for links relative to the page
	CSS       template.CSS
	Script    template.JS // only on the operation page
	// Protocols names the protocols served, as a sentence's list: "SOAP 1.1, SOAP 1.2, HTTP GET, HTTP
	// POST and JSON".
	Protocols string

	Op      *helpOperation
	Form    *helpForm   // the test form, nil when no enabled protocol can carry it
	Fields  []helpField // the test form's fields, prefilled from the query
	Samples []helpSample
	Missing string // the unknown operation a 404 page names
}

type helpField struct {
	Name, Type, Value string
}

// helpForm is how the test form invokes the operation: with HTTP POST when it is enabled and offers
// the operation, else HTTP GET, else the JSON endpoint (which needs the page's script).
type helpForm struct {
	// Method is the form's method; Binding is post, get or json; Protocol names it for the reader.
	Method, Binding, Protocol string
}

// helpFormFor chooses the test form's protocol for op.
func (d *Documents) helpFormFor(op *wire.Operation) *helpForm {
	p := d.cfg.Protocols
	switch {
	case p.Post && op.Bindings.Has(wire.HTTPPost):
		return &helpForm{Method: "post", Binding: "post", Protocol: "HTTP POST"}
	case p.Get && op.Bindings.Has(wire.HTTPGet):
		return &helpForm{Method: "get", Binding: "get", Protocol: "HTTP GET"}
	case p.JSON && op.DecodeJSON != nil:
		return &helpForm{Method: "post", Binding: "json", Protocol: "JSON"}
	}
	return nil
}

// helpSample is one binding's sample request and response, with placeholders.
type helpSample struct {
	ID, Heading       string
	Request, Response string
}

// serveHelp answers a GET of the endpoint (without ?WSDL or ?disco): the service page, or with
// ?op=<Op> the operation's page, or a 404 page for an unknown operation.
func (d *Documents) serveHelp(w http.ResponseWriter, r *http.Request) {
	page := helpPage{
		Title:     d.model.Name,
		Service:   d.model,
		Namespace: d.cfg.Namespace,
		Address:   d.addrs.requestAddress(r),
		Self:      path.Base(d.cfg.Path),
		CSS:       template.CSS(helpCSS),
		Protocols: d.protocolList(),
	}
	query := r.URL.Query()
	name := query.Get("op")
	if name == "" {
		d.renderHelp(w, http.StatusOK, "service", &page)
		return
	}
	op := d.model.operation(name)
	if op == nil {
		page.Title, page.Missing = "Operation not found", name
		d.renderHelp(w, http.StatusNotFound, "notfound", &page)
		return
	}
	page.Title, page.Op, page.Script = d.model.Name+": "+op.Name, op, template.JS(helpScript)
	page.Form = d.helpFormFor(op.op)
	for i, p := range op.Params {
		name := p.Name
		if page.Form != nil && page.Form.Binding != "json" {
			name = op.op.HTTPParamName(i) // GET and POST may name it otherwise (wire.Operation.HTTPParams)
		}
		page.Fields = append(page.Fields, helpField{Name: name, Type: p.Type, Value: query.Get(name)})
	}
	samples, err := d.helpSamples(r.Context(), op, page.Address)
	if err != nil {
		d.writeHelpFailure(w, r, err)
		return
	}
	page.Samples = samples
	d.renderHelp(w, http.StatusOK, "operation", &page)
}

// protocolList names the bindings served, in the help pages' order, as a list in a sentence.
func (d *Documents) protocolList() string {
	var names []string
	for _, b := range d.cfg.Bindings {
		names = append(names, b.Route().Title)
	}
	switch len(names) {
	case 0:
		return "no protocol"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func (d *Documents) renderHelp(w http.ResponseWriter, status int, name string, page *helpPage) {
	var buf bytes.Buffer
	if err := helpPages[name].Execute(&buf, page); err != nil {
		d.log.Error("rendering a help page failed", "page", name, "error", err)
		binding.WritePlainError(w, fault.InternalError(err))
		return
	}
	hdr := w.Header()
	hdr.Set("Content-Security-Policy", helpCSP)
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Referrer-Policy", "no-referrer")
	binding.WriteBody(w, status, "text/html; charset=utf-8", buf.Bytes())
}

func (d *Documents) writeHelpFailure(w http.ResponseWriter, r *http.Request, err error) {
	d.log.Error("building a help page failed", "path", r.URL.Path, "error", err)
	binding.WritePlainError(w, fault.InternalError(err))
}

// placeholderLength is shown where a sample's Content-Length goes, as ASMX shows it.
const placeholderLength = "length"

// helpSamples writes op's sample messages for every served binding that offers it: each request with
// the client's request writer, each response with the binding's WriteSample, both given placeholder
// messages (placeholder.go) built from the table's type descriptors.
func (d *Documents) helpSamples(ctx context.Context, op *helpOperation, address string) ([]helpSample, error) {
	var out []helpSample
	for _, b := range d.cfg.Bindings {
		speaks := client.Binding(b.Name())
		if !b.Offers(op.op) || !client.Offers(op.op, speaks) {
			continue
		}
		c := &client.Client{Endpoint: address, Namespace: d.cfg.Namespace, Binding: speaks}
		req, err := c.NewRequest(ctx, op.op, requestPlaceholder(op.op))
		if err != nil {
			return nil, err
		}
		request, err := formatRequest(req)
		if err != nil {
			return nil, err
		}
		rec := httptest.NewRecorder()
		b.WriteSample(rec, op.op, responsePlaceholder(op.op))
		out = append(out, helpSample{ID: b.Name(), Heading: b.Route().Title, Request: request, Response: formatResponse(rec)})
	}
	return out, nil
}

// headerOrder lists the request headers samples show first, with their conventional spelling.
var headerOrder = []struct{ key, shown string }{
	{"Content-Type", "Content-Type"},
	{"Content-Length", "Content-Length"},
	{"Soapaction", "SOAPAction"},
}

// formatRequest shows a request as it travels: request line, Host, headers, then the body (indented
// when it is XML), with the length as a placeholder.
func formatRequest(req *http.Request) (string, error) {
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return "", err
		}
	}
	var b strings.Builder
	b.WriteString(req.Method + " " + req.URL.RequestURI() + " HTTP/1.1\nHost: " + req.URL.Host + "\n")
	hdr := req.Header.Clone()
	if len(body) > 0 {
		hdr.Set("Content-Length", placeholderLength)
	}
	for _, h := range headerOrder {
		if v := hdr.Get(h.key); v != "" {
			b.WriteString(h.shown + ": " + v + "\n")
			hdr.Del(h.key)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(hdr)) {
		b.WriteString(k + ": " + hdr.Get(k) + "\n")
	}
	if len(body) > 0 {
		b.WriteString("\n")
		b.Write(indentXML(body))
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

// formatResponse shows a recorded response: status line, headers, body, with the length and the
// integer placeholders in place of the real values.
func formatResponse(rec *httptest.ResponseRecorder) string {
	var b strings.Builder
	b.WriteString("HTTP/1.1 " + strconv.Itoa(rec.Code) + " " + http.StatusText(rec.Code) + "\n")
	b.WriteString("Content-Type: " + rec.Header().Get("Content-Type") + "\n")
	b.WriteString("Content-Length: " + placeholderLength + "\n\n")
	b.Write(indentXML(rec.Body.Bytes()))
	return strings.TrimRight(b.String(), "\n")
}

// indentXML puts each element on its own line, indented by depth, keeping every token's bytes as
// written: only white space between tags is added, so the sample is the encoder's output. Input that
// is not XML (a form body) is returned unchanged.
func indentXML(raw []byte) []byte {
	d := xml.NewDecoder(bytes.NewReader(raw))
	var out []byte
	depth := 0
	var hasChildren []bool // per open element: whether it holds elements, so its end tag goes on a new line
	sawElement := false
	newline := func() {
		if len(out) > 0 {
			out = append(out, '\n')
		}
		out = append(out, strings.Repeat("  ", depth)...)
	}
	for {
		start := d.InputOffset()
		tok, err := d.RawToken()
		if err == io.EOF && sawElement && depth == 0 {
			return append(out, '\n')
		}
		if err != nil {
			return raw
		}
		seg := raw[start:d.InputOffset()]
		switch tok.(type) {
		case xml.StartElement:
			if len(hasChildren) > 0 {
				hasChildren[len(hasChildren)-1] = true
			}
			newline()
			out = append(out, seg...)
			depth++
			sawElement = true
			hasChildren = append(hasChildren, false)
		case xml.EndElement:
			depth--
			children := hasChildren[len(hasChildren)-1]
			hasChildren = hasChildren[:len(hasChildren)-1]
			if len(seg) == 0 {
				continue // the end of an empty-element tag, <x />, already written
			}
			if children {
				newline()
			}
			out = append(out, seg...)
		case xml.CharData:
			if len(bytes.TrimSpace(seg)) == 0 && (depth == 0 || hasChildren[len(hasChildren)-1]) {
				continue
			}
			out = append(out, seg...)
		default:
			if depth == 0 {
				newline()
			}
			out = append(out, seg...)
		}
	}
}

// serveDisco answers ?disco with a DISCO document as ASMX writes it: the contract (?wsdl) with this
// page as its documentation, and the SOAP 1.1 and 1.2 addresses, all as the client reached us.
func (d *Documents) serveDisco(w http.ResponseWriter, r *http.Request) {
	addr := xmlwire.AppendEscaped(nil, d.addrs.requestAddress(r))
	ns := xmlwire.AppendEscaped(nil, d.cfg.Namespace)
	b := []byte(xmlwire.XMLDeclaration + `<discovery xmlns:xsd="` + xmlwire.NSXSD + `" xmlns:xsi="` + xmlwire.NSXSI + `" xmlns="http://schemas.xmlsoap.org/disco/">` + "\n")
	b = append(b, `  <contractRef ref="`...)
	b = append(append(b, addr...), `?wsdl" docRef="`...)
	b = append(append(b, addr...), `" xmlns="http://schemas.xmlsoap.org/disco/scl/" />`+"\n"...)
	n := 0
	for _, port := range d.model.soapPorts {
		if (port.protocol == "soap11" && !d.cfg.Protocols.SOAP11) || (port.protocol == "soap12" && !d.cfg.Protocols.SOAP12) {
			continue
		}
		n++
		q := "q" + strconv.Itoa(n)
		b = append(b, `  <soap address="`...)
		b = append(append(b, addr...), `" xmlns:`+q+`="`...)
		b = append(append(b, ns...), `" binding="`+q+`:`...)
		b = xmlwire.AppendEscaped(b, port.binding)
		b = append(b, `" xmlns="http://schemas.xmlsoap.org/disco/soap/" />`+"\n"...)
	}
	b = append(b, "</discovery>"...)
	binding.WriteBody(w, http.StatusOK, "text/xml; charset=utf-8", b)
}
