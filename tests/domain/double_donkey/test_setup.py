"""Set-up and components: K1, K2 (the deck and the card shapes) and K3."""

from __future__ import annotations

import msgspec
import pytest

from domain.double_donkey import DOUBLE_DONKEY
from domain.double_donkey.components import COLORS, Card
from domain.double_donkey.state import Rolling
from domain.double_donkey.table import deck
from domain.errors import RuleError
from tests.domain.double_donkey.given import PLAYERS, new_game, setup


def test_the_rules_are_double_donkey_for_2_to_5_players_K3():
    assert DOUBLE_DONKEY.name == "double-donkey"
    assert (DOUBLE_DONKEY.min_players, DOUBLE_DONKEY.max_players) == (2, 5)


def test_the_six_dice_have_the_six_colours_K1():
    assert COLORS == ("light_blue", "orange", "dark_blue", "purple", "yellow", "green")


def test_the_simulated_deck_has_51_double_donkeys_and_6_angry_donkeys_K2():
    cards = deck()
    doubles = [c for c in cards if c.colors is not None]
    assert len(cards) == 57 and len(doubles) == 51
    assert all(first != second for first, second in (c.colors for c in doubles))
    assert sorted(c.angry for c in cards if c.angry) == sorted(COLORS)


@pytest.mark.parametrize(
    "wire", [b'{"colors": ["orange", "green"]}', b'{"angry": "purple"}']
)
def test_a_card_decodes_from_either_wire_shape_and_encodes_back_K2(wire):
    card = msgspec.json.decode(wire, type=Card)
    assert msgspec.json.decode(msgspec.json.encode(card)) == msgspec.json.decode(wire)


@pytest.mark.parametrize(
    "wire",
    [
        b"{}",
        b'{"colors": ["orange", "green"], "angry": "purple"}',
        b'{"colors": ["orange"]}',
        b'{"colors": ["orange", "green", "yellow"]}',
        b'{"angry": "pink"}',
        b'{"color": "purple"}',
    ],
)
def test_any_other_card_shape_does_not_decode_K2(wire):
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(wire, type=Card)


@pytest.mark.parametrize(("count", "central"), [(2, 37), (3, 27), (4, 17), (5, 7)])
def test_each_player_has_3_cards_in_hand_7_in_the_personal_pile_K3(count, central):
    """Setup: "Deal 10 cards to each player ... draws the top 3 cards from their
    personal pile to create their starting hand"; the rest is the draw pile."""
    state = new_game(PLAYERS[:2] + ("Ann", "Bob", "Cy")[: count - 2])
    assert state.hands == (3,) * count
    assert state.personal_piles == (7,) * count
    assert state.draw_pile == central
    assert (state.discard_pile, state.in_play, state.biggest_donkey) == (0, 0, None)


def test_the_first_player_receives_the_six_dice_K3():
    state = new_game(first="Jan")
    assert state.dice_holder == "Jan" and state.phase == Rolling("Jan")
    assert state.round == 1 and state.hay == ()


@pytest.mark.parametrize("players", [("Ann",), ("A", "B", "C", "D", "E", "F")])
def test_fewer_than_2_or_more_than_5_players_are_refused_K3(players):
    with pytest.raises(RuleError) as refused:
        DOUBLE_DONKEY.initial_state(setup(players))
    assert refused.value.rule == "K3"


def test_two_players_of_one_name_are_refused_K3():
    with pytest.raises(RuleError) as refused:
        DOUBLE_DONKEY.initial_state(setup(("Ann", "Ann")))
    assert refused.value.rule == "K3"


def test_a_first_player_who_is_not_playing_is_refused_K3():
    with pytest.raises(RuleError) as refused:
        DOUBLE_DONKEY.initial_state(setup(first="Zoe"))
    assert refused.value.rule == "K3"


def test_double_donkey_has_no_options():
    with pytest.raises(RuleError) as refused:
        DOUBLE_DONKEY.initial_state(setup(options={"rounds": 3}))
    assert refused.value.rule == "A1"
