-- contacts holds one row per contact: the same table, columns and version as the SQLite store's
-- 0001_create_contacts.sql, in PostgreSQL's types. Every column is NOT NULL because the spec's Contact
-- has no optional fields: an absent value is the empty string. role_ids is a text array, which keeps
-- the order the client gave (one dimension, no NULL elements); an empty array means no roles.
CREATE TABLE contacts (
	id            TEXT NOT NULL PRIMARY KEY,
	account_id    TEXT NOT NULL,
	first_name    TEXT NOT NULL,
	last_name     TEXT NOT NULL,
	phone_mobile  TEXT NOT NULL,
	phone_work    TEXT NOT NULL,
	email_address TEXT NOT NULL,
	role_ids      TEXT[] NOT NULL DEFAULT '{}' CHECK (coalesce(array_ndims(role_ids), 1) = 1 AND array_position(role_ids, NULL) IS NULL)
);
