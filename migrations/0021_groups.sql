-- Groups: a family, a club, a game night, owned by the keys of its members
-- (service/application/groups.py). A group's name is read as a player's name is and
-- is never changed, so it stays the link between a game and its group
-- (`games.group_name`, the ladders' `player_key(group_name)`); two groups cannot
-- share a name as names are compared (`name_key`).
--
-- A key (`tlg_...`, shown once: only its SHA-256 is kept) is one device's, with a
-- role; an invite (`tli_...`, the same) makes member keys until its uses are spent,
-- it expires or it is revoked. Nothing here is ever changed: a key's role in force is
-- its latest row of `group_key_roles` (`owner`, `member` or `revoked`), an invite's
-- uses are the keys made with it, and a revocation is a row of its own. Every table
-- is append-only, like the log, so the serving role may read and add, never alter:
-- the writes that must not race (the last use of an invite, a group's owner, its
-- limits) hold the group's advisory lock for their transaction.
CREATE TABLE groups (
    id          uuid        PRIMARY KEY,
    name        text        NOT NULL CHECK (length(name) BETWEEN 1 AND 40),
    name_key    text        GENERATED ALWAYS AS (player_key(name)) STORED UNIQUE,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE group_invites (
    id          uuid        PRIMARY KEY,
    group_id    uuid        NOT NULL REFERENCES groups (id),
    code_hash   bytea       NOT NULL UNIQUE,
    uses        integer     NOT NULL CHECK (uses BETWEEN 1 AND 100),
    expires_at  timestamptz NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX group_invites_by_group ON group_invites (group_id, created_at);

CREATE TABLE group_invite_revocations (
    invite_id   uuid        PRIMARY KEY REFERENCES group_invites (id),
    revoked_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE group_keys (
    id          uuid        PRIMARY KEY,
    group_id    uuid        NOT NULL REFERENCES groups (id),
    device      text        NOT NULL CHECK (length(device) BETWEEN 1 AND 100),
    key_hash    bytea       NOT NULL UNIQUE,
    -- The invite redeemed for it; NULL for a key made owner (a group's creation,
    -- `tablelog groups claim`).
    invite_id   uuid        REFERENCES group_invites (id),
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX group_keys_by_group ON group_keys (group_id, created_at);
CREATE INDEX group_keys_by_invite ON group_keys (invite_id) WHERE invite_id IS NOT NULL;

CREATE TABLE group_key_roles (
    seq         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    key_id      uuid        NOT NULL REFERENCES group_keys (id),
    role        text        NOT NULL CHECK (role IN ('owner', 'member', 'revoked')),
    at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX group_key_roles_latest ON group_key_roles (key_id, seq DESC);

CREATE TRIGGER groups_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON groups
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_to_append_only_table();
CREATE TRIGGER group_invites_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON group_invites
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_to_append_only_table();
CREATE TRIGGER group_invite_revocations_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON group_invite_revocations
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_to_append_only_table();
CREATE TRIGGER group_keys_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON group_keys
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_to_append_only_table();
CREATE TRIGGER group_key_roles_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON group_key_roles
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_to_append_only_table();

-- The group key a group's game was created (or imported, or branched) with, written
-- with the game's row, as `app_key` is; NULL for a game created without one.
ALTER TABLE games ADD COLUMN group_key uuid REFERENCES group_keys (id);

-- An app key made for one group (`tablelog keys create --group NAME`): the games it
-- creates are that group's. NULL: a key of no group.
ALTER TABLE app_keys ADD COLUMN group_id uuid REFERENCES groups (id);

-- Every group games named before groups were owned becomes one, with no key yet
-- (`tablelog groups claim NAME` makes its owner's): one a name as names are
-- compared, spelt as its oldest game spelt it. Its games stay on its ladder.
INSERT INTO groups (id, name, created_at)
SELECT DISTINCT ON (player_key(group_name)) gen_random_uuid(), group_name, created_at
FROM games
WHERE group_name IS NOT NULL
ORDER BY player_key(group_name), created_at, id;
