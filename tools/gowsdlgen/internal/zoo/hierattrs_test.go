package zoo_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/wire/recordwire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/hierattrs"
)

// shelfService echoes a Shelf and answers GetItem with makeShelf's item of the variant asked.
type shelfService struct{}

func (shelfService) EchoShelfContext(_ context.Context, req *hierattrs.EchoShelf) (*hierattrs.EchoShelfResponse, error) {
	return &hierattrs.EchoShelfResponse{EchoShelfResult: req.Shelf}, nil
}

func (shelfService) GetItemContext(_ context.Context, req *hierattrs.GetItem) (*hierattrs.GetItemResponse, error) {
	return &hierattrs.GetItemResponse{GetItemResult: shelfItems()[req.Variant]}, nil
}

// shelfItems are a value of each concrete type of the Item hierarchy, every attribute set: an Item,
// a Tool (its own attributes after Item's) and a Crate (derived through the abstract Box, which
// adds an attribute and no element).
func shelfItems() []hierattrs.AnyItem {
	high := hierattrs.GradeHigh
	tool := &hierattrs.Tool{Weight: 7, Sharp: true, Grade: &high}
	tool.Id, tool.Rev, tool.Name = "t\"1&\t", 2, "saw"
	crate := &hierattrs.Crate{Label: "fragile", Lid: "open"}
	crate.Id, crate.Rev, crate.Name, crate.Size = "c1", -3, "box", 40
	return []hierattrs.AnyItem{&hierattrs.Item{Id: "i1", Rev: 1, Name: "plain"}, tool, crate}
}

// makeShelf holds every item type in Main and in the array (with a nil item), and a Tool in the
// field declared with Tool, which travels without xsi:type.
func makeShelf(main int) *hierattrs.Shelf {
	items := shelfItems()
	spare := &hierattrs.Tool{Weight: 1}
	spare.Rev = 9
	return &hierattrs.Shelf{Id: "s1", Owner: "Ann", Main: items[main],
		Items: &hierattrs.ArrayOfItem{Item: append(items, nil)}, Spare: spare}
}

// TestHierAttrsWire: a derived value is written with xsi:type first in its start tag, then its base
// chain's attributes and its own, as .NET's XmlSerializer writes a derived class (no capture of this
// shape exists); the value of the declared type has no xsi:type; a field declared with the derived
// type carries its attributes without xsi:type. What is written reads back equal in both reader modes.
func TestHierAttrsWire(t *testing.T) {
	shelf := makeShelf(1)
	got := string(shelf.AppendXML(nil))
	assert.Equal(t, `<Id>s1</Id><Owner>Ann</Owner>`+
		`<Main xsi:type="Tool" Id="t&quot;1&amp;&#x9;" rev="2" Sharp="true" Grade="High"><Name>saw</Name><Weight>7</Weight></Main>`+
		`<Items><Item Id="i1" rev="1"><Name>plain</Name></Item>`+
		`<Item xsi:type="Tool" Id="t&quot;1&amp;&#x9;" rev="2" Sharp="true" Grade="High"><Name>saw</Name><Weight>7</Weight></Item>`+
		`<Item xsi:type="Crate" Id="c1" rev="-3" Size="40" Lid="open"><Name>box</Name><Label>fragile</Label></Item>`+
		`<Item xsi:nil="true" /></Items>`+
		`<Spare rev="9" Sharp="false"><Name /><Weight>1</Weight></Spare>`, got)
	for _, fast := range []bool{true, false} {
		doc := `<EchoShelf xmlns="` + hierattrs.Contract.Namespace + `" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><shelf>` + got + `</shelf></EchoShelf>`
		rd := xmlwire.NewReader([]byte(doc), hierattrs.Contract.Namespace, xmlwire.Limits{MaxDepth: 32, MaxElements: 1000}, fast)
		_, err := rd.Root()
		require.NoError(t, err)
		var back hierattrs.EchoShelf
		err = back.DecodeXML(rd)
		if fast && err == xmlwire.ErrFallback {
			continue // the fast reader steps aside for attributes
		}
		require.NoError(t, err)
		assert.Equal(t, shelf, back.Shelf)
	}
}

// TestHierAttrsFaults: an abstract type named by xsi:type is a client fault naming it, as without
// attributes; attributes the type does not declare are ignored, as ASMX ignores them.
func TestHierAttrsFaults(t *testing.T) {
	decode := func(item string) (*hierattrs.Shelf, error) {
		doc := `<EchoShelf xmlns="` + hierattrs.Contract.Namespace + `" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><shelf>` + item + `</shelf></EchoShelf>`
		rd := xmlwire.NewReader([]byte(doc), hierattrs.Contract.Namespace, xmlwire.Limits{MaxDepth: 32, MaxElements: 1000}, false)
		if _, err := rd.Root(); err != nil {
			return nil, err
		}
		var back hierattrs.EchoShelf
		return back.Shelf, back.DecodeXML(rd)
	}
	_, err := decode(`<Main xsi:type="Box" rev="1" Size="2" />`)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Box")
	shelf, err := decode(`<Main xsi:type="Tool" Sharp="1" Size="5" Lid="x" rev=" 4 "><Weight>3</Weight></Main>`)
	require.NoError(t, err)
	tool := &hierattrs.Tool{Weight: 3, Sharp: true}
	tool.Rev = 4
	assert.Equal(t, &hierattrs.Shelf{Main: tool}, shelf)
	_, err = decode(`<Main xsi:type="Crate" Size="big" />`)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Size")
}

// TestHierAttrsRecord: the record form has "$type" first when the value's type is not the declared
// one, then the "@name" attributes, the base chain's first, then the elements; every value reads back
// equal, whatever the order of the members.
func TestHierAttrsRecord(t *testing.T) {
	shelf := makeShelf(2)
	doc := shelf.AppendRecord(nil)
	assert.Equal(t, `{"Id":"s1","Owner":"Ann",`+
		`"Main":{"$type":"Crate","@Id":"c1","@rev":-3,"@Size":40,"@Lid":"open","Name":"box","Label":"fragile"},`+
		`"Items":[{"@Id":"i1","@rev":1,"Name":"plain"},`+
		`{"$type":"Tool","@Id":"t\"1&\t","@rev":2,"@Sharp":true,"@Grade":"High","Name":"saw","Weight":7},`+
		`{"$type":"Crate","@Id":"c1","@rev":-3,"@Size":40,"@Lid":"open","Name":"box","Label":"fragile"},null],`+
		`"Spare":{"@Id":"","@rev":9,"@Sharp":false,"@Grade":null,"Name":"","Weight":1}}`, string(doc))
	var back hierattrs.Shelf
	require.NoError(t, back.UnmarshalRecord(doc, recordwire.Strict))
	assert.Equal(t, shelf, &back)
	reordered := `{"Main":{"@Lid":"open","Label":"fragile","@Size":40,"$type":"Crate"}}`
	var one hierattrs.Shelf
	require.NoError(t, one.UnmarshalRecord([]byte(reordered), recordwire.Strict))
	crate := &hierattrs.Crate{Label: "fragile", Lid: "open"}
	crate.Size = 40
	assert.Equal(t, &hierattrs.Shelf{Main: crate}, &one)
}

// TestHierAttrsBindings: the generated client and handler carry every item type with its attributes
// on SOAP 1.1 and 1.2 and the JSON endpoint (EchoShelf) and on every binding, HTTP GET and POST
// included, as a result (GetItem); GET's result root carries xsi:type and then the attributes, and
// the JSON endpoint writes "__type" first, then the elements and the attributes under their names.
func TestHierAttrsBindings(t *testing.T) {
	h, err := server.NewHandler(hierattrs.Bind(shelfService{}), server.Config{BaseURL: zooBaseURL,
		Protocols: []string{"soap11", "soap12", "get", "post", "json", "docs"}})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	for _, b := range []client.Binding{client.SOAP11, client.SOAP12, client.HTTPGet, client.HTTPPost, client.JSON} {
		t.Run(string(b), func(t *testing.T) {
			c := &hierattrs.SyncSoapClient{Invoker: &client.Client{Endpoint: srv.URL + hierattrs.Contract.Path,
				Namespace: hierattrs.Contract.Namespace, Binding: b, HTTP: srv.Client()}}
			for i, want := range shelfItems() {
				got, err := c.GetItem(&hierattrs.GetItem{Variant: int32(i)})
				require.NoError(t, err)
				assert.Equal(t, want, got.GetItemResult)
			}
			if b == client.HTTPGet || b == client.HTTPPost {
				return // EchoShelf's complex parameter is not offered there, as ASMX
			}
			for main := range shelfItems() {
				got, err := c.EchoShelf(&hierattrs.EchoShelf{Shelf: makeShelf(main)})
				require.NoError(t, err)
				assert.Equal(t, makeShelf(main), got.EchoShelfResult)
			}
		})
	}

	resp, err := srv.Client().Get(srv.URL + hierattrs.Contract.Path + "/GetItem?" + url.Values{"variant": {"2"}}.Encode())
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, resp.Body.Close())
	require.NoError(t, err)
	assert.Contains(t, string(body), `<Item xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" `+
		`xmlns="`+hierattrs.Contract.Namespace+`" xsi:type="Crate" Id="c1" rev="-3" Size="40" Lid="open"><Name>box</Name><Label>fragile</Label></Item>`)

	resp, err = srv.Client().Post(srv.URL+hierattrs.Contract.Path+"/GetItem", "application/json; charset=utf-8", strings.NewReader(`{"variant":1}`))
	require.NoError(t, err)
	body, err = io.ReadAll(resp.Body)
	require.NoError(t, resp.Body.Close())
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, `{"d":{"__type":"Tool","Name":"saw","Weight":7,"Id":"t\"1\u0026\t","rev":2,"Sharp":true,"Grade":"High"}}`, string(body))
}

// TestHierAttrsHelpPage: the help page's SOAP sample of EchoShelf shows each attribute of the
// declared types, a derived type's field (Spare, a Tool) with its base's attributes first.
func TestHierAttrsHelpPage(t *testing.T) {
	h, err := server.NewHandler(hierattrs.Bind(shelfService{}), server.Config{BaseURL: zooBaseURL, Protocols: []string{"soap11", "docs"}})
	require.NoError(t, err)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, hierattrs.Contract.Path+"?op=EchoShelf", nil))
	require.Equal(t, http.StatusOK, rec.Code)
	page := rec.Body.String()
	for _, want := range []string{`&lt;Main Id=&#34;string&#34; rev=&#34;int&#34;&gt;`,
		`&lt;Spare Id=&#34;string&#34; rev=&#34;int&#34; Sharp=&#34;boolean&#34; Grade=&#34;Low or High&#34;&gt;`} {
		assert.True(t, strings.Contains(page, want), "the help page shows %s", want)
	}
}
