package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/contactsync/contactsync/server/store"
)

// Field metadata and maintenance (store.Fields): the record_fields table (migrations 0004 and 0006), and the
// rewrites of the documents that rename or drop a field, with SQLite's JSON functions. Every one of
// them runs through the group committer like any other write, in one transaction.

// Compile-time check that Store keeps the field metadata.
var _ store.Fields = (*Store)(nil)

// jsonPath returns SQLite's JSON path for a field path's segments: $."A"."B" (quoted, so any name an
// element may have is taken literally).
func jsonPath(segs []string) string {
	var b strings.Builder
	b.WriteString("$")
	for _, s := range segs {
		b.WriteString(`."`)
		b.WriteString(s)
		b.WriteString(`"`)
	}
	return b.String()
}

// SyncFields compares fields with record_fields and records them, as store.Fields says.
func (s *Store) SyncFields(ctx context.Context, fields []store.Field) (store.FieldsReport, error) {
	// Usually there is nothing to record: answer from a read, with no write transaction (and fsync).
	recorded, err := s.StoredFields(ctx)
	if err != nil {
		return store.FieldsReport{}, err
	}
	if plan := store.Compare(recorded, fields); len(plan.Add)+len(plan.Fill)+len(plan.Report.Carried)+len(plan.Report.Changed)+len(plan.Report.Dropped) == 0 {
		return plan.Report, nil
	}
	var report store.FieldsReport
	err = s.write(ctx, func(tx *sql.Tx) error {
		report = store.FieldsReport{}
		var empty int
		if err := tx.QueryRow(`SELECT NOT EXISTS (SELECT 1 FROM contacts)`).Scan(&empty); err != nil {
			return err
		}
		recorded, err := storedFields(tx)
		if err != nil {
			return err
		}
		plan, drop := store.PlanSync(recorded, fields, empty == 1)
		report = plan.Report
		for _, p := range drop {
			if _, err := tx.Exec(`DELETE FROM record_fields WHERE path = ? AND role = 'field'`, p); err != nil {
				return err
			}
		}
		for _, f := range plan.Fill {
			if _, err := tx.Exec(`UPDATE record_fields SET xsd_type = ? WHERE path = ? AND role = 'field' AND xsd_type = ''`, f.Type, f.Path); err != nil {
				return err
			}
		}
		return insertFields(tx, plan.Add)
	})
	if err != nil {
		return store.FieldsReport{}, fmt.Errorf("sqlite: record fields: %w", err)
	}
	return report, nil
}

// insertFields records fields, skipping a path already recorded (a derived row, a path and type).
func insertFields(tx *sql.Tx, fields []store.Field) error {
	for _, f := range fields {
		stmt := `INSERT INTO record_fields (path, role, xsd_type) VALUES (?, 'field', ?) ON CONFLICT (path) WHERE role = 'field' DO NOTHING`
		if f.Derived {
			stmt = `INSERT INTO record_fields (path, role, xsd_type) VALUES (?, 'derived', ?) ON CONFLICT DO NOTHING`
		}
		if _, err := tx.Exec(stmt, f.Path, f.Type); err != nil {
			return err
		}
	}
	return nil
}

// querier is what storedFields needs of a *sql.DB or *sql.Tx.
type querier interface {
	Query(query string, args ...any) (*sql.Rows, error)
}

// storedFields reads the rows of record_fields, sorted by path, field rows before derived rows.
func storedFields(q querier) ([]store.Field, error) {
	rows, err := q.Query(`SELECT path, role = 'derived', xsd_type FROM record_fields ORDER BY path, role DESC, xsd_type`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var fields []store.Field
	for rows.Next() {
		var f store.Field
		if err := rows.Scan(&f.Path, &f.Derived, &f.Type); err != nil {
			return nil, err
		}
		fields = append(fields, f)
	}
	return fields, rows.Err()
}

// StoredFields returns the fields record_fields holds, sorted by path.
func (s *Store) StoredFields(ctx context.Context) ([]store.Field, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	fields, err := storedFields(s.r)
	if err != nil {
		return nil, fmt.Errorf("sqlite: stored fields: %w", err)
	}
	return fields, nil
}

// checkNotInArray fails with store.ErrPathInArray when some record holds an array where a segment of
// the path is to be looked up.
func checkNotInArray(q interface {
	QueryRow(query string, args ...any) *sql.Row
}, path string, segs []string) error {
	for i := 1; i < len(segs); i++ {
		var n int64
		if err := q.QueryRow(`SELECT count(*) FROM contacts WHERE json_type(doc, ?) = 'array'`, jsonPath(segs[:i])).Scan(&n); err != nil {
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
		return 0, fmt.Errorf("sqlite: count field: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	tx, err := s.r.BeginTx(ctx, nil) // one snapshot for both queries
	if err != nil {
		return 0, fmt.Errorf("sqlite: count field %s: %w", path, err)
	}
	defer func() { _ = tx.Rollback() }()
	if err := checkNotInArray(tx, path, segs); err != nil {
		return 0, fmt.Errorf("sqlite: count field: %w", err)
	}
	var n int64
	if err := tx.QueryRow(`SELECT count(*) FROM contacts WHERE json_type(doc, ?) <> 'null'`, jsonPath(segs)).Scan(&n); err != nil {
		return 0, fmt.Errorf("sqlite: count field %s: %w", path, err)
	}
	return n, nil
}

// CountDerived returns how many records hold a value whose "$type" is typ at path (store.Fields).
func (s *Store) CountDerived(ctx context.Context, path, typ string) (int64, error) {
	steps, err := store.DerivedPath(path)
	if err != nil {
		return 0, fmt.Errorf("sqlite: count derived type: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	query, args := countDerivedSQL(steps)
	var n int64
	if err := s.r.QueryRowContext(ctx, query, append(args, typ)...).Scan(&n); err != nil {
		return 0, fmt.Errorf("sqlite: count derived type %s at %s: %w", typ, path, err)
	}
	return n, nil
}

// countDerivedSQL returns the query counting the records that hold, at the path whose steps are given
// (store.DerivedPath), an object whose "$type" is the last argument, the arguments before it in
// order (JSON paths, never a value of a record). A recursive expression collects, per record, the
// objects at the path, one json_each per array crossed (an item that is not an object holds none),
// then the objects among the items of their "$items" (an object[]'s), at any depth. Only an object
// is ever read as JSON (json_each's value of a string item is its text, which no JSON function
// takes): hence the CASEs.
func countDerivedSQL(steps [][]string) (string, []any) {
	var args []any
	arg := func(v string) string {
		args = append(args, v)
		return fmt.Sprintf("?%d", len(args))
	}
	src, from, where := "c.doc", []string{}, []string{}
	for i, step := range steps[:len(steps)-1] {
		from = append(from, fmt.Sprintf("json_each(%s, %s) e%d", src, arg(jsonPath(step)), i))
		where = append(where, fmt.Sprintf("typeof(e%[1]d.key) = 'integer' AND e%[1]d.type = 'object'", i))
		src = fmt.Sprintf("CASE WHEN e%[1]d.type = 'object' THEN e%[1]d.value ELSE '{}' END", i)
	}
	value := src
	if tail := steps[len(steps)-1]; len(tail) > 0 {
		p := arg(jsonPath(tail))
		value = fmt.Sprintf("%s -> %s", src, p)
		where = append(where, fmt.Sprintf("json_type(%s, %s) = 'object'", src, p))
	}
	seed := "SELECT " + value
	if len(from) > 0 {
		seed += " FROM " + strings.Join(from, ", ")
	}
	if len(where) > 0 {
		seed += " WHERE " + strings.Join(where, " AND ")
	}
	return `SELECT count(*) FROM contacts c WHERE EXISTS (WITH RECURSIVE v(x) AS (` + seed + `
		UNION ALL SELECT i.value FROM v, json_each(v.x, '$."$items"') i WHERE typeof(i.key) = 'integer' AND i.type = 'object')
		SELECT 1 FROM v WHERE v.x ->> '$."$type"' = ` + fmt.Sprintf("?%d", len(args)+1) + `)`, args
}

// RenameField moves the value at from to to in every record holding from, and renames the recorded
// paths, in one transaction. A record whose from is null loses the key only (null and missing read
// back alike). The new key comes last in the object (json_set appends); readers accept any order.
func (s *Store) RenameField(ctx context.Context, from, to string) (int64, error) {
	fromSegs, toSegs, err := store.RenamedPath(from, to)
	if err != nil {
		return 0, fmt.Errorf("sqlite: rename field: %w", err)
	}
	fp, tp := jsonPath(fromSegs), jsonPath(toSegs)
	var rewritten int64
	err = s.write(ctx, func(tx *sql.Tx) error {
		rewritten = 0
		if err := checkNotInArray(tx, from, fromSegs); err != nil {
			return err
		}
		var both int64
		if err := tx.QueryRow(`SELECT count(*) FROM contacts WHERE json_type(doc, ?) <> 'null' AND json_type(doc, ?) <> 'null'`, fp, tp).Scan(&both); err != nil {
			return err
		}
		if both > 0 {
			return fmt.Errorf("%d records hold values at both %s and %s; drop one of them first", both, from, to)
		}
		// The -> operator returns the value as JSON, which json_set inserts as such (not as a string).
		res, err := tx.Exec(`UPDATE contacts SET doc = json_set(json_remove(doc, ?1), ?2, doc -> ?1) WHERE json_type(doc, ?1) <> 'null'`, fp, tp)
		if err != nil {
			return err
		}
		moved, _ := res.RowsAffected()
		res, err = tx.Exec(`UPDATE contacts SET doc = json_remove(doc, ?1) WHERE json_type(doc, ?1) = 'null'`, fp)
		if err != nil {
			return err
		}
		nulls, _ := res.RowsAffected()
		rewritten = moved + nulls
		return renameRecorded(tx, from, to)
	})
	if err != nil {
		return 0, fmt.Errorf("sqlite: rename field %s to %s: %w", from, to, err)
	}
	return rewritten, nil
}

// renameRecorded replaces from, and every path under it, by the same path under to in record_fields,
// field and derived rows alike, keeping their recorded types (store.RenameRows).
func renameRecorded(tx *sql.Tx, from, to string) error {
	recorded, err := storedFields(tx)
	if err != nil {
		return err
	}
	for _, r := range store.RenameRows(recorded, from, to) {
		if r.Drop {
			_, err = tx.Exec(`DELETE FROM record_fields WHERE path = ? AND role = ? AND xsd_type = ?`, r.Row.Path, r.Row.Role(), r.Row.Type)
		} else {
			_, err = tx.Exec(`UPDATE record_fields SET path = ? WHERE path = ? AND role = ? AND xsd_type = ?`, r.Path, r.Row.Path, r.Row.Role(), r.Row.Type)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// DropField removes the value at path from every record holding it, and path (with the paths under
// it) from record_fields, in one transaction.
func (s *Store) DropField(ctx context.Context, path string) (int64, error) {
	segs, err := store.FieldPath(path)
	if err != nil {
		return 0, fmt.Errorf("sqlite: drop field: %w", err)
	}
	var rewritten int64
	err = s.write(ctx, func(tx *sql.Tx) error {
		rewritten = 0
		if err := checkNotInArray(tx, path, segs); err != nil {
			return err
		}
		res, err := tx.Exec(`UPDATE contacts SET doc = json_remove(doc, ?1) WHERE json_type(doc, ?1) IS NOT NULL`, jsonPath(segs))
		if err != nil {
			return err
		}
		rewritten, _ = res.RowsAffected()
		// The rows under the field go too: its members ("Pet.Name"), and its items' and their derived
		// rows ("Pets[]", "Pets[].Name").
		_, err = tx.Exec(`DELETE FROM record_fields WHERE path = ? OR substr(path, 1, ?) = ? OR substr(path, 1, ?) = ?`,
			path, len(path)+1, path+".", len(path)+2, path+"[]")
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("sqlite: drop field %s: %w", path, err)
	}
	return rewritten, nil
}
