package storetest

import (
	"encoding/json"

	"github.com/contactsync/contactsync/server/store"
)

// testDoc is the document the backends' own tests store (the conformance suite stores documents of
// every kind): a key, an index and one text. Both backends' tests share these helpers.
type testDoc struct {
	Key   string `json:"key"`
	Index string `json:"index"`
	Text  string `json:"text"`
}

// Rec returns the record a backend's tests store for key: its index "acct" and its text.
func Rec(key, text string) store.Record { return RecIn(key, "acct", text) }

// RecIn is Rec with an index.
func RecIn(key, index, text string) store.Record {
	doc, err := json.Marshal(testDoc{Key: key, Index: index, Text: text})
	if err != nil {
		panic(err)
	}
	return store.Record{Key: key, Index: index, Doc: doc}
}

// TextOf returns the text of a record Rec made, or "<bad document>".
func TextOf(r store.Record) string {
	var d testDoc
	if err := json.Unmarshal(r.Doc, &d); err != nil || d.Key != r.Key || d.Index != r.Index {
		return "<bad document>"
	}
	return d.Text
}

// WithText returns r with its text replaced.
func WithText(r store.Record, text string) store.Record { return RecIn(r.Key, r.Index, text) }
