package zoo_test

import (
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/contactsync/contactsync/server/wire/xmlany"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/zoo3"
)

// The Go twin of Zoo3.cs's GetDataSet and DescribeDataSet (§4). The service carries a DataSet as its
// nodes and never interprets one; the twin builds and reads Zoo3.cs's Stock table itself, as .NET's
// DataSet writes and reads it, so the replay shows the nodes travel untouched both ways.

const (
	nsMSData   = "urn:schemas-microsoft-com:xml-msdata"
	nsDiffgram = "urn:schemas-microsoft-com:xml-diffgram-v1"
	nsXS       = "http://www.w3.org/2001/XMLSchema"
)

// stockSchema is the xs:schema .NET writes for Zoo3.cs's Stock DataSet.
const stockSchema = `<xs:schema id="Stock" xmlns="" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:msdata="urn:schemas-microsoft-com:xml-msdata">` +
	`<xs:element name="Stock" msdata:IsDataSet="true" msdata:UseCurrentLocale="true"><xs:complexType><xs:choice minOccurs="0" maxOccurs="unbounded">` +
	`<xs:element name="Item"><xs:complexType><xs:sequence><xs:element name="Id" type="xs:int" /><xs:element name="Name" type="xs:string" minOccurs="0" />` +
	`<xs:element name="Price" type="xs:decimal" minOccurs="0" /><xs:element name="When" type="xs:dateTime" minOccurs="0" /></xs:sequence></xs:complexType></xs:element>` +
	`</xs:choice></xs:complexType><xs:unique name="Constraint1" msdata:PrimaryKey="true"><xs:selector xpath=".//Item" /><xs:field xpath="Id" /></xs:unique></xs:element></xs:schema>`

// stockItem writes row i of BuildDataSet: its DateTime column in the server's local time of the
// capture (+01:00 in November), as .NET's default DateTimeMode writes it.
func stockItem(id, order int, name string, price, when, attrs string) string {
	var b []byte
	b = append(b, `<Item diffgr:id="Item`+strconv.Itoa(order+1)+`" msdata:rowOrder="`+strconv.Itoa(order)+`"`+attrs+`><Id>`+strconv.Itoa(id)+`</Id>`...)
	if name != "" {
		b = xmlwire.AppendString(b, "Name", name)
	}
	return string(b) + `<Price>` + price + `</Price><When>` + when + `</When></Item>`
}

func stockRow(i int, attrs string) string {
	name := "item " + strconv.Itoa(i) + " <&>"
	if i == 2 {
		name = ""
	}
	return stockItem(i, i-1, name, fmt.Sprintf("%d.%02d", 3*i/2, 3*i%2*50), fmt.Sprintf("2026-11-%dT10:15:30+01:00", 22+i), attrs)
}

// stockDataSet is GetDataSet(rows)'s content: the schema, then the diffgram of min(rows, 3) rows,
// with rows >= 3 a modified row 1, a deleted row 3 and an added row 100.
func stockDataSet(rows int) string {
	diffgram := `<diffgr:diffgram xmlns:msdata="` + nsMSData + `" xmlns:diffgr="` + nsDiffgram + `"`
	if rows == 0 {
		return stockSchema + diffgram + ` />`
	}
	var current, before string
	for i := 1; i <= min(rows, 3); i++ {
		switch {
		case rows >= 3 && i == 1:
			current += strings.Replace(stockRow(1, ` diffgr:hasChanges="modified"`), "<Price>1.50</Price>", "<Price>99.99</Price>", 1)
			before += stockRow(1, ` xmlns=""`)
		case rows >= 3 && i == 3:
			before += stockRow(3, ` xmlns=""`)
		default:
			current += stockRow(i, "")
		}
	}
	if rows >= 3 {
		current += stockItem(100, 3, "new", "0", "2026-07-01T12:00:00+02:00", ` diffgr:hasChanges="inserted"`)
		before = `<diffgr:before>` + before + `</diffgr:before>`
	}
	return stockSchema + diffgram + `><Stock xmlns="">` + current + `</Stock>` + before + `</diffgr:diffgram>`
}

func (zoo3Service) GetDataSetContext(_ context.Context, req *zoo3.GetDataSet) (*zoo3.GetDataSetResponse, error) {
	if req.Rows < 0 {
		return &zoo3.GetDataSetResponse{}, nil
	}
	x, err := xmlany.ParseRawXML(stockDataSet(int(req.Rows)), xmlwire.Limits{MaxDepth: 32, MaxElements: 1000})
	if err != nil {
		return nil, err
	}
	return &zoo3.GetDataSetResponse{GetDataSetResult: &xmlany.DataSet{Content: x}}, nil
}

func (zoo3Service) DescribeDataSetContext(_ context.Context, req *zoo3.DescribeDataSet) (*zoo3.DescribeDataSetResponse, error) {
	return &zoo3.DescribeDataSetResponse{DescribeDataSetResult: describeDataSet(req.Ds)}, nil
}

// dsColumn and dsTable are what describeDataSet reads of a DataSet's schema.
type dsColumn struct{ name, typ string }

type dsTable struct {
	name    string
	columns []dsColumn
	rows    []*dsRow
}

type dsRow struct {
	id, state string
	order     int
	values    map[string]string // column -> text; a missing column is DBNull
}

// describeDataSet writes what Zoo3.cs's DescribeDs writes: .NET reads the schema for the tables and
// columns, and the diffgram's rows only when a schema gave them tables (-diffgram-only, -plain-xml).
func describeDataSet(ds *xmlany.DataSet) string {
	if ds == nil {
		return "null"
	}
	name, tables := readDataSet(ds.Content)
	var b strings.Builder
	fmt.Fprintf(&b, "DataSet %s ns= tables=%d", name, len(tables))
	dotnet := map[string]string{"xs:int": "Int32", "xs:string": "String", "xs:decimal": "Decimal", "xs:dateTime": "DateTime"}
	for _, t := range tables {
		var cols []string
		for _, c := range t.columns {
			cols = append(cols, c.name+":"+dotnet[c.typ])
		}
		fmt.Fprintf(&b, " | %s(%s) rows=%d", t.name, strings.Join(cols, ","), len(t.rows))
		for _, r := range t.rows {
			var vals []string
			for _, c := range t.columns {
				v, ok := r.values[c.name]
				switch {
				case !ok:
					vals = append(vals, "DBNull")
				case c.typ == "xs:dateTime": // the wall clock, Kind Unspecified (soap11-DescribeDataSet-full)
					vals = append(vals, "DateTime="+v[:19]+".0000000 Kind=Unspecified")
				default:
					vals = append(vals, dotnet[c.typ]+"="+v)
				}
			}
			fmt.Fprintf(&b, " [%s %s]", r.state, strings.Join(vals, ","))
		}
	}
	return b.String()
}

// readDataSet reads the DataSet's name and tables from its schema, and their rows from its diffgram.
func readDataSet(x xmlany.RawXML) (string, []*dsTable) {
	d := x.Decoder()
	name := "NewDataSet"
	var tables []*dsTable
	byName := map[string]*dsTable{}
	var path []xml.Name
	var table *dsTable
	var row *dsRow
	rowDepth := 0
	var before bool
	originals := map[string]*dsRow{}
	current := map[string]bool{}
	var text string
	for {
		tok, err := d.Token()
		if err == io.EOF || err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			attr := func(space, local string) string {
				for _, a := range t.Attr {
					if a.Name.Space == space && a.Name.Local == local {
						return a.Value
					}
				}
				return ""
			}
			inSchema := len(path) > 0 && path[0] == xml.Name{Space: nsXS, Local: "schema"}
			switch {
			case inSchema && t.Name.Local == "element" && attr(nsMSData, "IsDataSet") == "true":
				name = attr("", "name")
			case inSchema && t.Name.Local == "element" && len(path) == 4: // below schema/element/complexType/choice
				table = &dsTable{name: attr("", "name")}
				tables = append(tables, table)
				byName[table.name] = table
			case inSchema && t.Name.Local == "element" && len(path) == 7 && table != nil:
				table.columns = append(table.columns, dsColumn{attr("", "name"), attr("", "type")})
			case t.Name == xml.Name{Space: nsDiffgram, Local: "before"}:
				before = true
			case !inSchema && byName[t.Name.Local] != nil && attr(nsDiffgram, "id") != "":
				order, _ := strconv.Atoi(attr(nsMSData, "rowOrder"))
				row, rowDepth = &dsRow{id: attr(nsDiffgram, "id"), order: order, values: map[string]string{}, state: "Unchanged"}, len(path)
				switch attr(nsDiffgram, "hasChanges") {
				case "modified":
					row.state = "Modified"
				case "inserted":
					row.state = "Added"
				}
				if before {
					originals[row.id] = row
				} else {
					current[row.id] = true
					byName[t.Name.Local].rows = append(byName[t.Name.Local].rows, row)
				}
			}
			path = append(path, t.Name)
			text = ""
		case xml.CharData:
			text += string(t)
		case xml.EndElement:
			path = path[:len(path)-1]
			switch {
			case row != nil && len(path) == rowDepth+1: // a column of the row
				row.values[t.Name.Local] = text
			case row != nil && len(path) == rowDepth:
				row = nil
			}
		}
	}
	for id, r := range originals { // a row only in diffgr:before was deleted
		if !current[id] && len(tables) > 0 {
			r.state = "Deleted"
			tables[0].rows = append(tables[0].rows, r)
		}
	}
	for _, t := range tables {
		sort.SliceStable(t.rows, func(i, j int) bool { return t.rows[i].order < t.rows[j].order })
	}
	return name, tables
}
