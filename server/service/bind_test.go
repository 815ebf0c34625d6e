package service_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// foreignRequest is a request wrapper of no contract.
type foreignRequest struct{}

func (foreignRequest) AppendXML(b []byte) []byte         { return b }
func (foreignRequest) DecodeXML(r *xmlwire.Reader) error { return nil }

// TestBindRefusesForeignRequests: a bound contract's Call dispatches on the request wrapper's type, and
// answers a wrapper of another contract with an internal error, never a call.
func TestBindRefusesForeignRequests(t *testing.T) {
	bound := gen.Bind(service.New(nil))
	resp, err := bound.Call(context.Background(), foreignRequest{})
	assert.Nil(t, resp)
	assert.Equal(t, fault.Internal, fault.As(err).Code)

	resp, err = bound.Call(context.Background(), &gen.VersionMajor{})
	require.NoError(t, err)
	assert.Equal(t, int32(1), resp.(*gen.VersionMajorResponse).VersionMajorResult)
}
