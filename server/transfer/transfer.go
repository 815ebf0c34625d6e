package transfer

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"

	"github.com/contactsync/contactsync/server/store"
)

// DefaultBatchSize is how many contacts Import and Copy hand to one WriteBatch. PostgreSQL writes a
// batch in one transaction (one COPY and one INSERT), so larger batches cost fewer round trips; SQLite
// cuts a batch into transactions by time anyway. 4096 contacts are about 1 MiB in memory.
const DefaultBatchSize = 4096

// Export writes every contact of src to enc, from one snapshot, in id order (see Bulk.Scan),
// and returns how many it wrote. progress, when not nil, is called after each contact with the count
// so far. It does not flush enc.
func Export(ctx context.Context, src Bulk, enc *Encoder, progress func(n int64)) (int64, error) {
	var n int64
	err := src.Scan(ctx, func(c store.Record) error {
		if err := enc.Encode(c); err != nil {
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
	c    store.Record
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
func Import(ctx context.Context, dst Bulk, dec *Decoder, opts ImportOptions) (Report, error) {
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
func writeItems(ctx context.Context, dst Bulk, items []item, opts ImportOptions, rep *Report, refuse func(Refusal) bool) (stoppedAt int, err error) {
	if len(items) == 0 {
		return 0, nil
	}
	cs := make([]store.Record, len(items))
	for i, it := range items {
		cs[i] = it.c
	}
	// The batch is written whole even when ctx ends meanwhile (an interrupt): Import stops between
	// batches, so what it reports written is what the store holds. Cancelling a write in flight would
	// leave its outcome unknown, on PostgreSQL above all, where a COMMIT whose answer is cut off may
	// still have been applied. A batch takes well under a second; a store that hangs is still bounded
	// by its own timeouts (--db-timeout).
	res, err := dst.WriteBatch(context.WithoutCancel(ctx), cs, opts.Mode)
	rep.Inserted += int64(res.Inserted)
	rep.Updated += int64(res.Updated)
	for i, o := range res.Outcomes {
		if o == store.Refused && refuse(Refusal{Line: items[i].line, Reason: fmt.Sprintf("contact %q already exists (--mode %s)", items[i].c.Key, opts.Mode)}) && stoppedAt == 0 {
			stoppedAt = items[i].line
		}
	}
	return stoppedAt, err
}

// readChunks decodes records into chunks of at most size contacts with distinct ids and sends them on
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
		if _, dup := ids[rec.Contact.Key]; dup || len(ch.items) == size {
			if !send() {
				return
			}
		}
		ids[rec.Contact.Key] = struct{}{}
		ch.items = append(ch.items, item{line: rec.Line, c: rec.Contact})
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

// Copy streams every contact of src, from one snapshot, into dst in batches, scanning the next batch
// while dst writes the last. A contact refused by dst (InsertOnly and its id taken) makes Copy fail
// after the batch: the copy would not be faithful.
func Copy(ctx context.Context, src, dst Bulk, opts CopyOptions) (Report, error) {
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
		batch := make([]store.Record, 0, size)
		err := src.Scan(ctx, func(c store.Record) error {
			batch = append(batch, c)
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
					failed = fmt.Errorf("contact %q already exists in the target (and %d more in this batch); copy with --upsert to replace them", batch[i].Key, res.Refused-1)
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

// Digest is a summary of a store's content: how many contacts it holds and a SHA-256 over their
// JSON Lines export. Two stores with equal digests hold the same contacts, field for field.
type Digest struct {
	Count int64
	Sum   [sha256.Size]byte
}

// String returns the count and the hash in hexadecimal.
func (d Digest) String() string { return fmt.Sprintf("%d contacts, sha256 %x", d.Count, d.Sum) }

// DigestOf reads every contact of src from one snapshot and returns its Digest.
func DigestOf(ctx context.Context, src Bulk, conv Convert) (Digest, error) {
	h := sha256.New()
	enc, err := NewEncoder(h, JSONL, conv)
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

// Contains checks that dst holds every contact of src, field for field (dst may hold more), by
// reading both in id order side by side, each from one snapshot, and returns how many contacts it
// compared. It is the verification of a copy merged into a target that held contacts before, where
// comparing digests cannot work; it names the first contact missing or different.
func Contains(ctx context.Context, dst, src Bulk, conv Convert) (int64, error) {
	srcForm, err := canonical(conv)
	if err != nil {
		return 0, err
	}
	dstForm, err := canonical(conv)
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream := func(s Bulk) (<-chan store.Record, <-chan error) {
		out, errc := make(chan store.Record, 256), make(chan error, 1)
		go func() {
			defer close(out)
			errc <- s.Scan(ctx, func(c store.Record) error {
				select {
				case out <- c:
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
			d, dok = <-dstCh // a contact only the target holds
		}
		if !dok || d.Key != s.Key {
			return result(fmt.Errorf("contact %q is missing from the target", s.Key))
		}
		a, err := srcForm(s)
		if err != nil {
			return result(err)
		}
		b, err := dstForm(d)
		if err != nil {
			return result(err)
		}
		if !bytes.Equal(a, b) {
			return result(fmt.Errorf("contact %q differs between the source and the target", s.Key))
		}
		n++
		d, dok = <-dstCh
	}
	return result(nil)
}

// canonical returns a function giving a contact's JSON Lines record, the form in which two contacts
// are compared: through the service's conversion, field by field, with no roles written alike
// whether the slice is nil or empty.
func canonical(conv Convert) (func(store.Record) ([]byte, error), error) {
	var buf bytes.Buffer
	enc, err := NewEncoder(&buf, JSONL, conv)
	if err != nil {
		return nil, err
	}
	return func(c store.Record) ([]byte, error) {
		buf.Reset()
		if err := enc.Encode(c); err != nil {
			return nil, err
		}
		if err := enc.Flush(); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	}, nil
}
