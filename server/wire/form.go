package wire

import (
	"errors"
	"net/url"
	"strings"
	"sync"
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

// ParseForm reads raw (a query string or an application/x-www-form-urlencoded body) with the rules of
// url.ParseQuery: pairs separated by '&', a semicolon refused, names and values unescaped. Give the
// Form back with PutForm once the decoded request no longer needs it (values are not copied).
func ParseForm(raw string) (*Form, error) {
	f := formPool.Get().(*Form)
	f.pairs = f.store[:0]
	for raw != "" {
		var part string
		part, raw, _ = strings.Cut(raw, "&")
		if strings.Contains(part, ";") {
			PutForm(f)
			return nil, errFormEncoding
		}
		if part == "" {
			continue
		}
		key, value, _ := strings.Cut(part, "=")
		key, err1 := url.QueryUnescape(key)
		value, err2 := url.QueryUnescape(value)
		if err1 != nil || err2 != nil {
			PutForm(f)
			return nil, errFormEncoding
		}
		f.pairs = append(f.pairs, formPair{key, value})
	}
	return f, nil
}

// PutForm returns f to the pool.
func PutForm(f *Form) {
	clear(f.store[:])
	f.pairs = nil
	formPool.Put(f)
}

// FormOf returns a Form holding values, for callers that have them parsed already.
func FormOf(values url.Values) *Form {
	f := &Form{}
	for k, vs := range values {
		for _, v := range vs {
			f.pairs = append(f.pairs, formPair{k, v})
		}
	}
	return f
}

// Lookup returns the first value of name and how many times it is given.
func (f *Form) Lookup(name string) (value string, count int) {
	for _, p := range f.pairs {
		if p.key == name {
			if count == 0 {
				value = p.value
			}
			count++
		}
	}
	return value, count
}
