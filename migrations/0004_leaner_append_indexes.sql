-- Every index on events costs every append an index insert (tablelog bench: store
-- appends beside a plain INSERT), so keep only those that earn it.

-- The global position is an identity column GENERATED ALWAYS: the sequence already
-- makes it unique, and readers find events by (transaction_id, position), which has
-- its own index. A unique index on position alone did nothing more.
ALTER TABLE events DROP CONSTRAINT events_position_key;

-- Most moves carry no Idempotency-Key: index only those that do. A retried request
-- still collides here, and its first answer is found by this index.
ALTER TABLE events DROP CONSTRAINT events_idempotency_key_key;
CREATE UNIQUE INDEX events_idempotency_key_key ON events (game_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
