-- The log is the source of truth: every score sheet, replay and projection is folded
-- from it, and a mistake at the table is corrected by a new event (undo), never by
-- rewriting history. So the database itself refuses to change or remove stored rows,
-- whatever the client (a bug, a hand-typed psql session): UPDATE, DELETE and TRUNCATE
-- on events and games raise an error. Statement-level triggers fire even when no row
-- matches, so such a statement always fails; TRUNCATE only has statement triggers.

CREATE FUNCTION refuse_change_to_append_only_table() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% on % is not allowed: the table is append-only', TG_OP, TG_TABLE_NAME
        USING HINT = 'Append a correcting event instead.';
END;
$$;

CREATE TRIGGER events_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_to_append_only_table();

CREATE TRIGGER games_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON games
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_to_append_only_table();
