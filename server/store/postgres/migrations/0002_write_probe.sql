-- write_probe holds one row that each instance's writability probe (ProbeWrite, behind /readyz)
-- rewrites at most every few seconds: a real committed write that is never read, the same as the
-- SQLite store's 0002_write_probe.sql. It is not part of the contacts' data.
CREATE TABLE write_probe (
	id        integer     NOT NULL PRIMARY KEY CHECK (id = 1),
	probed_at timestamptz NOT NULL
);
