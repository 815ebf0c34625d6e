package server

import (
	"mime"
	"net/http"
	"strings"

	"github.com/contactsync/contactsync/server/wire"
)

// jsonBinding serves the ASP.NET AJAX JSON endpoint (a [ScriptService] ASMX service): POST
// /sync.asmx/<Operation> with Content-Type application/json, the parameters as a JSON object by name,
// the result as {"d": value} — the "d" wrapper is ASP.NET 3.5's guard against JSON hijacking, since a
// bare JSON array is an executable script. It offers every operation of the table, complex parameters
// included, as ASP.NET AJAX does. Errors are JSON too: {"Message","StackTrace","ExceptionType"} with
// the header jsonerror: true, which ASP.NET AJAX clients look for; ExceptionType carries the service's
// fault code and StackTrace is always empty (ASMX leaks a stack trace there, the service never does).
type jsonBinding struct {
	ops      []*wire.Operation
	maxDepth int
}

const jsonContentType = "application/json; charset=utf-8"

func newJSONBinding(limits Limits, ops []*wire.Operation) *jsonBinding {
	return &jsonBinding{ops: ops, maxDepth: limits.MaxXMLDepth}
}

func (b *jsonBinding) name() string { return "json" }

// carriesTokens: the JSON endpoint carries credentials only in the Authorization header.
func (b *jsonBinding) carriesTokens() bool { return false }

// isJSONMediaType reports whether a Content-Type header names application/json.
func isJSONMediaType(contentType string) bool {
	mediaType, _, err := mime.ParseMediaType(contentType)
	return err == nil && mediaType == "application/json"
}

func (b *jsonBinding) decode(r *http.Request, body []byte) (request, *Error) {
	opName := strings.TrimPrefix(r.URL.Path, endpointPath+"/")
	op := wire.Lookup(b.ops, opName)
	if op == nil || op.DecodeJSON == nil {
		return request{}, errorf(CodeUnknownOperation, "The operation %q does not exist; operations are: %s.", opName, strings.Join(OperationNames(), ", "))
	}
	if _, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); params["charset"] != "" && !strings.EqualFold(params["charset"], "utf-8") {
		return request{}, errorf(CodeUnsupportedMediaType, "The JSON endpoint accepts only UTF-8; the charset %q is not supported.", params["charset"])
	}
	rd := wire.NewJSONReader(body, b.maxDepth)
	empty, err := rd.Object()
	if err != nil {
		return request{}, asError(err)
	}
	if empty {
		if len(op.Params) > 0 {
			return request{op: op}, asError(wire.MissingJSONParameter(op.Params[0].Name))
		}
		return request{op: op, msg: op.NewRequest()}, nil
	}
	msg, err := op.DecodeJSON(rd)
	if err == nil {
		err = rd.End()
	}
	if err != nil {
		return request{op: op}, asError(err)
	}
	return request{op: op, msg: msg}, nil
}

func (b *jsonBinding) writeResult(w http.ResponseWriter, op *wire.Operation, resp wire.Message) {
	buf := getBuffer()
	defer putBuffer(buf)
	*buf = append(*buf, `{"d":`...)
	if p, ok := resp.(*wire.Placeholder); ok {
		*buf = p.AppendResultJSON(*buf)
	} else {
		*buf = op.AppendResultJSON(*buf, resp)
	}
	*buf = append(*buf, '}')
	writeBody(w, http.StatusOK, jsonContentType, *buf)
}

// jsonStatus is an error code's status on the JSON endpoint (fault's table): 500 for service faults and
// bad parameters, as ASP.NET AJAX answers them and its clients expect; the statuses proxies and
// clients act on keep their meaning.
func jsonStatus(code Code) int { return code.Mapping().JSONStatus }

func (b *jsonBinding) writeError(w http.ResponseWriter, e *Error) {
	writeJSONError(w, e)
}

// writeJSONError writes e as ASP.NET AJAX's error object.
func writeJSONError(w http.ResponseWriter, e *Error) {
	if e.Code == CodeUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	if e.Code == CodeUnauthenticated {
		w.Header().Set("WWW-Authenticate", basicChallenge)
	}
	w.Header().Set("jsonerror", "true")
	buf := getBuffer()
	defer putBuffer(buf)
	*buf = append(*buf, `{"Message":`...)
	*buf = wire.AppendJSONString(*buf, e.Message)
	*buf = append(*buf, `,"StackTrace":"","ExceptionType":`...)
	*buf = wire.AppendJSONString(*buf, string(e.Code))
	*buf = append(*buf, '}')
	writeBody(w, jsonStatus(e.Code), jsonContentType, *buf)
}
