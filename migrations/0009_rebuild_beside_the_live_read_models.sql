-- `tablelog projections rebuild` folds the whole log into new tables beside the live
-- read models, batch by batch, each batch its own short transaction, and then swaps
-- them in at once (service/readside/projector.py). Not one transaction for the whole
-- rebuild: it would hold a transaction id all along, and every reader of the global
-- log (the live streams, the feed, the projection runner) reads only below the oldest
-- running one, so all of them would stand still until it ended.
--
-- Read models are disposable, so a table of them may be dropped and replaced; the log
-- never is. The rebuild creates and drops tables: it runs as the tables' owner, like
-- the migrations, and gives the serving role its rights on the new tables with
-- grant_serving_role() (0006) before the swap commits.

-- An empty copy of a read model's table, `<table>_rebuilt`: the same columns,
-- defaults, generated columns, constraints and indexes. A copy left by a rebuild
-- that stopped half-way is dropped first.
CREATE FUNCTION start_rebuild(live regclass) RETURNS regclass
LANGUAGE plpgsql AS $$
DECLARE
    rebuilt text := (SELECT relname FROM pg_class WHERE oid = live) || '_rebuilt';
BEGIN
    EXECUTE format('DROP TABLE IF EXISTS %I', rebuilt);
    EXECUTE format('CREATE TABLE %I (LIKE %s INCLUDING ALL)', rebuilt, live);
    RETURN rebuilt::regclass;
END;
$$;

-- The rebuilt table takes the live one's place and its name, and each of its indexes
-- the name of the live index it copies (a copy's indexes are named after the copy,
-- and a later migration may name an index: it must find the one it knows). An index
-- is matched by what it indexes: its definition after "USING", with its uniqueness.
-- The constraints of a copy already bear the live names, but for the primary key's,
-- which is its index's name and follows it.
CREATE FUNCTION swap_in_rebuilt(live regclass, rebuilt regclass) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    name text := (SELECT relname FROM pg_class WHERE oid = live);
    old record;
    copy regclass;
BEGIN
    CREATE TEMPORARY TABLE live_indexes ON COMMIT DROP AS
        SELECT c.relname AS index_name, i.indisunique AS is_unique,
               substring(pg_get_indexdef(i.indexrelid) FROM ' USING .*$') AS indexes
        FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE i.indrelid = live;
    EXECUTE format('DROP TABLE %s', live);
    EXECUTE format('ALTER TABLE %s RENAME TO %I', rebuilt, name);
    FOR old IN SELECT * FROM live_indexes LOOP
        SELECT i.indexrelid::regclass INTO copy
        FROM pg_index i
        WHERE i.indrelid = rebuilt
          AND i.indisunique = old.is_unique
          AND substring(pg_get_indexdef(i.indexrelid) FROM ' USING .*$') = old.indexes;
        IF copy IS NULL THEN
            RAISE EXCEPTION 'the rebuilt % has no index like %', name, old.index_name;
        END IF;
        EXECUTE format('ALTER INDEX %s RENAME TO %I', copy, old.index_name);
    END LOOP;
    DROP TABLE live_indexes;
END;
$$;
