package json

import (
	"net/http"
	"strings"

	"github.com/contactsync/contactsync/server/binding"
	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/jsonwire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// Binding serves the ASP.NET AJAX JSON endpoint (a [ScriptService] ASMX service): POST
// /sync.asmx/<Operation> with Content-Type application/json, the parameters as a JSON object by name,
// the result as {"d": value} — the "d" wrapper is ASP.NET 3.5's guard against JSON hijacking, since a
// bare JSON array is an executable script. It offers every operation of the table, complex parameters
// included, as ASP.NET AJAX does. Errors are JSON too: {"Message","StackTrace","ExceptionType"} with
// the header jsonerror: true, which ASP.NET AJAX clients look for; ExceptionType carries the service's
// fault code and StackTrace is always empty (ASMX leaks a stack trace there, the service never does).
type Binding struct {
	ops      []*wire.Operation
	maxDepth int
}

// mediaType is the media type of the endpoint's requests.
const mediaType = "application/json"

const jsonContentType = "application/json; charset=utf-8"

// New returns the JSON endpoint of the operations ops, refusing bodies nested deeper than the XML
// limits' MaxDepth: JSON requests are held to the same depth as XML ones.
func New(limits xmlwire.Limits, ops []*wire.Operation) *Binding {
	return &Binding{ops: ops, maxDepth: limits.MaxDepth}
}

// Name is json.
func (b *Binding) Name() string { return "json" }

// Route: a POST of <endpoint>/<Operation> with Content-Type application/json (whole: parameters that do
// not parse leave the request to the HTTP POST binding). A request of that media type is the
// endpoint's whatever its method: ASP.NET AJAX refuses a GET of a method not marked UseHttpGet, and the
// endpoint answers any other method in JSON rather than leave it to the XML binding the client did not
// ask for. Off, a JSON POST is answered 415 saying so, not with the HTTP POST binding's "requires
// application/x-www-form-urlencoded": the caller meant the JSON endpoint, and needs to know it is off
// and how it is turned on.
func (b *Binding) Route() binding.Route {
	return binding.Route{Title: "JSON", OperationInPath: true, Methods: []string{http.MethodPost}, MediaType: mediaType,
		Strict: true, Claims: true, NotAllowed: func(method string) *fault.Error {
			return fault.Errorf(fault.MethodNotAllowed, "The method %s is not allowed on the JSON endpoint; call it with POST.", method)
		},
		Off: fault.Errorf(fault.UnsupportedMediaType, "The JSON endpoint is not enabled on this service: it answers application/json "+
			"requests only when serve's --protocols lists json. HTTP POST requests use application/x-www-form-urlencoded.")}
}

// CarriesTokens: the JSON endpoint carries credentials only in the Authorization header.
func (b *Binding) CarriesTokens() bool { return false }

// CheckPrefix refuses nothing early: the decoder bounds nesting and the body size limit the rest.
func (b *Binding) CheckPrefix([]byte) *fault.Error { return nil }

// Offers reports whether the endpoint serves op: every operation whose parameters the generated JSON
// codec reads, complex ones included, as ASP.NET AJAX does.
func (b *Binding) Offers(op *wire.Operation) bool { return op.DecodeJSON != nil }

// Decode reads the operation named by the last path segment, opName, and its parameters from the JSON
// object.
func (b *Binding) Decode(r *http.Request, opName string, body []byte) (binding.Request, *fault.Error) {
	op := wire.Lookup(b.ops, opName)
	if op == nil || !b.Offers(op) {
		return binding.Request{}, fault.Errorf(fault.UnknownOperation, "The operation %q does not exist; operations are: %s.", opName, strings.Join(b.operationNames(), ", "))
	}
	if c := binding.ReadContentType(r.Header.Get("Content-Type")); c.Err == nil {
		if cs, _ := c.Param("charset"); cs != "" && !strings.EqualFold(cs, "utf-8") {
			return binding.Request{}, fault.Errorf(fault.UnsupportedMediaType, "The JSON endpoint accepts only UTF-8; the charset %q is not supported.", cs)
		}
	}
	rd := jsonwire.NewReader(body, b.maxDepth)
	empty, err := rd.Object()
	if err != nil {
		return binding.Request{}, fault.As(err)
	}
	if empty {
		if len(op.Params) > 0 {
			return binding.Request{Op: op}, fault.As(jsonwire.MissingParameter(op.Params[0].Name))
		}
		return binding.Request{Op: op, Msg: op.NewRequest()}, nil
	}
	msg, err := op.DecodeJSON(rd)
	if err == nil {
		err = rd.End()
	}
	if err != nil {
		return binding.Request{Op: op}, fault.As(err)
	}
	return binding.Request{Op: op, Msg: msg}, nil
}

// operationNames lists the operations the endpoint offers, for the unknown-operation message.
func (b *Binding) operationNames() []string {
	var names []string
	for _, op := range b.ops {
		if b.Offers(op) {
			names = append(names, op.Name)
		}
	}
	return names
}

// WriteResult writes {"d": result}.
func (b *Binding) WriteResult(w http.ResponseWriter, op *wire.Operation, resp wire.Message) {
	buf := binding.GetBuffer()
	defer binding.PutBuffer(buf)
	*buf = append(*buf, `{"d":`...)
	*buf = op.AppendResultJSON(*buf, resp)
	*buf = append(*buf, '}')
	binding.WriteBody(w, http.StatusOK, jsonContentType, *buf)
}

// WriteSample writes {"d": sample}, as WriteResult writes a result.
func (b *Binding) WriteSample(w http.ResponseWriter, _ *wire.Operation, sample binding.Sample) {
	buf := binding.GetBuffer()
	defer binding.PutBuffer(buf)
	*buf = append(*buf, `{"d":`...)
	*buf = sample.AppendResultJSON(*buf)
	*buf = append(*buf, '}')
	binding.WriteBody(w, http.StatusOK, jsonContentType, *buf)
}

// WriteError writes e as ASP.NET AJAX's error object, with the code's JSON status from fault's table:
// 500 for service faults and bad parameters, as ASP.NET AJAX answers them and its clients expect; the
// statuses proxies and clients act on keep their meaning.
func (b *Binding) WriteError(w http.ResponseWriter, e *fault.Error) {
	binding.SetErrorHeaders(w, e)
	w.Header().Set("jsonerror", "true")
	buf := binding.GetBuffer()
	defer binding.PutBuffer(buf)
	*buf = append(*buf, `{"Message":`...)
	*buf = jsonwire.AppendString(*buf, e.Message)
	*buf = append(*buf, `,"StackTrace":"","ExceptionType":`...)
	*buf = jsonwire.AppendString(*buf, string(e.Code))
	*buf = append(*buf, '}')
	binding.WriteBody(w, e.Code.Mapping().JSONStatus, jsonContentType, *buf)
}
