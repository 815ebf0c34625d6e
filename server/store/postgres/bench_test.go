package postgres_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/postgres"
	"github.com/contactsync/contactsync/server/store/postgres/pgtest"
)

// BenchmarkOperations measures each operation of the service against the test database, one at a
// time: mostly round trips to the server, but the store's own CPU per operation (what bench-instr
// counts) is what a change to the write protocol costs every instance.
func BenchmarkOperations(b *testing.B) {
	s, err := postgres.Open(b.Context(), pgtest.Schema(b), postgres.Options{})
	require.NoError(b, err)
	b.Cleanup(func() { _ = s.Close() })
	c := store.Record{Key: "bench", Index: "account-42", Doc: []byte(`{"Id":"bench","AccountId":"account-42",` +
		`"FirstName":"Zoë","LastName":"Łukasiewicz","PhoneMobile":"+49 30 1234567","PhoneWork":"+49 30 7654321",` +
		`"EmailAddress":"zoe@example.com","RoleIds":["admin","sales","support"]}`)}
	require.NoError(b, s.Put(b.Context(), c))
	for _, op := range []struct {
		name string
		do   func(i int) error
	}{
		{"Get", func(int) error { _, err := s.Get(b.Context(), "bench"); return err }},
		{"Put", func(int) error { return s.Put(b.Context(), c) }},
		{"Update", func(int) error {
			_, err := s.Update(b.Context(), "bench", func(r store.Record) (store.Record, error) { return r, nil })
			return err
		}},
		{"PutDelete", func(i int) error {
			d := c
			d.Key = fmt.Sprintf("d%d", i)
			if err := s.Put(b.Context(), d); err != nil {
				return err
			}
			_, err := s.Delete(b.Context(), d.Key)
			return err
		}},
	} {
		b.Run(op.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if err := op.do(i); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
