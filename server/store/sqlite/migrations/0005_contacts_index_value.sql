-- Version 5 names the indexed column after its role, not after today's indexed field: account_id
-- becomes index_value, and the index contacts_account becomes contacts_by_index. The indexed field is
-- declared on the generator's go:generate line (-record-index), so a contract that indexes another
-- field keeps a schema that says what the column holds. SQLite renames the column in place (and in the
-- index's definition); an index cannot be renamed, so it is built again under its new name, one sorted
-- pass over the table (a second or two per million contacts).
ALTER TABLE contacts RENAME COLUMN account_id TO index_value;
DROP INDEX IF EXISTS contacts_account;
CREATE INDEX contacts_by_index ON contacts (index_value, id);
