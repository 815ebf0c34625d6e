package zoo_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/wire/recordwire"
	"github.com/contactsync/contactsync/server/wire/xsd"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/attrs"
)

type taggedService struct{}

func (taggedService) EchoTaggedContext(_ context.Context, req *attrs.EchoTagged) (*attrs.EchoTaggedResponse, error) {
	return &attrs.EchoTaggedResponse{EchoTaggedResult: req.Tagged}, nil
}

// fullTagged sets every attribute and text of zoo/attrs's Tagged.
func fullTagged() *attrs.Tagged {
	when, parsed := xsd.ParseDateTime("2026-11-27T10:15:30.5+02:00")
	if !parsed {
		panic("the test's dateTime")
	}
	gold, ok := attrs.TierGold, true
	maybe := int32(-7)
	return &attrs.Tagged{Code: "a\"b&<c>\t\n", Rev: -3, Access: attrs.PermRead | attrs.PermExecute, When: &when, Tier: &gold,
		Name: "n", Permissions: attrs.PermWrite, Maybe: &maybe,
		Price:  &attrs.Money{Currency: "EUR", Value: xsd.MustParseDecimal("12.50")},
		Remark: &attrs.Note{Lang: "de", Value: "Grüße\t& <ok>"},
		Stamps: &attrs.ArrayOfStamp{Stamp: []*attrs.Stamp{{Seq: 1, Ok: &ok, Value: 65535}, nil, {Seq: -9}}}}
}

// TestAttrsRecord: the record codec writes attributes as "@name" members first, in declaration order,
// the text of simple content as "$text" after them, then the elements (docs/contract.md); every value
// reads back equal, and a bad attribute value is refused naming its path.
func TestAttrsRecord(t *testing.T) {
	for _, tt := range []struct {
		name string
		v    *attrs.Tagged
		doc  string
	}{
		{"full", fullTagged(), `{"@Code":"a\"b&<c>\t\n","@rev":-3,"@Access":"Read Execute","@When":"2026-11-27T10:15:30.5+02:00","@Tier":"Gold",` +
			`"Name":"n","Permissions":"Write","Maybe":-7,"Price":{"@Currency":"EUR","$text":"12.50"},"Remark":{"@Lang":"de","$text":"Grüße\t& <ok>"},` +
			`"Stamps":[{"@Seq":1,"@Ok":true,"$text":65535},null,{"@Seq":-9,"@Ok":null,"$text":0}]}`},
		{"zero", &attrs.Tagged{}, `{"@Code":"","@rev":0,"@Access":"None","@When":null,"@Tier":null,"Name":"","Permissions":"None","Maybe":null,"Price":null,"Remark":null,"Stamps":null}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := tt.v.AppendRecord(nil)
			assert.Equal(t, tt.doc, string(doc))
			var back attrs.Tagged
			require.NoError(t, back.UnmarshalRecord(doc, recordwire.Strict))
			assert.Equal(t, tt.v, &back)
		})
	}
	assert.Equal(t, []string{"@Code", "@rev", "@Access", "@When", "@Tier", "Name", "Permissions", "Maybe", "Price", "Price.@Currency", "Price.$text",
		"Remark", "Remark.@Lang", "Remark.$text", "Stamps", "Stamps[].@Seq", "Stamps[].@Ok", "Stamps[].$text"}, attrs.TaggedRecord.Fields)
	for _, bad := range []struct{ doc, want string }{
		{`{"@rev":"x"}`, "@rev"},
		{`{"@Access":"Bogus"}`, "@Access"},
		{`{"Stamps":[{"$text":65536}]}`, "$text"},
	} {
		var v attrs.Tagged
		err := v.UnmarshalRecord([]byte(bad.doc), recordwire.Strict)
		require.Error(t, err, bad.doc)
		assert.Contains(t, err.Error(), bad.want, bad.doc)
	}
}

// TestAttrsSOAPAndJSON: every attribute kind (string, int, long, boolean, dateTime, enumeration,
// [Flags]) and simple content of decimal, string and unsignedShort text travel through the generated
// client and the handler unchanged, on SOAP 1.1 and the JSON endpoint; the zero value too.
func TestAttrsSOAPAndJSON(t *testing.T) {
	h, err := server.NewHandler(attrs.Bind(taggedService{}), server.Config{BaseURL: zooBaseURL, Protocols: []string{"soap11", "json"}})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	for _, b := range []client.Binding{client.SOAP11, client.JSON} {
		t.Run(string(b), func(t *testing.T) {
			c := &attrs.SyncSoapClient{Invoker: &client.Client{Endpoint: srv.URL + attrs.Contract.Path, Namespace: oneWayNamespace, Binding: b, HTTP: srv.Client()}}
			for _, v := range []*attrs.Tagged{fullTagged(), {}} {
				got, err := c.EchoTagged(&attrs.EchoTagged{Tagged: v})
				require.NoError(t, err)
				if b == client.JSON && v.When != nil {
					// The JSON endpoint writes a dateTime as ASP.NET AJAX does, "\/Date(ms)\/": the same
					// instant in UTC (docs/bindings.md).
					require.NotNil(t, got.EchoTaggedResult.When)
					assert.True(t, v.When.Time.Equal(got.EchoTaggedResult.When.Time))
					got.EchoTaggedResult.When = v.When
				}
				assert.Equal(t, v, got.EchoTaggedResult)
			}
		})
	}
}
