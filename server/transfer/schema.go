// Package transfer moves contacts between a store and a file: the record formats (JSON Lines and
// CSV), the streaming export, the batched import with its refusals, the store-to-store copy and the
// content digest that verifies it. The contactsync commands export, import and copy are thin
// wrappers around it.
//
// # What it may import
//
// gen (the generated contract) and server/store, never the root package server: the conversion
// between store.Record and gen.Contact is the service's (service.ToWire and service.FromWire), and is
// handed in as a Convert by the caller, so the two stay one piece of code.
//
// # Field names
//
// No field name is written here. The record keys, the CSV header and their order are those of the
// generated gen.Contact: the names of its elements (its fields' xml tags) in the order the schema
// declares them, which is the order of the struct's fields. A field that points to a struct holding
// exactly one slice (gowsdl's ArrayOfString for an XSD array) is a list of strings: a JSON array, or
// one CSV cell with the values separated by semicolons. A change of the contract therefore changes
// the formats with it, and a field of a kind this package cannot carry stops it at start (see
// Fields).
package transfer

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/store"
)

// Convert is the conversion between the stored and the wire form of a contact. Callers pass the
// service's own (service.ToWire and service.FromWire), so a record file holds what the service would
// return, and an imported record is checked as the service checks its input.
type Convert struct {
	// ToWire converts a stored contact to the wire type.
	ToWire func(store.Record) (*gen.Contact, error)
	// FromWire converts a wire contact to the stored form, or says why it cannot be stored.
	FromWire func(*gen.Contact) (store.Record, error)
}

// Field is one element of the Contact type as the formats carry it.
type Field struct {
	// Name is the element's name in the contract, the record key and CSV column.
	Name string
	// List is true for an XSD array of strings (a JSON array; a semicolon-separated CSV cell).
	List bool

	index     int  // the field's index in gen.Contact
	elemIndex int  // for a list: the slice's index in the pointed-to struct
	elemPtr   bool // for a list: the slice holds *string rather than string
}

var (
	fieldsOnce sync.Once
	fields     []Field
	fieldsErr  error
)

// Fields returns the fields of gen.Contact in schema order, derived once from the generated type. It
// fails when gen.Contact holds a field that is neither a string nor a list of strings, since this
// package would not know how to write it.
func Fields() ([]Field, error) {
	fieldsOnce.Do(func() { fields, fieldsErr = fieldsOf(reflect.TypeFor[gen.Contact]()) })
	return fields, fieldsErr
}

// mustFields is Fields for the codecs, which can only be built when it succeeded.
func mustFields() []Field {
	fs, err := Fields()
	if err != nil {
		panic(err) // Fields' test keeps this from happening with the committed gen/
	}
	return fs
}

// fieldsOf derives the fields of a gowsdl-generated struct type t.
func fieldsOf(t reflect.Type) ([]Field, error) {
	var out []Field
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() || sf.Name == "XMLName" {
			continue
		}
		name, _, _ := strings.Cut(sf.Tag.Get("xml"), ",")
		if name == "" || name == "-" {
			return nil, fmt.Errorf("transfer: %s.%s has no element name in its xml tag", t.Name(), sf.Name)
		}
		f := Field{Name: name, index: i}
		switch {
		case sf.Type.Kind() == reflect.String:
		case sf.Type.Kind() == reflect.Pointer && sf.Type.Elem().Kind() == reflect.Struct:
			elem, ok := onlySlice(sf.Type.Elem())
			if !ok {
				return nil, fmt.Errorf("transfer: %s.%s (%s) is not an array of strings", t.Name(), sf.Name, sf.Type)
			}
			f.List, f.elemIndex = true, elem
			f.elemPtr = sf.Type.Elem().Field(elem).Type.Elem().Kind() == reflect.Pointer
		default:
			return nil, fmt.Errorf("transfer: %s.%s has type %s, which the record formats cannot carry", t.Name(), sf.Name, sf.Type)
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("transfer: %s has no fields", t.Name())
	}
	return out, nil
}

// onlySlice returns the index of the one exported field of struct type t when that field is a slice
// of string or of *string (and t has no other exported field besides XMLName).
func onlySlice(t reflect.Type) (int, bool) {
	index := -1
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() || sf.Name == "XMLName" {
			continue
		}
		if index >= 0 || sf.Type.Kind() != reflect.Slice {
			return 0, false
		}
		e := sf.Type.Elem()
		if e.Kind() == reflect.Pointer {
			e = e.Elem()
		}
		if e.Kind() != reflect.String {
			return 0, false
		}
		index = i
	}
	return index, index >= 0
}

// Names returns the field names in schema order.
func Names() []string {
	fs := mustFields()
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.Name
	}
	return names
}

// getString returns the value of string field f of w.
func (f *Field) getString(w reflect.Value) string { return w.Field(f.index).String() }

// setString sets string field f of w.
func (f *Field) setString(w reflect.Value, s string) { w.Field(f.index).SetString(s) }

// getList returns the values of list field f of w; nil when the list is absent or empty. An absent
// entry (a nil *string) reads as the empty string.
func (f *Field) getList(w reflect.Value) []string {
	p := w.Field(f.index)
	if p.IsNil() {
		return nil
	}
	s := p.Elem().Field(f.elemIndex)
	if s.Len() == 0 {
		return nil
	}
	out := make([]string, s.Len())
	for i := range out {
		e := s.Index(i)
		if f.elemPtr {
			if e.IsNil() {
				continue
			}
			e = e.Elem()
		}
		out[i] = e.String()
	}
	return out
}

// setList sets list field f of w to values.
func (f *Field) setList(w reflect.Value, values []string) {
	p := w.Field(f.index)
	arr := reflect.New(p.Type().Elem())
	st := arr.Elem().Field(f.elemIndex)
	s := reflect.MakeSlice(st.Type(), len(values), len(values))
	for i, v := range values {
		if f.elemPtr {
			s.Index(i).Set(reflect.ValueOf(&v))
		} else {
			s.Index(i).SetString(v)
		}
	}
	st.Set(s)
	p.Set(arr)
}

// Bulk is what the data commands need of a store (every store.Store has it).
type Bulk interface {
	Scan(ctx context.Context, fn func(store.Record) error) error
	WriteBatch(ctx context.Context, rs []store.Record, mode store.WriteMode) (store.BatchResult, error)
	Count(ctx context.Context) (int64, error)
}
