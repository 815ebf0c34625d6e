-- Version 6 makes record_fields "what the store holds, with types" (docs/generator-model.md §5): each
-- row is a path with its role ('field': an element of the record, whose xsd_type is its record type,
-- such as 'xsd:string' or 'complex:Address'; 'derived': a $type written at a polymorphic path) and
-- its type, '' when not known yet (the rows kept from version 5, filled in by the first serve or
-- migrate of a contract that has the path). An empty store records nothing, so a fresh store follows
-- the contract it is created with (version 4 recorded the eight fields of its day even on an empty
-- database). The table is small: every statement here is quick.
ALTER TABLE record_fields
	ADD COLUMN role text NOT NULL DEFAULT 'field' CHECK (role IN ('field', 'derived')),
	ADD COLUMN xsd_type text NOT NULL DEFAULT '';
ALTER TABLE record_fields DROP CONSTRAINT record_fields_pkey,
	ADD PRIMARY KEY (path, role, xsd_type);
-- A field has one type at a time.
CREATE UNIQUE INDEX record_fields_one_type ON record_fields (path) WHERE role = 'field';
DELETE FROM record_fields WHERE NOT EXISTS (SELECT 1 FROM contacts);
