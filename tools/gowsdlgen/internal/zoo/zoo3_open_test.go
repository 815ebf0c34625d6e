package zoo_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/contactsync/contactsync/server/wire/anytype"
	"github.com/contactsync/contactsync/server/wire/xmlany"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/zoo3"
)

// The Go twin of Zoo3.cs's DescribeObject and EchoBox (§3): describeObject writes what Zoo3.cs's
// Describe writes of the .NET value XmlSerializer reads, from the anytype.Object the generated code
// read, so the replay compares what each side understood.

func (zoo3Service) DescribeObjectContext(_ context.Context, req *zoo3.DescribeObject) (*zoo3.DescribeObjectResponse, error) {
	return &zoo3.DescribeObjectResponse{DescribeObjectResult: describeObject(req.Value)}, nil
}

func (zoo3Service) EchoBoxContext(_ context.Context, req *zoo3.EchoBox) (*zoo3.EchoBoxResponse, error) {
	box := req.Box
	if box == nil {
		return &zoo3.EchoBoxResponse{}, nil
	}
	items := "null"
	if box.Items != nil {
		items = describeItems(box.Items.AnyType)
	}
	box.Seen = "Value=" + describeObject(box.Value) + "; Items=" + items
	return &zoo3.EchoBoxResponse{EchoBoxResult: box}, nil
}

// dotnetNames are the .NET names of the XSD built-ins an object reads as (Describe writes t.Name).
var dotnetNames = map[string]string{
	"string": "String", "int": "Int32", "long": "Int64", "short": "Int16", "byte": "SByte", "unsignedByte": "Byte",
	"unsignedShort": "UInt16", "unsignedInt": "UInt32", "unsignedLong": "UInt64", "boolean": "Boolean",
	"decimal": "Decimal", "guid": "Guid",
}

func describeItems(items []anytype.Object) string {
	var parts []string
	for _, item := range items {
		parts = append(parts, describeObject(item))
	}
	return "Object[]{" + strings.Join(parts, ", ") + "}"
}

func describeObject(o anytype.Object) string {
	switch o.Kind() {
	case anytype.Nil:
		return "null"
	case anytype.Empty:
		return "Object=System.Object"
	case anytype.Array:
		return describeItems(o.Items())
	case anytype.Complex:
		switch v := o.Complex().(type) {
		case *zoo3.Dog:
			return fmt.Sprintf("Dog{Barks=Int32=%d,Name=String=%s}", v.Barks, v.Name)
		case *zoo3.Cat:
			return fmt.Sprintf("Cat{Indoor=Boolean=%s,Name=String=%s}", dotnetBool(v.Indoor), v.Name)
		}
		return fmt.Sprintf("%T", o.Complex())
	case anytype.Raw:
		nodes := rawNodes(o.Raw())
		if typ := o.XSDType(); typ.Local != "" { // the unknown xsi:type ASMX keeps among the nodes
			nodes = append([]string{`Attribute:xsi:type="` + typ.Local + `"`}, nodes...)
		}
		return "XmlNode[" + strconv.Itoa(len(nodes)) + "]" + prefixEach(nodes)
	}
	if v, ok := o.DateTime(); ok {
		kind := "Local" // an offset: ASMX converts to server time (a deviation: we keep the zone)
		switch {
		case v.NoZone:
			kind = "Unspecified"
		case strings.HasSuffix(o.Text(), "Z"):
			kind = "Utc"
		}
		return "DateTime=" + v.Time.Format("2006-01-02T15:04:05.0000000") + " Kind=" + kind
	}
	if v, ok := o.Base64(); ok {
		return "Byte[]=" + base64.StdEncoding.EncodeToString(v)
	}
	if v, ok := o.Char(); ok {
		return "Char=" + strconv.Itoa(int(v))
	}
	if v, ok := o.Bool(); ok {
		return "Boolean=" + dotnetBool(v)
	}
	if _, member, ok := o.Enum(); ok {
		return o.XSDType().Local + "=" + member
	}
	return dotnetNames[o.XSDType().Local] + "=" + o.Text()
}

func dotnetBool(v bool) string {
	if v {
		return "True"
	}
	return "False"
}

func prefixEach(nodes []string) string {
	var b strings.Builder
	for _, n := range nodes {
		b.WriteString(" " + n)
	}
	return b.String()
}

// rawNodes describes each top-level node of x as .NET's NodeType:OuterXml: an element as its
// canonical text (which declares the namespaces it uses, as OuterXml does), a text node as its
// escaped text.
func rawNodes(x xmlany.RawXML) []string {
	s := x.String()
	d := xml.NewDecoder(strings.NewReader(s))
	var nodes []string
	depth, start := 0, 0
	for {
		offset := int(d.InputOffset())
		tok, err := d.RawToken()
		if err == io.EOF || err != nil {
			return nodes
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				start = offset
			}
			depth++
		case xml.EndElement:
			depth--
			if depth == 0 {
				nodes = append(nodes, "Element:"+s[start:d.InputOffset()])
			}
		case xml.CharData:
			if depth == 0 {
				var b bytes.Buffer
				_ = xml.EscapeText(&b, t)
				nodes = append(nodes, "Text:"+b.String())
			}
		}
	}
}
