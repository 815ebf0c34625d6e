-- contacts_id_bytes orders the ids byte by byte (COLLATE "C"), the order export and copy read the
-- contacts in (store.Bulk.Scan) and the one the SQLite store's primary key has. The primary key's own
-- index follows the database's collation, which for most locales is another order, so without this
-- index every export sorted the whole table first: 1,000,000 contacts took twice as long (BENCHMARKS.md).
-- Building it on an existing table blocks writes to contacts while it runs (seconds per million
-- contacts); run `contactsync migrate` at a quiet moment on a large store.
CREATE INDEX contacts_id_bytes ON contacts (id COLLATE "C");
