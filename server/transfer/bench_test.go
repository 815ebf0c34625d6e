package transfer_test

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/transfer"
)

// benchContacts returns n contacts shaped like the service's test data.
func benchContacts(n int) []Contact {
	cs := make([]Contact, n)
	for i := range cs {
		id := fmt.Sprintf("c%07d", i)
		cs[i] = Contact{ID: id, AccountID: "ACC-75e93f25", FirstName: "Test", LastName: "Contact 75e93f",
			PhoneMobile: "+1-555-0185", PhoneWork: "+1-555-6165", EmailAddress: "test.75e93f25@example.com",
			RoleIDs: []string{"role-user", "role-ce55"}}
	}
	return cs
}

// BenchmarkDecode measures reading records, the first cost of an import.
func BenchmarkDecode(b *testing.B) {
	for _, format := range []transfer.Format{transfer.JSONL, transfer.CSV} {
		b.Run(string(format), func(b *testing.B) {
			var buf bytes.Buffer
			enc, err := transfer.NewEncoder(&buf, format, conv)
			require.NoError(b, err)
			for _, c := range benchContacts(10000) {
				require.NoError(b, enc.Encode(c.rec()))
			}
			require.NoError(b, enc.Flush())
			b.ReportAllocs()
			for b.Loop() {
				dec, err := transfer.NewDecoder(bytes.NewReader(buf.Bytes()), format, conv)
				require.NoError(b, err)
				for i := 0; ; i++ {
					rec, err := dec.Next()
					if err == io.EOF {
						break
					}
					if err != nil || rec.Err != nil {
						b.Fatal(err, rec.Err)
					}
				}
			}
		})
	}
}

// BenchmarkEncode measures writing records, the cost of an export besides the store.
func BenchmarkEncode(b *testing.B) {
	cs := benchContacts(10000)
	for _, format := range []transfer.Format{transfer.JSONL, transfer.CSV} {
		b.Run(string(format), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				enc, err := transfer.NewEncoder(io.Discard, format, conv)
				require.NoError(b, err)
				for _, c := range cs {
					require.NoError(b, enc.Encode(c.rec()))
				}
				require.NoError(b, enc.Flush())
			}
		})
	}
}
