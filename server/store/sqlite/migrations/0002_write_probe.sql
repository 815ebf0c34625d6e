-- write_probe holds one row that the store's writability probe (ProbeWrite, behind /readyz) rewrites
-- at most every few seconds: a real committed write, through the same connection and group commit as
-- the contacts' writes, that is never read. It is not part of the contacts' data.
CREATE TABLE write_probe (
	id        INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
	probed_at TEXT    NOT NULL
) STRICT;
