package postgres

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/contactsync/contactsync/server/store"
)

// Field metadata and maintenance (store.Fields): the record_fields table (migrations 0004 and 0006), and the
// rewrites of the documents that rename or drop a field, with PostgreSQL's jsonb operators (#> reads
// a path given as a text array, #- removes it, jsonb_set writes it). Each runs in one transaction.

// Compile-time check that Store keeps the field metadata.
var _ store.Fields = (*Store)(nil)

// lockFieldsSQL serializes SyncFields across instances starting at once, so that one adding a field
// and one whose contract lacks it cannot both pass (the second waits and then sees the field).
const lockFieldsSQL = `LOCK TABLE record_fields IN SHARE ROW EXCLUSIVE MODE`

// maintain runs fn in a transaction with no statement time limit (a rewrite of every record takes as
// long as it takes; ctx still cancels it), and commits.
func (s *Store) maintain(ctx context.Context, what string, fn func(tx pgx.Tx) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return classify(ctx, what, err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }() // a no-op after Commit
	if _, err := tx.Exec(ctx, `SET LOCAL statement_timeout = 0; SET LOCAL idle_in_transaction_session_timeout = 0`); err != nil {
		return classify(ctx, what, err)
	}
	if err := fn(tx); err != nil {
		return classify(ctx, what, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return classify(ctx, what, err)
	}
	return nil
}

// storedFields reads the rows of record_fields, sorted by path, field rows before derived rows.
func storedFields(ctx context.Context, q interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}) ([]store.Field, error) {
	rows, err := q.Query(ctx, `SELECT path, role = 'derived', xsd_type FROM record_fields ORDER BY path COLLATE "C", role DESC, xsd_type COLLATE "C"`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Field, error) {
		var f store.Field
		err := row.Scan(&f.Path, &f.Derived, &f.Type)
		return f, err
	})
}

// insertFieldsSQL records fields given as two arrays (paths, types), skipping a path already
// recorded; insertDerivedSQL records derived rows likewise, skipping a path and type recorded.
const (
	insertFieldsSQL = `INSERT INTO record_fields (path, role, xsd_type) SELECT p, 'field', t FROM unnest($1::text[], $2::text[]) AS f (p, t)
	ON CONFLICT (path) WHERE role = 'field' DO NOTHING`
	insertDerivedSQL = `INSERT INTO record_fields (path, role, xsd_type) SELECT p, 'derived', t FROM unnest($1::text[], $2::text[]) AS f (p, t)
	ON CONFLICT DO NOTHING`
)

// fieldArrays splits fields into their paths and their types.
func fieldArrays(fields []store.Field) (paths, types []string) {
	paths, types = make([]string, len(fields)), make([]string, len(fields))
	for i, f := range fields {
		paths[i], types[i] = f.Path, f.Type
	}
	return paths, types
}

// minSyncFieldsTimeout is the least time SyncFields is given (see there).
const minSyncFieldsTimeout = 10 * time.Second

// SyncFields compares fields with record_fields and records them, as store.Fields says.
func (s *Store) SyncFields(ctx context.Context, fields []store.Field) (store.FieldsReport, error) {
	// A start-up step of several statements, not a request: --db-timeout bounds it only from below
	// minSyncFieldsTimeout, so a short request timeout on a loaded server does not stop serve from
	// starting, while a hung database still does.
	op, cancel := context.WithTimeout(ctx, max(s.timeout, minSyncFieldsTimeout))
	defer cancel()
	var report store.FieldsReport
	err := s.maintain(op, "record fields", func(tx pgx.Tx) error {
		report = store.FieldsReport{}
		if _, err := tx.Exec(op, lockFieldsSQL); err != nil {
			return err
		}
		var empty bool
		if err := tx.QueryRow(op, `SELECT NOT EXISTS (SELECT 1 FROM contacts)`).Scan(&empty); err != nil {
			return err
		}
		recorded, err := storedFields(op, tx)
		if err != nil {
			return err
		}
		plan, drop := store.PlanSync(recorded, fields, empty)
		report = plan.Report
		if len(drop) > 0 {
			if _, err := tx.Exec(op, `DELETE FROM record_fields WHERE path = ANY($1) AND role = 'field'`, drop); err != nil {
				return err
			}
		}
		if len(plan.Fill) > 0 {
			paths, types := fieldArrays(plan.Fill)
			if _, err := tx.Exec(op, `UPDATE record_fields r SET xsd_type = f.t FROM unnest($1::text[], $2::text[]) AS f (p, t)
				WHERE r.path = f.p AND r.role = 'field' AND r.xsd_type = ''`, paths, types); err != nil {
				return err
			}
		}
		if rows := store.FieldRows(plan.Add); len(rows) > 0 {
			paths, types := fieldArrays(rows)
			if _, err = tx.Exec(op, insertFieldsSQL, paths, types); err != nil {
				return err
			}
		}
		if len(plan.Add) > len(store.FieldRows(plan.Add)) {
			paths, types := fieldArrays(slices.DeleteFunc(slices.Clone(plan.Add), func(f store.Field) bool { return !f.Derived }))
			_, err = tx.Exec(op, insertDerivedSQL, paths, types)
		}
		return err
	})
	return report, err
}

// StoredFields returns the fields record_fields holds, sorted by path.
func (s *Store) StoredFields(ctx context.Context) ([]store.Field, error) {
	op, cancel := s.bound(ctx)
	defer cancel()
	fields, err := storedFields(op, s.pool)
	if err != nil {
		return nil, classify(ctx, "stored fields", err)
	}
	return fields, nil
}

// queryRower is what checkNotInArray needs of a pool or a transaction.
type queryRower interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// checkNotInArray fails with store.ErrPathInArray when some record holds an array where a segment of
// the path is to be looked up (#> would find nothing there, not the values inside).
func checkNotInArray(ctx context.Context, q queryRower, path string, segs []string) error {
	for i := 1; i < len(segs); i++ {
		var n int64
		if err := q.QueryRow(ctx, `SELECT count(*) FROM contacts WHERE jsonb_typeof(doc #> $1) = 'array'`, segs[:i]).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("%s: %w (%d records hold an array at %s)", path, store.ErrPathInArray, n, strings.Join(segs[:i], "."))
		}
	}
	return nil
}

// CountField returns how many records hold a value other than null at path.
func (s *Store) CountField(ctx context.Context, path string) (int64, error) {
	segs, err := store.FieldPath(path)
	if err != nil {
		return 0, fmt.Errorf("postgres: count field: %w", err)
	}
	var n int64
	err = s.maintain(ctx, "count field "+path, func(tx pgx.Tx) error {
		if err := checkNotInArray(ctx, tx, path, segs); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `SELECT count(*) FROM contacts WHERE jsonb_typeof(doc #> $1) <> 'null'`, segs).Scan(&n)
	})
	return n, err
}

// CountDerived returns how many records hold a value whose "$type" is typ at path (store.Fields).
func (s *Store) CountDerived(ctx context.Context, path, typ string) (int64, error) {
	steps, err := store.DerivedPath(path)
	if err != nil {
		return 0, fmt.Errorf("postgres: count derived type: %w", err)
	}
	query, args := countDerivedSQL(steps)
	var n int64
	err = s.maintain(ctx, "count derived type "+typ+" at "+path, func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, query, append(args, typ)...).Scan(&n)
	})
	return n, err
}

// countDerivedSQL returns the query counting the records that hold, at the path whose steps are given
// (store.DerivedPath), an object whose "$type" is the last argument, the arguments before it in
// order (text arrays for #>, never a value of a record). A recursive expression collects, per record,
// the objects at the path, one jsonb_array_elements per array crossed (#> of an item that is not an
// object finds nothing), then the objects among the items of their "$items" (an object[]'s), at any
// depth. (jsonb_path_exists could test one path with the type as a variable, but not follow "$items"
// to any depth; #> and ->> take the path and the type as parameters alike.)
func countDerivedSQL(steps [][]string) (string, []any) {
	var args []any
	arg := func(v []string) string {
		args = append(args, v)
		return fmt.Sprintf("$%d::text[]", len(args))
	}
	src, from := "c.doc", []string{}
	for i, step := range steps[:len(steps)-1] {
		at := fmt.Sprintf("%s #> %s", src, arg(step))
		from = append(from, fmt.Sprintf("jsonb_array_elements(CASE WHEN jsonb_typeof(%[1]s) = 'array' THEN %[1]s ELSE '[]' END) e%[2]d", at, i))
		src = fmt.Sprintf("e%d", i)
	}
	value := src
	if tail := steps[len(steps)-1]; len(tail) > 0 {
		value = fmt.Sprintf("%s #> %s", src, arg(tail))
	}
	seed := "SELECT " + value
	if len(from) > 0 {
		seed += " FROM " + strings.Join(from, ", ")
	}
	seed += fmt.Sprintf(" WHERE jsonb_typeof(%s) = 'object'", value)
	return `SELECT count(*) FROM contacts c WHERE EXISTS (WITH RECURSIVE v(x) AS (` + seed + `
		UNION ALL SELECT i FROM v, jsonb_array_elements(CASE WHEN jsonb_typeof(v.x -> '$items') = 'array' THEN v.x -> '$items' ELSE '[]' END) i
		WHERE jsonb_typeof(i) = 'object')
		SELECT 1 FROM v WHERE v.x ->> '$type' = ` + fmt.Sprintf("$%d", len(args)+1) + `)`, args
}

// RenameField moves the value at from to to in every record holding from, and renames the recorded
// paths, in one transaction. A record whose from is null loses the key only (null and missing read
// back alike).
func (s *Store) RenameField(ctx context.Context, from, to string) (int64, error) {
	fromSegs, toSegs, err := store.RenamedPath(from, to)
	if err != nil {
		return 0, fmt.Errorf("postgres: rename field: %w", err)
	}
	var rewritten int64
	err = s.maintain(ctx, fmt.Sprintf("rename field %s to %s", from, to), func(tx pgx.Tx) error {
		if err := checkNotInArray(ctx, tx, from, fromSegs); err != nil {
			return err
		}
		var both int64
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM contacts WHERE jsonb_typeof(doc #> $1) <> 'null' AND jsonb_typeof(doc #> $2) <> 'null'`,
			fromSegs, toSegs).Scan(&both); err != nil {
			return err
		}
		if both > 0 {
			return fmt.Errorf("%d records hold values at both %s and %s; drop one of them first", both, from, to)
		}
		tag, err := tx.Exec(ctx, `UPDATE contacts SET doc = jsonb_set(doc #- $1, $2, doc #> $1) WHERE jsonb_typeof(doc #> $1) <> 'null'`, fromSegs, toSegs)
		if err != nil {
			return err
		}
		rewritten = tag.RowsAffected()
		if tag, err = tx.Exec(ctx, `UPDATE contacts SET doc = doc #- $1 WHERE jsonb_typeof(doc #> $1) = 'null'`, fromSegs); err != nil {
			return err
		}
		rewritten += tag.RowsAffected()
		// The recorded rows at from and under it follow, field and derived rows alike.
		recorded, err := storedFields(ctx, tx)
		if err != nil {
			return err
		}
		for _, r := range store.RenameRows(recorded, from, to) {
			if r.Drop {
				_, err = tx.Exec(ctx, `DELETE FROM record_fields WHERE path = $1 AND role = $2 AND xsd_type = $3`, r.Row.Path, r.Row.Role(), r.Row.Type)
			} else {
				_, err = tx.Exec(ctx, `UPDATE record_fields SET path = $1 WHERE path = $2 AND role = $3 AND xsd_type = $4`, r.Path, r.Row.Path, r.Row.Role(), r.Row.Type)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return rewritten, nil
}

// DropField removes the value at path from every record holding it, and path (with the paths under
// it) from record_fields, in one transaction.
func (s *Store) DropField(ctx context.Context, path string) (int64, error) {
	segs, err := store.FieldPath(path)
	if err != nil {
		return 0, fmt.Errorf("postgres: drop field: %w", err)
	}
	var rewritten int64
	err = s.maintain(ctx, "drop field "+path, func(tx pgx.Tx) error {
		if err := checkNotInArray(ctx, tx, path, segs); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `UPDATE contacts SET doc = doc #- $1 WHERE doc #> $1 IS NOT NULL`, segs)
		if err != nil {
			return err
		}
		rewritten = tag.RowsAffected()
		// The rows under the field go too: its members ("Pet.Name"), and its items' and their derived
		// rows ("Pets[]", "Pets[].Name").
		_, err = tx.Exec(ctx, `DELETE FROM record_fields WHERE path = $1 OR starts_with(path, $2) OR starts_with(path, $3)`, path, path+".", path+"[]")
		return err
	})
	if err != nil {
		return 0, err
	}
	return rewritten, nil
}
