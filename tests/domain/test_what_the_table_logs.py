"""What a table logs, for every game: the API's moves and nothing the rules derive
(A3), and no component that has no rule effect (D2)."""

from __future__ import annotations

import msgspec
import pytest

from domain.history import Codec
from domain.registry import BUILT_IN

LOGGED = {
    "dobro": {"play", "skip", "reverse", "take", "forgot_refill", "undo"},
    "dozito": {"start_round", "draw", "place", "discard", "undo"},
    "double-donkey": {"roll", "choose", "last_die", "reveal", "roll_off", "undo"},
}
LOGGED["dobro-pixar"] = LOGGED["dobro"]

DERIVED = [
    {"type": "refill", "player": "Ann", "cards": 2},
    {"type": "round_scored", "round": 1},
    {"type": "next_round", "starter": "Ann"},
    {"type": "reshuffle"},
    {"type": "biggest_donkey", "player": "Ann"},
    {"type": "game_ended", "winners": ["Ann"]},
]


@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_the_table_logs_exactly_the_moves_of_the_api_A3(name):
    moves = {m.__struct_config__.tag for m in BUILT_IN[name].moves} | {"undo"}
    assert moves == LOGGED[name]


@pytest.mark.parametrize("name", sorted(BUILT_IN))
@pytest.mark.parametrize("body", DERIVED, ids=lambda b: b["type"])
def test_what_the_rules_derive_cannot_be_logged_A3(name, body):
    with pytest.raises(msgspec.ValidationError):
        Codec(BUILT_IN[name]).move_from_builtins(body)


@pytest.mark.parametrize("name", ["dobro", "dobro-pixar"])
def test_the_dobrei_card_is_not_a_card_that_can_be_played_D2(name):
    body = {"type": "play", "player": "Ann", "cards": ["dobrei"]}
    with pytest.raises(msgspec.ValidationError):
        Codec(BUILT_IN[name]).move_from_builtins(body)
