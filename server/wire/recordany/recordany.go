// Package recordany writes and reads the record form (server/wire/recordwire's canonical JSON) of the
// open values of issue 33: an object (anytype.Object, xsd:anyType) and raw XML (xmlany.RawXML), for
// the generated record codec of a record type that reaches them (docs/xsd-types.md, design §4):
//
//   - raw XML: {"$xml":"<canonical XML text>"}; no nodes is null;
//   - a DataSet: its content as raw XML's, not interpreted; nil is null, no nodes {"$xml":""};
//   - an object: null (nil); {} (a value of no type, <v />); {"$type":"xsd:int","$value":"42"} for an
//     XSD built-in ("xsd:"), ASMX's guid and char ("ms:") and a contract enumeration (its name), the
//     value in its canonical lexical form; {"$type":"Dog",…} for a contract complex type, its members
//     as its record codec writes them (or "$xml", its XML content, for a type without one), an
//     array type's items under "$items" ({"$type":"ArrayOfString","$items":["a",null]});
//     {"$type":"ArrayOfAnyType","$items":[…]} for object[]; {"$xml":"…"} for untyped content, with
//     "$xsiType":"{namespace}name" when it came with an xsi:type the contract does not know.
//
// Values are read back through anytype's own XML reader (a synthetic element carrying the xsi:type),
// so the record accepts exactly the values the wire accepts, canonicalized alike.
//
// It may import only the standard library, server/wire/recordwire, server/wire/anytype,
// server/wire/xmlany and server/wire/xmlwire.
package recordany

import (
	"encoding/xml"
	"strings"

	"github.com/contactsync/contactsync/server/wire/anytype"
	"github.com/contactsync/contactsync/server/wire/recordwire"
	"github.com/contactsync/contactsync/server/wire/xmlany"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// Keys of the record form beside recordwire.TypeKey.
const (
	// ValueKey holds a simple object value's lexical form.
	ValueKey = "$value"
	// ItemsKey holds the items of an object[].
	ItemsKey = "$items"
	// XMLKey holds raw XML, or a complex object value's XML content.
	XMLKey = "$xml"
	// XSITypeKey holds the xsi:type, "{namespace}name", raw content came with.
	XSITypeKey = "$xsiType"
)

// limits bound the XML a record holds, as a request's budget bounds it on the wire.
var limits = xmlwire.Limits{MaxDepth: 64, MaxElements: 1 << 20}

// recordValue is a generated type with a record codec.
type recordValue interface {
	AppendRecord(b []byte) []byte
	DecodeRecord(r *recordwire.Reader) error
}

// AppendRaw appends raw XML's record form.
func AppendRaw(b []byte, x xmlany.RawXML) []byte {
	if x.IsZero() {
		return append(b, "null"...)
	}
	b = append(b, `{"`+XMLKey+`":`...)
	return append(recordwire.AppendString(b, x.String()), '}')
}

// DecodeRaw reads raw XML's record form.
func DecodeRaw(r *recordwire.Reader) (xmlany.RawXML, error) {
	if r.Null() {
		return xmlany.RawXML{}, nil
	}
	f, err := readForm(r)
	if err != nil {
		return xmlany.RawXML{}, err
	}
	if f.typ != "" || f.hasValue || f.items != nil {
		return xmlany.RawXML{}, &recordwire.Error{Msg: "raw XML is an object holding " + XMLKey + " only"}
	}
	return xmlany.ParseRawXML(f.xml, limits)
}

// AppendDataSet appends a DataSet's record form: its content as raw XML's; nil is null.
func AppendDataSet(b []byte, ds *xmlany.DataSet) []byte {
	if ds == nil {
		return append(b, "null"...)
	}
	if ds.Content.IsZero() {
		return append(b, `{"`+XMLKey+`":""}`...)
	}
	return AppendRaw(b, ds.Content)
}

// DecodeDataSet reads a DataSet's record form.
func DecodeDataSet(r *recordwire.Reader) (*xmlany.DataSet, error) {
	if r.Null() {
		return nil, nil
	}
	f, err := readForm(r)
	if err != nil {
		return nil, err
	}
	if f.typ != "" || f.hasValue || f.items != nil {
		return nil, &recordwire.Error{Msg: "a DataSet is an object holding " + XMLKey + " only"}
	}
	ds := new(xmlany.DataSet)
	if f.xml != "" {
		if ds.Content, err = xmlany.ParseRawXML(f.xml, limits); err != nil {
			return nil, err
		}
	}
	return ds, nil
}

// typeName is the "$type" of a simple object value of type typ.
func typeName(typ xml.Name) string {
	switch typ.Space {
	case xmlany.NSXSD:
		return "xsd:" + typ.Local
	case xmlany.NSMSTypes:
		return "ms:" + typ.Local
	}
	return typ.Local
}

// AppendObject appends an object's record form.
func AppendObject(b []byte, o anytype.Object) []byte {
	switch o.Kind() {
	case anytype.Empty:
		return append(b, "{}"...)
	case anytype.Simple:
		b = append(b, `{"`+recordwire.TypeKey+`":`...)
		b = recordwire.AppendString(b, typeName(o.XSDType()))
		b = append(b, `,"`+ValueKey+`":`...)
		return append(recordwire.AppendString(b, o.Text()), '}')
	case anytype.Complex:
		mark := len(b)
		if v, ok := o.Complex().(recordValue); ok {
			b = v.AppendRecord(b)
			if mark < len(b) && b[mark] == '[' {
				// A contract array type's value is a JSON array: its items go under ItemsKey, as an
				// object[]'s, so that the object keeps its type.
				items := string(b[mark:])
				b = append(b[:mark], `{"`+recordwire.TypeKey+`":`...)
				b = recordwire.AppendString(b, o.Complex().XSDType())
				b = append(b, `,"`+ItemsKey+`":`...)
				return append(append(b, items...), '}')
			}
			return recordwire.AppendTyped(b, mark, o.Complex().XSDType())
		}
		b = append(b, `{"`+recordwire.TypeKey+`":`...)
		b = recordwire.AppendString(b, o.Complex().XSDType())
		b = append(b, `,"`+XMLKey+`":`...)
		return append(recordwire.AppendString(b, string(o.Complex().AppendXML(nil))), '}')
	case anytype.Array:
		b = append(b, `{"`+recordwire.TypeKey+`":"`+anytype.ArrayOfAnyType+`","`+ItemsKey+`":[`...)
		for i, item := range o.Items() {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendObject(b, item)
		}
		return append(b, "]}"...)
	case anytype.Raw:
		b = append(b, '{')
		if t := o.XSDType(); t.Local != "" {
			b = append(b, `"`+XSITypeKey+`":`...)
			b = append(recordwire.AppendString(b, "{"+t.Space+"}"+t.Local), ',')
		}
		b = append(b, `"`+XMLKey+`":`...)
		return append(recordwire.AppendString(b, o.Raw().String()), '}')
	}
	return append(b, "null"...)
}

// form is an object's record form as read, before its type is known.
type form struct {
	typ, value, xml, xsiType string
	hasValue                 bool
	items                    []byte // the raw "$items" array
	members                  []byte // the whole object, for a complex value's record codec
}

// readForm reads the object r is at.
func readForm(r *recordwire.Reader) (form, error) {
	var f form
	typ, _, err := r.PeekType()
	if err != nil {
		return f, err
	}
	f.typ = typ
	raw, err := r.RawValue()
	if err != nil {
		return f, err
	}
	f.members = raw
	sub := recordwire.NewReader(raw, recordwire.Lenient)
	if err := sub.BeginObject(); err != nil {
		return f, err
	}
	for {
		key, ok, err := sub.Key()
		if err != nil || !ok {
			return f, err
		}
		switch string(key) {
		case ValueKey:
			f.value, err = sub.String()
			f.hasValue = true
		case XMLKey:
			f.xml, err = sub.String()
		case XSITypeKey:
			f.xsiType, err = sub.String()
		case ItemsKey:
			f.items, err = sub.RawValue()
		default:
			err = sub.Skip()
		}
		if err != nil {
			return f, recordwire.Path(string(key), err)
		}
	}
}

// DecodeObject reads an object's record form; reg is the contract's (its types, enumerations and
// namespace).
func DecodeObject(r *recordwire.Reader, reg *anytype.Registry) (anytype.Object, error) {
	if r.Null() {
		return anytype.Object{}, nil
	}
	f, err := readForm(r)
	if err != nil {
		return anytype.Object{}, err
	}
	switch {
	case f.typ == anytype.ArrayOfAnyType:
		items := recordwire.NewReader(f.items, r.Mode())
		if err := items.BeginArray(); err != nil {
			return anytype.Object{}, recordwire.Path(ItemsKey, err)
		}
		list := []anytype.Object{}
		for i := 0; ; i++ {
			more, err := items.More()
			if err != nil {
				return anytype.Object{}, err
			}
			if !more {
				return anytype.ObjectArray(list...), nil
			}
			item, err := DecodeObject(items, reg)
			if err != nil {
				return anytype.Object{}, recordwire.Path(ItemsKey, recordwire.Item(i, err))
			}
			list = append(list, item)
		}
	case f.typ == "" && f.xml == "" && f.xsiType == "" && !f.hasValue:
		return anytype.ObjectEmpty(), nil
	case f.typ == "":
		attrs := ""
		if f.xsiType != "" {
			space, local, ok := strings.Cut(strings.TrimPrefix(f.xsiType, "{"), "}")
			if !ok {
				return anytype.Object{}, &recordwire.Error{Msg: "invalid " + XSITypeKey + " " + f.xsiType, Path: XSITypeKey}
			}
			attrs = ` xmlns:t="` + escape(space) + `" xsi:type="t:` + escape(local) + `"`
		}
		return viaXML(attrs, f.xml, reg)
	case f.hasValue:
		space, local := reg.Namespace, f.typ
		if l, ok := strings.CutPrefix(f.typ, "xsd:"); ok {
			space, local = xmlany.NSXSD, l
		} else if l, ok := strings.CutPrefix(f.typ, "ms:"); ok {
			space, local = xmlany.NSMSTypes, l
		}
		return viaXML(` xmlns:t="`+escape(space)+`" xsi:type="t:`+escape(local)+`"`, escape(f.value), reg)
	}
	newValue, ok := reg.Types[f.typ]
	if !ok {
		return anytype.Object{}, recordwire.UnknownType(f.typ, "an object's types")
	}
	if f.xml != "" { // a complex value's elements take the contract's namespace, as on the wire
		return viaXML(` xmlns="`+escape(reg.Namespace)+`" xmlns:t="`+escape(reg.Namespace)+`" xsi:type="t:`+escape(f.typ)+`"`, f.xml, reg)
	}
	v := newValue()
	rv, ok := v.(recordValue)
	if !ok {
		return anytype.Object{}, &recordwire.Error{Msg: "the object's type " + f.typ + " has no record form"}
	}
	doc := f.members
	if f.items != nil { // a contract array type's value (a complex type has no member named so)
		doc = f.items
	}
	if err := recordwire.Decode(doc, r.Mode(), recordRoot{rv}); err != nil {
		return anytype.Object{}, err
	}
	return anytype.ObjectOf(v), nil
}

// recordRoot lets recordwire.Decode read a complex object value.
type recordRoot struct{ recordValue }

func (recordRoot) RecordKey() string   { return "" }
func (recordRoot) RecordIndex() string { return "" }

// viaXML reads the value of <v attrs>content</v> with anytype's reader.
func viaXML(attrs, content string, reg *anytype.Registry) (anytype.Object, error) {
	doc := `<v xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"` + attrs + `>` + content + `</v>`
	rd := xmlwire.NewReader([]byte(doc), reg.Namespace, limits, false)
	root, err := rd.Root()
	if err != nil {
		return anytype.Object{}, &recordwire.Error{Msg: err.Error()}
	}
	o, err := anytype.Read(rd, root, "object", reg)
	if err != nil {
		return anytype.Object{}, &recordwire.Error{Msg: err.Error()}
	}
	if err := rd.End(); err != nil {
		return anytype.Object{}, &recordwire.Error{Msg: err.Error()}
	}
	return o, nil
}

// escape escapes text for XML character data and attribute values.
func escape(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}
