-- Sample games (`tablelog seed`, service/application/samples.py): games to read and
-- replay at once, which are no one's record. A group marked sample holds them; its
-- games are on no game's own ladder and in no player's record, only on its group's
-- ladder (projections/ratings.py, service/readside/records.py). The mark is made
-- with the group and never taken back: every game of the group is a sample from
-- its creation, so a ladder rebuilt from the log leaves out the same games.
CREATE TABLE sample_groups (
    group_id    uuid        PRIMARY KEY REFERENCES groups (id),
    marked_at   timestamptz NOT NULL DEFAULT now()
);

-- The samples loaded before samples had a group: a game's group is its row's, and
-- its row is never changed, so these stay games of no group, samples by this row.
CREATE TABLE ungrouped_samples (
    game_id     uuid        PRIMARY KEY REFERENCES games (id),
    marked_at   timestamptz NOT NULL DEFAULT now()
);

-- Whether the sample games are removed (`tablelog seed --remove`) or shown (`tablelog
-- seed` again): a row per change, the latest in force; none, shown. A removed
-- sample is, to every reader, a game that does not exist
-- (service/application/visibility.py); its rows stay, as every row does.
CREATE TABLE sample_removals (
    seq         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    removed     boolean     NOT NULL,
    at          timestamptz NOT NULL DEFAULT now()
);

CREATE TRIGGER sample_groups_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON sample_groups
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_to_append_only_table();
CREATE TRIGGER ungrouped_samples_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON ungrouped_samples
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_to_append_only_table();
CREATE TRIGGER sample_removals_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON sample_removals
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_to_append_only_table();

-- `tablelog seed` gives each sample it loads the id uuid5(SAMPLES_NAMESPACE, its
-- file name) (service/application/samples.py), so the samples it ships are known by
-- their ids: these are they, each marked if this database holds it as a game of no
-- group. A sample loaded from another folder (--seeds) has an id no list can give:
-- it stays an ordinary game. A variation is seen as the game it branches from is:
-- the variations of those samples (and theirs) are marked too, as a variation
-- branched from one later is (service/storage/games.py).
WITH RECURSIVE samples (id) AS (
    SELECT id FROM games
    WHERE group_name IS NULL AND id IN (
        'f3e40f8c-7a2f-54ae-b9a7-f6e114f24c09',  -- dobro-french-scale.ndjson
        'd8f37384-90d5-57ea-a15b-dcd33147a693',  -- dobro-pixar-friday-night.ndjson
        '28cc9e45-3e79-5ac9-8cad-c6a9e8dcdac8',  -- dobro-two-players.ndjson
        '5d752f9e-f700-5703-8ec9-8ad4b30883ac',  -- double-donkey-four-players.ndjson
        '8fd2e336-fbb8-56d2-b1cd-a2aaf67f6f85',  -- double-donkey-two-players.ndjson
        '0f6a403b-6076-50fe-820d-996130e9e84b',  -- dozito-three-players.ndjson
        '7935f649-5ee2-53df-be9c-319bb6f9c8ba'   -- dozito-two-players.ndjson
    )
    UNION
    SELECT g.id FROM games g JOIN samples s ON g.variation_of = s.id
    WHERE g.group_name IS NULL
)
INSERT INTO ungrouped_samples (game_id)
SELECT id FROM samples ORDER BY id;

-- Those samples were rated on their games' own ladders: the ratings are folded
-- again from the log's start, which leaves them out (the game list stays as it
-- is: a summary only moves forward). A database without them keeps its ratings.
DO $$
BEGIN
    IF EXISTS (SELECT FROM ungrouped_samples) THEN
        TRUNCATE rated_games, rating_history, ratings;
        UPDATE projection_checkpoints SET transaction = 0, position = 0
        WHERE name = 'game_summaries';
    END IF;
END;
$$;
