"""The sample games: one export (NDJSON) per game and edition, played to the end.

They ship inside the package so that an installed `tablelog seed` loads them; the
score sheets and replays beside them are golden files for the tests, and
`python -m seeds.generate` writes all of them.
"""
