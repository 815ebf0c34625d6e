package zoo_test

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/names"
)

// namesService implements the contract of awkward names: the compiler checks that the generated
// interface exports every method a service must write (deletePerformance, getUrun, echo and Echo).
type namesService struct{}

var _ names.UrunServisSoapServer = namesService{}

func (namesService) DeletePerformanceContext(_ context.Context, req *names.DeletePerformance) (*names.DeletePerformanceResponse, error) {
	return &names.DeletePerformanceResponse{DeletePerformanceResult: req.PerformanceId > 0}, nil
}

func (namesService) GetUrunContext(_ context.Context, req *names.GetUrun) (*names.GetUrunResponse, error) {
	list := "a"
	return &names.GetUrunResponse{GetUrunResult: &names.UrunBilgi{ÜrünKodu: req.ÜrünKodu, Adet: 1, Adet_2: 2, Xid: "x-" + req.Type_,
		Range_: "r", Len: "l", Etiketler: &names.Map_{Astring: []*string{&list, nil}}}}, nil
}

func (namesService) EchoContext(_ context.Context, req *names.Echo) (*names.EchoResponse, error) {
	return &names.EchoResponse{EchoResult: "lower " + req.S}, nil
}

func (namesService) Echo_2Context(_ context.Context, req *names.Echo_2) (*names.EchoResponse_2, error) {
	return &names.EchoResponse_2{EchoResult: "upper " + req.S}, nil
}

// TestNamesRoundTrip calls every operation of the awkward-names contract through the generated client
// stub and the bundled client over each binding: the Go names the generator chose (ÜrünKodu, Adet and
// Adet_2, Xid, Echo and Echo_2, …) carry each value to the element the WSDL names, and back.
func TestNamesRoundTrip(t *testing.T) {
	h, err := server.NewHandler(names.Bind(namesService{}), server.Config{BaseURL: zooBaseURL,
		Protocols: []string{"soap11", "soap12", "json"}})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx := context.Background()
	list := "a"
	for _, b := range []client.Binding{client.SOAP11, client.SOAP12, client.JSON} {
		cl := &client.Client{Endpoint: srv.URL + names.Contract.Path, Namespace: names.Contract.Namespace, Binding: b}
		stub := &names.UrunServisSoapClient{Invoker: cl}
		t.Run(string(b), func(t *testing.T) {
			del, err := stub.DeletePerformanceContext(ctx, &names.DeletePerformance{PerformanceId: 7})
			require.NoError(t, err)
			assert.True(t, del.DeletePerformanceResult)
			urun, err := stub.GetUrunContext(ctx, &names.GetUrun{ÜrünKodu: "ü-1", Type_: "t"})
			require.NoError(t, err)
			assert.Equal(t, &names.UrunBilgi{ÜrünKodu: "ü-1", Adet: 1, Adet_2: 2, Xid: "x-t", Range_: "r", Len: "l",
				Etiketler: &names.Map_{Astring: []*string{&list, nil}}}, urun.GetUrunResult)
			lower, err := stub.EchoContext(ctx, &names.Echo{S: "s"})
			require.NoError(t, err)
			assert.Equal(t, "lower s", lower.EchoResult)
			upper, err := stub.Echo_2Context(ctx, &names.Echo_2{S: "S"})
			require.NoError(t, err)
			assert.Equal(t, "upper S", upper.EchoResult)
		})
	}
}

// TestNamesOnTheWire: a SOAP request written with the WSDL's names reaches the operation the WSDL
// names (echo and Echo are two operations), and the response carries the WSDL's names, never the Go
// ones.
func TestNamesOnTheWire(t *testing.T) {
	h, err := server.NewHandler(names.Bind(namesService{}), server.Config{BaseURL: zooBaseURL, Protocols: []string{"soap11"}})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	defer srv.Close()
	call := func(action, body string) string {
		t.Helper()
		env := `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` +
			body + `</soap:Body></soap:Envelope>`
		req, err := http.NewRequest(http.MethodPost, srv.URL+names.Contract.Path, strings.NewReader(env))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "text/xml; charset=utf-8")
		req.Header.Set("SOAPAction", `"`+names.Contract.Namespace+action+`"`)
		resp, err := srv.Client().Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		out, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode, string(out))
		return string(out)
	}
	ns := names.Contract.Namespace
	got := call("getUrun", `<getUrun xmlns="`+ns+`"><ürünKodu>k</ürünKodu><type>t</type></getUrun>`)
	for _, want := range []string{`<getUrunResponse xmlns="` + ns + `"><getUrunResult>`, "<ürünKodu>k</ürünKodu>", "<adet>1</adet>",
		"<Adet>2</Adet>", "<x-id>x-t</x-id>", "<range>r</range>", "<len>l</len>", `<etiketler><string>a</string><string xsi:nil="true" /></etiketler>`} {
		assert.Contains(t, got, want)
	}
	assert.Contains(t, call("echo", `<echo xmlns="`+ns+`"><s>1</s></echo>`), "<echoResponse xmlns=\""+ns+"\"><echoResult>lower 1</echoResult>")
	assert.Contains(t, call("Echo", `<Echo xmlns="`+ns+`"><S>2</S></Echo>`), "<EchoResponse xmlns=\""+ns+"\"><EchoResult>upper 2</EchoResult>")
	assert.Contains(t, call("deletePerformance", `<deletePerformance xmlns="`+ns+`"><performanceId>3</performanceId></deletePerformance>`),
		"<deletePerformanceResult>true</deletePerformanceResult>")
}

// TestNamesDescriptions: a description of several lines holding "*/", "<" and "&" is a comment in
// both generated files, line by line, and the operation table holds it decoded, as the help page
// shows it (escaped there by html/template).
func TestNamesDescriptions(t *testing.T) {
	const doc = "Deletes a performance.\nSecond line */ func init() { panic(1) } /*\nthird line: <b> & more\n\n  indented, after an empty line"
	assert.Equal(t, doc, wire.Lookup(names.Operations, "deletePerformance").Doc)
	for file, method := range map[string]string{"names/names_wire.go": "DeletePerformanceContext", "names/names.go": "DeletePerformance"} {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ParseComments)
		require.NoError(t, err, file)
		var text string
		ast.Inspect(f, func(n ast.Node) bool {
			if m, ok := n.(*ast.Field); ok && len(m.Names) == 1 && m.Names[0].Name == method && m.Doc != nil {
				text = m.Doc.Text()
			}
			return true
		})
		assert.Contains(t, text, "Second line */ func init() { panic(1) } /*\nthird line: <b> & more\n", file)
		assert.NotContains(t, text, "\r", file)
	}
}
