-- The global log's order survives a logical restore. Readers of the log take events
-- in (transaction_id, position) order, below the oldest running transaction (see
-- _READ_ALL in service/storage/store.py), and keep checkpoints in that order: the
-- projection runner, the ratings, each webhook endpoint, every app holding a /feed
-- cursor. A dump restored into another cluster (`tablelog restore`) brings the
-- stored transaction ids with it, but that cluster hands out ids of its own, from
-- its own counter: usually far below the restored ones. New events would then sort
-- before the old checkpoints and never be read, and the restored events would sit
-- above a horizon that takes ages to reach them.
--
-- So the log's ids are the server's plus an offset, a constant of the database:
-- log_transaction_id() stamps each new event, log_horizon() bounds every reader.
-- On the server the log was written on the offset is 0; `tablelog restore`
-- redefines log_offset() after loading a dump so that every id handed out from then
-- on is above every restored one (service/storage/backups.py). A physical copy
-- (a standby, a base backup, pgBackRest) keeps the server's counter, so it keeps
-- the offset it had and needs no change.
--
-- log_offset() is STABLE, not IMMUTABLE, though it never changes while a database
-- serves: both are folded into a constant when a statement is planned, so an append
-- costs no call, but only a STABLE function that the planner inlines is recorded as
-- a dependency of the cached plans (psycopg prepares the appends): redefined, it
-- invalidates them, where an IMMUTABLE one would leave them adding the old offset.
-- Only its owner (the migrations' role) may redefine it: the serving role cannot
-- move the log's order. pg_dump carries it like any function.
CREATE FUNCTION log_offset() RETURNS bigint
LANGUAGE sql STABLE PARALLEL SAFE
RETURN 0;

-- xid8 has no arithmetic: the sum goes through bigint (an xid8 is below 2^63 for
-- as long as PostgreSQL can run). Bodies in SQL-standard form: parsed once, here,
-- and bound to these functions whatever a caller's search_path, as pg_restore's
-- empty one.
CREATE FUNCTION log_transaction_id() RETURNS xid8
LANGUAGE sql STABLE
RETURN (pg_current_xact_id()::text::bigint + log_offset())::text::xid8;

CREATE FUNCTION log_horizon() RETURNS xid8
LANGUAGE sql STABLE PARALLEL SAFE
RETURN (pg_snapshot_xmin(pg_current_snapshot())::text::bigint + log_offset())
    ::text::xid8;

ALTER TABLE events ALTER COLUMN transaction_id SET DEFAULT log_transaction_id();
