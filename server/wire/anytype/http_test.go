package anytype_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire/anytype"
	"github.com/contactsync/contactsync/server/wire/xmlany"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// TestAppendHTTPResult: an object result of HTTP GET/POST is written after the root start tag the
// binding wrote, as ASMX writes it (shapes README §3): a simple value on a root rewritten with
// generated prefixes (get-GetObject-string, -int), a contract type's value with xsi:type on the root
// (get-GetObject-dog), raw nodes as they are, nil as no result (get-GetObject-null).
func TestAppendHTTPResult(t *testing.T) {
	const start = `<?xml version="1.0" encoding="utf-8"?><anyType xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns="` + ns + `">`
	dogs := &anytype.Registry{Namespace: ns, Types: map[string]func() anytype.Typed{"Dog": func() anytype.Typed { return new(dog) }}}
	raw, err := xmlany.ParseRawXML(`plain <b xmlns="urn:x">bold</b>`, limits)
	assert.NoError(t, err)
	for _, tt := range []struct {
		name string
		o    anytype.Object
		want string
		ok   bool
	}{
		{"string", anytype.ObjectString("hello"), `<?xml version="1.0" encoding="utf-8"?><anyType xmlns:q1="http://www.w3.org/2001/XMLSchema" d1p1:type="q1:string" xmlns:d1p1="http://www.w3.org/2001/XMLSchema-instance" xmlns="` + ns + `">hello`, true},
		{"int", anytype.ObjectInt(42), `<?xml version="1.0" encoding="utf-8"?><anyType xmlns:q1="http://www.w3.org/2001/XMLSchema" d1p1:type="q1:int" xmlns:d1p1="http://www.w3.org/2001/XMLSchema-instance" xmlns="` + ns + `">42`, true},
		{"char", anytype.ObjectChar('A'), `<?xml version="1.0" encoding="utf-8"?><anyType xmlns:q1="http://microsoft.com/wsdl/types/" d1p1:type="q1:char" xmlns:d1p1="http://www.w3.org/2001/XMLSchema-instance" xmlns="` + ns + `">65`, true},
		{"dog", anytype.ObjectOf(&dog{Name: "Rex", Barks: 3}), start[:len(start)-1] + ` xsi:type="Dog"><Name>Rex</Name><Barks>3</Barks>`, true},
		{"array", anytype.ObjectArray(anytype.ObjectInt(1), anytype.Object{}), start[:len(start)-1] + ` xsi:type="ArrayOfAnyType"><anyType xsi:type="xsd:int">1</anyType><anyType xsi:nil="true" />`, true},
		{"nodes", anytype.ObjectRaw(raw), start + `plain <b xmlns="urn:x">bold</b>`, true},
		{"nil", anytype.Object{}, start, false},
	} {
		got, ok := anytype.AppendHTTPResult([]byte(start), tt.o, dogs)
		assert.Equal(t, tt.ok, ok, tt.name)
		assert.Equal(t, tt.want, string(got), tt.name)
	}
}

// kennel is a contract type from which an object is reachable (an anytype.ObjectHolder, as generated):
// its Pet is checked against its own contract's registry, kennels.
type kennel struct{ Pet anytype.Object }

func (*kennel) XSDType() string                 { return "Kennel" }
func (*kennel) AppendXML(b []byte) []byte       { return b }
func (*kennel) DecodeXML(*xmlwire.Reader) error { return nil }
func (k *kennel) CheckObjects() error           { return anytype.Writable(k.Pet, kennels) }

// kennels is the registry of a contract with Kennel and no Dog.
var kennels = &anytype.Registry{Namespace: ns, Types: map[string]func() anytype.Typed{"Kennel": func() anytype.Typed { return new(kennel) }}}

// TestWritable: a value the contract has no form for (a complex value of a type it does not have, at
// the top, as an ArrayOfAnyType item at any depth, or in an object a contract value holds) is refused
// by Writable as an internal error, and
// AppendHTTPResult writes it as no result instead of panicking; the handler answers the error first
// (get-GetObject-widget, soap11-GetObject-widget).
func TestWritable(t *testing.T) {
	const start = `<anyType xmlns="` + ns + `">`
	dogs := &anytype.Registry{Namespace: ns, Types: map[string]func() anytype.Typed{"Dog": func() anytype.Typed { return new(dog) }}}
	none := &anytype.Registry{Namespace: ns}
	for _, tt := range []struct {
		name string
		o    anytype.Object
		reg  *anytype.Registry
		bad  bool
	}{
		{"nil", anytype.Object{}, none, false},
		{"simple", anytype.ObjectInt(1), none, false},
		{"dog of the contract", anytype.ObjectOf(&dog{}), dogs, false},
		{"dog of no contract type", anytype.ObjectOf(&dog{}), none, true},
		{"array of simple values", anytype.ObjectArray(anytype.ObjectInt(1), anytype.Object{}), none, false},
		{"array holding a foreign dog", anytype.ObjectArray(anytype.ObjectInt(1), anytype.ObjectOf(&dog{})), none, true},
		{"nested array holding a foreign dog", anytype.ObjectArray(anytype.ObjectArray(anytype.ObjectOf(&dog{}))), none, true},
		{"kennel holding an int", anytype.ObjectOf(&kennel{Pet: anytype.ObjectInt(1)}), kennels, false},
		{"kennel holding a foreign dog", anytype.ObjectOf(&kennel{Pet: anytype.ObjectOf(&dog{})}), kennels, true},
		{"array holding a kennel holding a foreign dog", anytype.ObjectArray(anytype.ObjectOf(&kennel{Pet: anytype.ObjectOf(&dog{})})), kennels, true},
		{"kennel holding a kennel holding a foreign dog", anytype.ObjectOf(&kennel{Pet: anytype.ObjectOf(&kennel{Pet: anytype.ObjectOf(&dog{})})}), kennels, true},
	} {
		err := anytype.Writable(tt.o, tt.reg)
		if !tt.bad {
			assert.NoError(t, err, tt.name)
			continue
		}
		var fe *fault.Error
		if assert.ErrorAs(t, err, &fe, tt.name) {
			assert.Equal(t, fault.Internal, fe.Code, tt.name)
			assert.ErrorContains(t, fe.Err, "Dog", tt.name)
		}
		got, ok := anytype.AppendHTTPResult([]byte(start), tt.o, tt.reg)
		assert.False(t, ok, tt.name)
		assert.Equal(t, start, string(got), tt.name)
	}
}
