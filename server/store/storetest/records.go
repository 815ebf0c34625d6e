package storetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store"
)

// sameJSON fails t unless got holds the same JSON value as want, whatever the spelling: key order,
// white space and escapes may differ (a backend may respell a document), values may not. Numbers are
// compared as written by want's spelling once decoded exactly (json.Number), so the suite's
// documents keep to number spellings no backend respells.
func sameJSON(t *testing.T, want, got []byte, msgAndArgs ...any) {
	t.Helper()
	decode := func(b []byte) any {
		d := json.NewDecoder(bytes.NewReader(b))
		d.UseNumber()
		var v any
		require.NoError(t, d.Decode(&v), "document %q", b)
		return v
	}
	require.Equal(t, decode(want), decode(got), msgAndArgs...)
}

// arbitraryDocs are documents of every JSON kind, nested, as a contract's record codec may write them
// (the store must keep any of them): the suite's contact documents cover strings and lists only.
var arbitraryDocs = []string{
	`{}`,
	`{"a":null}`,
	`{"s":"text","n":42,"neg":-7,"f":1.5,"big":9007199254740993,"t":true,"f2":false,"nil":null}`,
	`{"when":"2026-11-25T23:39:30.1234567+01:00","dec":"12345678901234567890.000000001","g":"6f9619ff-8b86-d011-b42d-00cf4fc964ff","bin":"AAEC/w==","inf":"INF","nan":"NaN","negzero":"-0"}`,
	`{"nested":{"lines":["a","b",null,""],"deep":{"deeper":{"x":[1,2,3]}},"empty":{}},"arr":[{"k":"v"},{"k":null},[]]}`,
	`{"escapes":"quote \" backslash \\ slash / tab \t nl \n cr \r ctl \u0001 \u001f","markup":"<a href=\"x\">&amp;</a>","uni":"Zoë 🙂 ид 役割 \u2028\u2029"}`,
	`{"z":1,"a":2,"m":{"b":1,"a":2},"long key with spaces":"v","":"empty key"}`,
}

// testArbitraryDocuments stores every kind of document through every write method and reads it back
// through every read method, equal in meaning; Key and Index come back as given.
func testArbitraryDocuments(t *testing.T, s cstore) {
	ctx := t.Context()
	var want []store.Record
	for i, doc := range arbitraryDocs {
		r := store.Record{Key: fmt.Sprintf("put-%d", i), Index: "acct-a", Doc: []byte(doc)}
		require.NoError(t, s.Put(ctx, r))
		want = append(want, r)
	}
	batch := make([]store.Record, len(arbitraryDocs))
	for i, doc := range arbitraryDocs {
		batch[i] = store.Record{Key: fmt.Sprintf("batch-%d", i), Index: "acct-b", Doc: []byte(doc)}
	}
	_, err := s.WriteBatch(ctx, batch, store.Upsert)
	require.NoError(t, err)
	want = append(want, batch...)
	for i, doc := range arbitraryDocs {
		key := fmt.Sprintf("upd-%d", i)
		require.NoError(t, s.Put(ctx, store.Record{Key: key, Index: "acct-c", Doc: []byte(`{"before":true}`)}))
		r, err := s.Update(ctx, key, func(r store.Record) (store.Record, error) {
			r.Doc = []byte(doc)
			return r, nil
		})
		require.NoError(t, err)
		sameJSON(t, []byte(doc), r.Doc, "Update's result")
		want = append(want, store.Record{Key: key, Index: "acct-c", Doc: []byte(doc)})
	}

	byKey := make(map[string]store.Record)
	for _, r := range want {
		byKey[r.Key] = r
		got, err := s.Get(ctx, r.Key)
		require.NoError(t, err)
		assert.Equal(t, r.Key, got.Key)
		assert.Equal(t, r.Index, got.Index)
		sameJSON(t, r.Doc, got.Doc, "Get(%q)", r.Key)
	}
	seen := 0
	require.NoError(t, s.Scan(ctx, func(got store.Record) error {
		r, ok := byKey[got.Key]
		require.True(t, ok, "Scan returned an unknown key %q", got.Key)
		assert.Equal(t, r.Index, got.Index)
		sameJSON(t, r.Doc, got.Doc, "Scan's %q", got.Key)
		seen++
		return nil
	}))
	assert.Equal(t, len(want), seen)
	for _, index := range []string{"acct-a", "acct-b", "acct-c"} {
		list, err := s.ListByIndex(ctx, index, "", 100)
		require.NoError(t, err)
		require.Len(t, list, len(arbitraryDocs), "ListByIndex(%q)", index)
		for _, got := range list {
			assert.Equal(t, index, got.Index)
			sameJSON(t, byKey[got.Key].Doc, got.Doc, "ListByIndex's %q", got.Key)
		}
	}
	for _, r := range want {
		got, err := s.Delete(ctx, r.Key)
		require.NoError(t, err)
		assert.Equal(t, r.Index, got.Index)
		sameJSON(t, r.Doc, got.Doc, "Delete(%q)", r.Key)
	}
}

// testIndexFollowsWrites moves records between accounts by every write method: the index lists each
// record under its current account only.
func testIndexFollowsWrites(t *testing.T, s cstore) {
	ctx := t.Context()
	in := func(acct string) []string {
		t.Helper()
		list, err := s.listByIndex(ctx, acct, "", 100)
		require.NoError(t, err)
		return ids(list)
	}
	c := full("c1")
	c.AccountID = "A"
	require.NoError(t, s.put(ctx, c))
	d := full("c2")
	d.AccountID = "A"
	require.NoError(t, s.put(ctx, d))
	assert.Equal(t, []string{"c1", "c2"}, in("A"))

	c.AccountID = "B" // Put moves it
	require.NoError(t, s.put(ctx, c))
	assert.Equal(t, []string{"c2"}, in("A"))
	assert.Equal(t, []string{"c1"}, in("B"))
	requireStored(t, s, c)

	c.FirstName = "same account" // Put keeps it
	require.NoError(t, s.put(ctx, c))
	assert.Equal(t, []string{"c1"}, in("B"))
	requireStored(t, s, c)

	got, err := s.update(ctx, "c2", func(x contact) (contact, error) { x.AccountID = "B"; return x, nil })
	require.NoError(t, err)
	assert.Equal(t, "B", got.AccountID)
	assert.Empty(t, in("A"))
	assert.Equal(t, []string{"c1", "c2"}, in("B"))

	e := full("c3")
	e.AccountID = "A"
	c.AccountID = "A"
	_, err = s.writeBatch(ctx, []contact{c, e}, store.Upsert) // a batch moves one and adds one
	require.NoError(t, err)
	assert.Equal(t, []string{"c1", "c3"}, in("A"))
	assert.Equal(t, []string{"c2"}, in("B"))

	_, err = s.delete(ctx, "c1")
	require.NoError(t, err)
	assert.Equal(t, []string{"c3"}, in("A"))
	assert.Empty(t, in("nobody"))
	assert.Empty(t, in(""))
}

// testListByIndexPages pages through an account with every page size: the pages together hold each
// of the account's records once, in byte order of key, and nothing of the other accounts.
func testListByIndexPages(t *testing.T, s cstore) {
	ctx := t.Context()
	var mine []string
	var batch []contact
	for i, id := range bulkIDs {
		c := full(id)
		c.AccountID = "mine"
		if i%3 == 1 {
			c.AccountID = "other" // interleaved in key order
		} else {
			mine = append(mine, id)
		}
		batch = append(batch, c)
	}
	// A neighbouring account whose name is a prefix, and one that sorts right after.
	for _, acct := range []string{"min", "mine ", "minf", "Mine"} {
		c := full("x-" + acct)
		c.AccountID = acct
		batch = append(batch, c)
	}
	_, err := s.writeBatch(ctx, batch, store.Upsert)
	require.NoError(t, err)
	want := sortedIDs(mine)
	for limit := 1; limit <= len(mine)+1; limit++ {
		var got []string
		after := ""
		for pages := 0; ; pages++ {
			require.Less(t, pages, len(mine)+2, "paging does not end")
			page, err := s.listByIndex(ctx, "mine", after, limit)
			require.NoError(t, err)
			require.LessOrEqual(t, len(page), limit)
			if len(page) == 0 {
				break
			}
			got = append(got, ids(page)...)
			after = page[len(page)-1].ID
		}
		require.Equal(t, want, got, "pages of %d", limit)
	}
	// afterKey need not be a stored key.
	page, err := s.listByIndex(ctx, "mine", "a c", 100)
	require.NoError(t, err)
	var rest []string
	for _, id := range want {
		if id > "a c" {
			rest = append(rest, id)
		}
	}
	assert.Equal(t, rest, ids(page))
	_, err = s.ListByIndex(ctx, "mine", "", 0)
	assert.Error(t, err, "a limit of 0")
}

// testListByIndexStable pages through an account while other goroutines insert, delete and move
// records of it: every record that stayed in the account throughout is seen exactly once, and the
// keys come in ascending order.
func testListByIndexStable(t *testing.T, s cstore) {
	ctx := t.Context()
	const stable = 60
	for i := range stable {
		c := full(fmt.Sprintf("k%03d", i*2)) // even keys stay throughout
		c.AccountID = "acct"
		require.NoError(t, s.put(ctx, c))
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			c := full(fmt.Sprintf("k%03d", (i%stable)*2+1)) // odd keys come, go and move
			c.AccountID = "acct"
			if i%3 == 2 {
				c.AccountID = "elsewhere"
			}
			if err := s.put(ctx, c); err != nil {
				t.Error(err)
				return
			}
			if i%5 == 4 {
				if _, err := s.delete(ctx, c.ID); err != nil {
					t.Error(err)
					return
				}
			}
		}
	})
	defer func() { close(stop); wg.Wait() }()
	for round := range 5 {
		seen := make(map[string]int)
		after, last := "", ""
		for {
			page, err := s.listByIndex(ctx, "acct", after, 7)
			require.NoError(t, err)
			if len(page) == 0 {
				break
			}
			for _, c := range page {
				require.Greater(t, c.ID, last, "round %d: keys out of order", round)
				last = c.ID
				seen[c.ID]++
			}
			after = page[len(page)-1].ID
		}
		for i := range stable {
			id := fmt.Sprintf("k%03d", i*2)
			require.Equal(t, 1, seen[id], "round %d: times %s was seen", round, id)
		}
	}
}
