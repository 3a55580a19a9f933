-- Imports remembered by their content, so the same file cannot make a second game.
-- The digest is a SHA-256 of the file as its lines decode (service/application/
-- exchange.py: key order and spacing do not count); the key refuses the second
-- import, even one racing the first from another process. Written in the import's
-- own transaction and, like the log, never changed.
CREATE TABLE imports (
    digest      bytea       PRIMARY KEY,
    game_id     uuid        NOT NULL UNIQUE REFERENCES games (id),
    imported_at timestamptz NOT NULL DEFAULT now()
);

CREATE TRIGGER imports_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON imports
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_to_append_only_table();

-- Games the projection runner (service/readside/projector.py) could not fold: each is
-- set aside here, with the version it stopped at and why, so the runner goes on with
-- the rest of the log instead of retrying one event for ever. A game is tried again
-- on its next event and every so often; once it folds its row is deleted. This is
-- the runner's bookkeeping, not history: it may be updated and emptied, and
-- `tablelog projections rebuild` starts it afresh.
CREATE TABLE projection_failures (
    game_id     uuid        PRIMARY KEY,
    version     integer     NOT NULL,
    error       text        NOT NULL,
    attempts    integer     NOT NULL DEFAULT 1,
    failed_at   timestamptz NOT NULL DEFAULT now(),
    retried_at  timestamptz NOT NULL DEFAULT now()
);
