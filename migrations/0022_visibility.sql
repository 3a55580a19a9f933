-- Who sees a game (service/application/visibility.py): `public` (listed, in the
-- feed and on the global ladders), `unlisted` (read by whoever has its address,
-- listed nowhere) or `members` (read only with a live key of its group or the
-- game's write token; to anyone else it does not exist). Fixed at the game's
-- creation and written with its row, as its group is: the `games` table is
-- append-only. Every game stored before this was public.
ALTER TABLE games ADD COLUMN visibility text NOT NULL DEFAULT 'public'
    CHECK (visibility IN ('public', 'unlisted', 'members'));
-- Only a group's games are members-only: a game of no group has no members.
ALTER TABLE games ADD CONSTRAINT games_members_have_a_group
    CHECK (visibility <> 'members' OR group_name IS NOT NULL);

-- A group's default visibility for the games created in it from then on: a row
-- per change, the latest in force, as a key's role is (migration 0021).
CREATE TABLE group_visibilities (
    seq         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    group_id    uuid        NOT NULL REFERENCES groups (id),
    visibility  text        NOT NULL
        CHECK (visibility IN ('public', 'unlisted', 'members')),
    at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX group_visibilities_latest ON group_visibilities (group_id, seq DESC);

CREATE TRIGGER group_visibilities_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON group_visibilities
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_to_append_only_table();

-- The groups there are now had every game public: they stay so until their owner
-- says otherwise. A group made from now on says its own (members by default).
INSERT INTO group_visibilities (group_id, visibility)
SELECT id, 'public' FROM groups ORDER BY created_at, id;
