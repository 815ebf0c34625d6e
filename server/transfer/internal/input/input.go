// Package input holds the byte-level readers under transfer's record decoders: a bounded line
// reader, a bound on what one CSV record may read, a byte counter and the byte order mark a
// spreadsheet writes. It knows nothing of records: it may import only the standard library.
package input

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// SkipBOM drops a UTF-8 byte order mark at the start of br, as spreadsheet programs and SQL Server's
// tools write one.
func SkipBOM(br *bufio.Reader) error {
	b, err := br.Peek(3)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return err
	}
	if bytes.HasPrefix(b, []byte("\xEF\xBB\xBF")) {
		_, _ = br.Discard(3)
	}
	return nil
}

// Lines reads lines of at most Max bytes from R.
type Lines struct {
	R    *bufio.Reader
	Max  int
	long []byte
}

// Next returns the next line without its line break (io.EOF when there is none), or tooLong when it
// exceeds Max, in which case the rest of it is skipped. The line is valid until the next call.
func (l *Lines) Next() (line []byte, tooLong bool, err error) {
	l.long = l.long[:0]
	for {
		chunk, err := l.R.ReadSlice('\n')
		full := errors.Is(err, bufio.ErrBufferFull)
		if err != nil && !full && !errors.Is(err, io.EOF) {
			return nil, false, err
		}
		if !tooLong {
			if len(l.long)+len(chunk) > l.Max {
				tooLong, l.long = true, l.long[:0]
			} else if full || len(l.long) > 0 {
				l.long = append(l.long, chunk...) // a long line, read in pieces
			}
		}
		switch {
		case full:
			continue
		case tooLong:
			return nil, true, nil
		case len(l.long) > 0:
			return l.long, false, nil
		case len(chunk) == 0: // err is io.EOF: no more lines
			return nil, false, io.EOF
		}
		return chunk, false, nil
	}
}

// Limit bounds the bytes read from R between two calls of Reset: past the bound, Read fails with Err.
// A quoted CSV field may span lines, so a quote that is never closed would make encoding/csv take
// the rest of the input, however large, as one field, in memory; the bound makes it fail instead.
type Limit struct {
	R    io.Reader
	Max  int
	Err  error
	left int
}

// Reset allows Max more bytes.
func (l *Limit) Reset() { l.left = l.Max }

func (l *Limit) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, l.Err
	}
	if len(p) > l.left {
		p = p[:l.left]
	}
	n, err := l.R.Read(p)
	l.left -= n
	return n, err
}

// Counter counts the bytes read through it (N).
type Counter struct {
	R io.Reader
	N int64
}

func (c *Counter) Read(p []byte) (int, error) {
	n, err := c.R.Read(p)
	c.N += int64(n)
	return n, err
}
