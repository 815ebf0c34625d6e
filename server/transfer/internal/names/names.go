// Package names matches the field names of a record file (JSON Lines keys, CSV header columns) to the
// record type's element names: exactly, ignoring case (files made by hand or by other tools spell
// them loosely), or through a rename an older export needs (import --rename Old=New). It knows
// nothing of records: it may import only the standard library.
package names

import (
	"fmt"
	"strings"
)

// Map matches file names to the elements, given in order.
type Map struct {
	elements []string
	exact    map[string]int
	folded   map[string]int // lower-cased names and old names
}

// New returns the map of elements (the record type's top-level element names) with renames (old
// name → element, matched ignoring case). A rename to a name that is no element, or from a name that
// still is one, is an error.
func New(elements []string, renames map[string]string) (*Map, error) {
	m := &Map{elements: elements, exact: map[string]int{}, folded: map[string]int{}}
	for i, e := range elements {
		m.exact[e] = i
		m.folded[strings.ToLower(e)] = i
	}
	for old, to := range renames {
		i, ok := m.folded[strings.ToLower(to)]
		if !ok {
			return nil, fmt.Errorf("--rename %s=%s: %s is not an element of the record type (its elements: %s)", old, to, to, strings.Join(elements, ", "))
		}
		if j, taken := m.folded[strings.ToLower(old)]; taken && strings.EqualFold(elements[j], old) {
			return nil, fmt.Errorf("--rename %s=%s: %s is still an element of the record type; a rename maps an old name that is no longer one", old, to, elements[j])
		}
		m.folded[strings.ToLower(old)] = i
	}
	return m, nil
}

// Lookup returns the index of the element a file's name names; exact is true when the name is the
// element's own; ok is false when it names none.
func (m *Map) Lookup(name []byte) (i int, exact, ok bool) {
	if i, ok := m.exact[string(name)]; ok {
		return i, true, true
	}
	i, ok = m.folded[strings.ToLower(string(name))]
	return i, false, ok
}
