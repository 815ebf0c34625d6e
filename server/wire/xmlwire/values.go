package xmlwire

import "github.com/contactsync/contactsync/server/wire/xsd"

// Value readers for the generated XML decoders. what names the element in errors ("parameter id",
// "element FirstName").

// ReadInt reads an integer element of the given XSD type and size.
func (r *Reader) ReadInt(s Start, what, xsdType string, bits int) (int64, error) {
	text, err := r.Text(s, what)
	if err != nil {
		return 0, err
	}
	n, ok := xsd.ParseInt(text, bits)
	if !ok {
		return 0, xsd.BadValue(what, xsdType, text)
	}
	return n, nil
}

// ReadBool reads an xsd:boolean element.
func (r *Reader) ReadBool(s Start, what string) (bool, error) {
	text, err := r.Text(s, what)
	if err != nil {
		return false, err
	}
	b, ok := xsd.ParseBool(text)
	if !ok {
		return false, xsd.BadValue(what, "boolean", text)
	}
	return b, nil
}

// ReadDouble reads an xsd:double (bits 64) or xsd:float (bits 32) element.
func (r *Reader) ReadDouble(s Start, what, xsdType string, bits int) (float64, error) {
	text, err := r.Text(s, what)
	if err != nil {
		return 0, err
	}
	f, ok := xsd.ParseDouble(text, bits)
	if !ok {
		return 0, xsd.BadValue(what, xsdType, text)
	}
	return f, nil
}

// ReadDateTime reads an xsd:dateTime element.
func (r *Reader) ReadDateTime(s Start, what string) (xsd.DateTime, error) {
	text, err := r.Text(s, what)
	if err != nil {
		return xsd.DateTime{}, err
	}
	t, ok := xsd.ParseDateTime(text)
	if !ok {
		return xsd.DateTime{}, xsd.BadValue(what, "dateTime", text)
	}
	return t, nil
}

// ReadBase64 reads an xsd:base64Binary element.
func (r *Reader) ReadBase64(s Start, what string) ([]byte, error) {
	text, err := r.Text(s, what)
	if err != nil {
		return nil, err
	}
	b, ok := xsd.ParseBase64(text)
	if !ok {
		return nil, xsd.BadValue(what, "base64Binary", text)
	}
	return b, nil
}

// AppendDecimal appends <name>d</name>.
func AppendDecimal(b []byte, name string, d xsd.Decimal) []byte {
	b = AppendStart(b, name)
	b = d.AppendText(b)
	return AppendEnd(b, name)
}

// ReadDecimal reads an xsd:decimal element.
func (r *Reader) ReadDecimal(s Start, what string) (xsd.Decimal, error) {
	text, err := r.Text(s, what)
	if err != nil {
		return xsd.Decimal{}, err
	}
	d, ok := xsd.ParseDecimal(text)
	if !ok {
		return xsd.Decimal{}, xsd.BadValue(what, "decimal", text)
	}
	return d, nil
}

// AppendGUID appends <name>g</name>.
func AppendGUID(b []byte, name string, g xsd.GUID) []byte {
	b = AppendStart(b, name)
	b = g.AppendText(b)
	return AppendEnd(b, name)
}

// ReadGUID reads a guid element.
func (r *Reader) ReadGUID(s Start, what string) (xsd.GUID, error) {
	text, err := r.Text(s, what)
	if err != nil {
		return xsd.GUID{}, err
	}
	g, ok := xsd.ParseGUID(text)
	if !ok {
		return xsd.GUID{}, xsd.BadValue(what, "guid", text)
	}
	return g, nil
}
