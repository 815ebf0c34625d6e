package formwire

import (
	"errors"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire/xsd"
)

// Form holds the parameters of an HTTP GET query or POST form body, as url.ParseQuery reads them, in a
// reusable value: the generated DecodeForm looks parameters up by name, and a request's handful of
// parameters fit in the fixed array without a map.
type Form struct {
	pairs []formPair
	store [8]formPair
}

type formPair struct{ key, value string }

var formPool = sync.Pool{New: func() any { return new(Form) }}

// errFormEncoding is returned for a query or form that is not valid URL encoding.
var errFormEncoding = errors.New("invalid URL encoding")

// Parse reads raw (a query string or an application/x-www-form-urlencoded body) with the rules of
// url.ParseQuery: pairs separated by '&', a semicolon refused, names and values unescaped. Give the
// Form back with Put once the decoded request no longer needs it (values are not copied).
func Parse(raw string) (*Form, error) {
	f := formPool.Get().(*Form)
	f.pairs = f.store[:0]
	for raw != "" {
		var part string
		part, raw, _ = strings.Cut(raw, "&")
		if strings.Contains(part, ";") {
			Put(f)
			return nil, errFormEncoding
		}
		if part == "" {
			continue
		}
		key, value, _ := strings.Cut(part, "=")
		key, err1 := url.QueryUnescape(key)
		value, err2 := url.QueryUnescape(value)
		if err1 != nil || err2 != nil {
			Put(f)
			return nil, errFormEncoding
		}
		f.pairs = append(f.pairs, formPair{key, value})
	}
	return f, nil
}

// Put returns f to the pool.
func Put(f *Form) {
	clear(f.store[:])
	f.pairs = nil
	formPool.Put(f)
}

// Lookup returns the first value of name and how many times it is given. Names are matched without
// regard to case, as ASMX's URL reader matches them (its NameValueCollection is case-insensitive:
// asmx-typezoo/more get-EchoInt-name-case reads N=5 as the parameter n).
func (f *Form) Lookup(name string) (value string, count int) {
	for _, p := range f.pairs {
		if p.key == name || strings.EqualFold(p.key, name) {
			if count == 0 {
				value = p.value
			}
			count++
		}
	}
	return value, count
}

// Values returns every value of name, in the order given (names matched as Lookup matches them): the
// items of an array parameter, one per occurrence (?ids=a&ids=b), as ASMX reads them. A value is never
// split: ids=a%2Cb is the one item "a,b".
func (f *Form) Values(name string) []string {
	var values []string
	for _, p := range f.pairs {
		if p.key == name || strings.EqualFold(p.key, name) {
			values = append(values, p.value)
		}
	}
	return values
}

// Parameters of the HTTP GET and POST bindings. The generated DecodeForm reads each parameter with
// Param (a simple type) or Form.Values (an array of a simple type), then converts each value with
// the Form reader of its XSD type, which names the parameter, or the item of an array parameter, in
// its error. The rules are ASMX's (asmx-typezoo/more, README §1 and §5; docs/bindings.md):
//
//   - a parameter left out is an error naming it, whatever its type, as ASMX answers "Missing
//     parameter"; name= is the empty string for a string and a bad value for every other type;
//   - a simple parameter given twice is an error (ASMX joins the values with a comma, which turns
//     text=a&text=b into "a,b" and n=1&n=2 into a bad number);
//   - an array parameter is one value per item, ?ids=a&ids=b, and a value is never split; left out, it
//     is an empty array (ASMX fails with a null reference, 500): a query cannot tell an empty array
//     from a missing one, and an empty array is what a client with no items sends.

// Scalar is the item argument of the Form readers for a simple parameter, as opposed to the
// (0-based) index of an item of an array parameter.
const Scalar = -1

// Param returns the value of the simple parameter name: an error naming it when it is left out
// or given more than once.
func Param(form *Form, name string) (string, error) {
	v, n := form.Lookup(name)
	switch n {
	case 0:
		return "", required(name)
	case 1:
		return v, nil
	}
	return "", xsd.Duplicate("parameter " + name)
}

// required is the error for a parameter left out.
func required(name string) error {
	return fault.Errorf(fault.InvalidArgument, "The parameter %s is required.", name)
}

// formWhat names a parameter, or item (0-based) of an array parameter, in errors.
func formWhat(name string, item int) string {
	if item == Scalar {
		return "parameter " + name
	}
	return "item " + strconv.Itoa(item+1) + " of the parameter " + name
}

// Int reads an integer of the given XSD type and size: the xsd forms, as Int32.Parse reads them
// too (white space around, a sign).
func Int(name string, item int, v, xsdType string, bits int) (int64, error) {
	n, ok := xsd.ParseInt(v, bits)
	if !ok {
		return 0, xsd.BadValue(formWhat(name, item), xsdType, v)
	}
	return n, nil
}

// Bool reads a boolean with ParseFormBool's forms.
func Bool(name string, item int, v string) (bool, error) {
	b, ok := xsd.ParseFormBool(v)
	if !ok {
		return false, xsd.BadValue(formWhat(name, item), "boolean", v)
	}
	return b, nil
}

// Double reads an xsd:double (bits 64) or xsd:float (bits 32).
func Double(name string, item int, v, xsdType string, bits int) (float64, error) {
	f, ok := xsd.ParseDouble(v, bits)
	if !ok {
		return 0, xsd.BadValue(formWhat(name, item), xsdType, v)
	}
	return f, nil
}

// DateTime reads a dateTime with ParseFormDateTime's forms.
func DateTime(name string, item int, v string) (xsd.DateTime, error) {
	t, ok := xsd.ParseFormDateTime(v)
	if !ok {
		return xsd.DateTime{}, xsd.BadValue(formWhat(name, item), "dateTime", v)
	}
	return t, nil
}

// Decimal reads an xsd:decimal with ParseDecimal's rules. Unlike ASMX's URL reader, which reads
// amount=12,5 as 125 and 5- as -5 (a comma is a thousands separator to it, and a sign may trail), the
// value is held to the xsd:decimal lexical space like on every other binding.
func Decimal(name string, item int, v string) (xsd.Decimal, error) {
	d, ok := xsd.ParseDecimal(v)
	if !ok {
		return xsd.Decimal{}, xsd.BadValue(formWhat(name, item), "decimal", v)
	}
	return d, nil
}

// Base64 reads an xsd:base64Binary.
func Base64(name string, item int, v string) ([]byte, error) {
	b, ok := xsd.ParseBase64(v)
	if !ok {
		return nil, xsd.BadValue(formWhat(name, item), "base64Binary", v)
	}
	return b, nil
}

// Enum reads a value of the enumeration xsdType whose members are members: one of its names, exactly, with the white space around
// it trimmed, as Enum.Parse reads it (get-EchoTier-spaces). ASMX's URL reader also takes a member's
// number (tier=2 for Gold) and comma-separated names; they are refused, the number because it is no
// name of the contract and would read any out-of-range number as a value the service cannot write.
func Enum(name string, item int, v string, xsdType string, members []string) (string, error) {
	text := strings.TrimSpace(v)
	for _, e := range members {
		if text == e {
			return e, nil
		}
	}
	return "", xsd.BadValue(formWhat(name, item), xsdType, v)
}

// FormatInt, FormatBool, FormatDouble and FormatFloat write simple values as form values.
func FormatInt(n int64) string      { return strconv.FormatInt(n, 10) }
func FormatBool(v bool) string      { return strconv.FormatBool(v) }
func FormatDouble(f float64) string { return string(xsd.AppendDouble(nil, f)) }
func FormatFloat(f float32) string  { return string(xsd.AppendFloat(nil, f)) }
