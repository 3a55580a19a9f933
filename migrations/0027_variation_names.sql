-- A variation's name, and whether it is hidden from its game's list of variations
-- (service/application/variations.py). Like the log, append-only: a rename or a
-- hiding is a later row, and what is in force is the variation's latest row that
-- says it (its latest `name`, its latest `hidden`). A variation's rows are numbered
-- 1, 2, ... in the order they were stored.
CREATE TABLE variation_names (
    variation_id uuid        NOT NULL REFERENCES games (id),
    entry        integer     NOT NULL CHECK (entry >= 1),
    name         text        CHECK (char_length(name) BETWEEN 1 AND 80),
    hidden       boolean,
    recorded_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT variation_names_pkey PRIMARY KEY (variation_id, entry),
    CONSTRAINT variation_names_say_something
        CHECK (name IS NOT NULL OR hidden IS NOT NULL)
);

CREATE TRIGGER variation_names_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON variation_names
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_to_append_only_table();
