-- A game played again (POST /games/{id}/rematch, ruling T4) names the game it
-- follows, written with its row as a variation's original is: the `games` table is
-- append-only. A game is played again once: two phones tapping "Play again" on the
-- same game make one next game, the second request is told of the first's, and a
-- request that lost its answer finds the game it made (see
-- service/application/rematches.py). The key decides between two that race.
ALTER TABLE games ADD COLUMN rematch_of uuid
    CONSTRAINT games_played_again_once UNIQUE REFERENCES games (id);
