package zoo_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo"
)

// halfZoo has written one method of the zoo's contract and embeds the generated
// UnimplementedSyncSoapServer for the rest: it serves from the first generation on.
type halfZoo struct {
	zoo.UnimplementedSyncSoapServer
}

func (halfZoo) NextTierContext(_ context.Context, req *zoo.NextTier) (*zoo.NextTierResponse, error) {
	return &zoo.NextTierResponse{NextTierResult: req.T}, nil
}

// TestUnimplementedServer serves the zoo through a service that embeds the generated Unimplemented
// server and calls an operation it has not written over every binding: each answers the
// NotImplemented fault naming the operation, in its own form (SOAP 1.1 soap:Server and SOAP 1.2
// Receiver with the code in the detail, both 500; 501 on HTTP GET, POST and the JSON endpoint); the
// method it has written answers as usual.
func TestUnimplementedServer(t *testing.T) {
	h, err := server.NewHandler(zoo.Bind(halfZoo{}), server.Config{BaseURL: zooBaseURL,
		Protocols: []string{"soap11", "soap12", "get", "post", "json"}})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	defer srv.Close()
	ns, path := zoo.Contract.Namespace, zoo.Contract.Path
	const message = "The operation ListSamples is not implemented by this service."

	do := func(t *testing.T, method, url, contentType, body string, header ...string) (int, http.Header, string) {
		t.Helper()
		req, err := http.NewRequest(method, url, strings.NewReader(body))
		require.NoError(t, err)
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := srv.Client().Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		out, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, resp.Header, string(out)
	}
	wrapper := `<ListSamples xmlns="` + ns + `"><n>1</n></ListSamples>`

	t.Run("soap11", func(t *testing.T) {
		status, _, body := do(t, http.MethodPost, srv.URL+path, "text/xml; charset=utf-8",
			`<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>`+wrapper+`</soap:Body></soap:Envelope>`,
			"SOAPAction", `"`+ns+`ListSamples"`)
		assert.Equal(t, http.StatusInternalServerError, status)
		assert.Contains(t, body, "<faultcode>soap:Server</faultcode>")
		assert.Contains(t, body, "<faultstring>"+message+"</faultstring>")
		assert.Contains(t, body, "NotImplemented</ErrorCode>")
	})
	t.Run("soap12", func(t *testing.T) {
		status, _, body := do(t, http.MethodPost, srv.URL+path, `application/soap+xml; charset=utf-8; action="`+ns+`ListSamples"`,
			`<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope"><soap:Body>`+wrapper+`</soap:Body></soap:Envelope>`)
		assert.Equal(t, http.StatusInternalServerError, status)
		assert.Contains(t, body, "<soap12:Value>soap12:Receiver</soap12:Value>")
		assert.Contains(t, body, "<soap12:Value>cs:NotImplemented</soap12:Value>")
		assert.Contains(t, body, message)
		assert.Contains(t, body, "NotImplemented</ErrorCode>")
	})
	t.Run("get", func(t *testing.T) {
		status, header, body := do(t, http.MethodGet, srv.URL+path+"/ListSamples?n=1", "", "")
		assert.Equal(t, http.StatusNotImplemented, status)
		assert.Contains(t, header.Get("Content-Type"), "text/plain")
		assert.Contains(t, body, message)
	})
	t.Run("post", func(t *testing.T) {
		status, _, body := do(t, http.MethodPost, srv.URL+path+"/ListSamples", "application/x-www-form-urlencoded", "n=1")
		assert.Equal(t, http.StatusNotImplemented, status)
		assert.Contains(t, body, message)
	})
	t.Run("json", func(t *testing.T) {
		status, header, body := do(t, http.MethodPost, srv.URL+path+"/ListSamples", "application/json; charset=utf-8", `{"n":1}`)
		assert.Equal(t, http.StatusNotImplemented, status)
		assert.Equal(t, "true", header.Get("jsonerror"))
		assert.Contains(t, body, `{"Message":"`+message+`"`)
		assert.Contains(t, body, `"ExceptionType":"NotImplemented"`)
	})
	t.Run("written method", func(t *testing.T) {
		status, _, body := do(t, http.MethodGet, srv.URL+path+"/NextTier?t=Silver", "", "")
		assert.Equal(t, http.StatusOK, status, body)
		assert.Contains(t, body, ">Silver<")
	})
}
