package zoo_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/observe"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo"
)

// servedContract is one contract served by the process of TestTwoContractsInOneProcess, and what
// it must answer as its own.
type servedContract struct {
	name    string // the contract label of its metrics
	handler *server.Handler
	path    string
	// ns is the namespace it is served in; service its wsdl:service name; op an operation of its own
	// (with the request body's content) and foreignOp one of the other contract's.
	ns, service    string
	op, body       string
	foreignOp      string
	wrongNamespace string // a namespace it must not answer in
}

// TestTwoContractsInOneProcess: one ServeMux serves contactsync's contract at its path and the type
// zoo's at another, each handler behind metrics of its own in one registry (told apart by a constant
// label, as a process serving two contracts would register them). Each path answers with its own
// ?WSDL, namespace and SOAPActions, help pages and metric labels, and knows nothing of the other's
// operations: the runtime takes everything from the contract bound to the handler. contactsync's
// namespace is rebased onto the base URL, as its spec asks; the zoo's, generated without
// -rebase-namespace, is served as its WSDL writes it whatever the base URL.
func TestTwoContractsInOneProcess(t *testing.T) {
	const baseURL = "https://sync.example.com"
	syncH, err := server.NewHandler(gen.Bind(service.New(nil)), server.Config{BaseURL: baseURL})
	require.NoError(t, err)
	zooH, err := server.NewHandler(zoo.Bind(&zooService{}), server.Config{BaseURL: baseURL, Path: "/zoo/v1/zoo.asmx"})
	require.NoError(t, err)
	contracts := []servedContract{
		{name: "contactsync", handler: syncH, path: gen.Contract.Path, ns: baseURL + "/contactsync/v1/", service: "SyncService",
			op: "Version", foreignOp: "Nothing", wrongNamespace: gen.Contract.Namespace},
		{name: "zoo", handler: zooH, path: "/zoo/v1/zoo.asmx", ns: zooNamespace, service: "Sync",
			op: "Nothing", body: "<s>x</s>", foreignOp: "Version", wrongNamespace: baseURL + "/zoo/v1/"},
	}
	reg := prometheus.NewRegistry()
	mux := http.NewServeMux()
	for _, c := range contracts {
		metrics := observe.NewMetrics(prometheus.WrapRegistererWith(prometheus.Labels{"contract": c.name}, reg), c.handler.MetricLabels())
		observed := observe.Middleware(c.handler, observe.Config{Metrics: metrics})
		mux.Handle(c.path, observed)
		mux.Handle(c.path+"/", observed)
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	for _, c := range contracts {
		t.Run(c.name, func(t *testing.T) {
			endpoint := srv.URL + c.path
			status, doc := getBody(t, endpoint+"?WSDL")
			require.Equal(t, http.StatusOK, status)
			assert.Contains(t, doc, `targetNamespace="`+c.ns+`"`)
			assert.Contains(t, doc, `<wsdl:service name="`+c.service+`">`)
			assert.Contains(t, doc, `location="`+endpoint+`"`, "the ports are at this contract's path")
			assert.NotContains(t, doc, c.wrongNamespace+`"`)

			status, disco := getBody(t, endpoint+"?disco")
			require.Equal(t, http.StatusOK, status)
			assert.Contains(t, disco, `<contractRef ref="`+endpoint+`?wsdl"`)
			assert.Contains(t, disco, `xmlns:q1="`+c.ns+`"`)

			status, page := getBody(t, endpoint)
			require.Equal(t, http.StatusOK, status)
			assert.Contains(t, page, "<title>"+c.service+"</title>")
			assert.Contains(t, page, `href="`+lastSegment(c.path)+`?op=`+c.op+`"`)
			assert.NotContains(t, page, "?op="+c.foreignOp+`"`)
			status, _ = getBody(t, endpoint+"?op="+c.op)
			assert.Equal(t, http.StatusOK, status)
			status, _ = getBody(t, endpoint+"?op="+c.foreignOp)
			assert.Equal(t, http.StatusNotFound, status, "the other contract's operation has no page here")

			status, resp := soap11(t, endpoint, c.ns, c.op, c.body)
			require.Equal(t, http.StatusOK, status, resp)
			assert.Contains(t, resp, `<`+c.op+`Response xmlns="`+c.ns+`"`)
			status, resp = soap11(t, endpoint, c.wrongNamespace, c.op, c.body)
			assert.Equal(t, http.StatusInternalServerError, status, "the %s namespace is not this contract's: %s", c.wrongNamespace, resp)
			assert.Contains(t, resp, "did not recognize the value of the SOAP action")
			status, _ = soap11(t, endpoint, c.ns, c.foreignOp, "")
			assert.Equal(t, http.StatusInternalServerError, status, "the other contract's operation is unknown here")
		})
	}

	// Each contract's series carry its own operations: an operation of the other contract sent to it
	// counts as unknown, never under the other's name.
	ops := map[string]map[string]bool{}
	families, err := reg.Gather()
	require.NoError(t, err)
	for _, f := range families {
		if f.GetName() != "contactsync_requests_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			if ops[labels["contract"]] == nil {
				ops[labels["contract"]] = map[string]bool{}
			}
			ops[labels["contract"]][labels["operation"]] = true
		}
	}
	assert.Equal(t, map[string]bool{"Version": true, "unknown": true}, ops["contactsync"])
	assert.Equal(t, map[string]bool{"Nothing": true, "unknown": true}, ops["zoo"])
	assert.Equal(t, []string{"soap11", "soap12", "get", "post", "json"}, zooH.MetricLabels().Bindings)
	assert.Equal(t, zooOperationNames(), zooH.MetricLabels().Operations)
}

// TestNamespaceAsWritten: a contract whose namespace is not rebased (an ASMX contract's
// http://tempuri.org/, generated without -rebase-namespace) answers the SOAPAction its clients were
// compiled with, over SOAP 1.1 and 1.2, whatever the base URL, and its ?WSDL says so; the namespace
// moved onto the base URL is not its own. It is the type zoo's contract with the namespace its
// generated descriptor names replaced, as a tempuri.org contract's generated descriptor would name it.
func TestNamespaceAsWritten(t *testing.T) {
	const tempuri = "http://tempuri.org/"
	contract := *zoo.Contract
	require.False(t, contract.RebaseNamespace, "the zoo is generated without -rebase-namespace")
	contract.Namespace = tempuri
	contract.Document = strings.ReplaceAll(contract.Document, zooNamespace, tempuri)
	bound := zoo.Bind(&zooService{})
	bound.Contract = &contract
	h, err := server.NewHandler(bound, server.Config{BaseURL: "https://sync.example.com"})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	endpoint := srv.URL + contract.Path

	status, resp := soap11(t, endpoint, tempuri, "Nothing", "<s>x</s>")
	require.Equal(t, http.StatusOK, status, resp)
	assert.Contains(t, resp, `<NothingResponse xmlns="`+tempuri+`"`)

	req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(`<?xml version="1.0" encoding="utf-8"?>`+
		`<soap12:Envelope xmlns:soap12="http://www.w3.org/2003/05/soap-envelope"><soap12:Body><Nothing xmlns="`+tempuri+`"><s>x</s></Nothing></soap12:Body></soap12:Envelope>`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", `application/soap+xml; charset=utf-8; action="`+tempuri+`Nothing"`)
	status, resp = doRequest(t, req)
	require.Equal(t, http.StatusOK, status, resp)
	assert.Contains(t, resp, `<NothingResponse xmlns="`+tempuri+`"`)

	status, resp = soap11(t, endpoint, "https://sync.example.com/", "Nothing", "<s>x</s>")
	assert.Equal(t, http.StatusInternalServerError, status)
	assert.Contains(t, resp, "did not recognize the value of the SOAP action")

	status, doc := getBody(t, endpoint+"?WSDL")
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, doc, `targetNamespace="`+tempuri+`"`)
	assert.Contains(t, doc, `soapAction="`+tempuri+`Nothing"`)
}

// soap11 posts a SOAP 1.1 request for op in namespace ns, its SOAPAction ns + op, with the wrapper's
// content body, and returns the status and body of the answer.
func soap11(t *testing.T, endpoint, ns, op, body string) (int, string) {
	t.Helper()
	envelope := `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` +
		`<` + op + ` xmlns="` + ns + `">` + body + `</` + op + `></soap:Body></soap:Envelope>`
	req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(envelope))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "text/xml; charset=utf-8")
	req.Header.Set("SOAPAction", `"`+ns+op+`"`)
	return doRequest(t, req)
}

// getBody GETs url and returns the status and body of the answer.
func getBody(t *testing.T, url string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	return doRequest(t, req)
}

// doRequest sends req and returns the status and body of the answer.
func doRequest(t *testing.T, req *http.Request) (int, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(body)
}

// lastSegment is the last segment of a path, what the help pages link relative to.
func lastSegment(path string) string { return path[strings.LastIndex(path, "/")+1:] }

// zooOperationNames are the names of the zoo's operation table, in its order.
func zooOperationNames() []string {
	var names []string
	for _, op := range zoo.Operations {
		names = append(names, op.Name)
	}
	return names
}
