// Package transfer moves records between a store and a file: the record formats (JSON Lines and
// CSV), the streaming export, the batched import with its refusals, the store-to-store copy and the
// content digest that verifies it. The contactsync commands export, import and copy are thin
// wrappers around it.
//
// # What it may import
//
// server/store (for store.Record and the write modes) and server/wire (the record codec's runtime),
// never gen or the root package server: the contract's record type arrives as a Schema, which the
// service provides (service.Records) with its own check of input records, so the two stay one piece
// of code. It declares the store methods it needs itself (Scanner, BatchWriter, Counter).
//
// # Field names
//
// No field name is written here, and no reflection is used. A record is its canonical JSON document
// (server/wire/recordwire), which the generated codec of the contract's record type reads and writes;
// the JSON Lines keys and the CSV columns are that type's elements, in schema order, and a CSV cell's
// form follows from the element's type descriptor. A change of the contract changes the formats with
// it, for every type of the XSD subset the generator supports.
package transfer

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"
	"strings"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/wire/recordwire"
)

// Schema is what transfer knows of the contract's record type: its generated descriptor (which the
// formats are derived from) and the service's check of an input record. The service provides it
// (service.Records), so no field of the record is named here.
type Schema struct {
	// Type is the record type's descriptor (gen.ContactRecord).
	Type *recordwire.Type
	// Check refuses a record the service would not accept as input, saying why; it is given the
	// decoded record and its canonical document. nil accepts every record the type can decode.
	Check func(rec recordwire.Record, doc []byte) error
}

// The store methods transfer uses, declared here so any store offering them will do (every backend
// and decorator of server/store does; tests use an in-memory one).

// Scanner reads every stored record from one snapshot, in key byte order.
type Scanner interface {
	Scan(ctx context.Context, fn func(store.Record) error) error
}

// BatchWriter writes records in batches.
type BatchWriter interface {
	WriteBatch(ctx context.Context, rs []store.Record, mode store.WriteMode) (store.BatchResult, error)
}

// Counter counts the stored records.
type Counter interface {
	Count(ctx context.Context) (int64, error)
}

// DefaultBatchSize is how many records Import and Copy hand to one WriteBatch. PostgreSQL writes a
// batch in one transaction (one COPY and one INSERT), so larger batches cost fewer round trips; SQLite
// cuts a batch into transactions by time anyway. 4096 of today's contacts are about 1 MiB in memory.
const DefaultBatchSize = 4096

// Export writes every record of src to enc, from one snapshot, in key order (see Scanner), and
// returns how many it wrote. progress, when not nil, is called after each record with the count so
// far. It does not flush enc.
func Export(ctx context.Context, src Scanner, enc *Encoder, progress func(n int64)) (int64, error) {
	var n int64
	err := src.Scan(ctx, func(r store.Record) error {
		if err := enc.Encode(r); err != nil {
			return err
		}
		n++
		if progress != nil {
			progress(n)
		}
		return nil
	})
	return n, err
}

// Report is what an import or a copy did.
type Report struct {
	// Read counts the records read (refused ones included).
	Read int64
	// Inserted, Updated and Refused count the records stored as new, stored over an existing contact,
	// and not stored.
	Inserted, Updated, Refused int64
}

// Refusal is a record that was not stored, and why.
type Refusal struct {
	Line   int
	Reason string
}

// ImportOptions control Import.
type ImportOptions struct {
	// Mode says what happens to a record whose id is stored already.
	Mode store.WriteMode
	// StopAfter ends the import once this many records were refused (0: never). The records read
	// before the one that reached it are written; none after.
	StopAfter int
	// BatchSize is how many contacts go to one WriteBatch (DefaultBatchSize when 0).
	BatchSize int
	// OnRefused, when not nil, is called for each refused record, in the order of the lines.
	OnRefused func(Refusal)
	// Progress, when not nil, is called after each batch with the bytes of input read so far.
	Progress func(offset int64)
}

// ErrStopped is returned (wrapped in a *StopError) by Import when it ended because StopAfter records
// were refused.
var ErrStopped = errors.New("too many records refused")

// StopError is Import's error when it ended before the input did: StopAfter records were refused
// (it wraps ErrStopped), or the context ended, on an interrupt (it wraps the context's error). It says
// how far the import got, so the caller can tell what was written.
type StopError struct {
	// Line is the line of the refusal that stopped the import; 0 when the context ended.
	Line int
	// Through is the last line whose record was written or refused: every good record up to it is
	// stored, none after it. 0 when no record was handled.
	Through int
	// Refused counts the refusals so far.
	Refused int64
	Err     error
}

func (e *StopError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%v: stopped at line %d after %d", e.Err, e.Line, e.Refused)
	}
	if e.Through > 0 {
		return fmt.Sprintf("%v after line %d", e.Err, e.Through)
	}
	return fmt.Sprintf("%v before any record was written", e.Err)
}

func (e *StopError) Unwrap() error { return e.Err }

// checkEvery is how many records Check reads between looks at its context: often enough to answer an
// interrupt at once (a record takes microseconds), rarely enough to cost nothing.
const checkEvery = 256

// Check reads every record of dec without writing anything and reports those it refuses, for the
// first pass of an import that must write nothing when any record is bad. It returns the records
// read and refused, and the context's error when ctx ends first. A record that exists in the store is
// not a refusal here: only writing can tell.
func Check(ctx context.Context, dec *Decoder, onRefused func(Refusal), progress func(int64)) (read, refused int64, err error) {
	for {
		if read%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return read, refused, err
			}
		}
		rec, err := dec.Next()
		if errors.Is(err, io.EOF) {
			return read, refused, nil
		}
		if err != nil {
			return read, refused, err
		}
		read++
		if rec.Err != nil {
			refused++
			if onRefused != nil {
				onRefused(Refusal{Line: rec.Line, Reason: rec.Err.Error()})
			}
		}
		if progress != nil && read%1024 == 0 {
			progress(dec.Offset())
		}
	}
}

// item is one record waiting in a batch.
type item struct {
	line int
	r    store.Record
}

// chunk is what the reader hands the writer: a batch of records to write, and the records refused
// while reading it (their lines fall among or before the batch's).
type chunk struct {
	items    []item
	refusals []Refusal
	offset   int64
	last     int   // the line of the chunk's last record
	err      error // the input failed: the last chunk
}

// Import reads the records of dec and writes them to dst in batches, reading the next batch while the
// store writes the last. A batch never holds one id twice: a repeated id starts a new batch, so the
// later record wins under Upsert and is refused under InsertOnly, as if written one by one. It returns
// what it did; the error is nil even when records were refused, unless StopAfter was reached
// (ErrStopped) or the input or the store failed.
func Import(ctx context.Context, dst BatchWriter, dec *Decoder, opts ImportOptions) (Report, error) {
	size := opts.BatchSize
	if size <= 0 {
		size = DefaultBatchSize
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	chunks := make(chan chunk, 2)
	go readChunks(ctx, dec, size, chunks)
	defer func() {
		cancel()
		for range chunks { // let the reader finish, so it never outlives Import
		}
	}()

	var rep Report
	through := 0 // the last line written or refused
	refuse := func(r Refusal) bool {
		rep.Refused++
		if opts.OnRefused != nil {
			opts.OnRefused(r)
		}
		return opts.StopAfter > 0 && rep.Refused >= int64(opts.StopAfter)
	}
	interrupted := func(err error) error {
		return &StopError{Through: through, Refused: rep.Refused, Err: err}
	}
	// write writes a run of records and accounts for it; it returns a *StopError when a refusal in it
	// reached StopAfter (the run was written whole all the same).
	write := func(items []item) error {
		stoppedAt, err := writeItems(ctx, dst, items, opts, &rep, refuse)
		rep.Read += int64(len(items))
		if err != nil {
			return err
		}
		if len(items) > 0 {
			through = max(through, items[len(items)-1].line)
		}
		if stoppedAt > 0 {
			return &StopError{Line: stoppedAt, Through: through, Refused: rep.Refused, Err: ErrStopped}
		}
		return nil
	}
	for ch := range chunks {
		if err := ctx.Err(); err != nil {
			return rep, interrupted(err)
		}
		// The records are accounted for in the order of their lines: the good ones before each
		// refused one are written before it is counted, so StopAfter stops at the right line.
		items := ch.items
		for _, r := range ch.refusals {
			n := 0
			for n < len(items) && items[n].line < r.Line {
				n++
			}
			if err := write(items[:n]); err != nil {
				return rep, err
			}
			items = items[n:]
			rep.Read++
			through = r.Line
			if refuse(r) {
				return rep, &StopError{Line: r.Line, Through: r.Line, Refused: rep.Refused, Err: ErrStopped}
			}
		}
		if err := write(items); err != nil {
			return rep, err
		}
		through = max(through, ch.last)
		if opts.Progress != nil {
			opts.Progress(ch.offset)
		}
		if ch.err != nil {
			return rep, ch.err
		}
	}
	if err := ctx.Err(); err != nil {
		return rep, interrupted(err)
	}
	return rep, nil
}

// writeItems writes one batch and accounts for it in rep. Every refusal is reported; when one of them
// reaches StopAfter, writeItems returns its line (the batch was written whole all the same).
func writeItems(ctx context.Context, dst BatchWriter, items []item, opts ImportOptions, rep *Report, refuse func(Refusal) bool) (stoppedAt int, err error) {
	if len(items) == 0 {
		return 0, nil
	}
	rs := make([]store.Record, len(items))
	for i, it := range items {
		rs[i] = it.r
	}
	// The batch is written whole even when ctx ends meanwhile (an interrupt): Import stops between
	// batches, so what it reports written is what the store holds. Cancelling a write in flight would
	// leave its outcome unknown, on PostgreSQL above all, where a COMMIT whose answer is cut off may
	// still have been applied. A batch takes well under a second; a store that hangs is still bounded
	// by its own timeouts (--db-timeout).
	res, err := dst.WriteBatch(context.WithoutCancel(ctx), rs, opts.Mode)
	rep.Inserted += int64(res.Inserted)
	rep.Updated += int64(res.Updated)
	for i, o := range res.Outcomes {
		if o == store.Refused && refuse(Refusal{Line: items[i].line, Reason: fmt.Sprintf("record %q already exists (--mode %s)", items[i].r.Key, opts.Mode)}) && stoppedAt == 0 {
			stoppedAt = items[i].line
		}
	}
	return stoppedAt, err
}

// readChunks decodes records into chunks of at most size records with distinct keys and sends them on
// out, which it closes at the end of the input, on an input error (sent as the last chunk's err) or
// when ctx ends.
func readChunks(ctx context.Context, dec *Decoder, size int, out chan<- chunk) {
	defer close(out)
	ch := chunk{items: make([]item, 0, size)}
	ids := make(map[string]struct{}, size)
	send := func() bool {
		ch.offset = dec.Offset()
		select {
		case out <- ch:
		case <-ctx.Done():
			return false
		}
		ch = chunk{items: make([]item, 0, size)}
		clear(ids)
		return true
	}
	for {
		rec, err := dec.Next()
		if errors.Is(err, io.EOF) {
			if len(ch.items)+len(ch.refusals) > 0 {
				send()
			}
			return
		}
		if err != nil {
			ch.err = err
			send()
			return
		}
		if rec.Err != nil {
			ch.refusals = append(ch.refusals, Refusal{Line: rec.Line, Reason: rec.Err.Error()})
			ch.last = rec.Line
			continue
		}
		if _, dup := ids[rec.Record.Key]; dup || len(ch.items) == size {
			if !send() {
				return
			}
		}
		ids[rec.Record.Key] = struct{}{}
		ch.items = append(ch.items, item{line: rec.Line, r: rec.Record})
		ch.last = rec.Line
	}
}

// CopyOptions control Copy.
type CopyOptions struct {
	// Mode is the write mode on the target: InsertOnly for an empty target, so a contact that appears
	// there meanwhile is refused rather than overwritten; Upsert to merge into a target with contacts.
	Mode store.WriteMode
	// BatchSize is how many contacts go to one WriteBatch (DefaultBatchSize when 0).
	BatchSize int
	// Progress, when not nil, is called after each batch with the contacts copied so far.
	Progress func(n int64)
}

// Copy streams every record of src, from one snapshot, into dst in batches, scanning the next batch
// while dst writes the last. Each record is checked against the contract and written in the
// canonical form (see Encoder.Encode), so a copy between backends that spell documents differently
// verifies by digest. A record refused by dst (InsertOnly and its key taken) makes Copy fail after
// the batch: the copy would not be faithful.
func Copy(ctx context.Context, s Schema, src Scanner, dst BatchWriter, opts CopyOptions) (Report, error) {
	size := opts.BatchSize
	if size <= 0 {
		size = DefaultBatchSize
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches := make(chan []store.Record, 2)
	scanned := make(chan error, 1)
	go func() {
		defer close(batches)
		norm := newNormalizer(s.Type)
		batch := make([]store.Record, 0, size)
		err := src.Scan(ctx, func(r store.Record) error {
			doc, err := norm.canonical(r)
			if err != nil {
				return err
			}
			batch = append(batch, store.Record{Key: r.Key, Index: strings.Clone(norm.rec.RecordIndex()), Doc: bytes.Clone(doc)})
			if len(batch) < size {
				return nil
			}
			select {
			case batches <- batch:
			case <-ctx.Done():
				return ctx.Err()
			}
			batch = make([]store.Record, 0, size)
			return nil
		})
		if err == nil && len(batch) > 0 {
			select {
			case batches <- batch:
			case <-ctx.Done():
				err = ctx.Err()
			}
		}
		scanned <- err
	}()

	var rep Report
	var failed error
	for batch := range batches {
		if failed != nil {
			continue // drain, so the scan can end
		}
		rep.Read += int64(len(batch))
		res, err := dst.WriteBatch(ctx, batch, opts.Mode)
		rep.Inserted += int64(res.Inserted)
		rep.Updated += int64(res.Updated)
		rep.Refused += int64(res.Refused)
		switch {
		case err != nil:
			failed = err
		case res.Refused > 0:
			for i, o := range res.Outcomes {
				if o == store.Refused {
					failed = fmt.Errorf("record %q already exists in the target (and %d more in this batch); copy with --upsert to replace them", batch[i].Key, res.Refused-1)
					break
				}
			}
		}
		if failed != nil {
			cancel()
		}
		if opts.Progress != nil {
			opts.Progress(rep.Read)
		}
	}
	if err := <-scanned; failed == nil && err != nil {
		failed = err
	}
	return rep, failed
}

// Digest is a summary of a store's content: how many records it holds and a SHA-256 over their
// JSON Lines export (canonical documents). Two stores with equal digests hold the same records, field
// for field.
type Digest struct {
	Count int64
	Sum   [sha256.Size]byte
}

// String returns the count and the hash in hexadecimal.
func (d Digest) String() string { return fmt.Sprintf("%d records, sha256 %x", d.Count, d.Sum) }

// DigestOf reads every record of src from one snapshot and returns its Digest.
func DigestOf(ctx context.Context, s Schema, src Scanner) (Digest, error) {
	h := sha256.New()
	enc, err := NewEncoder(h, JSONL, s)
	if err != nil {
		return Digest{}, err
	}
	n, err := Export(ctx, src, enc, nil)
	if err != nil {
		return Digest{}, err
	}
	if err := enc.Flush(); err != nil {
		return Digest{}, err
	}
	return Digest{Count: n, Sum: sum(h)}, nil
}

func sum(h hash.Hash) (out [sha256.Size]byte) {
	copy(out[:], h.Sum(nil))
	return out
}

// Contains checks that dst holds every record of src, field for field (dst may hold more), by
// reading both in key order side by side, each from one snapshot, and returns how many records it
// compared. It is the verification of a copy merged into a target that held records before, where
// comparing digests cannot work; it names the first record missing or different.
func Contains(ctx context.Context, s Schema, dst, src Scanner) (int64, error) {
	srcForm, dstForm := newNormalizer(s.Type), newNormalizer(s.Type)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream := func(s Scanner) (<-chan store.Record, <-chan error) {
		out, errc := make(chan store.Record, 256), make(chan error, 1)
		go func() {
			defer close(out)
			errc <- s.Scan(ctx, func(r store.Record) error {
				select {
				case out <- r:
					return nil
				case <-ctx.Done():
					return ctx.Err()
				}
			})
		}()
		return out, errc
	}
	srcCh, srcErr := stream(src)
	dstCh, dstErr := stream(dst)
	var n int64
	result := func(err error) (int64, error) {
		cancel()
		for range srcCh {
		}
		for range dstCh {
		}
		if err != nil {
			return n, err
		}
		if err := <-srcErr; err != nil {
			return n, fmt.Errorf("read the source: %w", err)
		}
		if err := <-dstErr; err != nil {
			return n, fmt.Errorf("read the target: %w", err)
		}
		return n, nil
	}
	d, dok := <-dstCh
	for s := range srcCh {
		for dok && d.Key < s.Key {
			d, dok = <-dstCh // a record only the target holds
		}
		if !dok || d.Key != s.Key {
			return result(fmt.Errorf("record %q is missing from the target", s.Key))
		}
		a, err := srcForm.canonical(s)
		if err != nil {
			return result(err)
		}
		b, err := dstForm.canonical(d)
		if err != nil {
			return result(err)
		}
		if !bytes.Equal(a, b) {
			return result(fmt.Errorf("record %q differs between the source and the target", s.Key))
		}
		n++
		d, dok = <-dstCh
	}
	return result(nil)
}
