package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/docs"
	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/wsdl"
	"github.com/hooklift/gowsdl/soap"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func roles(c *gen.Contact) []string {
	if c == nil || c.RoleIds == nil {
		return nil
	}
	out := make([]string, len(c.RoleIds.Astring))
	for i, r := range c.RoleIds.Astring {
		out[i] = *r
	}
	return out
}

// requireContactEqual compares every field of two contacts, whatever fields the contract gives
// Contact: their record documents (every element in schema order, each value in its canonical form).
func requireContactEqual(t *testing.T, want, got *gen.Contact) {
	t.Helper()
	require.NotNil(t, got)
	assert.Equal(t, string(want.AppendRecord(nil)), string(got.AppendRecord(nil)), "the contacts' fields")
}

// requireCarriedFieldsEqual compares the fields of two contacts that gowsdl's generated client
// carries: it decodes responses with encoding/xml, which reads text, integers and booleans into the
// generated fields but not the value forms of server/wire/xsd (a dateTime's xsd.DateTime stays zero).
// The fields it compares are the contract's of those kinds, whatever they are named.
func requireCarriedFieldsEqual(t *testing.T, want, got *gen.Contact) {
	t.Helper()
	require.NotNil(t, got)
	carried := map[string]bool{}
	for _, f := range gen.ContactRecord.Type.Fields {
		switch k := f.Type.Kind; {
		case k == wire.KindString, k == wire.KindInt, k == wire.KindLong, k == wire.KindShort, k == wire.KindBoolean:
			carried[f.Name] = true
		case k == wire.KindArray && f.Type.Item != nil && f.Type.Item.Type.Kind == wire.KindString:
			carried[f.Name] = true
		}
	}
	keep := func(c *gen.Contact) []contactField {
		return slices.DeleteFunc(contactFields(t, c), func(f contactField) bool { return !carried[f.name] })
	}
	assert.Equal(t, keep(want), keep(got), "the contacts' fields of the kinds gowsdl's client carries")
}

// contactFields returns c's fields in schema order, each value as its record document holds it
// (a string, a number, a bool, nil, or a []any for an array), so tests that show or compare fields
// one by one follow the contract's Contact instead of a list of today's fields.
func contactFields(t *testing.T, c *gen.Contact) []contactField {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(c.AppendRecord(nil)))
	dec.UseNumber()
	tok, err := dec.Token()
	require.NoError(t, err)
	require.Equal(t, json.Delim('{'), tok, "a record document is an object")
	var fields []contactField
	for dec.More() {
		tok, err := dec.Token()
		require.NoError(t, err)
		var v any
		require.NoError(t, dec.Decode(&v))
		fields = append(fields, contactField{tok.(string), v})
	}
	return fields
}

// contactField is one field of a record document.
type contactField struct {
	name  string
	value any
}

// runScenario drives one full contact life cycle and the version operations through svc, whatever
// implements the generated interface, and checks every value against the service's semantics.
//
// equal compares two contacts: requireContactEqual, or requireCarriedFieldsEqual for a client that
// does not carry every field.
func runScenario(t *testing.T, svc gen.SyncServiceSoapServer, id string, equal func(t *testing.T, want, got *gen.Contact),
	faultIs func(t *testing.T, err error)) {
	ctx := context.Background()

	major, err := svc.VersionMajorContext(ctx, &gen.VersionMajor{})
	require.NoError(t, err)
	assert.EqualValues(t, service.VersionMajor, major.VersionMajorResult)
	minor, err := svc.VersionMinorContext(ctx, &gen.VersionMinor{})
	require.NoError(t, err)
	assert.EqualValues(t, service.VersionMinor, minor.VersionMinorResult)
	version, err := svc.VersionContext(ctx, &gen.Version{})
	require.NoError(t, err)
	assert.Equal(t, "1.0", version.VersionResult)

	created, err := svc.TestCreateContactContext(ctx, &gen.TestCreateContact{Id: id})
	require.NoError(t, err)
	c := created.TestCreateContactResult
	require.NotNil(t, c)
	assert.Equal(t, id, c.Id)
	// Every field as the service fills it, whatever fields the contract gives Contact.
	equal(t, service.TestContact(id), c)
	assert.GreaterOrEqual(t, len(roles(c)), 2, "RoleIds")

	read, err := svc.ReadContactContext(ctx, &gen.ReadContact{Id: id})
	require.NoError(t, err)
	equal(t, c, read.ReadContactResult)

	updated, err := svc.TestUpdateContactContext(ctx, &gen.TestUpdateContact{Id: id})
	require.NoError(t, err)
	u := updated.TestUpdateContactResult
	require.NotNil(t, u)
	assert.Equal(t, "Updated", u.FirstName)
	assert.NotEqual(t, c.EmailAddress, u.EmailAddress)
	assert.Equal(t, c.AccountId, u.AccountId)
	assert.Contains(t, roles(u), "role-updated")

	read, err = svc.ReadContactContext(ctx, &gen.ReadContact{Id: id})
	require.NoError(t, err)
	equal(t, u, read.ReadContactResult)

	deleted, err := svc.DeleteContactContext(ctx, &gen.DeleteContact{Id: id})
	require.NoError(t, err)
	equal(t, u, deleted.DeleteContactResult)

	_, err = svc.ReadContactContext(ctx, &gen.ReadContact{Id: id})
	require.Error(t, err)
	faultIs(t, err)
	_, err = svc.TestUpdateContactContext(ctx, &gen.TestUpdateContact{Id: id})
	faultIs(t, err)
	_, err = svc.DeleteContactContext(ctx, &gen.DeleteContact{Id: id})
	faultIs(t, err)
}

// TestScenarioEveryBinding runs the scenario through the Go client over each binding, with an id full
// of characters that need escaping in XML and URLs.
func TestScenarioEveryBinding(t *testing.T) {
	ts := newTestServer(t, wsdl.DefaultBaseURL)
	for _, b := range client.Bindings {
		t.Run(string(b), func(t *testing.T) {
			c := &gen.SyncServiceSoapClient{Invoker: &client.Client{Endpoint: ts.endpoint, Namespace: wsdl.DefaultNamespace, Binding: b, HTTP: ts.Client()}}
			id := `scenario-` + string(b) + ` <&>"' ü 😀 +%=#?`
			runScenario(t, c, id, requireContactEqual, func(t *testing.T, err error) {
				t.Helper()
				if b == client.HTTPGet || b == client.HTTPPost {
					var se *client.StatusError
					require.ErrorAs(t, err, &se)
					assert.Equal(t, http.StatusNotFound, se.StatusCode)
					assert.Contains(t, se.Message, "does not exist")
					return
				}
				var f *client.Fault
				require.ErrorAs(t, err, &f)
				assert.Equal(t, map[client.Binding]string{client.SOAP11: "Client", client.SOAP12: "Sender"}[b], f.Code)
				assert.Equal(t, "NotFound", f.ErrorCode)
				assert.Contains(t, f.Message, "does not exist")
			})
		})
	}
}

// TestScenarioInProcess runs the same scenario against the Service directly, so the client tests above
// and the service agree on what the semantics are.
func TestScenarioInProcess(t *testing.T) {
	ts := newTestServer(t, wsdl.DefaultBaseURL)
	runScenario(t, service.New(ts.store), "in-process", requireContactEqual, func(t *testing.T, err error) {
		var e *fault.Error
		require.ErrorAs(t, err, &e)
		assert.Equal(t, fault.NotFound, e.Code)
	})
}

// TestGowsdlGeneratedClient drives the server with the SOAP 1.1 client gowsdl generated into gen/, an
// implementation of the protocol we did not write, against the contract file's namespace.
func TestGowsdlGeneratedClient(t *testing.T) {
	ts := newTestServer(t, wsdl.DefaultBaseURL)
	svc := gen.NewSyncServiceSoap(soap.NewClient(ts.endpoint, soap.WithHTTPClient(ts.Client())))
	runScenario(t, svc, "gowsdl-client", requireCarriedFieldsEqual, func(t *testing.T, err error) {
		t.Helper()
		// gowsdl v0.5.0 does not parse a fault sent with HTTP 500 (which SOAP 1.1 §6.2 requires): it
		// returns the raw response as an HTTPError, so the fault is checked in its body.
		var httpErr *soap.HTTPError
		require.ErrorAs(t, err, &httpErr)
		assert.Equal(t, 500, httpErr.StatusCode)
		assert.Contains(t, string(httpErr.ResponseBody), "<faultcode>soap:Client</faultcode>")
		assert.Contains(t, string(httpErr.ResponseBody), "does not exist")
	})
}

// TestBaseURLChangesNamespace starts the server for another base URL and checks the namespace changes
// everywhere: accepted requests, responses, faults and the served WSDL; the old namespace is refused.
func TestBaseURLChangesNamespace(t *testing.T) {
	const base = "https://contacts.example.com"
	const ns = base + "/contactsync/v1/"
	ts := newTestServer(t, base)

	for _, b := range client.Bindings {
		t.Run(string(b), func(t *testing.T) {
			c := &gen.SyncServiceSoapClient{Invoker: &client.Client{Endpoint: ts.endpoint, Namespace: ns, Binding: b, HTTP: ts.Client()}}
			runScenario(t, c, "ns-"+string(b), requireContactEqual, func(t *testing.T, err error) { require.Error(t, err) })
		})
	}
	for _, binding := range bindings {
		t.Run(binding+"/response namespace", func(t *testing.T) {
			resp, body := ts.do(t, requestFor(binding, ns, "VersionMajor", "", false))
			require.Equal(t, 200, resp.StatusCode, body)
			assert.Contains(t, body, `xmlns="`+ns+`"`)
			assert.NotContains(t, body, wsdl.DefaultNamespace)
		})
	}
	for _, binding := range []string{"soap11", "soap12"} {
		t.Run(binding+"/old namespace refused", func(t *testing.T) {
			resp, body := ts.do(t, requestFor(binding, wsdl.DefaultNamespace, "VersionMajor", "", false))
			assert.Equal(t, 500, resp.StatusCode)
			assert.Contains(t, body, "UnknownOperation")
		})
	}
	t.Run("wsdl", func(t *testing.T) {
		resp, body := ts.do(t, wireRequest{method: "GET", path: "?WSDL"})
		require.Equal(t, 200, resp.StatusCode)
		assert.NotContains(t, body, wsdl.DefaultNamespace)
		doc := parseContract(t, body)
		assert.Equal(t, ns, doc.TargetNamespace)
		// The service's schema, and any other the contract declares under the service namespace (as
		// the AbstractTypes schema of an array parameter on HTTP GET and POST: ns + "AbstractTypes"),
		// moved onto the base URL.
		require.NotEmpty(t, doc.Types.Schemas)
		assert.Equal(t, ns, doc.Types.Schemas[0].TargetNamespace)
		for _, schema := range doc.Types.Schemas {
			assert.True(t, strings.HasPrefix(schema.TargetNamespace, ns), "schema %s is moved onto the base URL", schema.TargetNamespace)
		}
		for _, b := range doc.Bindings {
			for _, op := range b.Operations {
				if op.SOAP.Action != "" || op.SOAP12.Action != "" {
					assert.Equal(t, ns+op.Name, op.SOAP.Action+op.SOAP12.Action)
				}
			}
		}
	})
}

// contractDoc is the part of the WSDL the tests inspect.
type contractDoc struct {
	TargetNamespace string `xml:"targetNamespace,attr"`
	Types           struct {
		Schemas []struct {
			TargetNamespace string `xml:"targetNamespace,attr"`
		} `xml:"http://www.w3.org/2001/XMLSchema schema"`
	} `xml:"http://schemas.xmlsoap.org/wsdl/ types"`
	Bindings []struct {
		Name       string `xml:"name,attr"`
		Operations []struct {
			Name string `xml:"name,attr"`
			SOAP struct {
				Action string `xml:"soapAction,attr"`
			} `xml:"http://schemas.xmlsoap.org/wsdl/soap/ operation"`
			SOAP12 struct {
				Action string `xml:"soapAction,attr"`
			} `xml:"http://schemas.xmlsoap.org/wsdl/soap12/ operation"`
		} `xml:"http://schemas.xmlsoap.org/wsdl/ operation"`
	} `xml:"http://schemas.xmlsoap.org/wsdl/ binding"`
	Ports []struct {
		Name      string `xml:"name,attr"`
		Addresses []struct {
			XMLName  xml.Name
			Location string `xml:"location,attr"`
		} `xml:",any"`
	} `xml:"http://schemas.xmlsoap.org/wsdl/ service>port"`
}

func parseContract(t *testing.T, body string) contractDoc {
	t.Helper()
	var doc contractDoc
	require.NoError(t, xml.Unmarshal([]byte(body), &doc))
	return doc
}

// TestWSDLAddresses checks ?WSDL in any letter case returns the contract with every port at the URL
// the client used, honouring X-Forwarded-Proto and X-Forwarded-Host from a trusted proxy (here the
// test client; addressing_test.go checks that others are ignored), and ignoring forged values.
func TestWSDLAddresses(t *testing.T) {
	ts := newConfiguredServer(t, server.Config{Addressing: docs.Addressing{TrustedProxies: loopbackProxy}})
	host := strings.TrimPrefix(ts.URL, "http://")
	cases := []struct {
		name    string
		query   string
		headers map[string]string
		want    string
	}{
		{"upper", "?WSDL", nil, "http://" + host + wsdl.Path},
		{"lower", "?wsdl", nil, "http://" + host + wsdl.Path},
		{"mixed", "?Wsdl", nil, "http://" + host + wsdl.Path},
		{"forwarded", "?wsdl", map[string]string{"X-Forwarded-Proto": "https", "X-Forwarded-Host": "soap.example.com:8443"}, "https://soap.example.com:8443" + wsdl.Path},
		{"forwarded list", "?wsdl", map[string]string{"X-Forwarded-Proto": "https, http", "X-Forwarded-Host": "a.example.com, b.example.com"}, "https://a.example.com" + wsdl.Path},
		{"forged host ignored", "?wsdl", map[string]string{"X-Forwarded-Host": `evil"/><x a="`}, "http://" + host + wsdl.Path},
		{"host with markup ignored", "?wsdl", map[string]string{"X-Forwarded-Host": `x"><a`}, "http://" + host + wsdl.Path},
		{"ipv6 host", "?wsdl", map[string]string{"X-Forwarded-Host": "[::1]:8443"}, "http://[::1]:8443" + wsdl.Path},
		{"forged proto ignored", "?wsdl", map[string]string{"X-Forwarded-Proto": "javascript"}, "http://" + host + wsdl.Path},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest("GET", ts.endpoint+tc.query, nil)
			require.NoError(t, err)
			for k, v := range tc.headers {
				req.Header.Set(k, v)
			}
			resp, err := ts.Client().Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			require.Equal(t, 200, resp.StatusCode)
			assert.Equal(t, "text/xml; charset=utf-8", resp.Header.Get("Content-Type"))
			body, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			doc := parseContract(t, string(body))
			require.Len(t, doc.Ports, 4)
			for _, p := range doc.Ports {
				require.Len(t, p.Addresses, 1, p.Name)
				assert.Equal(t, tc.want, p.Addresses[0].Location, p.Name)
			}
			assert.Equal(t, wsdl.DefaultNamespace, doc.TargetNamespace)
		})
	}
}

// TestContractCommandOutput checks server.Contract, which `contactsync wsdl` prints, differs from the
// contract file only where the namespace and addresses were substituted.
func TestContractCommandOutput(t *testing.T) {
	doc, err := server.Contract(gen.Contract, wsdl.DefaultBaseURL, wsdl.DefaultAddress)
	require.NoError(t, err)
	assert.Equal(t, gen.Contract.Document, string(doc), "the default deployment serves the contract file unchanged but for its comments")

	_, err = server.Contract(gen.Contract, "ftp://example.com", "x")
	require.Error(t, err)
}
