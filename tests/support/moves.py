"""Moves of the built-in games written out by hand, for tests that need a legal move
(or a refused one) in a known place of a seeded game."""

from __future__ import annotations

# A Dozito card.
RED_3 = {"color": "red", "number": 3, "suns": 1}
# The first move of a Dozito game: the round starts on these two discards.
DOZITO_START = {
    "type": "start_round",
    "discards": [{"color": "blue", "number": 5}, {"color": "green", "number": 11}],
}
