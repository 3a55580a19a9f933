"""The API's wire shapes: Double Donkey's moves as clients send them, and the
public state's fields."""

from __future__ import annotations

import msgspec

from domain.double_donkey import DOUBLE_DONKEY
from domain.double_donkey.moves import Choose, LastDie, Reveal, Roll, RollOff
from domain.history import Codec
from tests.domain.double_donkey.given import angry, dd, new_game

CODEC = Codec(DOUBLE_DONKEY)


def test_the_api_examples_decode_into_moves():
    def decode(text: str):
        return CODEC.move_from_builtins(msgspec.json.decode(text))

    assert decode(
        '{"type": "roll", "player": "Olivia", "dice": {"light_blue": 2, "orange": 5}}'
    ) == Roll("Olivia", {"light_blue": 2, "orange": 5})
    assert decode(
        '{"type": "choose", "player": "Olivia", "color": "light_blue"}'
    ) == Choose("Olivia", "light_blue")
    assert decode('{"type": "last_die", "player": "Fran", "reroll": null}') == LastDie(
        "Fran", None
    )
    assert decode(
        '{"type": "reveal", "cards": {"Olivia": [{"colors": ["orange", "green"]}],'
        ' "Fran": [{"angry": "purple"}]}}'
    ) == Reveal({"Olivia": (dd("orange", "green"),), "Fran": (angry("purple"),)})
    assert decode('{"type": "roll_off", "rolls": {"Olivia": 5, "Fran": 3}}') == RollOff(
        {"Olivia": 5, "Fran": 3}
    )


def test_moves_encode_back_to_the_api_shapes():
    move = Reveal({"Olivia": (dd("orange", "green"), angry("purple"))})
    assert msgspec.json.decode(msgspec.json.encode(move)) == {
        "type": "reveal",
        "cards": {"Olivia": [{"colors": ["orange", "green"]}, {"angry": "purple"}]},
    }


def test_the_public_state_has_the_fields_of_the_api():
    public = msgspec.to_builtins(DOUBLE_DONKEY.view(new_game()))
    assert {
        "round": 1,
        "phase": "roll",
        "next_player": "Olivia",
        "dice_holder": "Olivia",
        "hay": {},
        "hand_sizes": {"Olivia": 3, "Fran": 3, "Jan": 3, "Margaret": 3},
        "personal_piles": {"Olivia": 7, "Fran": 7, "Jan": 7, "Margaret": 7},
        "draw_pile_size": 17,
        "biggest_donkey": None,
    }.items() <= public.items()
