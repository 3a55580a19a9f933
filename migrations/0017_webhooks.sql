-- Webhooks: an app's endpoints, told of what is stored (service/application/webhooks.py,
-- service/readside/deliverer.py). An endpoint belongs to the app key that registered
-- it, and is never changed: its secrets, its switches on and off and the attempts to
-- deliver to it are rows of their own, appended. The one row that moves is each
-- endpoint's checkpoint in the global log, as the projection runner's does.
CREATE TABLE webhook_endpoints (
    id          uuid        PRIMARY KEY,
    app_key     uuid        NOT NULL REFERENCES app_keys (id),
    url         text        NOT NULL CHECK (length(url) BETWEEN 1 AND 2000),
    kinds       text[]      NOT NULL,
    -- Only the events of this game, of games of this kind, or of this group's games.
    game_id     uuid,
    game        text,
    group_name  text,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_by_key ON webhook_endpoints (app_key, created_at);

-- The signing secrets: the newest signs, and the one before it too until it expires
-- (a rotation's overlap).
CREATE TABLE webhook_secrets (
    endpoint_id uuid        NOT NULL REFERENCES webhook_endpoints (id),
    secret      text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
    expires_at  timestamptz,
    PRIMARY KEY (endpoint_id, created_at)
);

-- Each switch of an endpoint off (with why) or on again; the latest is in force.
CREATE TABLE webhook_switches (
    endpoint_id uuid        NOT NULL REFERENCES webhook_endpoints (id),
    enabled     boolean     NOT NULL,
    reason      text        NOT NULL,
    at          timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (endpoint_id, at)
);

-- Every attempt to deliver an event: its webhook-id (the same on every attempt),
-- where the event stands in the global log, and what the endpoint answered.
CREATE TABLE webhook_attempts (
    id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    endpoint_id uuid        NOT NULL REFERENCES webhook_endpoints (id),
    message_id  text        NOT NULL,
    kind        text        NOT NULL,
    game_id     uuid        NOT NULL,
    version     integer     NOT NULL,
    attempt     integer     NOT NULL CHECK (attempt >= 1),
    status      integer,
    error       text,
    milliseconds integer    NOT NULL,
    by_hand     boolean     NOT NULL DEFAULT false,
    at          timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX webhook_attempts_by_endpoint ON webhook_attempts (endpoint_id, id);

CREATE TRIGGER webhook_endpoints_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON webhook_endpoints
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_to_append_only_table();
CREATE TRIGGER webhook_secrets_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON webhook_secrets
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_to_append_only_table();
CREATE TRIGGER webhook_switches_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON webhook_switches
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_to_append_only_table();
CREATE TRIGGER webhook_attempts_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON webhook_attempts
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_to_append_only_table();

-- How far each endpoint has been told: the last event delivered or given up on.
CREATE TABLE webhook_checkpoints (
    endpoint_id uuid    PRIMARY KEY REFERENCES webhook_endpoints (id),
    transaction bigint  NOT NULL,
    position    bigint  NOT NULL
);
