-- The event store: one row per game, and its moves as an append-only log of events.

CREATE TABLE games (
    id            uuid        PRIMARY KEY,
    game          text        NOT NULL,
    players       text[]      NOT NULL,
    first_player  text        NOT NULL,
    seed          bigint      NOT NULL,
    options       jsonb       NOT NULL DEFAULT '{}',
    title         text,
    played_at     timestamptz,
    location      text,
    notes         text,
    -- Only a hash of the write token is kept: the token itself is shown once.
    token_hash    bytea       NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);

-- GET /games lists newest first, filtered by game or by a player's name.
CREATE INDEX games_newest_idx ON games (created_at DESC, id DESC);
CREATE INDEX games_game_newest_idx ON games (game, created_at DESC, id DESC);
CREATE INDEX games_players_idx ON games USING gin (players);

CREATE TABLE events (
    game_id         uuid        NOT NULL REFERENCES games (id),
    -- 1 for the creation event, then one more per stored move.
    version         integer     NOT NULL CHECK (version >= 1),
    -- The global position, for readers that follow every game. Identity values are
    -- handed out when the row is inserted, not when it commits, so a reader must not
    -- follow position alone: see transaction_id.
    position        bigint      NOT NULL GENERATED ALWAYS AS IDENTITY,
    -- The inserting transaction. A reader of the global log only takes events whose
    -- transaction is older than every transaction still running
    -- (pg_snapshot_xmin(pg_current_snapshot())), in (transaction_id, position) order:
    -- an event that commits late can then never fall behind a reader's checkpoint.
    transaction_id  xid8        NOT NULL DEFAULT pg_current_xact_id(),
    type            text        NOT NULL,
    data            jsonb       NOT NULL,
    idempotency_key text,
    request_hash    bytea,
    recorded_at     timestamptz NOT NULL DEFAULT now(),
    -- Optimistic concurrency for free: two appends of the same version collide here
    -- and exactly one commits.
    CONSTRAINT events_pkey PRIMARY KEY (game_id, version),
    -- A retried request (same Idempotency-Key) can never store a second event.
    CONSTRAINT events_idempotency_key_key UNIQUE (game_id, idempotency_key),
    CONSTRAINT events_position_key UNIQUE (position)
);

-- Reading the global log in commit-safe order, resuming after a checkpoint.
CREATE INDEX events_global_order_idx ON events (transaction_id, position);
