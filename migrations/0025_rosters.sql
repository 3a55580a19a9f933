-- A group's roster (service/application/rosters.py): the people who play in it, each
-- with an id of their own, so that a typo does not split one person in two and
-- two Karens of two clubs are two people.
--
-- The roster's changes are the group's own log (`roster_changes`, append-only, like
-- the games' log), and it holds ids only. A person's name is personal data, so it
-- lives apart, in `roster_names`, which is not append-only: a name may be taken
-- out of the database on request. A player's name in force is their latest row
-- there. Names are unique in a group as names are compared (`player_key`, among
-- the names in force); the writes that could race hold the group's advisory lock,
-- as the group's other limits do (migration 0021).
CREATE TABLE roster_players (
    id          uuid        PRIMARY KEY,
    group_id    uuid        NOT NULL REFERENCES groups (id),
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX roster_players_by_group ON roster_players (group_id, created_at);

CREATE TABLE roster_changes (
    seq         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    group_id    uuid        NOT NULL REFERENCES groups (id),
    player_id   uuid        NOT NULL REFERENCES roster_players (id),
    -- `added` once, then `retired` and `returned` in turn: whether a player is
    -- retired is their latest of those two.
    change      text        NOT NULL CHECK (change IN ('added', 'retired', 'returned')),
    at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX roster_changes_by_player ON roster_changes (player_id, seq DESC);
CREATE INDEX roster_changes_by_group ON roster_changes (group_id, seq);

CREATE TRIGGER roster_players_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON roster_players
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_to_append_only_table();
CREATE TRIGGER roster_changes_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON roster_changes
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_to_append_only_table();

CREATE TABLE roster_names (
    seq         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    player_id   uuid        NOT NULL REFERENCES roster_players (id),
    group_id    uuid        NOT NULL REFERENCES groups (id),
    name        text        NOT NULL CHECK (length(name) BETWEEN 1 AND 40),
    name_key    text        GENERATED ALWAYS AS (player_key(name)) STORED,
    at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX roster_names_by_player ON roster_names (player_id, seq DESC);
CREATE INDEX roster_names_by_key ON roster_names (group_id, name_key);

-- The people of the games a group holds already: one player for each of its names
-- as names are compared, spelt as the group's oldest game spelt it.
CREATE TEMPORARY TABLE seated ON COMMIT DROP AS
SELECT DISTINCT ON (g.id, player_key(p.name))
    gen_random_uuid() AS player_id, g.id AS group_id, p.name, games.created_at
FROM games
JOIN groups g ON g.name_key = player_key(games.group_name)
CROSS JOIN LATERAL unnest(games.players) AS p (name)
ORDER BY g.id, player_key(p.name), games.created_at, games.id;

INSERT INTO roster_players (id, group_id, created_at)
SELECT player_id, group_id, created_at FROM seated ORDER BY created_at, player_id;
INSERT INTO roster_changes (group_id, player_id, change, at)
SELECT group_id, player_id, 'added', created_at FROM seated
ORDER BY created_at, player_id;
INSERT INTO roster_names (player_id, group_id, name, at)
SELECT player_id, group_id, name, created_at FROM seated ORDER BY created_at, player_id;
