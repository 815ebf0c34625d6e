package server_test

import (
	"context"
	"sync"
	"testing"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/wsdl"
	"github.com/stretchr/testify/assert"
)

// TestConcurrentClientsKeepContactsWhole has many clients, over all four bindings, create, update, read
// and delete the same few ids at once. Every contact a response carries, and every contact left stored,
// must be one of the two complete records the semantics allow for its id (as created, or as updated):
// never a mix of the two, which would be a torn write or a lost update.
func TestConcurrentClientsKeepContactsWhole(t *testing.T) {
	ts := newTestServer(t, wsdl.DefaultBaseURL)
	ids := []string{"c-0", "c-1", "c-2"}
	allowed := map[string][]*gen.Contact{}
	for _, id := range ids {
		created := service.TestContact(id)
		allowed[id] = []*gen.Contact{created, service.TestUpdate(created)}
	}
	isWhole := func(c *gen.Contact) bool {
		for _, want := range allowed[c.Id] {
			// Every field, whatever fields the contract gives Contact.
			if string(want.AppendRecord(nil)) == string(c.AppendRecord(nil)) {
				return true
			}
		}
		return false
	}

	ctx := context.Background()
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &gen.SyncServiceSoapClient{Invoker: &client.Client{Endpoint: ts.endpoint, Namespace: wsdl.DefaultNamespace, Binding: client.Bindings[w%4], HTTP: ts.Client()}}
			for i := range 40 {
				id := ids[(w+i)%len(ids)]
				op := []string{"TestCreateContact", "TestUpdateContact", "ReadContact", "DeleteContact"}[(w*7+i)%4]
				resp, err := client.Invoke(ctx, gen.Bind(c), op, map[string]string{"id": id})
				if err != nil {
					continue // not found is expected while others delete
				}
				got := contactOf(resp)
				if !assert.NotNil(t, got) || !assert.True(t, isWhole(got), "torn contact from %s: %+v", op, got) {
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, id := range ids {
		c, err := ts.store.Get(ctx, id)
		if err != nil {
			continue
		}
		assert.True(t, isWhole(wireOf(c)), "torn stored contact %+v", c)
	}
}

// wireOf converts a stored contact to the wire type, as the service does, for comparison.
func wireOf(r store.Record) *gen.Contact {
	c, err := service.FromRecord(r)
	if err != nil {
		return &gen.Contact{}
	}
	return c
}

// contactOf returns the contact a contact operation's response carries, or nil for any other response.
func contactOf(resp any) *gen.Contact {
	switch r := resp.(type) {
	case *gen.TestCreateContactResponse:
		return r.TestCreateContactResult
	case *gen.TestUpdateContactResponse:
		return r.TestUpdateContactResult
	case *gen.ReadContactResponse:
		return r.ReadContactResult
	case *gen.DeleteContactResponse:
		return r.DeleteContactResult
	}
	return nil
}
