package client

import (
	"context"
	"fmt"

	"github.com/contactsync/contactsync/gen"
)

// Invoke calls the operation named op on svc, passing id to the contact operations, and returns the
// generated response value. It lets a caller that has an operation name as data (the CLI, a test
// matrix) use any gen.SyncServiceSoap: this Client, the in-process service or gowsdl's client.
func Invoke(ctx context.Context, svc gen.SyncServiceSoap, op, id string) (any, error) {
	switch op {
	case "TestCreateContact":
		return svc.TestCreateContactContext(ctx, &gen.TestCreateContact{Id: id})
	case "TestUpdateContact":
		return svc.TestUpdateContactContext(ctx, &gen.TestUpdateContact{Id: id})
	case "DeleteContact":
		return svc.DeleteContactContext(ctx, &gen.DeleteContact{Id: id})
	case "ReadContact":
		return svc.ReadContactContext(ctx, &gen.ReadContact{Id: id})
	case "Version":
		return svc.VersionContext(ctx, &gen.Version{})
	case "VersionMajor":
		return svc.VersionMajorContext(ctx, &gen.VersionMajor{})
	case "VersionMinor":
		return svc.VersionMinorContext(ctx, &gen.VersionMinor{})
	}
	return nil, fmt.Errorf("unknown operation %q", op)
}

// ContactOf returns the contact a contact operation's response (as Invoke returns it) carries, or nil
// for any other response.
func ContactOf(resp any) *gen.Contact {
	switch r := resp.(type) {
	case *gen.TestCreateContactResponse:
		return r.TestCreateContactResult
	case *gen.TestUpdateContactResponse:
		return r.TestUpdateContactResult
	case *gen.ReadContactResponse:
		return r.ReadContactResult
	case *gen.DeleteContactResponse:
		return r.DeleteContactResult
	}
	return nil
}
