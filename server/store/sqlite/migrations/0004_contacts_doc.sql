-- Version 4 keeps each record as key columns plus one document (docs/data.md#row-layout), so a field
-- added to the contract is stored with no schema change: id (the record's key), account_id (its
-- indexed field) and doc, the record's canonical JSON as the generated record codec writes it (an
-- object whose keys are the contract's elements in schema order). It converts version 3's columns
-- into that document. This file names today's fields because it is history: it describes the schema it
-- converts, written once, and is never edited for a later contract; nothing after it names a field.
-- SQLite cannot drop several columns of a STRICT WITHOUT ROWID table with constraints in place, so the
-- table is rebuilt (inside the migration's transaction) and renamed.
CREATE TABLE contacts_v4 (
	id         TEXT NOT NULL PRIMARY KEY,
	account_id TEXT NOT NULL,
	doc        TEXT NOT NULL
) STRICT, WITHOUT ROWID;
INSERT INTO contacts_v4 (id, account_id, doc)
SELECT id, account_id, json_object(
	'Id', id, 'AccountId', account_id, 'FirstName', first_name, 'LastName', last_name,
	'PhoneMobile', phone_mobile, 'PhoneWork', phone_work, 'EmailAddress', email_address,
	'RoleIds', json(role_ids))
FROM contacts;
DROP TABLE contacts;
ALTER TABLE contacts_v4 RENAME TO contacts;
-- contacts_account serves the account query (store.Store.ListByIndex): the records of one account in
-- byte order of id (the BINARY collation compares UTF-8 bytes), a page at a time.
CREATE INDEX contacts_account ON contacts (account_id, id);
-- record_fields holds the field paths stored records may hold (store.Fields): serve compares it with
-- its contract at start, and `contactsync migrate --check/--rename/--drop` maintain it. Version 3's
-- rows hold the eight fields converted above.
CREATE TABLE record_fields (
	path TEXT NOT NULL PRIMARY KEY
) STRICT, WITHOUT ROWID;
INSERT INTO record_fields (path) VALUES
	('Id'), ('AccountId'), ('FirstName'), ('LastName'), ('PhoneMobile'), ('PhoneWork'), ('EmailAddress'),
	('RoleIds');
