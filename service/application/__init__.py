"""The application layer: what the service does, free of HTTP.

`Games` creates games and logs moves (load the game, decide the move with its rules,
append the result); `exchange` moves whole games in and out (NDJSON export and import,
BG Stats results). Refusals are the exceptions of `errors`, which the HTTP layer turns
into problem details and the CLI into a message.
"""
