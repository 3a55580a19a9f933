"""Playing cards: K7 (the reveal and the Angry Donkeys' flips), K8 (values), K2."""

from __future__ import annotations

import msgspec
import pytest

from domain.double_donkey import DOUBLE_DONKEY
from domain.double_donkey import events as ev
from domain.double_donkey.moves import Reveal
from domain.double_donkey.view import view
from domain.history import Codec
from tests.domain.double_donkey.given import (
    EXAMPLE_HAY,
    after,
    angry,
    at_reveal,
    dd,
    refused,
    when,
)
from tests.domain.specification import english

# EXAMPLE_HAY: light blue 2, orange 5, purple 1, green 2, dark blue 3, yellow 2.
ONE_EACH = {
    "Olivia": (dd("orange", "green"),),
    "Fran": (dd("light_blue", "yellow"),),
    "Jan": (dd("purple", "yellow"),),
    "Margaret": (dd("dark_blue", "purple"),),
}


def of_type(events, kind):
    return [e for e in events if isinstance(e, kind)]


def test_revealed_cards_leave_the_hands_and_are_valued_K7_K8():
    state = at_reveal(EXAMPLE_HAY)
    events = when(state, Reveal(ONE_EACH))
    assert events[0] == ev.CardsRevealed(ONE_EACH)
    assert of_type(events, ev.CardsValued) == [
        ev.CardsValued({"Olivia": (7,), "Fran": (4,), "Jan": (3,), "Margaret": (4,)})
    ]
    assert not of_type(events, ev.DiceFlipped)


def test_a_double_donkey_is_worth_the_sum_of_its_two_colours_dice_K8():
    cards = {**ONE_EACH, "Olivia": (dd("orange", "dark_blue"), dd("green", "yellow"))}
    values = of_type(when(at_reveal(EXAMPLE_HAY), Reveal(cards)), ev.CardsValued)
    assert values[0].values["Olivia"] == (8, 4)


def test_each_angry_donkey_flips_its_die_to_the_opposite_face_K7():
    cards = {**ONE_EACH, "Olivia": (angry("purple"),), "Fran": (angry("yellow"),)}
    events = when(at_reveal(EXAMPLE_HAY), Reveal(cards))
    flipped = of_type(events, ev.DiceFlipped)
    assert flipped == [
        ev.DiceFlipped(("purple", "yellow"), {**EXAMPLE_HAY, "purple": 6, "yellow": 5})
    ]


def test_values_are_counted_after_all_flips_K8():
    """An Angry Donkey is worth its die after the flip; so is every Double Donkey."""
    cards = {
        "Olivia": (angry("purple"),),
        "Fran": (dd("purple", "dark_blue"),),
        "Jan": (angry("green"), dd("green", "orange")),
        "Margaret": (dd("light_blue", "yellow"),),
    }
    values = of_type(when(at_reveal(EXAMPLE_HAY), Reveal(cards)), ev.CardsValued)
    assert values[0].values == {
        "Olivia": (6,),
        "Fran": (9,),
        "Jan": (5, 10),
        "Margaret": (4,),
    }


def test_a_player_revealing_no_card_is_refused_K7():
    error = refused(at_reveal(), Reveal({**ONE_EACH, "Jan": ()}))
    assert error.rule == "K7" and "Jan" in english(error)


def test_a_player_left_out_of_the_reveal_is_refused_K7():
    cards = {p: c for p, c in ONE_EACH.items() if p != "Fran"}
    assert refused(at_reveal(), Reveal(cards)).rule == "K7"


def test_a_player_revealing_four_cards_is_refused_K7():
    four = (dd("orange", "green"),) * 4
    assert refused(at_reveal(), Reveal({**ONE_EACH, "Jan": four})).rule == "K7"
    wire = {"type": "reveal", "cards": {"Jan": [{"angry": "green"}] * 4}}
    with pytest.raises(msgspec.ValidationError):
        Codec(DOUBLE_DONKEY).move_from_builtins(wire)


def test_a_player_cannot_reveal_more_cards_than_they_hold_K7():
    state = at_reveal(hands=(3, 2, 3, 3))
    three = (dd("orange", "green"),) * 3
    error = refused(state, Reveal({**ONE_EACH, "Fran": three}))
    assert error.rule == "K7" and "1 to 2" in english(error)


def test_someone_who_is_not_playing_cannot_reveal_K7():
    cards = {**ONE_EACH, "Zoe": (dd("orange", "green"),)}
    assert refused(at_reveal(), Reveal(cards)).rule == "K7"


def test_a_player_with_an_empty_hand_reveals_nothing_K7():
    """Rulings silent: only a Biggest Donkey holder with nothing left to draw can hold
    no card while their personal pile is not empty; they sit the reveal out."""
    state = at_reveal(hands=(3, 0, 3, 3))
    others = {p: c for p, c in ONE_EACH.items() if p != "Fran"}
    assert view(state).choices == {"reveal": {"cards": list(others)}}
    assert after(state, Reveal(others)).hands[1] == 0
    assert refused(state, Reveal(ONE_EACH)).rule == "K7"


def test_a_double_donkey_of_one_colour_is_refused_K2():
    cards = {**ONE_EACH, "Jan": (dd("green", "green"),)}
    assert refused(at_reveal(), Reveal(cards)).rule == "K2"


def test_two_angry_donkeys_of_one_colour_in_a_reveal_are_refused_K2():
    cards = {**ONE_EACH, "Olivia": (angry("green"),), "Jan": (angry("green"),)}
    error = refused(at_reveal(), Reveal(cards))
    assert error.rule == "K2" and "green" in english(error)


def test_any_pair_of_colours_is_accepted_however_often_it_is_played_K2():
    cards = {p: (dd("orange", "green"),) * 3 for p in ONE_EACH}
    state = after(at_reveal(), Reveal(cards))
    assert state.revealed == tuple(cards.items())


def test_the_reveal_and_its_values_are_public_K7_K8():
    cards = {**ONE_EACH, "Olivia": (angry("purple"),)}
    public = view(after(at_reveal(EXAMPLE_HAY), Reveal(cards)))
    assert public.revealed["Olivia"] == [angry("purple")]
    assert public.values["Olivia"] == [6]
