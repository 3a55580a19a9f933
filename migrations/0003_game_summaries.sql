-- Read models kept by the projection runner (service/projector.py). Unlike the event
-- log they are disposable: `tablelog projections rebuild` empties them and folds the
-- whole log again, so they may be updated in place.

CREATE TABLE projection_checkpoints (
    name        text   PRIMARY KEY,
    -- The runner's GlobalPosition in the log: the last event it has folded.
    transaction bigint NOT NULL,
    position    bigint NOT NULL
);

INSERT INTO projection_checkpoints (name, transaction, position)
VALUES ('game_summaries', 0, 0);

-- One row per game: what GET /games lists and GET /players/{name} counts.
CREATE TABLE game_summaries (
    game_id     uuid        PRIMARY KEY,
    game        text        NOT NULL,
    players     text[]      NOT NULL,
    title       text,
    status      text        NOT NULL CHECK (status IN ('in_progress', 'finished')),
    winners     text[]      NOT NULL DEFAULT '{}',
    version     integer     NOT NULL,
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL
);

CREATE INDEX game_summaries_newest_idx ON game_summaries (created_at DESC, game_id);
CREATE INDEX game_summaries_players_idx ON game_summaries USING gin (players);
