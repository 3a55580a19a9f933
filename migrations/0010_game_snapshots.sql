-- Snapshots of long games: the state in force at some version, so that the first read
-- of a game no process holds folds only the moves after it (service/application/
-- snapshots.py). A disposable read model: never needed for a correct answer, so every
-- row may be deleted at any time and each game is folded from its log again. One row
-- a game, replaced by a later one; `engine` names the code that folded it, and a row
-- of other code is ignored.
CREATE TABLE game_snapshots (
    game_id    uuid PRIMARY KEY REFERENCES games (id),
    version    integer NOT NULL CHECK (version >= 1),
    engine     text NOT NULL,
    data       bytea NOT NULL,
    written_at timestamptz NOT NULL DEFAULT now()
);

-- Not append-only: the serving role may replace a game's snapshot.
SELECT grant_serving_role();
