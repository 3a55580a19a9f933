-- Least privilege: the service serves as a role that may read the log and append to
-- it, and keep its read models, and nothing more. It cannot change or remove a
-- stored row, TRUNCATE, disable a trigger (only a table's owner may) or set
-- session_replication_role = replica (only a superuser may), so a hole in the
-- service cannot rewrite history behind the append-only triggers of 0002. The
-- migrations run as the tables' owner (MIGRATION_DATABASE_URL), never the service.
--
-- The serving role is the group role tablelog_app. The embedded server logs in as
-- it; on a server of your own, grant it to the role the service logs in as
-- (GRANT tablelog_app TO ...), or let it log in (ALTER ROLE tablelog_app LOGIN
-- PASSWORD ...). Creating it takes CREATEROLE: an owner without it needs the role
-- made beforehand.

DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'tablelog_app') THEN
        CREATE ROLE tablelog_app NOLOGIN;
    END IF;
EXCEPTION WHEN duplicate_object THEN
    NULL;  -- made meanwhile by the migration of another database on this server
END;
$$;

-- What the serving role may do on each table is read from the tables themselves, so
-- a table added by a later migration needs no grant of its own: a table that carries
-- the append-only trigger is part of the log (SELECT, INSERT); any other is a read
-- model or the service's bookkeeping, which it also updates and empties. The
-- runner's own schema_migrations is not the service's. Sequences: USAGE only, for a
-- serial column (identity columns need none); never UPDATE, which would let setval
-- move the log's positions. The migrations runner calls this after every migration,
-- in the migration's transaction: a later migration that adds, drops or recreates a
-- table leaves the grants right without a line about them.
CREATE FUNCTION grant_serving_role() RETURNS void
LANGUAGE plpgsql AS $grant$
DECLARE
    tables regnamespace := (SELECT relnamespace FROM pg_class
                            WHERE oid = 'events'::regclass);
    t record;
BEGIN
    EXECUTE format('GRANT USAGE ON SCHEMA %s TO tablelog_app', tables);
    FOR t IN
        SELECT c.oid::regclass AS name,
               EXISTS (SELECT FROM pg_trigger g
                       WHERE g.tgrelid = c.oid
                         AND g.tgfoid = 'refuse_change_to_append_only_table'::regproc)
                   AS append_only
        FROM pg_class c
        WHERE c.relnamespace = tables
          AND c.relkind IN ('r', 'p')
          AND c.relname <> 'schema_migrations'
    LOOP
        EXECUTE format('REVOKE ALL ON %s FROM tablelog_app', t.name);
        IF t.append_only THEN
            EXECUTE format('GRANT SELECT, INSERT ON %s TO tablelog_app', t.name);
        ELSE
            EXECUTE format(
                'GRANT SELECT, INSERT, UPDATE, DELETE ON %s TO tablelog_app', t.name);
        END IF;
    END LOOP;
    EXECUTE format('GRANT USAGE ON ALL SEQUENCES IN SCHEMA %s TO tablelog_app', tables);
END;
$grant$;

SELECT grant_serving_role();
