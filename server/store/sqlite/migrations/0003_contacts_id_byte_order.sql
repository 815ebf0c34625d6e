-- Version 3 gives PostgreSQL an index ordering the ids byte by byte, for export and copy. SQLite needs
-- none: the primary key uses the BINARY collation, which already compares the ids' UTF-8 bytes, and the
-- table is stored in primary-key order (WITHOUT ROWID). The version exists here so that "schema
-- version N" means the same on both stores.
SELECT 1;
