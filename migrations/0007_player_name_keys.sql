-- A player's records (GET /players/{name}, GET /games?player=) match names without
-- regard to case, invisible characters or Unicode's forms (domain/names.py): "Aná"
-- typed composed or decomposed, "ANÁ" and "Aná" followed by a zero-width space are
-- one player. Names stay stored as typed; each summary row also keeps the keys of
-- its players' names, a generated column, so the projection runner need not know.

-- The key of one name: without format characters (Unicode's Cf: zero-width
-- spaces and joiners, direction marks, ...) or blank letters, in compatibility form
-- (NFKC), trimmed and lower case. Case is folded with Unicode's rules whatever the
-- database's locale: with the builtin C.UTF-8 collation (PostgreSQL 17 and later),
-- else ICU's, else the database's own.
DO $migration$
DECLARE
    folding text := CASE
        WHEN EXISTS (SELECT FROM pg_collation WHERE collname = 'pg_c_utf8')
            THEN ' COLLATE pg_c_utf8'
        WHEN EXISTS (SELECT FROM pg_collation WHERE collname = 'und-x-icu')
            THEN ' COLLATE "und-x-icu"'
        ELSE ''
    END;
BEGIN
    EXECUTE format($function$
        CREATE FUNCTION player_key(name text) RETURNS text
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $body$
            SELECT normalize(lower(btrim(normalize(regexp_replace(name,
                '[\u00AD\u0600-\u0605\u061C\u06DD\u070F\u0890-\u0891\u08E2\u180E'
                '\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF'
                '\uFFF9-\uFFFB\U000110BD\U000110CD\U00013430-\U00013438'
                '\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0001'
                '\U000E0020-\U000E007F\u115F\u1160\u3164\uFFA0\u2800]',
                '', 'g'), NFKC))%s), NFKC)
        $body$
    $function$, folding);
END
$migration$;

CREATE FUNCTION player_keys(names text[]) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
-- Fixed here: a generated column is computed again on a restore, whose search_path
-- is empty.
SET search_path FROM CURRENT
AS $$ SELECT coalesce(array_agg(player_key(name)), '{}') FROM unnest(names) AS name $$;

ALTER TABLE game_summaries
    ADD COLUMN player_keys text[] GENERATED ALWAYS AS (player_keys(players)) STORED;

-- The players' keys are what the read side looks names up by now.
CREATE INDEX game_summaries_player_keys_idx ON game_summaries USING gin (player_keys);
DROP INDEX game_summaries_players_idx;
