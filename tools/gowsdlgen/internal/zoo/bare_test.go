package zoo_test

import (
	"cmp"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/bare"
)

// bareTwin is the Go twin of Zoo3.cs's bare operations (README §8): BareOne upper-cases phrase,
// BareTwo repeats word times times (at most ten), PlaceOrder acknowledges at most five of an order,
// BareNothing does nothing.
type bareTwin struct{}

var _ bare.SyncSoapServer = bareTwin{}

func (bareTwin) BareOneContext(_ context.Context, r *bare.BareOneRequest) (*bare.BareOneResponse, error) {
	return &bare.BareOneResponse{BareOneResult: strings.ToUpper(r.Phrase)}, nil
}

func (bareTwin) BareTwoContext(_ context.Context, r *bare.BareTwoRequest) (*bare.BareTwoResponse, error) {
	return &bare.BareTwoResponse{BareTwoResult: strings.Repeat(r.Word, int(min(max(r.Times, 0), 10)))}, nil
}

func (bareTwin) PlaceOrderContext(_ context.Context, r *bare.PlaceOrderRequest) (*bare.PlaceOrderResponse, error) {
	ack := &bare.OrderAck{}
	if r.Order != nil {
		ack.Sku, ack.Accepted = r.Order.Sku, min(r.Order.Quantity, 5)
	}
	return &bare.PlaceOrderResponse{OrderAck: ack}, nil
}

func (bareTwin) BareNothingContext(context.Context, *bare.BareNothingRequest) (*bare.BareNothingResponse, error) {
	return &bare.BareNothingResponse{}, nil
}

func newBareHandler(t *testing.T) *server.Handler {
	t.Helper()
	h, err := server.NewHandler(bare.Bind(bareTwin{}), server.Config{BaseURL: zooBaseURL,
		Protocols: []string{"soap11", "soap12", "get", "post", "json", "docs"}})
	require.NoError(t, err)
	return h
}

// TestBareReplay replays the bare section of the third zoo's captures (README §8;
// testdata/bare/captures holds them unchanged): the body holds the parameters' elements and the
// result element, a void or null result answers an empty body, one-parameter operations are found by
// their element without a SOAPAction and BareTwo is not (a Client/Sender fault asking for the action),
// GET and POST offer the simple ones like wrapped operations. A fault is compared by its code (its
// detail is ours, docs/bindings.md). soap11-BareOne-wrapped is our one deviation: a body that does
// not match its action is refused, where ASMX reads a null phrase and answers.
func TestBareReplay(t *testing.T) {
	h := newBareHandler(t)
	drop := nullableStrings(bare.Operations)
	const askForAction = "Unable to handle request without a valid action parameter. Please supply a valid soap action."
	tests := []struct {
		name      string
		faultCode string // the code of our SOAP fault
		says      string // in our fault
		status    int    // ours, where ASMX answers otherwise (a deviation, docs/bindings.md)
	}{
		{name: "soap11-BareOne"}, {name: "soap12-BareOne"}, {name: "soap11-BareOne-no-action"},
		{name: "soap11-BareOne-wrapped", faultCode: "Client", status: http.StatusInternalServerError,
			says: "The SOAP action names BareOne but the body holds BareOne, which is none of its parameters."},
		{name: "soap12-BareOne-action-param"},
		{name: "get-BareOne-plain"}, {name: "post-BareOne-plain"},
		{name: "soap11-BareTwo"}, {name: "soap11-BareTwo-swapped"}, {name: "soap12-BareTwo-action-param"},
		{name: "soap11-BareTwo-no-action", faultCode: "Client", says: askForAction}, {name: "soap12-BareTwo", faultCode: "Sender", says: askForAction},
		{name: "get-BareTwo-plain"}, {name: "post-BareTwo-plain"},
		{name: "soap11-PlaceOrder"}, {name: "soap12-PlaceOrder"}, {name: "soap11-PlaceOrder-no-action"},
		{name: "soap11-BareNothing"}, {name: "soap12-BareNothing"},
		{name: "get-BareNothing-plain"}, {name: "post-BareNothing-plain"},
	}
	byName := map[string]*capture{}
	for _, c := range readCapturesIn(t, "testdata/bare/captures", len(tests)) {
		byName[c.name] = c
	}
	for _, tt := range tests {
		c := byName[tt.name]
		require.NotNil(t, c, tt.name)
		t.Run(tt.name, func(t *testing.T) {
			rec := replay(h, c)
			got := rec.Body.String()
			require.Equal(t, cmp.Or(tt.status, c.response.StatusCode), rec.Code, got)
			if tt.faultCode != "" {
				m := faultCode.FindStringSubmatch(got)
				require.NotNil(t, m, got)
				assert.Equal(t, tt.faultCode, m[1]+m[2])
				assert.Contains(t, got, tt.says)
				return
			}
			assert.Equal(t, c.response.Header.Get("Content-Type"), rec.Header().Get("Content-Type"))
			want, err := infoset(c.respBody, drop)
			require.NoError(t, err)
			gotSet, err := infoset([]byte(got), drop)
			require.NoError(t, err, got)
			assert.Equal(t, want, gotSet)
		})
	}
}

// TestBareRouting: what the captures do not show. A request without SOAPAction whose first body
// element is a parameter of a several-parameter operation (times, BareTwo's second) needs the action;
// a wrapped body (<BareOne>) names no operation; an action naming a bare operation needs a body whose
// first element is one of its parameters (or an empty one), and skips unknown elements after it as
// ASMX does.
func TestBareRouting(t *testing.T) {
	h := newBareHandler(t)
	envelope := func(body string) string {
		return `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` + body + `</soap:Body></soap:Envelope>`
	}
	ns := ` xmlns="` + oneWayNamespace + `"`
	tests := []struct {
		name, action, body string
		status             int
		says               string
	}{
		{"second part first, no action", "", `<times` + ns + `>3</times><word` + ns + `>ab</word>`, 500, "Please supply a valid soap action."},
		{"wrapped body, no action", "", `<BareOne` + ns + `><phrase>x</phrase></BareOne>`, 500, "The body element BareOne is not an operation of this service."},
		{"another operation's element first, with an action", "BareTwo", `<phrase` + ns + `>x</phrase><times` + ns + `>2</times>`, 500,
			"The SOAP action names BareTwo but the body holds phrase, which is none of its parameters."},
		{"an unknown element after a parameter, with an action", "BareTwo", `<times` + ns + `>2</times><phrase` + ns + `>x</phrase><word` + ns + `>ab</word>`, 200, ">abab</BareTwoResult>"},
		{"an empty body with an action", "BareTwo", ``, 200, `<BareTwoResult xmlns="` + oneWayNamespace + `" />`},
		{"two parts by action", "BareTwo", `<word` + ns + `>ab</word><times` + ns + `>2</times>`, 200, ">abab</BareTwoResult>"},
		{"void by element", "", `<note` + ns + `>n</note>`, 200, "<soap:Body />"},
		{"complex by element, null order", "", `<Order` + ns + ` />`, 200, "<Accepted>0</Accepted>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodPost, bare.Contract.Path, strings.NewReader(envelope(tt.body)))
			req.Header.Set("Content-Type", "text/xml; charset=utf-8")
			if tt.action != "" {
				req.Header.Set("SOAPAction", `"`+oneWayNamespace+tt.action+`"`)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			assert.Equal(t, tt.status, rec.Code, rec.Body.String())
			assert.Contains(t, rec.Body.String(), tt.says)
		})
	}
}

// TestBareClient: the generated client stub sends the parameters' elements without a wrapper and
// reads the result element alone (or an empty body) on SOAP 1.1 and 1.2, and calls the operations
// GET, POST and the JSON endpoint offer as it calls wrapped ones.
func TestBareClient(t *testing.T) {
	srv := httptest.NewServer(newBareHandler(t))
	t.Cleanup(srv.Close)
	for _, b := range []client.Binding{client.SOAP11, client.SOAP12, client.HTTPGet, client.HTTPPost, client.JSON} {
		t.Run(string(b), func(t *testing.T) {
			c := &bare.SyncSoapClient{Invoker: &client.Client{Endpoint: srv.URL + bare.Contract.Path, Namespace: oneWayNamespace, Binding: b, HTTP: srv.Client()}}
			one, err := c.BareOne(&bare.BareOneRequest{Phrase: "hello"})
			require.NoError(t, err)
			assert.Equal(t, "HELLO", one.BareOneResult)
			two, err := c.BareTwo(&bare.BareTwoRequest{Word: "ab", Times: 3})
			require.NoError(t, err)
			assert.Equal(t, "ababab", two.BareTwoResult)
			_, err = c.BareNothing(&bare.BareNothingRequest{Note: "n1"})
			require.NoError(t, err)
			if b == client.HTTPGet || b == client.HTTPPost {
				return // PlaceOrder's complex parameter is not offered there (README §8)
			}
			ack, err := c.PlaceOrder(&bare.PlaceOrderRequest{Order: &bare.Order{Sku: "X-1", Quantity: 9}})
			require.NoError(t, err)
			assert.Equal(t, &bare.OrderAck{Sku: "X-1", Accepted: 5}, ack.OrderAck)
		})
	}
}

// TestBareHelpPage: the help page's SOAP samples show the bare bodies, the parameters' elements and
// the result element without a wrapper; the request's elements take their namespace from the Body,
// as the client writes them.
func TestBareHelpPage(t *testing.T) {
	h := newBareHandler(t)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, bare.Contract.Path+"?op=BareTwo", nil))
	require.Equal(t, http.StatusOK, rec.Code)
	body := rec.Body.String()
	assert.Contains(t, body, "&lt;soap:Body xmlns=&#34;"+oneWayNamespace+"&#34; xmlns:xsi=&#34;http://www.w3.org/2001/XMLSchema-instance&#34; xmlns:xsd=&#34;http://www.w3.org/2001/XMLSchema&#34;&gt;\n    &lt;word&gt;string&lt;/word&gt;\n    &lt;times&gt;int&lt;/times&gt;")
	assert.Contains(t, body, "&lt;BareTwoResult xmlns=")
	assert.NotContains(t, body, "&lt;BareTwo ", "no wrapper")
	assert.NotContains(t, body, "BareTwoResponse")
}
