package transfer

import (
	"errors"
	"fmt"
	"strings"

	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/recordwire"
)

// A column is one top-level element of the record type: a JSON Lines key and a CSV column. How its
// value is written in a CSV cell follows from its type descriptor, never from its name.
type column struct {
	name string
	form cellForm
	// item is the form of an item of an array of simple values, for the ';'-separated cells of older
	// exports; 0 when the items are not simple.
	item cellForm
}

// cellForm is how a value is written in a CSV cell.
type cellForm uint8

const (
	// cellString: a string, as it is (an empty cell is the empty string).
	cellString cellForm = iota + 1
	// cellText: the lexical form of an enumeration, dateTime, decimal or guid; empty for null.
	cellText
	// cellLiteral: an integer (char as its number) or a boolean as its JSON literal; empty for null.
	cellLiteral
	// cellFloat: a double or float as its JSON number, or INF, -INF, NaN, -0; empty for null.
	cellFloat
	// cellJSON: the JSON text of the value: a nested value, an array, and the two simple types whose
	// lexical form can be empty while the value can also be null (base64Binary, a nillable string),
	// so that an empty value and null stay apart.
	cellJSON
)

// formOf is the cell form of a value of type t, nillable or not.
func formOf(t *wire.Type, nillable bool) cellForm {
	switch t.Kind {
	case wire.KindString:
		if nillable {
			return cellJSON
		}
		return cellString
	case wire.KindEnum, wire.KindFlags, wire.KindDateTime, wire.KindDecimal, wire.KindGUID:
		return cellText
	case wire.KindInt, wire.KindLong, wire.KindShort, wire.KindBoolean, wire.KindByte, wire.KindUnsignedByte,
		wire.KindUnsignedShort, wire.KindUnsignedInt, wire.KindUnsignedLong, wire.KindChar:
		return cellLiteral
	case wire.KindDouble, wire.KindFloat:
		return cellFloat
	}
	return cellJSON
}

// columnsOf returns the columns of a record type in the canonical document's order: its attributes
// ("@Code") and text ("$text") first, as the record codec writes them, then its elements.
func columnsOf(rt *recordwire.Type) ([]column, error) {
	if rt == nil || rt.Type == nil || len(rt.Type.Fields) == 0 {
		return nil, errors.New("transfer: no record type, or one without elements")
	}
	var cols []column
	for _, a := range rt.Type.Attrs {
		cols = append(cols, column{name: "@" + a.Name, form: formOf(a.Type, a.Nillable)})
	}
	if rt.Type.Text != nil {
		cols = append(cols, column{name: "$text", form: formOf(rt.Type.Text, false)})
	}
	cols = append(cols, make([]column, len(rt.Type.Fields))...)
	for i, f := range rt.Type.Fields {
		i += len(cols) - len(rt.Type.Fields)
		c := column{name: f.Name, form: formOf(f.Type, f.Nillable)}
		switch {
		case f.MaxOccurs != 1:
			c.form = cellJSON
			if f.Type.Kind.Simple() {
				c.item = formOf(f.Type, false)
			}
		case f.Type.Kind == wire.KindArray && f.Type.Item != nil && f.Type.Item.Type.Kind.Simple():
			// An older export's list held no null item: its items are plain lexical forms.
			c.item = formOf(f.Type.Item.Type, false)
		}
		cols[i] = c
	}
	return cols, nil
}

func elementNames(cols []column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.name
	}
	return out
}

// cell returns the CSV cell of a value whose canonical JSON text is raw.
func (c *column) cell(raw []byte) (string, error) {
	if c.form == cellJSON || c.form == cellLiteral {
		if string(raw) == "null" {
			return "", nil // JSON text is never empty: an empty cell is null
		}
		return string(raw), nil
	}
	r := recordwire.NewReader(raw, recordwire.Strict)
	if r.Null() {
		return "", nil
	}
	if raw[0] != '"' {
		return string(raw), nil // a number (cellFloat)
	}
	return r.String()
}

// appendCell appends the JSON value a CSV cell holds to doc.
func (c *column) appendCell(doc []byte, cell string) ([]byte, error) {
	if c.item != 0 && cell != "" && cell != "null" && cell[0] != '[' {
		// An older export's list: the items separated by ';'.
		doc = append(doc, '[')
		for i, item := range strings.Split(cell, ListSeparator) {
			if i > 0 {
				doc = append(doc, ',')
			}
			var err error
			if doc, err = appendForm(doc, c.item, item); err != nil {
				return nil, fmt.Errorf("item %d: %w", i+1, err)
			}
		}
		return append(doc, ']'), nil
	}
	return appendForm(doc, c.form, cell)
}

// appendForm appends the JSON value of a cell in the given form.
func appendForm(doc []byte, form cellForm, cell string) ([]byte, error) {
	switch {
	case form == cellString:
		return recordwire.AppendString(doc, cell), nil
	case cell == "":
		return append(doc, "null"...), nil
	case form == cellText:
		return recordwire.AppendString(doc, cell), nil
	case form == cellFloat && (cell == "INF" || cell == "-INF" || cell == "NaN" || cell == "-0"):
		return recordwire.AppendString(doc, cell), nil
	}
	// A literal, a number or JSON text: it must be exactly one JSON value, so that a cell cannot add
	// keys to the document; the record decoder checks its type.
	r := recordwire.NewReader([]byte(cell), recordwire.Strict)
	raw, err := r.RawValue()
	if err == nil {
		err = r.End()
	}
	if err != nil {
		if form == cellJSON {
			return nil, fmt.Errorf("not JSON text: %w", recordError(err))
		}
		return nil, fmt.Errorf("not a JSON %s: %q", map[cellForm]string{cellLiteral: "number or boolean", cellFloat: "number"}[form], cell)
	}
	return append(doc, raw...), nil
}
