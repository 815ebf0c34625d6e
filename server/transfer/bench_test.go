package transfer_test

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	frozen "github.com/contactsync/contactsync/server/internal/frozencontract"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/transfer"
)

// benchContacts returns n contacts shaped like the service's test data, as stored.
func benchContacts(n int) []store.Record {
	rs := make([]store.Record, n)
	for i := range rs {
		id := fmt.Sprintf("c%07d", i)
		rs[i] = record(&frozen.Contact{Id: id, AccountId: "ACC-75e93f25", FirstName: "Test", LastName: "Contact 75e93f",
			PhoneMobile: "+1-555-0185", PhoneWork: "+1-555-6165", EmailAddress: "test.75e93f25@example.com",
			RoleIds: roles("role-user", "role-ce55")})
	}
	return rs
}

// BenchmarkDecode measures reading records, the first cost of an import.
func BenchmarkDecode(b *testing.B) {
	for _, format := range []transfer.Format{transfer.JSONL, transfer.CSV} {
		b.Run(string(format), func(b *testing.B) {
			var buf bytes.Buffer
			enc, err := transfer.NewEncoder(&buf, format, schema)
			require.NoError(b, err)
			for _, c := range benchContacts(10000) {
				require.NoError(b, enc.Encode(c))
			}
			require.NoError(b, enc.Flush())
			b.ReportAllocs()
			for b.Loop() {
				dec, err := transfer.NewDecoder(bytes.NewReader(buf.Bytes()), format, schema, transfer.DecodeOptions{})
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
				enc, err := transfer.NewEncoder(io.Discard, format, schema)
				require.NoError(b, err)
				for _, c := range cs {
					require.NoError(b, enc.Encode(c))
				}
				require.NoError(b, enc.Flush())
			}
		})
	}
}
