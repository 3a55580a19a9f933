-- Readiness (GET /health/ready, service/storage/readiness.py) compares the migrations
-- a database has with the ones this release ships, and it asks as the serving role:
-- that role may read the runner's schema_migrations, never write it. Only the owner,
-- running the migrations, records one. grant_serving_role() (0006) leaves this table
-- alone, so the grant stays as it is set here.
GRANT SELECT ON schema_migrations TO tablelog_app;
