-- Notes on a game's moves, and variations: games branched from a step of another.
--
-- A note is kept beside the moves, never among them: it changes neither the game's
-- state nor its version, so a move's `expected_version` never has to account for
-- one. Like the log it is append-only: a note is withdrawn by a later entry naming
-- it, and the note stays, so the history of a game's notes is kept. A game's entries
-- (notes and withdrawals) are numbered 1, 2, ... in the order they were stored; a
-- note's number is its id in the API and in an export.
CREATE TABLE move_notes (
    game_id     uuid        NOT NULL REFERENCES games (id),
    entry       integer     NOT NULL CHECK (entry >= 1),
    -- A note: the replay step it is about (0 is the game before any move), its text
    -- and its mark. A withdrawal: only the number of the note it withdraws.
    step        integer     CHECK (step >= 0),
    text        text,
    mark        text        CHECK (mark IN ('!', '?', '!!', '??', '!?', '?!')),
    withdraws   integer,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT move_notes_pkey PRIMARY KEY (game_id, entry),
    CONSTRAINT move_notes_withdrawn_once UNIQUE (game_id, withdraws),
    CONSTRAINT move_notes_withdraws_fkey
        FOREIGN KEY (game_id, withdraws) REFERENCES move_notes (game_id, entry),
    CONSTRAINT move_notes_note_or_withdrawal CHECK (
        CASE WHEN withdraws IS NULL THEN step IS NOT NULL AND text IS NOT NULL
             ELSE step IS NULL AND text IS NULL AND mark IS NULL END)
);

CREATE TRIGGER move_notes_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON move_notes
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_to_append_only_table();

-- A variation is a game of its own that starts as another stood after `step` moves
-- (its log holds those moves again). Where it came from is part of the game, as its
-- title is: set at creation, never changed.
ALTER TABLE games
    ADD COLUMN variation_of   uuid REFERENCES games (id),
    ADD COLUMN variation_step integer CHECK (variation_step >= 0),
    ADD CONSTRAINT games_variation_whole
        CHECK ((variation_of IS NULL) = (variation_step IS NULL));

-- The game list shows where a variation came from; a variation counts in no player's
-- record nor in the list of games played, and a game's variations are listed by it.
ALTER TABLE game_summaries
    ADD COLUMN variation_of   uuid,
    ADD COLUMN variation_step integer;

CREATE INDEX game_summaries_variations_idx
    ON game_summaries (variation_of, created_at DESC, game_id)
    WHERE variation_of IS NOT NULL;
