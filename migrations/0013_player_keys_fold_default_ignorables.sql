-- A player's key (0007) folds every default-ignorable code point, as
-- domain/names.py's name_key does: "Karen" followed by a variation selector
-- (U+FE0F) or a combining grapheme joiner (U+034F) is "Karen". The ranges are
-- Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, 16.0.0) with
-- the format characters (Cf) and blank letters 0007 already removed.
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
        CREATE OR REPLACE FUNCTION player_key(name text) RETURNS text
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $body$
            SELECT normalize(lower(btrim(normalize(regexp_replace(name,
                '[\u00AD\u034F\u0600-\u0605\u061C\u06DD\u070F\u0890-\u0891\u08E2'
                '\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F'
                '\uFE00-\uFE0F\uFEFF\uFFF0-\uFFFB\U000110BD\U000110CD'
                '\U00013430-\U00013438\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A'
                '\U000E0000-\U000E0FFF\u115F\u1160\u3164\uFFA0\u2800]',
                '', 'g'), NFKC))%s), NFKC)
        $body$
    $function$, folding);
END
$migration$;

-- The summaries' keys are a stored generated column: computed again here, for the
-- names stored before. The summaries are a read model, which the owner may rewrite.
UPDATE game_summaries SET players = players;
