-- App keys: an app's own credential (`Authorization: Bearer tl_...`), made with
-- `tablelog keys create` and shown once (service/application/keys.py). Only its
-- SHA-256 is kept, unique, so a request's key is found by its hash. A key is never
-- changed: its name, scopes and rate are those it was made with (another rate is
-- another key), and a revocation is a row of its own. Both tables are append-only,
-- like the log, so the serving role may read and add keys, never alter one.
CREATE TABLE app_keys (
    id                   uuid        PRIMARY KEY,
    name                 text        NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    scopes               text[]      NOT NULL,
    -- Games the key may create or import a minute; NULL: the service's
    -- creations_per_minute.
    creations_per_minute integer     CHECK (creations_per_minute > 0),
    key_hash             bytea       NOT NULL UNIQUE,
    created_at           timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE app_key_revocations (
    key_id      uuid        PRIMARY KEY REFERENCES app_keys (id),
    revoked_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TRIGGER app_keys_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON app_keys
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_to_append_only_table();

CREATE TRIGGER app_key_revocations_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON app_key_revocations
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_to_append_only_table();

-- The key a game was created (or imported) with, written with the game's row: that
-- key may write the game as its write token does. NULL for a game created without.
ALTER TABLE games ADD COLUMN app_key uuid REFERENCES app_keys (id);
