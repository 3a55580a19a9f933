"""The tablelog service: everything that knows HTTP, SQL or the shell.

One subpackage per job:

- `application`: the use cases (create a game, log a move, export and import) as
  load → decide → append, on top of `domain/` and `storage`;
- `storage`: the PostgreSQL event store, the migrations runner, the embedded server;
- `readside`: what follows the log after a write (live streams, the projection runner)
  and the queries on the read models it keeps;
- `http`: the Litestar app, its routes, problem details and wire shapes, the web page;
- `cli`: the `tablelog` command.

Imports point one way: `cli` → `http` → `readside` → `application` → `storage`, and
all of them → `domain/`, `projections/`. Nothing below imports anything above it.
"""
