package server

import (
	"mime"
	"net/http"
	"net/url"
	"strings"
)

// httpBinding serves the HTTP GET (post false) and HTTP POST (post true) bindings: the operation is the
// last path segment, the parameters come from the query string or a form body, and the result is a
// bare XML document whose root is Contact, string or int (spec §4.1, §4.2).
type httpBinding struct {
	post      bool
	namespace string
	// start holds, per result kind, the precomputed root start tag.
	start map[resultKind][]byte
}

const httpContentType = "text/xml; charset=utf-8"

// rootElementName is the root element of an HTTP GET/POST result, by kind (the WSDL's global elements).
var rootElementName = map[resultKind]string{
	resultContact: "Contact",
	resultString:  "string",
	resultInt:     "int",
}

func newHTTPBinding(post bool, namespace string) *httpBinding {
	b := &httpBinding{post: post, namespace: namespace, start: map[resultKind][]byte{}}
	ns := string(appendEscaped(nil, namespace))
	for kind, root := range rootElementName {
		b.start[kind] = []byte(xmlDeclaration + `<` + root + ` xmlns:xsi="` + nsXSI + `" xmlns:xsd="` + nsXSD + `" xmlns="` + ns + `">`)
	}
	return b
}

func (b *httpBinding) name() string {
	if b.post {
		return "post"
	}
	return "get"
}

func (b *httpBinding) decode(r *http.Request, body []byte) (*operation, string, *Error) {
	opName := strings.TrimPrefix(r.URL.Path, endpointPath+"/")
	op := operationByName(opName)
	if op == nil {
		return nil, "", errorf(CodeUnknownOperation, "The operation %q does not exist; operations are: %s.", opName, strings.Join(OperationNames(), ", "))
	}
	raw := r.URL.RawQuery
	if b.post {
		mediaType, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || mediaType != "application/x-www-form-urlencoded" {
			return nil, "", errorf(CodeUnsupportedMediaType, "The HTTP POST binding requires the content type application/x-www-form-urlencoded.")
		}
		if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
			return nil, "", errorf(CodeUnsupportedMediaType, "The form's charset %q is not supported; use utf-8.", cs)
		}
		raw = string(body)
	}
	values, err := url.ParseQuery(raw)
	if err != nil {
		return nil, "", errorf(CodeMalformedRequest, "The parameters are not valid URL encoding.")
	}
	if !op.hasID {
		return op, "", nil
	}
	ids := values["id"]
	switch len(ids) {
	case 0:
		return nil, "", errorf(CodeInvalidArgument, "The parameter id is required and must not be empty.")
	case 1:
		return op, ids[0], nil
	default:
		return nil, "", errorf(CodeInvalidArgument, "The parameter id is given more than once.")
	}
}

func (b *httpBinding) writeResult(w http.ResponseWriter, op *operation, r result) {
	buf := getBuffer()
	defer putBuffer(buf)
	root := rootElementName[op.result]
	if op.result == resultContact && r.contact == nil {
		*buf = append(*buf, xmlDeclaration+`<Contact xsi:nil="true" xmlns:xsi="`+nsXSI+`" xmlns="`...)
		*buf = appendEscaped(*buf, b.namespace)
		*buf = append(*buf, `" />`...)
	} else {
		*buf = append(*buf, b.start[op.result]...)
		*buf = appendResultValue(*buf, op.result, r)
		*buf = append(*buf, "</"+root+">"...)
	}
	writeBody(w, http.StatusOK, httpContentType, *buf)
}

// statusFor maps an error code to the HTTP status of the GET and POST bindings (RFC 9110 §15).
func statusFor(code Code) int {
	switch code {
	case CodeInvalidArgument, CodeMalformedRequest, CodeVersionMismatch, CodeMustUnderstand:
		return http.StatusBadRequest // 400
	case CodeUnauthenticated:
		return http.StatusUnauthorized // 401, with WWW-Authenticate (RFC 9110 §11.6.1)
	case CodeNotFound, CodeUnknownOperation:
		return http.StatusNotFound // 404
	case CodeMethodNotAllowed:
		return http.StatusMethodNotAllowed // 405
	case CodeTooLarge:
		return http.StatusRequestEntityTooLarge // 413
	case CodeUnsupportedMediaType:
		return http.StatusUnsupportedMediaType // 415
	case CodeUnavailable:
		return http.StatusServiceUnavailable // 503
	default:
		return http.StatusInternalServerError // 500
	}
}

func (b *httpBinding) writeError(w http.ResponseWriter, e *Error) {
	writePlainError(w, e)
}

// writePlainError writes err as a text/plain message with the status statusFor gives. It serves the
// HTTP bindings and every request that reaches no binding at all (wrong method, unknown media type).
func writePlainError(w http.ResponseWriter, e *Error) {
	if e.Code == CodeUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	if e.Code == CodeUnauthenticated {
		w.Header().Set("WWW-Authenticate", basicChallenge)
	}
	writeBody(w, statusFor(e.Code), "text/plain; charset=utf-8", []byte(e.Message+"\n"))
}
