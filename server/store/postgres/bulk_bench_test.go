package postgres

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/postgres/pgtest"
)

// BenchmarkWriteBatch compares the two ways to write a batch the issue named: COPY into a staging
// table and one INSERT … SELECT (what WriteBatch does), and multi-row INSERT … VALUES statements with
// bound parameters (writeBatchValues below, kept in the test only). Each op writes 4096 new contacts.
func BenchmarkWriteBatch(b *testing.B) {
	s, err := Open(b.Context(), pgtest.Schema(b), Options{})
	require.NoError(b, err)
	b.Cleanup(func() { _ = s.Close() })
	for _, v := range []struct {
		name  string
		write func(cs []store.Record) error
	}{
		{"copy", func(cs []store.Record) error { _, err := s.WriteBatch(b.Context(), cs, store.Upsert); return err }},
		{"values", func(cs []store.Record) error { return writeBatchValues(b, s, cs) }},
	} {
		b.Run(v.name, func(b *testing.B) {
			n := 0
			for b.Loop() {
				cs := make([]store.Record, 4096)
				for i := range cs {
					n++
					id := fmt.Sprintf("%s-%09d", v.name, n)
					cs[i] = store.Record{Key: id, Index: "ACC-75e93f25", Doc: []byte(`{"Id":"` + id +
						`","AccountId":"ACC-75e93f25","FirstName":"Test","LastName":"Contact 75e93f","PhoneMobile":"+1-555-0185",` +
						`"PhoneWork":"+1-555-6165","EmailAddress":"test.75e93f25@example.com","RoleIds":["role-user","role-ce55"]}`)}
				}
				require.NoError(b, v.write(cs))
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "contacts/s")
		})
	}
}

// writeBatchValues upserts cs with INSERT … VALUES statements of 1000 rows (3000 parameters) each, in
// one transaction.
func writeBatchValues(b *testing.B, s *Store, cs []store.Record) error {
	tx, err := s.pool.Begin(b.Context())
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback(b.Context()) }()
	for start := 0; start < len(cs); start += 1000 {
		part := cs[start:min(start+1000, len(cs))]
		var q strings.Builder
		q.WriteString(`INSERT INTO contacts (id, index_value, doc) VALUES `)
		args := make([]any, 0, 3*len(part))
		for i, c := range part {
			if i > 0 {
				q.WriteString(",")
			}
			q.WriteString("(")
			for j := range 3 {
				if j > 0 {
					q.WriteString(",")
				}
				q.WriteString("$" + strconv.Itoa(3*i+j+1))
			}
			q.WriteString(")")
			args = append(args, c.Key, c.Index, c.Doc)
		}
		q.WriteString(strings.TrimPrefix(upsertBatchSQL, `INSERT INTO contacts (id, index_value, doc) SELECT id, index_value, doc FROM records_batch`))
		rows, err := tx.Query(b.Context(), q.String(), args...)
		if err != nil {
			return err
		}
		_, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (bool, error) {
			var id string
			var inserted bool
			return inserted, r.Scan(&id, &inserted)
		})
		if err != nil {
			return err
		}
	}
	return tx.Commit(b.Context())
}
