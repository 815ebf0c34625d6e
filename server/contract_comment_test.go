package server_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/wsdl"
)

// TestServedContractHasNoComment: the contract file's comment for its maintainers ("After editing,
// run `make generate`…") used to reach every client in ?WSDL; the served contract, whatever protocols
// are on, and what `contactsync wsdl` prints carry no comment at all. (tools/gowsdlgen's
// TestWithoutComments holds the stripping itself, wsdl's the file's own comment.)
func TestServedContractHasNoComment(t *testing.T) {
	ts := newTestServer(t, wsdl.DefaultBaseURL)
	resp, body := ts.do(t, wireRequest{method: "GET", path: "?WSDL"})
	require.Equal(t, 200, resp.StatusCode)
	assert.NotContains(t, body, "<!--")
	assert.NotContains(t, body, "make generate")
	assert.Contains(t, body, "<wsdl:definitions ", "the document itself is intact")
	assert.True(t, bytes.HasPrefix([]byte(body), []byte(`<?xml version="1.0" encoding="utf-8"?>`+"\n<wsdl:definitions ")), "the declaration, then the root on the next line")
	for _, protocols := range [][]string{{"soap11", "docs"}, {"soap12", "get", "post", "json", "docs"}} {
		doc, err := server.ContractFor(gen.Contract, wsdl.DefaultBaseURL, wsdl.DefaultAddress, protocols)
		require.NoError(t, err)
		assert.NotContains(t, string(doc), "<!--", "%v", protocols)
	}
}
