-- Version 5 names the indexed column after its role, not after today's indexed field: account_id
-- becomes index_value, and the index contacts_account becomes contacts_by_index. The indexed field is
-- declared on the generator's go:generate line (-record-index), so a contract that indexes another
-- field keeps a schema that says what the column holds. Both renames change the catalog only: no row
-- or index entry is rewritten.
ALTER TABLE contacts RENAME COLUMN account_id TO index_value;
ALTER INDEX contacts_account RENAME TO contacts_by_index;
