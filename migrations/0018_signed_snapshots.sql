-- Snapshots are signed (service/application/snapshots.py): an HMAC-SHA256 of the
-- game's id, the version, the engine and the data, under a key the database does not
-- hold (a file beside it). The serving role may write this table, so whoever holds
-- its credentials may write any row; without the key they cannot sign one, and a row
-- whose signature does not match is ignored: the game is folded from its log. A row
-- without one (written before this migration, or stripped of it) is ignored too.
ALTER TABLE game_snapshots ADD COLUMN signature bytea;
