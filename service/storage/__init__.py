"""PostgreSQL: the event store, the migrations that shape it, and the embedded server
used when no DATABASE_URL is given."""
