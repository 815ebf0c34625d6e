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
