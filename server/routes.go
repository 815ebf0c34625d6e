package server

import (
	"net/http"
	"slices"
	"strings"

	"github.com/contactsync/contactsync/server/binding"
	"github.com/contactsync/contactsync/server/fault"
)

// The dispatch: the handler serves two places, the endpoint (Handler.path) and its operation paths
// (<endpoint>/<Operation>), and builds the routes of each from what every binding says it serves
// (binding.Route), so it names no binding. As connect-go's handler computes Allow and Accept-Post from
// its protocol handlers, the answers to a request no binding takes are computed from the routes too:
// 405 with the methods of the place, 415 listing the media types, and a binding that --protocols leaves
// off answers as it says it does (its Route's Off).

// route is one binding at its place, as the dispatch tries it.
type route struct {
	b         binding.Binding
	served    bool
	methods   []string
	mediaType string
	strict    bool
	claims    bool
	// allow is the Allow value of a claiming binding's 405: its own methods.
	allow      []string
	notAllowed func(method string) *fault.Error
	off        *fault.Error
}

// place is the endpoint, or its operation paths: the routes there, in the order they are tried, and
// what a request no route takes is answered.
type place struct {
	routes []route
	// allow is the Allow value of a 405 here, shared and never modified, so setting it allocates
	// nothing.
	allow []string
	// notAllowed is the 405's error for a method, given the Allow value.
	notAllowed func(method, allow string) *fault.Error
	// unsupported lists, for a 415, which media type each binding here takes.
	unsupported string
}

// docsMethods are the methods of the documents (?WSDL, ?disco, the help pages) at the endpoint.
var docsMethods = []string{http.MethodGet, http.MethodHead}

// newPlace builds the routes of the bindings at one place; known are every binding there, served or
// not, in the order of binding.ProtocolNames. Bindings with a media type are tried first, as they take
// fewer requests than a binding that takes every request of its method; a binding that is off is tried
// only when it answers for itself (Route.Off).
//
// Allow lists the methods of the served bindings, or of every binding here when none is served, and
// at the endpoint always the documents' GET and HEAD, even when docs is off (whose GET is answered 404,
// not 405). The two places thus differ as they always have: an operation path leaves out the method of
// a binding that is off, while the endpoint lists GET and HEAD whatever docs is.
func newPlace(known []binding.Binding, served func(binding.Binding) bool, extraMethods []string,
	notAllowed func(method, allow string) *fault.Error) place {
	p := place{notAllowed: notAllowed}
	var withType, without []route
	var servedMethods, knownMethods []string
	var unsupported []string
	for _, b := range known {
		r := b.Route()
		on := served(b)
		knownMethods = append(knownMethods, r.Methods...)
		if on {
			servedMethods = append(servedMethods, r.Methods...)
		}
		if r.MediaType != "" {
			unsupported = append(unsupported, r.Title+" requests use "+r.MediaType)
		}
		if !on && r.Off == nil {
			continue
		}
		rt := route{b: b, served: on, methods: r.Methods, mediaType: r.MediaType, strict: r.Strict, claims: r.Claims && on,
			allow: []string{strings.Join(r.Methods, ", ")}, notAllowed: r.NotAllowed, off: r.Off}
		if r.MediaType != "" {
			withType = append(withType, rt)
		} else {
			without = append(without, rt)
		}
	}
	p.routes = append(withType, without...)
	methods := servedMethods
	if len(methods) == 0 {
		methods = knownMethods
	}
	methods = append(slices.Clone(extraMethods), methods...)
	slices.Sort(methods)
	p.allow = []string{strings.Join(slices.Compact(methods), ", ")}
	p.unsupported = joinList(unsupported)
	return p
}

// joinList joins clauses of the same shape ("SOAP 1.1 requests use text/xml") as an English sentence
// does, the verb said once: "A requests use a and B requests b".
func joinList(clauses []string) string {
	for i := 1; i < len(clauses); i++ {
		clauses[i] = strings.Replace(clauses[i], " use ", " ", 1)
	}
	switch len(clauses) {
	case 0:
		return ""
	case 1:
		return clauses[0]
	}
	return strings.Join(clauses[:len(clauses)-1], ", ") + " and " + clauses[len(clauses)-1]
}

// dispatch answers a request at place p: it hands it to the first route that takes it, answers it for a
// binding that is off, or answers 405 or 415. opName is the operation name the path gives, "" at the
// endpoint. The Content-Type is read only when a route with a media type is tried, and parsed once.
func (h *Handler) dispatch(w http.ResponseWriter, r *http.Request, p *place, opName string) {
	var ct binding.ContentType
	parsed := false
	takesMethod := false // a route here takes the method, in a media type the request does not have
	for i := range p.routes {
		rt := &p.routes[i]
		methodOK := slices.Contains(rt.methods, r.Method)
		if rt.mediaType != "" {
			if !methodOK && !rt.claims {
				continue
			}
			if !parsed {
				header := r.Header.Get("Content-Type")
				// A binding that is off is looked for only in a header that mentions its media type,
				// so the requests of the bindings that are on pay no parse for it.
				if !rt.served && !binding.MayHaveMediaType(header, rt.mediaType) {
					takesMethod = true
					continue
				}
				ct, parsed = binding.ReadContentType(header), true
			}
			if ct.MediaType != rt.mediaType || rt.strict && ct.Err != nil {
				takesMethod = takesMethod || methodOK
				continue
			}
			if !methodOK { // a claiming binding's media type, with a method it does not take
				w.Header()["Allow"] = rt.allow
				rt.b.WriteError(w, rt.notAllowed(r.Method))
				return
			}
		} else if !methodOK {
			continue
		}
		if !rt.served {
			binding.WritePlainError(w, rt.off)
			return
		}
		h.serve(w, r, rt.b, opName)
		return
	}
	if takesMethod {
		binding.WritePlainError(w, fault.Errorf(fault.UnsupportedMediaType, "The content type %q is not accepted here: %s.",
			r.Header.Get("Content-Type"), p.unsupported))
		return
	}
	w.Header()["Allow"] = p.allow
	binding.WritePlainError(w, p.notAllowed(r.Method, p.allow[0]))
}

// endpointNotAllowed and operationNotAllowed are the 405 errors of the two places.
func endpointNotAllowed(method, _ string) *fault.Error {
	return fault.Errorf(fault.MethodNotAllowed, "The method %s is not allowed; use POST for SOAP and GET for the service description.", method)
}

func operationNotAllowed(method, allow string) *fault.Error {
	return fault.Errorf(fault.MethodNotAllowed, "The method %s is not allowed; the HTTP bindings accept %s.", method, allow)
}

// ServeHTTP routes a request by path to the documents or a place's routes.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path, endpointPath := r.URL.Path, h.path
	switch {
	case path == endpointPath:
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			h.serveDocs(w, r)
			return
		}
		h.dispatch(w, r, &h.endpoint, "")
	case len(path) > len(endpointPath) && path[len(endpointPath)] == '/' && path[:len(endpointPath)] == endpointPath:
		h.dispatch(w, r, &h.operations, path[len(endpointPath)+1:])
	default:
		binding.WritePlainError(w, fault.Errorf(fault.UnknownOperation, "Nothing is served at %s; the service endpoint is %s.", r.URL.Path, endpointPath))
	}
}

// serveDocs serves a GET or HEAD of the endpoint: ?WSDL, ?disco and the help pages, when served.
func (h *Handler) serveDocs(w http.ResponseWriter, r *http.Request) {
	if !h.protocols.Docs {
		binding.WritePlainError(w, fault.Errorf(fault.UnknownOperation, "The service description (?WSDL, ?disco, help pages) is not enabled on this service."))
		return
	}
	h.docs.ServeHTTP(w, r)
}
