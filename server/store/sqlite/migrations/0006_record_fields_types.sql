-- Version 6 makes record_fields "what the store holds, with types" (docs/generator-model.md §5): each
-- row is a path with its role ('field': an element of the record, whose xsd_type is its record type,
-- such as 'xsd:string' or 'complex:Address'; 'derived': a $type written at a polymorphic path) and
-- its type, '' when not known yet (the rows kept from version 5, filled in by the first serve or
-- migrate of a contract that has the path). An empty store records nothing, so a fresh store follows
-- the contract it is created with (version 4 recorded the eight fields of its day even on an empty
-- database). SQLite cannot change a WITHOUT ROWID table's key in place, so the table is rebuilt.
CREATE TABLE record_fields_v6 (
	path     TEXT NOT NULL,
	role     TEXT NOT NULL CHECK (role IN ('field', 'derived')),
	xsd_type TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (path, role, xsd_type)
) STRICT, WITHOUT ROWID;
INSERT INTO record_fields_v6 (path, role, xsd_type)
	SELECT path, 'field', '' FROM record_fields WHERE EXISTS (SELECT 1 FROM contacts);
DROP TABLE record_fields;
ALTER TABLE record_fields_v6 RENAME TO record_fields;
-- A field has one type at a time.
CREATE UNIQUE INDEX record_fields_one_type ON record_fields (path) WHERE role = 'field';
