-- Version 4 keeps each record as key columns plus one document (docs/data.md#row-layout), so a field
-- added to the contract is stored with no schema change: id (the record's key), account_id (its
-- indexed field) and doc, the record's canonical JSON as the generated record codec writes it, here as
-- jsonb (which orders an object's keys its own way; readers accept any order). It converts version 3's
-- columns into that document, as the SQLite store's 0004_contacts_doc.sql does. This file names today's
-- fields because it is history: it describes the schema it converts, written once, and is never edited
-- for a later contract; nothing after it names a field. The conversion rewrites every row and holds an
-- exclusive lock on contacts while it runs (seconds per million contacts): run `contactsync migrate`
-- at a quiet moment on a large store, before starting the new release.
ALTER TABLE contacts ADD COLUMN doc jsonb;
UPDATE contacts SET doc = jsonb_build_object(
	'Id', id, 'AccountId', account_id, 'FirstName', first_name, 'LastName', last_name,
	'PhoneMobile', phone_mobile, 'PhoneWork', phone_work, 'EmailAddress', email_address,
	'RoleIds', to_jsonb(role_ids));
ALTER TABLE contacts ALTER COLUMN doc SET NOT NULL,
	DROP COLUMN first_name, DROP COLUMN last_name, DROP COLUMN phone_mobile, DROP COLUMN phone_work,
	DROP COLUMN email_address, DROP COLUMN role_ids;
-- contacts_account serves the account query (store.Store.ListByIndex): the records of one account in
-- byte order of id (COLLATE "C"), a page at a time, with no sort.
CREATE INDEX contacts_account ON contacts (account_id, id COLLATE "C");
-- record_fields holds the field paths stored records may hold (store.Fields): serve compares it with
-- its contract at start, and `contactsync migrate --check/--rename/--drop` maintain it. Version 3's
-- rows hold the eight fields converted above.
CREATE TABLE record_fields (
	path TEXT NOT NULL PRIMARY KEY
);
INSERT INTO record_fields (path) VALUES
	('Id'), ('AccountId'), ('FirstName'), ('LastName'), ('PhoneMobile'), ('PhoneWork'), ('EmailAddress'),
	('RoleIds');
