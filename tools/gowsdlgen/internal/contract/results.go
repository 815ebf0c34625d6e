package contract

// Results returns the elements of op's response wrapper in order: the result (when the method is not
// void), then the out and ref parameters in declaration order (shapes README §5: SplitResponse holds
// SplitResult, head, count; a void method's DivideResponse holds quotient, remainder). A one-way
// operation has none.
func (op *Operation) Results() []*Field {
	if op.OneWay || op.Response == nil {
		return nil
	}
	return op.Response.Fields
}

// Result returns the one element of op's response wrapper, the result, when it has exactly one; nil
// for a void method, a one-way operation and an operation with out or ref parameters (several
// elements), whose results are Results.
func (op *Operation) Result() *Field {
	if rs := op.Results(); len(rs) == 1 {
		return rs[0]
	}
	return nil
}

// OutRef reports whether op's response wrapper holds several elements: a method with out or ref
// parameters (or a void one with at least two outs).
func (op *Operation) OutRef() bool { return len(op.Results()) > 1 }
