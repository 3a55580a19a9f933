-- A game may be abandoned (ruling T2): the game list holds that status too.
ALTER TABLE game_summaries DROP CONSTRAINT game_summaries_status_check;
ALTER TABLE game_summaries ADD CONSTRAINT game_summaries_status_check
    CHECK (status IN ('in_progress', 'finished', 'abandoned'));
