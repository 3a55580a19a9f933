-- Players' ratings and records, kept by the projection runner beside the game list
-- (service/readside/ratings.py), and the group a game may name at its creation.

-- The group a table names at creation (a family, a club, a game night), kept as
-- typed, trimmed and composed like a player's name; its key (player_key, 0007 and
-- 0013) is what its games share, however it is spelt.
ALTER TABLE games ADD COLUMN group_name text;

-- Every finished game, rated in the order of its finishing move in the global log
-- (`finish_transaction`, `finish_position`: the log's order, as the runner reads it).
-- `ranks` are the standings of its score sheet (ruling T3), in the order of
-- `players`, which is the seating. A game an undo reopens loses its row; finished
-- again, it comes back at its new finishing move.
CREATE TABLE rated_games (
    game_id            uuid        PRIMARY KEY,
    game               text        NOT NULL,
    group_name         text,
    group_key          text        GENERATED ALWAYS AS (player_key(group_name)) STORED,
    finish_transaction bigint      NOT NULL,
    finish_position    bigint      NOT NULL,
    finished_at        timestamptz NOT NULL,
    players            text[]      NOT NULL,
    player_keys        text[]      GENERATED ALWAYS AS (player_keys(players)) STORED,
    first_player       text        NOT NULL,
    winners            text[]      NOT NULL,
    winner_keys        text[]      GENERATED ALWAYS AS (player_keys(winners)) STORED,
    ranks              integer[]   NOT NULL
);

CREATE INDEX rated_games_order_idx
    ON rated_games (game, finish_transaction, finish_position);
CREATE INDEX rated_games_group_order_idx
    ON rated_games (game, group_key, finish_transaction, finish_position)
    WHERE group_key IS NOT NULL;
CREATE INDEX rated_games_player_keys_idx ON rated_games USING gin (player_keys);

-- A player's rating after each game rated on a ladder: a game's own ladder
-- (`ladder` = '') rates all its games, a group's (`ladder` = the group's key) only
-- that group's. A game withdrawn, or one rated before later games, refolds its
-- ladder from its position only: the rows before it are where the fold starts.
CREATE TABLE rating_history (
    game               text             NOT NULL,
    ladder             text             NOT NULL,
    finish_transaction bigint           NOT NULL,
    finish_position    bigint           NOT NULL,
    player_key         text             NOT NULL,
    player             text             NOT NULL,
    game_id            uuid             NOT NULL,
    rated_at           timestamptz      NOT NULL,
    rank               integer          NOT NULL,
    mu                 double precision NOT NULL,
    sigma              double precision NOT NULL,
    ordinal            double precision NOT NULL,
    rated              integer          NOT NULL,
    wins               integer          NOT NULL,
    PRIMARY KEY (game, ladder, finish_transaction, finish_position, player_key)
);

CREATE INDEX rating_history_player_idx
    ON rating_history (player_key, game, ladder, finish_transaction, finish_position);

-- Each player's latest row of each ladder: the leaderboards.
CREATE TABLE ratings (
    game          text             NOT NULL,
    ladder        text             NOT NULL,
    player_key    text             NOT NULL,
    player        text             NOT NULL,
    mu            double precision NOT NULL,
    sigma         double precision NOT NULL,
    ordinal       double precision NOT NULL,
    rated         integer          NOT NULL,
    wins          integer          NOT NULL,
    last_rated_at timestamptz      NOT NULL,
    PRIMARY KEY (game, ladder, player_key)
);

CREATE INDEX ratings_board_idx ON ratings (game, ladder, ordinal DESC, player_key);

-- The runner folds the log again from its start, which rates the games finished
-- before this migration; the game list it rewrites stays as it is (a summary only
-- moves forward).
UPDATE projection_checkpoints SET transaction = 0, position = 0
WHERE name = 'game_summaries';
