package transfer

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/store"
)

// Format is a record file format.
type Format string

// The formats.
const (
	// JSONL is JSON Lines (https://jsonlines.org): one JSON object per line, its keys the field names
	// in schema order, a list as an array of strings.
	JSONL Format = "jsonl"
	// CSV is RFC 4180 CSV with a header row of the field names; a list is one cell of values separated
	// by ListSeparator. On input, the columns may come in any order and their names in any case, and a
	// UTF-8 byte order mark before the header is ignored.
	CSV Format = "csv"
)

// ListSeparator separates the values of a list in a CSV cell.
const ListSeparator = ";"

// MaxLine is the longest record accepted, in bytes; a longer line is refused. A contact the service
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

var genContact = reflect.TypeFor[gen.Contact]()

// jsonRecord is a struct type built from Fields at start: one field per element, tagged with its
// name, so encoding/json writes and reads records with the contract's keys in schema order.
var jsonRecord = func() reflect.Type {
	fs, err := Fields()
	if err != nil {
		return nil // NewEncoder and NewDecoder report it
	}
	sfs := make([]reflect.StructField, len(fs))
	for i, f := range fs {
		t := reflect.TypeFor[string]()
		if f.List {
			t = reflect.TypeFor[[]string]()
		}
		sfs[i] = reflect.StructField{Name: fmt.Sprintf("F%d", i), Type: t, Tag: reflect.StructTag(`json:"` + f.Name + `"`)}
	}
	return reflect.StructOf(sfs)
}()

// Encoder writes contacts as records of one format.
type Encoder struct {
	conv   Convert
	format Format
	fields []Field
	bw     *bufio.Writer

	rec reflect.Value // JSONL: the reused record
	enc *json.Encoder // JSONL
	cw  *csv.Writer   // CSV
	row []string      // CSV: the reused row
}

// NewEncoder returns an encoder writing records of format to w, buffered: call Flush at the end. A CSV
// encoder writes the header row first, so an empty export is a header alone.
func NewEncoder(w io.Writer, format Format, conv Convert) (*Encoder, error) {
	fs, err := Fields()
	if err != nil {
		return nil, err
	}
	e := &Encoder{conv: conv, format: format, fields: fs, bw: bufio.NewWriterSize(w, 64<<10)}
	switch format {
	case JSONL:
		e.rec = reflect.New(jsonRecord).Elem()
		e.enc = json.NewEncoder(e.bw)
		// Records are data, not HTML: <, > and & are written as themselves.
		e.enc.SetEscapeHTML(false)
	case CSV:
		e.cw = csv.NewWriter(e.bw)
		e.row = make([]string, len(fs))
		if err := e.cw.Write(Names()); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("unknown format %q", format)
	}
	return e, nil
}

// Encode writes c as one record. A CSV encoder refuses a contact whose list values cannot be told
// apart in one cell: a value holding ListSeparator, or a list of exactly one empty value (which would
// read back as no values). JSON Lines carries every contact.
func (e *Encoder) Encode(c store.Record) error {
	wc, err := e.conv.ToWire(c)
	if err != nil {
		return err
	}
	w := reflect.ValueOf(wc).Elem()
	switch e.format {
	case JSONL:
		for i := range e.fields {
			f := &e.fields[i]
			if f.List {
				l := f.getList(w)
				if l == nil {
					l = []string{} // written as [], not null
				}
				e.rec.Field(i).Set(reflect.ValueOf(l))
			} else {
				e.rec.Field(i).SetString(f.getString(w))
			}
		}
		return e.enc.Encode(e.rec.Addr().Interface())
	default:
		for i := range e.fields {
			f := &e.fields[i]
			if !f.List {
				e.row[i] = f.getString(w)
				continue
			}
			l := f.getList(w)
			if len(l) == 1 && l[0] == "" {
				return fmt.Errorf("contact %q: %s holds one empty value, which CSV cannot tell from none; export as jsonl", c.Key, f.Name)
			}
			for _, v := range l {
				if strings.Contains(v, ListSeparator) {
					return fmt.Errorf("contact %q: %s value %q holds %q, the CSV list separator; export as jsonl", c.Key, f.Name, v, ListSeparator)
				}
			}
			e.row[i] = strings.Join(l, ListSeparator)
		}
		return e.cw.Write(e.row)
	}
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

// Record is one record read from a file: a contact, or the reason it was refused.
type Record struct {
	// Line is the number of the line the record starts on, counting from 1.
	Line int
	// Contact is the record's contact when Err is nil.
	Contact store.Record
	// Err says why the record was refused; the input goes on after it.
	Err error
}

// Decoder reads records of one format.
type Decoder struct {
	conv   Convert
	fields []Field
	count  *countingReader
	next   func() (Record, error)

	// JSONL
	br   *bufio.Reader
	line int
	long []byte

	// CSV
	cr      *csv.Reader
	limit   *recordLimit
	columns []int // the field index of each column
}

// NewDecoder returns a decoder of records of format read from r. For CSV it reads and checks the
// header row now: it must name every field once (in any order and case); an error here concerns the
// whole input.
func NewDecoder(r io.Reader, format Format, conv Convert) (*Decoder, error) {
	fs, err := Fields()
	if err != nil {
		return nil, err
	}
	d := &Decoder{conv: conv, fields: fs, count: &countingReader{r: r}}
	br := bufio.NewReaderSize(d.count, 64<<10)
	if err := skipBOM(br); err != nil {
		return nil, err
	}
	switch format {
	case JSONL:
		d.br, d.next = br, d.nextJSON
	case CSV:
		d.limit = &recordLimit{r: br}
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

// Next returns the next record, or io.EOF after the last. Any other error ends the input (it could
// not be read); a record that cannot be stored is returned with Err set, and Next may be called again.
func (d *Decoder) Next() (Record, error) { return d.next() }

// Offset returns how many bytes of the input have been read so far (including what is buffered).
func (d *Decoder) Offset() int64 { return d.count.n }

// skipBOM drops a UTF-8 byte order mark at the start of br, as spreadsheet programs and SQL Server's
// tools write one.
func skipBOM(br *bufio.Reader) error {
	b, err := br.Peek(3)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return err
	}
	if bytes.HasPrefix(b, []byte("\xEF\xBB\xBF")) {
		_, _ = br.Discard(3)
	}
	return nil
}

// nextJSON reads the next non-blank line and decodes it.
func (d *Decoder) nextJSON() (Record, error) {
	for {
		line, tooLong, err := d.readLine()
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
			// encoding/json would replace the bad bytes with U+FFFD and store something else than
			// the file holds; the file is in another encoding, and the record is refused instead.
			return Record{Line: d.line, Err: errInvalidUTF8}, nil
		}
		c, err := d.decodeJSON(line)
		return Record{Line: d.line, Contact: c, Err: err}, nil
	}
}

// readLine returns the next line without its line break (io.EOF when there is none), or tooLong when
// it exceeds MaxLine, in which case the rest of it is skipped. The line is valid until the next call.
func (d *Decoder) readLine() (line []byte, tooLong bool, err error) {
	d.long = d.long[:0]
	for {
		chunk, err := d.br.ReadSlice('\n')
		full := errors.Is(err, bufio.ErrBufferFull)
		if err != nil && !full && !errors.Is(err, io.EOF) {
			return nil, false, err
		}
		if !tooLong {
			if len(d.long)+len(chunk) > MaxLine {
				tooLong, d.long = true, d.long[:0]
			} else if full || len(d.long) > 0 {
				d.long = append(d.long, chunk...) // a long line, read in pieces
			}
		}
		switch {
		case full:
			continue
		case tooLong:
			return nil, true, nil
		case len(d.long) > 0:
			return d.long, false, nil
		case len(chunk) == 0: // err is io.EOF: no more lines
			return nil, false, io.EOF
		}
		return chunk, false, nil
	}
}

// decodeJSON decodes one JSON object into a contact.
func (d *Decoder) decodeJSON(line []byte) (store.Record, error) {
	if line[0] != '{' {
		return store.Record{}, errors.New("not a JSON object")
	}
	rec := reflect.New(jsonRecord)
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(rec.Interface()); err != nil {
		return store.Record{}, jsonError(err)
	}
	if dec.InputOffset() != int64(len(line)) {
		return store.Record{}, errors.New("more than one JSON value on the line")
	}
	w := reflect.New(genContact).Elem()
	for i := range d.fields {
		f := &d.fields[i]
		v := rec.Elem().Field(i)
		if f.List {
			if l := v.Interface().([]string); len(l) > 0 {
				f.setList(w, l)
			}
		} else {
			f.setString(w, v.String())
		}
	}
	return d.conv.FromWire(w.Addr().Interface().(*gen.Contact))
}

// jsonError rewords encoding/json's errors for a person reading an import report.
func jsonError(err error) error {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		want := "a string"
		if typeErr.Type.Kind() == reflect.Slice {
			want = "an array of strings"
		}
		// Field is the key's path, which for this flat record is the key itself.
		if field := strings.TrimPrefix(typeErr.Field, "."); slices.Contains(Names(), field) {
			return fmt.Errorf("%s must be %s, not a JSON %s", field, want, typeErr.Value)
		}
		return fmt.Errorf("expected %s, not a JSON %s", want, typeErr.Value)
	}
	var syntaxErr *json.SyntaxError
	if errors.As(err, &syntaxErr) {
		return fmt.Errorf("invalid JSON at byte %d: %s", syntaxErr.Offset, strings.TrimPrefix(syntaxErr.Error(), "json: "))
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("invalid JSON: the object is not closed")
	}
	return errors.New(strings.TrimPrefix(err.Error(), "json: "))
}

// readHeader reads the CSV header and maps its columns to fields.
func (d *Decoder) readHeader() error {
	d.limit.reset()
	header, err := d.cr.Read()
	if errors.Is(err, io.EOF) {
		return errors.New("line 1: the input is empty; a CSV file starts with a header row naming the fields")
	}
	if err != nil {
		return fmt.Errorf("header: %w", err)
	}
	byName := make(map[string]int, len(d.fields))
	for i, f := range d.fields {
		byName[strings.ToLower(f.Name)] = i
	}
	d.columns = make([]int, len(header))
	seen := make([]bool, len(d.fields))
	for col, name := range header {
		i, ok := byName[strings.ToLower(strings.TrimSpace(name))]
		switch {
		case !ok:
			return fmt.Errorf("line 1: unknown column %q; the columns are %s", name, strings.Join(Names(), ", "))
		case seen[i]:
			return fmt.Errorf("line 1: column %q appears twice", name)
		}
		seen[i], d.columns[col] = true, i
	}
	var missing []string
	for i, ok := range seen {
		if !ok {
			missing = append(missing, d.fields[i].Name)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("line 1: the header lacks the column(s) %s; every field needs one (an empty one will do)", strings.Join(missing, ", "))
	}
	return nil
}

// nextCSV reads and converts the next CSV row.
func (d *Decoder) nextCSV() (Record, error) {
	d.limit.reset()
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
	w := reflect.New(genContact).Elem()
	for col, cell := range row {
		if !utf8.ValidString(cell) {
			return Record{Line: line, Err: errInvalidUTF8}, nil
		}
		f := &d.fields[d.columns[col]]
		if !f.List {
			f.setString(w, cell)
		} else if cell != "" {
			f.setList(w, strings.Split(cell, ListSeparator))
		}
	}
	c, err := d.conv.FromWire(w.Addr().Interface().(*gen.Contact))
	return Record{Line: line, Contact: c, Err: err}, nil
}

// errRecordTooLong ends a CSV input in which one record runs past MaxLine bytes.
var errRecordTooLong = fmt.Errorf("a CSV record longer than %d bytes (a quote that is never closed?); the rest of the input cannot be read as records", MaxLine)

// recordLimit bounds the bytes encoding/csv reads for one record. A quoted field may span lines, so a
// quote that is never closed would make the reader take the rest of the input, however large, as one
// field, in memory; past MaxLine (plus what the reader buffers ahead) it fails instead.
type recordLimit struct {
	r    io.Reader
	left int
}

func (l *recordLimit) reset() { l.left = MaxLine + 64<<10 }

func (l *recordLimit) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, errRecordTooLong
	}
	if len(p) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= n
	return n, err
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
