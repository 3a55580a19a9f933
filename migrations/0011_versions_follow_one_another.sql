-- A game's versions follow one another: every event but a game's creation (version 1)
-- comes right after one already in the log. A fold reads a game's rows in version
-- order and takes them as consecutive, so a gap (an append after a wrong reading of
-- the game, a row typed by hand) would make every later read of the game fail; the
-- database refuses it, whoever writes.
--
-- One probe of the primary key for each row stored. The trigger runs AFTER each row,
-- when the whole statement's rows are in: a statement that stores several moves of a
-- game (an import, the shared commits of service/storage/commits.py) or a restore's
-- COPY may list them in any order. A version taken already is skipped by the key
-- (ON CONFLICT DO NOTHING) before any trigger, and a row of a game that does not exist
-- is refused first by the foreign key (its trigger's name sorts before this one).
-- The table is named with its schema, fixed now: a restore runs with an empty
-- search_path, and a SET clause on the function would cost every append.
DO $migration$
BEGIN
    EXECUTE format($function$
        CREATE FUNCTION refuse_a_gap_in_versions() RETURNS trigger
        LANGUAGE plpgsql AS $body$
        BEGIN
            IF NEW.version > 1 AND NOT EXISTS (
                SELECT FROM %I.events
                WHERE game_id = NEW.game_id AND version = NEW.version - 1
            ) THEN
                RAISE EXCEPTION 'version %% of game %% does not follow a stored version',
                        NEW.version, NEW.game_id
                    USING ERRCODE = 'integrity_constraint_violation',
                          HINT = 'Append the version after the latest stored one.';
            END IF;
            RETURN NULL;
        END;
        $body$
    $function$, current_schema());
END
$migration$;

CREATE TRIGGER events_versions_follow_one_another
    AFTER INSERT ON events
    FOR EACH ROW EXECUTE FUNCTION refuse_a_gap_in_versions();
