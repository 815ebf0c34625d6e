-- contacts holds one row per contact. Every column is NOT NULL because the spec's Contact has no
-- optional fields: an absent value is the empty string. role_ids is a JSON array of strings, in the
-- order the client gave them. STRICT makes SQLite reject values of the wrong type instead of coercing
-- them; WITHOUT ROWID stores rows in the primary-key b-tree, so a lookup by id is one b-tree search.
CREATE TABLE contacts (
	id            TEXT NOT NULL PRIMARY KEY,
	account_id    TEXT NOT NULL,
	first_name    TEXT NOT NULL,
	last_name     TEXT NOT NULL,
	phone_mobile  TEXT NOT NULL,
	phone_work    TEXT NOT NULL,
	email_address TEXT NOT NULL,
	role_ids      TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(role_ids) AND json_type(role_ids) = 'array')
) STRICT, WITHOUT ROWID;
