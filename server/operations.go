package server

import (
	"context"

	"github.com/contactsync/contactsync/gen"
)

// resultKind is the shape of an operation's result (spec §4.2, "Result shapes").
type resultKind int

const (
	resultContact resultKind = iota
	resultString
	resultInt
)

// result carries one operation's outcome to the encoders; exactly the field of the operation's kind
// is meaningful.
type result struct {
	contact *gen.Contact
	text    string
	number  int32
}

// operation is one entry of the dispatch table every binding shares.
type operation struct {
	// name is the operation name as in the WSDL: the SOAP wrapper element, the HTTP path segment and
	// the suffix of the SOAPAction.
	name string
	// hasID reports whether the operation takes the id parameter; the others take none.
	hasID  bool
	result resultKind
	// call invokes the generated interface's method, so renaming an operation in the WSDL breaks the
	// build here rather than at run time.
	call func(ctx context.Context, svc gen.SyncServiceSoap, id string) (result, error)
}

// operations is the dispatch table, in the spec's order (§4.2).
var operations = []operation{
	{name: "TestCreateContact", hasID: true, result: resultContact,
		call: func(ctx context.Context, svc gen.SyncServiceSoap, id string) (result, error) {
			r, err := svc.TestCreateContactContext(ctx, &gen.TestCreateContact{Id: id})
			if err != nil {
				return result{}, err
			}
			return result{contact: r.TestCreateContactResult}, nil
		}},
	{name: "TestUpdateContact", hasID: true, result: resultContact,
		call: func(ctx context.Context, svc gen.SyncServiceSoap, id string) (result, error) {
			r, err := svc.TestUpdateContactContext(ctx, &gen.TestUpdateContact{Id: id})
			if err != nil {
				return result{}, err
			}
			return result{contact: r.TestUpdateContactResult}, nil
		}},
	{name: "DeleteContact", hasID: true, result: resultContact,
		call: func(ctx context.Context, svc gen.SyncServiceSoap, id string) (result, error) {
			r, err := svc.DeleteContactContext(ctx, &gen.DeleteContact{Id: id})
			if err != nil {
				return result{}, err
			}
			return result{contact: r.DeleteContactResult}, nil
		}},
	{name: "ReadContact", hasID: true, result: resultContact,
		call: func(ctx context.Context, svc gen.SyncServiceSoap, id string) (result, error) {
			r, err := svc.ReadContactContext(ctx, &gen.ReadContact{Id: id})
			if err != nil {
				return result{}, err
			}
			return result{contact: r.ReadContactResult}, nil
		}},
	{name: "Version", result: resultString,
		call: func(ctx context.Context, svc gen.SyncServiceSoap, _ string) (result, error) {
			r, err := svc.VersionContext(ctx, &gen.Version{})
			if err != nil {
				return result{}, err
			}
			return result{text: r.VersionResult}, nil
		}},
	{name: "VersionMajor", result: resultInt,
		call: func(ctx context.Context, svc gen.SyncServiceSoap, _ string) (result, error) {
			r, err := svc.VersionMajorContext(ctx, &gen.VersionMajor{})
			if err != nil {
				return result{}, err
			}
			return result{number: r.VersionMajorResult}, nil
		}},
	{name: "VersionMinor", result: resultInt,
		call: func(ctx context.Context, svc gen.SyncServiceSoap, _ string) (result, error) {
			r, err := svc.VersionMinorContext(ctx, &gen.VersionMinor{})
			if err != nil {
				return result{}, err
			}
			return result{number: r.VersionMinorResult}, nil
		}},
}

// operationByName finds an operation by its exact, case-sensitive name (as ASMX matches them).
func operationByName(name string) *operation {
	for i := range operations {
		if operations[i].name == name {
			return &operations[i]
		}
	}
	return nil
}

// OperationNames lists the operations in table order, for the CLI and documentation.
func OperationNames() []string {
	names := make([]string, len(operations))
	for i, op := range operations {
		names[i] = op.name
	}
	return names
}
