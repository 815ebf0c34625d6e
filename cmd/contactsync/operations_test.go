package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/wire"
)

// TestCallExamples: call's help examples name operations of the table they are given, so a contract
// edit that renames or removes one cannot leave the help naming an operation that does not exist.
func TestCallExamples(t *testing.T) {
	one := []wire.Field{{Name: "key"}}
	tests := []struct {
		name string
		ops  []*wire.Operation
		want string
	}{
		{"none", nil, ""},
		{"one parameter", []*wire.Operation{{Name: "Fetch", Params: one, Bindings: wire.SOAP11}},
			"  contactsync call Fetch --id 42\n  contactsync call Fetch --param key=42 --binding soap12\n" +
				"  contactsync call Fetch --id 42 --url https://contacts.example.com/contactsync/v1/sync.asmx --user alice --ca-cert ca.pem"},
		{"no parameters, on GET", []*wire.Operation{
			{Name: "Ping", Bindings: wire.SOAP11},
			{Name: "Ver", Bindings: wire.SOAP11 | wire.HTTPGet},
		}, "  contactsync call Ver --binding get"},
		{"the first of each kind", []*wire.Operation{
			{Name: "Two", Params: []wire.Field{{Name: "a"}, {Name: "b"}}},
			{Name: "A", Params: one}, {Name: "B", Params: one},
			{Name: "V1", Bindings: wire.HTTPGet}, {Name: "V2", Bindings: wire.HTTPGet},
		}, "  contactsync call A --id 42\n  contactsync call A --param key=42 --binding soap12\n" +
			"  contactsync call A --id 42 --url https://contacts.example.com/contactsync/v1/sync.asmx --user alice --ca-cert ca.pem\n" +
			"  contactsync call V1 --binding get"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, callExamples(tc.ops))
		})
	}
	// Today's contract has both kinds, and every operation its help names is in the generated table.
	lines := strings.Split(strings.TrimSpace(callExamples(gen.Operations)), "\n")
	assert.Len(t, lines, 4)
	for _, line := range lines {
		words := strings.Fields(line)
		if assert.GreaterOrEqual(t, len(words), 3, line) {
			assert.NotNil(t, wire.Lookup(gen.Operations, words[2]), line)
		}
	}
}
