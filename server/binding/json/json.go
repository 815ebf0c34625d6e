package json

import (
	"net/http"
	"strings"

	"github.com/contactsync/contactsync/server/binding"
	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/wsdl"
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

const jsonContentType = "application/json; charset=utf-8"

// New returns the JSON endpoint of the operations ops, refusing bodies nested deeper than maxDepth (the
// same depth limit as XML requests).
func New(maxDepth int, ops []*wire.Operation) *Binding {
	return &Binding{ops: ops, maxDepth: maxDepth}
}

// Name is json.
func (b *Binding) Name() string { return "json" }

// CarriesTokens: the JSON endpoint carries credentials only in the Authorization header.
func (b *Binding) CarriesTokens() bool { return false }

// CheckPrefix refuses nothing early: the decoder bounds nesting and the body size limit the rest.
func (b *Binding) CheckPrefix([]byte) *fault.Error { return nil }

// Offers reports whether the endpoint serves op: every operation whose parameters the generated JSON
// codec reads, complex ones included, as ASP.NET AJAX does.
func (b *Binding) Offers(op *wire.Operation) bool { return op.DecodeJSON != nil }

// IsMediaType reports whether a Content-Type header names application/json.
func IsMediaType(contentType string) bool {
	c := binding.ReadContentType(contentType)
	return c.Err == nil && c.MediaType == "application/json"
}

// Decode reads the operation from the last path segment and its parameters from the JSON object.
func (b *Binding) Decode(r *http.Request, body []byte) (binding.Request, *fault.Error) {
	opName := strings.TrimPrefix(r.URL.Path, wsdl.Path+"/")
	op := wire.Lookup(b.ops, opName)
	if op == nil || !b.Offers(op) {
		return binding.Request{}, fault.Errorf(fault.UnknownOperation, "The operation %q does not exist; operations are: %s.", opName, strings.Join(b.operationNames(), ", "))
	}
	if c := binding.ReadContentType(r.Header.Get("Content-Type")); c.Err == nil {
		if cs, _ := c.Param("charset"); cs != "" && !strings.EqualFold(cs, "utf-8") {
			return binding.Request{}, fault.Errorf(fault.UnsupportedMediaType, "The JSON endpoint accepts only UTF-8; the charset %q is not supported.", cs)
		}
	}
	rd := wire.NewJSONReader(body, b.maxDepth)
	empty, err := rd.Object()
	if err != nil {
		return binding.Request{}, fault.As(err)
	}
	if empty {
		if len(op.Params) > 0 {
			return binding.Request{Op: op}, fault.As(wire.MissingJSONParameter(op.Params[0].Name))
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
	if p, ok := resp.(*wire.Placeholder); ok {
		*buf = p.AppendResultJSON(*buf)
	} else {
		*buf = op.AppendResultJSON(*buf, resp)
	}
	*buf = append(*buf, '}')
	binding.WriteBody(w, http.StatusOK, jsonContentType, *buf)
}

// WriteError writes e as ASP.NET AJAX's error object (WriteError).
func (b *Binding) WriteError(w http.ResponseWriter, e *fault.Error) {
	WriteError(w, e)
}

// WriteError writes e as ASP.NET AJAX's error object, with the code's JSON status from fault's table:
// 500 for service faults and bad parameters, as ASP.NET AJAX answers them and its clients expect; the
// statuses proxies and clients act on keep their meaning. The handler uses it too for a JSON request
// refused before it reaches the binding (a GET).
func WriteError(w http.ResponseWriter, e *fault.Error) {
	binding.SetErrorHeaders(w, e)
	w.Header().Set("jsonerror", "true")
	buf := binding.GetBuffer()
	defer binding.PutBuffer(buf)
	*buf = append(*buf, `{"Message":`...)
	*buf = wire.AppendJSONString(*buf, e.Message)
	*buf = append(*buf, `,"StackTrace":"","ExceptionType":`...)
	*buf = wire.AppendJSONString(*buf, string(e.Code))
	*buf = append(*buf, '}')
	binding.WriteBody(w, e.Code.Mapping().JSONStatus, jsonContentType, *buf)
}
