package zoo_test

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/transfer"
)

// TestTransferEveryType carries random records of every record type (every XSD type of the subset,
// nested types, arrays, nil) through both record formats of server/transfer, and requires each to be
// read back as the same document, byte for byte: JSON Lines and CSV are lossless.
func TestTransferEveryType(t *testing.T) {
	for _, rt := range recordTypes {
		for _, format := range []transfer.Format{transfer.JSONL, transfer.CSV} {
			t.Run(rt.rt.Name+"/"+string(format), func(t *testing.T) {
				f := &filler{rnd: rand.New(rand.NewPCG(17, uint64(len(format)))), enums: rt.enums}
				schema := transfer.Schema{Type: rt.rt}
				var want []store.Record
				var buf bytes.Buffer
				enc, err := transfer.NewEncoder(&buf, format, schema)
				require.NoError(t, err)
				for range 500 {
					v := rt.rt.New()
					f.fill(reflect.ValueOf(v).Elem(), 0)
					r := store.Record{Key: v.RecordKey(), Index: v.RecordIndex(), Doc: v.AppendRecord(nil)}
					require.NoError(t, enc.Encode(r))
					want = append(want, r)
				}
				require.NoError(t, enc.Flush())
				dec, err := transfer.NewDecoder(bytes.NewReader(buf.Bytes()), format, schema, transfer.DecodeOptions{})
				require.NoError(t, err)
				for i, w := range want {
					rec, err := dec.Next()
					require.NoError(t, err)
					require.NoError(t, rec.Err, "record %d: %s", i, w.Doc)
					require.Equal(t, string(w.Doc), string(rec.Record.Doc), "record %d", i)
					require.Equal(t, w.Key, rec.Record.Key)
					require.Equal(t, w.Index, rec.Record.Index)
				}
				_, err = dec.Next()
				require.True(t, errors.Is(err, io.EOF))
			})
		}
	}
}
