-- The ladders follow who sees a game (projections/ratings.py): a game's own ladder
-- rates its public games (with `rated_needs_key`, only those created with a key),
-- a group's ladder all its games, and a group's public part its public games. Each
-- rated game keeps its visibility and whether its game's own ladder rates it, so a
-- game withdrawn (an undo reopened it) refolds the ladders it was on.
ALTER TABLE rated_games ADD COLUMN visibility text NOT NULL DEFAULT 'public';
ALTER TABLE rated_games ADD COLUMN on_global boolean NOT NULL DEFAULT true;

CREATE INDEX rated_games_global_order_idx
    ON rated_games (game, finish_transaction, finish_position) WHERE on_global;

-- The ratings are folded again from the log's start, which rates every finished
-- game on the ladders it is on now (the public part of each group's is new); the
-- game list stays as it is (a summary only moves forward).
TRUNCATE rated_games, rating_history, ratings;
UPDATE projection_checkpoints SET transaction = 0, position = 0
WHERE name = 'game_summaries';
