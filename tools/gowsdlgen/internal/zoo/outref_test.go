package zoo_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/outref"
)

// outRefTwin is the Go twin of Zoo3.cs's Split and Divide (README §5): Split(s, out head, ref count)
// returns the number of comma-separated parts of s, head the first one, count increased by the number
// of parts; Divide(a, b, out quotient, out remainder) is void and fails for b = 0.
type outRefTwin struct{}

var _ outref.SyncSoapServer = outRefTwin{}

func (outRefTwin) SplitContext(_ context.Context, r *outref.Split) (*outref.SplitResponse, error) {
	parts := strings.Split(r.S, ",")
	return &outref.SplitResponse{SplitResult: int32(len(parts)), Head: parts[0], Count: r.Count + int32(len(parts))}, nil
}

func (outRefTwin) DivideContext(_ context.Context, r *outref.Divide) (*outref.DivideResponse, error) {
	if r.B == 0 {
		return nil, errors.New("attempted to divide by zero")
	}
	return &outref.DivideResponse{Quotient: r.A / r.B, Remainder: r.A % r.B}, nil
}

func newOutRefHandler(t *testing.T) *server.Handler {
	t.Helper()
	h, err := server.NewHandler(outref.Bind(outRefTwin{}), server.Config{BaseURL: zooBaseURL,
		Protocols: []string{"soap11", "soap12", "get", "post", "json", "docs"}})
	require.NoError(t, err)
	return h
}

// TestOutRefReplay replays the out/ref section of the third type zoo's captures (README §5;
// testdata/outref/captures holds them unchanged): the response wrapper carries the result and the
// out and ref values in order, a missing ref reads as zero, an out value sent in the request is
// skipped, and GET does not offer the operation. Where we differ (our fault texts, 404 for an
// operation GET does not offer), the status class and fault code are compared, as for zoo2; the
// deviations are listed in docs/bindings.md.
func TestOutRefReplay(t *testing.T) {
	h := newOutRefHandler(t)
	tests := []struct {
		name string
		// status is ours where it differs from ASMX's; faultCode the code of our SOAP fault.
		status    int
		faultCode string
	}{
		{name: "soap11-Split"},
		{name: "soap12-Split"},
		{name: "soap11-Split-no-count"},
		{name: "soap11-Split-with-head"},
		{name: "soap11-Divide"},
		{name: "soap12-Divide"},
		{name: "soap11-Divide-by-zero", faultCode: "Server"},
		{name: "get-Split-not-offered", status: http.StatusNotFound},
	}
	byName := map[string]*capture{}
	for _, c := range readCapturesIn(t, "testdata/outref/captures", len(tests)) {
		byName[c.name] = c
	}
	for _, tt := range tests {
		c := byName[tt.name]
		require.NotNil(t, c, tt.name)
		t.Run(tt.name, func(t *testing.T) {
			rec := replay(h, c)
			got := rec.Body.String()
			switch {
			case tt.status != 0:
				require.Equal(t, http.StatusInternalServerError, c.response.StatusCode, "ASMX's answer")
				require.Equal(t, tt.status, rec.Code, got)
			case tt.faultCode != "":
				require.Equal(t, c.response.StatusCode, rec.Code, got)
				m := faultCode.FindStringSubmatch(got)
				require.NotNil(t, m, got)
				assert.Equal(t, tt.faultCode, m[1]+m[2])
			default:
				require.Equal(t, c.response.StatusCode, rec.Code, got)
				assert.Equal(t, c.response.Header.Get("Content-Type"), rec.Header().Get("Content-Type"))
				want, err := infoset(c.respBody, nil)
				require.NoError(t, err)
				gotSet, err := infoset([]byte(got), nil)
				require.NoError(t, err, got)
				assert.Equal(t, want, gotSet)
			}
		})
	}
}

// TestOutRefOtherBindings: POST does not offer an operation with out or ref parameters either (no
// capture; ASMX's WSDL leaves it out of both HTTP bindings), and the JSON endpoint answers the
// response wrapper's elements as one object keyed by their XML names, in order (our choice: there is
// no capture, docs/bindings.md).
func TestOutRefOtherBindings(t *testing.T) {
	h := newOutRefHandler(t)
	path := outref.Contract.Path
	jsonReq := func(op, body string) *http.Request {
		r := httptest.NewRequest(http.MethodPost, path+"/"+op, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json; charset=utf-8")
		return r
	}
	post := httptest.NewRequest(http.MethodPost, path+"/Split", strings.NewReader("s=a&count=1"))
	post.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	tests := []struct {
		name   string
		req    *http.Request
		status int
		body   string
	}{
		{"post Split", post, http.StatusNotFound, ""},
		{"get Divide", httptest.NewRequest(http.MethodGet, path+"/Divide?a=7&b=2", nil), http.StatusNotFound, ""},
		{"json Split", jsonReq("Split", `{"s":"a,b,c","count":10}`), http.StatusOK, `{"d":{"SplitResult":3,"head":"a","count":13}}`},
		{"json Divide", jsonReq("Divide", `{"a":17,"b":5}`), http.StatusOK, `{"d":{"quotient":3,"remainder":2}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, tt.req)
			require.Equal(t, tt.status, rec.Code, rec.Body.String())
			if tt.body != "" {
				assert.JSONEq(t, tt.body, rec.Body.String())
			}
		})
	}
}

// TestOutRefClient: the generated client stub and the runtime's client read every element of the
// response wrapper, over SOAP and the JSON endpoint, from a served contract.
func TestOutRefClient(t *testing.T) {
	srv := httptest.NewServer(newOutRefHandler(t))
	t.Cleanup(srv.Close)
	for _, b := range []client.Binding{client.SOAP11, client.SOAP12, client.JSON} {
		t.Run(string(b), func(t *testing.T) {
			c := &outref.SyncSoapClient{Invoker: &client.Client{Endpoint: srv.URL + outref.Contract.Path, Namespace: oneWayNamespace, Binding: b, HTTP: srv.Client()}}
			got, err := c.Split(&outref.Split{S: "x,y", Count: 5})
			require.NoError(t, err)
			assert.Equal(t, &outref.SplitResponse{SplitResult: 2, Head: "x", Count: 7}, got)
			div, err := c.Divide(&outref.Divide{A: 17, B: 5})
			require.NoError(t, err)
			assert.Equal(t, &outref.DivideResponse{Quotient: 3, Remainder: 2}, div)
		})
	}
}

// TestOutRefHelpPage: the help page's samples of an operation with out or ref parameters show every
// element of its response wrapper, in order, on SOAP and on the JSON endpoint.
func TestOutRefHelpPage(t *testing.T) {
	h := newOutRefHandler(t)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, outref.Contract.Path+"?op=Split", nil))
	require.Equal(t, http.StatusOK, rec.Code)
	body := rec.Body.String()
	assert.Contains(t, body, "&lt;SplitResult&gt;int&lt;/SplitResult&gt;\n      &lt;head&gt;string&lt;/head&gt;\n      &lt;count&gt;int&lt;/count&gt;\n    &lt;/SplitResponse&gt;")
	assert.Contains(t, body, "{&#34;d&#34;:{&#34;SplitResult&#34;:&#34;int&#34;,&#34;head&#34;:&#34;string&#34;,&#34;count&#34;:&#34;int&#34;}}")
}
