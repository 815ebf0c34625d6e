package server_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/wsdl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goldenOperations lists every operation with what must be stored before it runs, so each golden
// exchange is a success: the contact operations other than create need the contact to exist.
var goldenOperations = []struct {
	op          string
	hasID       bool
	needsStored bool
}{
	{"TestCreateContact", true, false},
	{"TestUpdateContact", true, true},
	{"DeleteContact", true, true},
	{"ReadContact", true, true},
	{"Version", false, false},
	{"VersionMajor", false, false},
	{"VersionMinor", false, false},
}

// TestGoldenWire sends each operation over each binding through the real handler and store and
// compares the exact response bytes with testdata/<binding>/<Op>.response.xml. The request sent is
// recorded beside it as <Op>.request.xml (SOAP) or <Op>.request.txt (the HTTP bindings' query or form).
func TestGoldenWire(t *testing.T) {
	const id = "golden-1"
	for _, binding := range bindings {
		t.Run(binding, func(t *testing.T) {
			for _, g := range goldenOperations {
				t.Run(g.op, func(t *testing.T) {
					ts := newTestServer(t, wsdl.DefaultBaseURL)
					if g.needsStored {
						require.NoError(t, ts.store.Put(context.Background(), service.TestContact(id)))
					}
					req := requestFor(binding, wsdl.DefaultNamespace, g.op, id, g.hasID)
					resp, body := ts.do(t, req)
					assert.Equal(t, 200, resp.StatusCode, body)
					assert.Equal(t, contentTypeOf[binding], resp.Header.Get("Content-Type"))

					dir := filepath.Join("testdata", binding)
					if binding == "soap11" || binding == "soap12" {
						golden(t, filepath.Join(dir, g.op+".request.xml"), req.body)
					} else {
						golden(t, filepath.Join(dir, g.op+".request.txt"), req.method+" "+wsdl.Path+req.path+"\n"+req.body)
					}
					golden(t, filepath.Join(dir, g.op+".response.xml"), body)
				})
			}
		})
	}
}
