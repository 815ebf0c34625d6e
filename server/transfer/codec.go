package transfer

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/transfer/internal/input"
	"github.com/contactsync/contactsync/server/transfer/internal/names"
	"github.com/contactsync/contactsync/server/wire/recordwire"
)

// Format is a record file format.
type Format string

// The formats.
const (
	// JSONL is JSON Lines (https://jsonlines.org): one record per line, its canonical JSON document
	// (server/wire/recordwire): every element of the record type, in schema order.
	JSONL Format = "jsonl"
	// CSV is RFC 4180 CSV with a header row of the record type's top-level element names in schema
	// order: a simple value as its lexical form (the text JSON Lines carries), a nested value or an
	// array as the JSON text of that value. On input, the columns may come in any order and their names
	// in any case, a column may be missing (its values read as missing), and a UTF-8 byte order mark
	// before the header is ignored.
	CSV Format = "csv"
)

// ListSeparator separates the values of an array of simple values in a CSV cell of an older export,
// which is still read when the cell does not start with '['.
const ListSeparator = ";"

// MaxLine is the longest record accepted, in bytes; a longer line is refused. A record the service
// stores is far smaller; the bound keeps a file without line breaks from filling memory.
const MaxLine = 1 << 20

// errInvalidUTF8 refuses a record that is not UTF-8, the encoding both formats are read in.
var errInvalidUTF8 = errors.New("not valid UTF-8 (save the file as UTF-8)")

// ParseFormat returns the format named s (jsonl or csv).
func ParseFormat(s string) (Format, error) {
	switch f := Format(strings.ToLower(s)); f {
	case JSONL, CSV:
		return f, nil
	}
	return "", fmt.Errorf("unknown format %q: use jsonl or csv", s)
}

// Encoder writes stored records as records of one format.
type Encoder struct {
	schema Schema
	format Format
	cols   []column
	bw     *bufio.Writer
	norm   normalizer
	cw     *csv.Writer // CSV
	row    []string    // CSV: the reused row
	rd     recordwire.Reader
}

// NewEncoder returns an encoder writing records of format to w, buffered: call Flush at the end. A CSV
// encoder writes the header row first, so an empty export is a header alone.
func NewEncoder(w io.Writer, format Format, s Schema) (*Encoder, error) {
	cols, err := columnsOf(s.Type)
	if err != nil {
		return nil, err
	}
	e := &Encoder{schema: s, format: format, cols: cols, bw: bufio.NewWriterSize(w, 64<<10), norm: newNormalizer(s.Type)}
	switch format {
	case JSONL:
	case CSV:
		e.cw = csv.NewWriter(e.bw)
		e.row = make([]string, len(cols))
		if err := e.cw.Write(elementNames(cols)); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("unknown format %q", format)
	}
	return e, nil
}

// Encode writes r as one record: its document in the canonical form (a document a backend gave back
// in another spelling, as jsonb does, is rewritten), so two stores holding the same records export
// the same bytes.
func (e *Encoder) Encode(r store.Record) error {
	doc, err := e.norm.canonical(r)
	if err != nil {
		return err
	}
	if e.format == JSONL {
		_, _ = e.bw.Write(doc)
		return e.bw.WriteByte('\n')
	}
	if e.norm.unknown {
		paths, _ := e.schema.Type.UnknownPaths(r.Doc)
		return fmt.Errorf("record %q holds fields the contract does not have (%s), which CSV has no column for: export as JSON Lines (--format jsonl), which carries them", r.Key, strings.Join(paths, ", "))
	}
	e.rd.Reset(doc, recordwire.Strict)
	if err := e.rd.BeginObject(); err != nil {
		return err
	}
	for i := range e.cols { // the canonical document holds every element, in schema order
		key, ok, err := e.rd.Key()
		if err != nil {
			return err
		}
		if !ok || string(key) != e.cols[i].name {
			return fmt.Errorf("record %q: the canonical document lacks %s", r.Key, e.cols[i].name)
		}
		raw, err := e.rd.RawValue()
		if err != nil {
			return err
		}
		if e.row[i], err = e.cols[i].cell(raw); err != nil {
			return fmt.Errorf("record %q: %s: %w", r.Key, e.cols[i].name, err)
		}
	}
	return e.cw.Write(e.row)
}

// Flush writes out what is buffered.
func (e *Encoder) Flush() error {
	if e.cw != nil {
		e.cw.Flush()
		if err := e.cw.Error(); err != nil {
			return err
		}
	}
	return e.bw.Flush()
}

// normalizer turns a stored record into its canonical document, checking the document against the
// contract. Members the contract does not know (fields of a newer contract, or of an older one not yet
// dropped: docs/contract.md) are carried after the known ones (recordwire.Type.CarryUnknown), so an
// export or a copy keeps them as every writer does.
type normalizer struct {
	rt  *recordwire.Type
	rec recordwire.Record
	rd  recordwire.Reader
	buf []byte
	// unknown says whether the last document held members the contract does not know.
	unknown bool
}

func newNormalizer(rt *recordwire.Type) normalizer { return normalizer{rt: rt, rec: rt.New()} }

// canonical returns r's canonical document, valid until the next call.
func (n *normalizer) canonical(r store.Record) ([]byte, error) {
	// The record's strings may alias r.Doc: the record is written out again at once and never kept.
	n.rd.Reset(r.Doc, recordwire.Lenient|recordwire.Alias)
	err := n.rec.DecodeRecord(&n.rd)
	if err == nil {
		err = n.rd.End()
	}
	if err != nil {
		return nil, fmt.Errorf("stored record %q does not match the contract's %s (contactsync migrate --check lists stored fields whose type the contract changed): %w",
			r.Key, n.rt.Name, err)
	}
	if k := n.rec.RecordKey(); k != r.Key {
		return nil, fmt.Errorf("stored record %q holds the key %q in its document", r.Key, k)
	}
	n.buf = n.rec.AppendRecord(n.buf[:0])
	if n.unknown = n.rd.SawUnknown(); n.unknown {
		// Only a document holding members the contract lacks pays for the second pass.
		if n.buf, err = n.rt.CarryUnknown(r.Doc, n.buf); err != nil {
			return nil, fmt.Errorf("stored record %q: %w", r.Key, err)
		}
	}
	return n.buf, nil
}

// Record is one record read from a file: a record to store, or the reason it was refused.
type Record struct {
	// Line is the number of the line the record starts on, counting from 1.
	Line int
	// Record is the record to store (its document canonical) when Err is nil.
	Record store.Record
	// Err says why the record was refused; the input goes on after it.
	Err error
}

// Decoder reads records of one format.
type Decoder struct {
	schema Schema
	cols   []column
	keys   *names.Map
	keep   func(path string) bool
	kept   map[string]bool // the unknown paths kept so far
	count  *input.Counter
	next   func() (Record, error)
	rd     recordwire.Reader
	doc    []byte // the document being built or rewritten

	// JSONL
	lines input.Lines
	line  int

	// CSV
	cr      *csv.Reader
	limit   *input.Limit
	columns []int // the column (top-level element) of each CSV column
}

// DecodeOptions control a Decoder.
type DecodeOptions struct {
	// Renames maps the names of an older export's fields to the record type's names (import --rename
	// Old=New): top-level elements, matched ignoring case, as every name is.
	Renames map[string]string
	// Keep says whether a JSON Lines member the record type does not have, at path ("Birthday",
	// "Address.Zip"), is kept as an unknown field (stored as it is, carried by every writer: a field
	// of a newer contract) rather than refused. nil refuses every one.
	Keep func(path string) bool
}

// NewDecoder returns a decoder of records of format read from r. For CSV it reads and checks the
// header row now: each column must name an element of the record type (or an old name of one), at most
// once; an error here concerns the whole input.
func NewDecoder(r io.Reader, format Format, s Schema, opts DecodeOptions) (*Decoder, error) {
	cols, err := columnsOf(s.Type)
	if err != nil {
		return nil, err
	}
	keys, err := names.New(elementNames(cols), opts.Renames)
	if err != nil {
		return nil, err
	}
	d := &Decoder{schema: s, cols: cols, keys: keys, keep: opts.Keep, kept: map[string]bool{}, count: &input.Counter{R: r}}
	br := bufio.NewReaderSize(d.count, 64<<10)
	if err := input.SkipBOM(br); err != nil {
		return nil, err
	}
	switch format {
	case JSONL:
		d.lines, d.next = input.Lines{R: br, Max: MaxLine}, d.nextJSON
	case CSV:
		// What encoding/csv may read for one record: MaxLine, plus what it buffers ahead.
		d.limit = &input.Limit{R: br, Max: MaxLine + 64<<10, Err: errRecordTooLong}
		d.cr = csv.NewReader(d.limit)
		d.cr.ReuseRecord = true
		if err := d.readHeader(); err != nil {
			return nil, err
		}
		d.next = d.nextCSV
	default:
		return nil, fmt.Errorf("unknown format %q", format)
	}
	return d, nil
}

// Kept returns the paths of the members the record type does not have that the records read so far
// held and DecodeOptions.Keep kept, sorted.
func (d *Decoder) Kept() []string { return slices.Sorted(maps.Keys(d.kept)) }

// Next returns the next record, or io.EOF after the last. Any other error ends the input (it could
// not be read); a record that cannot be stored is returned with Err set, and Next may be called again.
func (d *Decoder) Next() (Record, error) { return d.next() }

// Offset returns how many bytes of the input have been read so far (including what is buffered).
func (d *Decoder) Offset() int64 { return d.count.N }

// nextJSON reads the next non-blank line and decodes it.
func (d *Decoder) nextJSON() (Record, error) {
	for {
		line, tooLong, err := d.lines.Next()
		if err != nil {
			return Record{}, err
		}
		d.line++
		if tooLong {
			return Record{Line: d.line, Err: fmt.Errorf("line longer than %d bytes", MaxLine)}, nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue // a blank line, such as a final line break too many, holds no record
		}
		if !utf8.Valid(line) {
			return Record{Line: d.line, Err: errInvalidUTF8}, nil
		}
		if line[0] != '{' {
			return Record{Line: d.line, Err: errors.New("not a JSON object")}, nil
		}
		doc, err := d.renameKeys(line)
		if err != nil {
			return Record{Line: d.line, Err: err}, nil
		}
		rec, err := d.store(doc)
		return Record{Line: d.line, Record: rec, Err: err}, nil
	}
}

// renameKeys returns line with its top-level keys spelled as the record type's elements: an old
// name (DecodeOptions.Renames) replaced, a name in another case corrected. It refuses a key that is
// neither, listing the known ones. A line whose keys need nothing is returned as it is.
func (d *Decoder) renameKeys(line []byte) ([]byte, error) {
	d.rd.Reset(line, recordwire.Strict)
	if err := d.rd.BeginObject(); err != nil {
		return nil, recordError(err)
	}
	rewrite := false
	for {
		key, ok, err := d.rd.Key()
		if err != nil {
			return nil, recordError(err)
		}
		if !ok {
			break
		}
		_, exact, known := d.keys.Lookup(key)
		switch {
		case !known && d.keep == nil:
			return nil, d.unknown(key)
		case known && !exact:
			rewrite = true
		}
		if err := d.rd.Skip(); err != nil {
			return nil, recordError(err)
		}
	}
	if !rewrite {
		return line, nil
	}
	d.doc = append(d.doc[:0], '{')
	d.rd.Reset(line, recordwire.Strict)
	_ = d.rd.BeginObject()
	for n := 0; ; n++ {
		key, ok, _ := d.rd.Key()
		if !ok {
			break
		}
		name := string(key)
		if col, _, known := d.keys.Lookup(key); known {
			name = d.cols[col].name
		}
		raw, _ := d.rd.RawValue()
		if n > 0 {
			d.doc = append(d.doc, ',')
		}
		d.doc = recordwire.AppendString(d.doc, name)
		d.doc = append(d.doc, ':')
		d.doc = append(d.doc, raw...)
	}
	d.doc = append(d.doc, '}')
	if err := d.rd.End(); err != nil {
		return nil, recordError(err)
	}
	return d.doc, nil
}

// store decodes doc strictly into the record type, checks the record as the service checks its
// input, and returns it to store, its document canonical.
func (d *Decoder) store(doc []byte) (store.Record, error) {
	rec := d.schema.Type.New()
	// The record's strings may alias doc (a buffer reused for the next line): it is checked and
	// written out again at once, and only its key and index, copied, are kept.
	mode := recordwire.Strict
	if d.keep != nil {
		mode = recordwire.Lenient
	}
	d.rd.Reset(doc, mode|recordwire.Alias)
	err := rec.DecodeRecord(&d.rd)
	if err == nil {
		err = d.rd.End()
	}
	if err != nil {
		return store.Record{}, recordError(err)
	}
	canonical := rec.AppendRecord(make([]byte, 0, len(doc)+64))
	if d.rd.SawUnknown() {
		if canonical, err = d.keepUnknown(doc, canonical); err != nil {
			return store.Record{}, err
		}
	}
	if d.schema.Check != nil {
		if err := d.schema.Check(rec, canonical); err != nil {
			return store.Record{}, err
		}
	}
	// The key and the index are copied out of doc, which the record's strings alias.
	return store.Record{Key: strings.Clone(rec.RecordKey()), Index: strings.Clone(rec.RecordIndex()), Doc: canonical}, nil
}

// keepUnknown carries the members of doc the record type does not have into canonical when Keep
// keeps every one, and refuses the record, naming the first it does not keep, otherwise.
func (d *Decoder) keepUnknown(doc, canonical []byte) ([]byte, error) {
	out, paths, err := d.schema.Type.KeepUnknown(doc, canonical, d.keep)
	if err != nil {
		return nil, recordError(err)
	}
	for _, p := range paths {
		d.kept[p] = true
	}
	return out, nil
}

// unknown is the error for a name that is not an element of the record type, listing them.
func (d *Decoder) unknown(name []byte) error {
	return recordError(recordwire.UnknownField(string(name), elementNames(d.cols)))
}

// recordError words a record decoding error for an import report: the path of the value, then what
// is wrong ("Address.Lines[1]: want a string, found a number").
func recordError(err error) error {
	var re *recordwire.Error
	if errors.As(err, &re) {
		if re.Path == "" {
			return errors.New(re.Msg)
		}
		return errors.New(re.Path + ": " + re.Msg)
	}
	return err
}

// readHeader reads the CSV header and maps its columns to the record type's elements.
func (d *Decoder) readHeader() error {
	d.limit.Reset()
	header, err := d.cr.Read()
	if errors.Is(err, io.EOF) {
		return errors.New("line 1: the input is empty; a CSV file starts with a header row naming the fields")
	}
	if err != nil {
		return fmt.Errorf("header: %w", err)
	}
	d.columns = make([]int, len(header))
	seen := make([]bool, len(d.cols))
	for i, name := range header {
		col, _, known := d.keys.Lookup([]byte(strings.TrimSpace(name)))
		if !known {
			return fmt.Errorf("line 1: column %q: %w", name, d.unknown([]byte(strings.TrimSpace(name))))
		}
		if seen[col] {
			return fmt.Errorf("line 1: column %q appears twice (as %s)", name, d.cols[col].name)
		}
		seen[col], d.columns[i] = true, col
	}
	return nil
}

// nextCSV reads the next CSV row and decodes it.
func (d *Decoder) nextCSV() (Record, error) {
	d.limit.Reset()
	row, err := d.cr.Read()
	if errors.Is(err, io.EOF) {
		return Record{}, io.EOF
	}
	if errors.Is(err, errRecordTooLong) {
		line, _ := d.cr.FieldPos(0)
		return Record{}, fmt.Errorf("after line %d: %w", line, err)
	}
	var parseErr *csv.ParseError
	if errors.As(err, &parseErr) {
		return Record{Line: parseErr.StartLine, Err: parseErr.Err}, nil
	}
	if err != nil {
		return Record{}, err
	}
	line, _ := d.cr.FieldPos(0)
	d.doc = append(d.doc[:0], '{')
	for i, cell := range row {
		if !utf8.ValidString(cell) {
			return Record{Line: line, Err: errInvalidUTF8}, nil
		}
		c := &d.cols[d.columns[i]]
		if i > 0 {
			d.doc = append(d.doc, ',')
		}
		d.doc = recordwire.AppendString(d.doc, c.name)
		d.doc = append(d.doc, ':')
		if d.doc, err = c.appendCell(d.doc, cell); err != nil {
			return Record{Line: line, Err: fmt.Errorf("%s: %w", c.name, err)}, nil
		}
	}
	d.doc = append(d.doc, '}')
	rec, err := d.store(d.doc)
	return Record{Line: line, Record: rec, Err: err}, nil
}

// errRecordTooLong ends a CSV input in which one record runs past MaxLine bytes.
var errRecordTooLong = fmt.Errorf("a CSV record longer than %d bytes (a quote that is never closed?); the rest of the input cannot be read as records", MaxLine)
