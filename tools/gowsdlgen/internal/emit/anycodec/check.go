package anycodec

import (
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
)

// Checking objects before writing (issue 33): an object may hold a complex value of a type the
// contract does not have, which cannot be written (ASMX answers a Server fault, soap11-GetObject-widget).
// The handler must find it before the first byte of the response, wherever the object is: the
// result, an out parameter, an out header, a field of a complex or derived value, an array item, or
// an object inside a contract value inside an object. Every type from which an object is reachable
// gets CheckObjects (anytype.ObjectHolder), which walks to each object and asks anytype.Writable,
// itself calling CheckObjects of a contract value an object holds; an operation whose response
// reaches an object gets a CheckResult calling its wrapper's. A contract without objects gets none of
// it, and generates as before.

// reach is the set of types from whose values an object (model.KindObject) is reachable.
type reach map[*model.Type]bool

// reachFrom finds, among roots and every type reachable from them (field types and derived types),
// those from which an object is reachable: a fixed point, as types may refer to each other in cycles.
func reachFrom(roots []*model.Type) reach {
	var all []*model.Type
	seen := map[*model.Type]bool{}
	var visit func(t *model.Type)
	visit = func(t *model.Type) {
		if t == nil || seen[t] || (t.Kind != model.KindComplex && t.Kind != model.KindArray) {
			return
		}
		seen[t] = true
		all = append(all, t)
		for _, f := range t.AllFields() {
			visit(f.Type)
		}
		for _, d := range t.Derived {
			visit(d)
		}
	}
	for _, t := range roots {
		visit(t)
	}
	r := reach{}
	for changed := true; changed; {
		changed = false
		for _, t := range all {
			if r[t] {
				continue
			}
			for _, f := range t.AllFields() {
				if r.field(f) {
					r[t], changed = true, true
					break
				}
			}
		}
	}
	return r
}

// field reports whether an object is reachable from a value of f: f is an object, or of a type
// from which one is, or of a base one of whose derived types reaches one (f holds Any<Base>).
func (r reach) field(f *model.Field) bool {
	if f.Type.Kind == model.KindObject || r[f.Type] {
		return true
	}
	for _, d := range f.Type.Derived {
		if r[d] {
			return true
		}
	}
	return false
}

// headers are the headers op's wrapper t carries: the In and InOut ones on the request, the Out and
// InOut ones on the response.
func headers(op *model.Operation, t *model.Type) []*model.HeaderPart {
	var hs []*model.HeaderPart
	for _, h := range op.Headers {
		if t == op.Request && h.Direction.In() || t == op.Response && h.Direction.Out() {
			hs = append(hs, h)
		}
	}
	return hs
}

// wrapperReaches reports whether an object is reachable from op's wrapper t: a field or a header.
func wrapperReaches(op *model.Operation, t *model.Type) bool {
	roots := []*model.Type{t}
	for _, h := range headers(op, t) {
		roots = append(roots, h.Type)
	}
	r := reachFrom(roots)
	if r[t] {
		return true
	}
	for _, h := range headers(op, t) {
		if r[h.Type] {
			return true
		}
	}
	return false
}

// CheckResult writes op's CheckResult when an object is reachable from its response (its result,
// out and ref parameters and Out headers): the response wrapper's CheckObjects, which the handler
// calls before writing a byte, so that an object it cannot write is answered as an internal error
// (get-GetObject-widget) on every binding, instead of reaching appendObject halfway through the
// response. Other operations need no check: every value of theirs can be written.
func (e Emitter) CheckResult(op *model.Operation) {
	if op.Response != nil && wrapperReaches(op, op.Response) {
		e.p("CheckResult: func(m wire.Message) error { return m.(*%s).CheckObjects() },", op.Response.GoName)
	}
}

// checkObjects writes CheckObjects (anytype.ObjectHolder) for every type of c, and every operation
// wrapper, from which an object is reachable: the contract's types are checked inside an object, and
// the wrappers by CheckResult (the response) and the client before it sends a request.
func (e Emitter) checkObjects(c *model.Contract) {
	roots := append([]*model.Type(nil), c.Types...)
	for _, op := range c.Operations {
		roots = append(roots, op.Request)
		if op.Response != nil {
			roots = append(roots, op.Response)
		}
		for _, h := range op.Headers {
			roots = append(roots, h.Type)
		}
	}
	r := reachFrom(roots)
	done := map[*model.Type]bool{} // a type has one method, should a wrapper also be among the types
	for _, t := range c.Types {
		if r[t] && !done[t] {
			done[t] = true
			e.checkMethod(r, t, nil)
		}
	}
	for _, op := range c.Operations {
		for _, t := range []*model.Type{op.Request, op.Response} {
			if t != nil && !done[t] && wrapperReaches(op, t) {
				done[t] = true
				e.checkMethod(r, t, headers(op, t))
			}
		}
	}
}

// checkMethod writes t's CheckObjects, walking the fields of t (its base's first) and the headers hs
// from which an object is reachable.
func (e Emitter) checkMethod(r reach, t *model.Type, hs []*model.HeaderPart) {
	e.p("")
	e.p("// CheckObjects reports why an object v holds, at any depth, cannot be written (anytype.Writable:")
	if len(hs) > 0 {
		e.p("// a complex value of a type the contract does not have), its headers' included, or nil.")
	} else {
		e.p("// a complex value of a type the contract does not have), or nil.")
	}
	e.p("func (v *%s) CheckObjects() error {", t.GoName)
	e.p("if v == nil { return nil }")
	for _, f := range t.AllFields() {
		if !r.field(f) {
			continue
		}
		expr := "v." + model.GoFieldOf(f).Name
		if f.MaxOccurs != 1 {
			e.p("for _, item := range %s {", expr)
			e.check(f.Type, "item")
			e.p("}")
			continue
		}
		e.check(f.Type, expr)
	}
	for _, h := range hs {
		if r[h.Type] {
			e.check(h.Type, "v."+h.GoName)
		}
	}
	e.p("return nil")
	e.p("}")
}

// check writes the statement returning the error of the value expr of type t, if any: an object's
// Writable, a derived value's CheckObjects when its type has one (an Any<Base>: not every derived
// type need reach an object), a complex value's or an array's CheckObjects (nil-safe).
func (e Emitter) check(t *model.Type, expr string) {
	switch {
	case t.Kind == model.KindObject:
		e.p("if err := anytype.Writable(%s, %s); err != nil { return err }", expr, RegistryName)
	case t.Polymorphic():
		e.p("if h, ok := %s.(anytype.ObjectHolder); ok {", expr)
		e.p("if err := h.CheckObjects(); err != nil { return err }")
		e.p("}")
	default:
		e.p("if err := %s.CheckObjects(); err != nil { return err }", expr)
	}
}
