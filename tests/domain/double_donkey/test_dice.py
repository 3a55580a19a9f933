"""Choosing dice: K4 (who rolls, which dice), K5 (new values first), K6 (the last die),
and the rulebook's example round."""

from __future__ import annotations

import msgspec
import pytest

from domain.double_donkey import DOUBLE_DONKEY
from domain.double_donkey.components import COLORS
from domain.double_donkey.moves import Choose, LastDie, Reveal, Roll
from domain.double_donkey.state import Choosing, DecidingLastDie, Revealing, Rolling
from domain.double_donkey.view import view
from domain.history import Codec
from tests.domain.double_donkey.given import (
    EXAMPLE_HAY,
    PLAYERS,
    after,
    dd,
    dice_phase,
    new_game,
    refused,
    setup,
)
from tests.domain.specification import english

ALL_SIX = {
    "light_blue": 2,
    "orange": 5,
    "dark_blue": 4,
    "purple": 6,
    "yellow": 3,
    "green": 1,
}


def test_the_dice_holder_rolls_all_six_dice_then_chooses_one_K4():
    state = after(new_game(), Roll("Olivia", ALL_SIX))
    assert state.phase == Choosing("Olivia", tuple(ALL_SIX.items()))
    assert view(state).rolled == ALL_SIX
    state = after(state, Choose("Olivia", "light_blue"))
    assert state.hay == (("light_blue", 2),)


def test_the_next_player_clockwise_rolls_the_dice_not_on_the_hay_card_K4():
    state = after(new_game(), Roll("Olivia", ALL_SIX), Choose("Olivia", "purple"))
    assert state.phase == Rolling("Fran") and view(state).next_player == "Fran"
    five = {c: 3 for c in COLORS if c != "purple"}
    state = after(state, Roll("Fran", five))
    assert state.phase == Choosing("Fran", tuple(five.items()))


def test_the_last_player_of_the_table_passes_the_roll_to_the_first_K4():
    state = after(new_game(first="Margaret"), Roll("Margaret", ALL_SIX))
    state = after(state, Choose("Margaret", "orange"))
    assert state.phase == Rolling("Olivia")


def test_a_roll_by_a_player_whose_turn_it_is_not_is_refused_K4():
    error = refused(new_game(), Roll("Fran", ALL_SIX))
    assert error.rule == "K4"
    assert english(error) == "It is not Fran's turn: Olivia must roll the dice."


def test_a_choice_by_another_player_is_refused_K4():
    state = after(new_game(), Roll("Olivia", ALL_SIX))
    assert refused(state, Choose("Fran", "orange")).rule == "K4"


def test_a_choice_before_the_roll_is_refused_K4():
    assert refused(new_game(), Choose("Olivia", "orange")).rule == "K4"


def test_rolling_again_instead_of_choosing_is_refused_K4():
    state = after(new_game(), Roll("Olivia", ALL_SIX))
    assert refused(state, Roll("Olivia", ALL_SIX)).rule == "K4"


@pytest.mark.parametrize(
    "dice",
    [
        {c: 2 for c in COLORS if c != "green"},  # a die missing
        {"orange": 2},
    ],
)
def test_a_first_roll_must_name_all_six_dice_K4(dice):
    assert refused(new_game(), Roll("Olivia", dice)).rule == "K4"


def test_a_roll_naming_a_die_already_on_the_hay_card_is_refused_K4():
    state = after(new_game(), Roll("Olivia", ALL_SIX), Choose("Olivia", "orange"))
    owed = [color for color in COLORS if color != "orange"]
    assert view(state).choices == {"roll": {"player": ["Fran"], "dice": owed}}
    error = refused(state, Roll("Fran", ALL_SIX))
    assert error.rule == "K4" and "orange" not in english(error)


@pytest.mark.parametrize("pips", [0, 7])
def test_a_die_shows_1_to_6_pips_K4(pips):
    assert refused(new_game(), Roll("Olivia", {**ALL_SIX, "green": pips})).rule == "K4"


def test_a_roll_with_pips_out_of_range_or_an_unknown_colour_does_not_decode_K1():
    codec = Codec(DOUBLE_DONKEY)
    move = {"type": "roll", "player": "Olivia", "dice": {**ALL_SIX, "green": 7}}
    with pytest.raises(msgspec.ValidationError):
        codec.move_from_builtins(move)
    with pytest.raises(msgspec.ValidationError):
        codec.move_from_builtins({**move, "dice": {"pink": 3}})


def test_choosing_a_die_that_was_not_rolled_is_refused_K4():
    state = after(new_game(), Roll("Olivia", ALL_SIX), Choose("Olivia", "orange"))
    state = after(state, Roll("Fran", {c: 5 for c in COLORS if c != "orange"}))
    assert refused(state, Choose("Fran", "orange")).rule == "K4"


def test_a_die_showing_a_value_on_the_hay_card_is_refused_while_another_is_new_K5():
    state = after(new_game(), Roll("Olivia", ALL_SIX), Choose("Olivia", "orange"))
    five = {"light_blue": 5, "dark_blue": 5, "purple": 5, "yellow": 4, "green": 5}
    state = after(state, Roll("Fran", five))
    error = refused(state, Choose("Fran", "green"))
    assert error.rule == "K5"
    assert after(state, Choose("Fran", "yellow")).hay[-1] == ("yellow", 4)


def test_any_die_may_be_chosen_when_every_rolled_value_is_on_the_hay_card_K5():
    state = after(new_game(), Roll("Olivia", ALL_SIX), Choose("Olivia", "orange"))
    state = after(state, Roll("Fran", {c: 5 for c in COLORS if c != "orange"}))
    assert after(state, Choose("Fran", "green")).hay[-1] == ("green", 5)


def test_the_state_offers_only_the_dice_with_a_new_value_K5():
    state = after(new_game(), Roll("Olivia", ALL_SIX), Choose("Olivia", "orange"))
    five = {"light_blue": 5, "dark_blue": 5, "purple": 5, "yellow": 4, "green": 1}
    state = after(state, Roll("Fran", five))
    assert view(state).choosable == ["yellow", "green"]
    assert view(state).choices == {
        "choose": {"player": ["Fran"], "color": ["yellow", "green"]}
    }


def test_the_state_offers_every_die_when_no_rolled_value_is_new_K5():
    state = after(new_game(), Roll("Olivia", ALL_SIX), Choose("Olivia", "orange"))
    rolled = {c: 5 for c in COLORS if c != "orange"}
    state = after(state, Roll("Fran", rolled))
    assert view(state).choosable == list(rolled)
    assert view(after(state, Choose("Fran", "green"))).choosable == []


@pytest.mark.parametrize("seed", range(6))
def test_the_dice_offered_are_those_decide_accepts_in_simulated_games_K5(seed):
    """Every die of every choice of a seeded game: offered exactly when its value is
    new to the Hay card or no rolled value is (worked out here again), and a die
    not offered is refused with K5."""
    game = setup(PLAYERS[: 2 + seed % 3], seed=seed)
    state, choices = DOUBLE_DONKEY.initial_state(game), 0
    for move in DOUBLE_DONKEY.simulate(game):
        if isinstance(state.phase, Choosing):
            choices += 1
            rolled = dict(state.phase.rolled)
            new = [c for c, p in rolled.items() if p not in dict(state.hay).values()]
            assert view(state).choosable == (new or list(rolled))
            for color in set(rolled) - set(view(state).choosable):
                assert refused(state, Choose(state.phase.player, color)).rule == "K5"
        else:
            assert view(state).choosable == []
        state = after(state, move)
    assert choices > 10


def _five_on_hay(players=None):
    """Five dice chosen; the yellow die is left showing 6."""
    state = new_game(players) if players else new_game()
    for pips, color in enumerate(
        ("light_blue", "orange", "dark_blue", "purple", "green")
    ):
        player = state.phase.player
        owed = [c for c in COLORS if c not in dict(state.hay)]
        roll = {c: 6 if c == "yellow" else pips + 1 for c in owed}
        state = after(state, Roll(player, roll))
        state = after(state, Choose(player, color))
    return state


def test_the_next_player_decides_on_the_last_die_not_a_roll_K6():
    state = _five_on_hay()
    assert state.phase == DecidingLastDie("Fran", "yellow", 6)
    error = refused(state, Roll("Fran", {"yellow": 2}))
    assert error.rule == "K6"
    assert refused(state, LastDie("Jan", None)).rule == "K6"


def test_keeping_the_last_die_places_its_face_as_last_rolled_K6():
    state = after(_five_on_hay(), LastDie("Fran", None))
    assert dict(state.hay)["yellow"] == 6 and state.phase == Revealing()
    public = view(state)
    assert public.phase == "reveal" and public.next_player is None


def test_a_reroll_of_the_last_die_goes_on_the_hay_card_whatever_its_value_K6():
    state = after(_five_on_hay(), LastDie("Fran", 1))
    assert dict(state.hay)["yellow"] == 1 and len(state.hay) == 6


@pytest.mark.parametrize("pips", [0, 7])
def test_a_reroll_shows_1_to_6_pips_K6(pips):
    assert refused(_five_on_hay(), LastDie("Fran", pips)).rule == "K6"


def test_with_two_players_the_dice_alternate_and_the_other_player_has_the_last_K4():
    state = _five_on_hay(("Ann", "Bob"))
    assert state.phase == DecidingLastDie("Bob", "yellow", 6)


def test_cards_are_not_revealed_before_the_dice_are_all_on_the_hay_card_K4():
    error = refused(
        new_game(), Reveal({p: (dd("orange", "green"),) for p in ("Olivia",)})
    )
    assert error.rule == "K4"


def test_the_last_die_cannot_be_decided_while_the_dice_are_rolled_K4():
    assert refused(new_game(), LastDie("Olivia", None)).rule == "K4"


def test_the_rulebook_example_round_in_a_4_player_game_K4_K5_K6():
    """How to Play, 1. Choosing dice: "Example round in a 4-player game"."""
    state = new_game()
    # "Olivia is the starting player. She rolls and chooses the light blue 2."
    state = after(state, Roll("Olivia", ALL_SIX), Choose("Olivia", "light_blue"))
    # "Fran rolls and chooses the orange 5 (she could have also chosen the dark blue 4
    # or the yellow 3)." Her purple and green dice show the 2 already on the Hay card.
    fran = {"orange": 5, "dark_blue": 4, "purple": 2, "yellow": 3, "green": 2}
    state = after(state, Roll("Fran", fran))
    for allowed in ("orange", "dark_blue", "yellow"):
        after(state, Choose("Fran", allowed))
    for not_allowed in ("purple", "green"):
        assert refused(state, Choose("Fran", not_allowed)).rule == "K5"
    state = after(state, Choose("Fran", "orange"))
    # "Jan rolls and chooses the purple 1 (he could have also chosen the yellow 4 or
    # the green 6)." His dark blue die shows the 5 already there.
    jan = {"dark_blue": 5, "purple": 1, "yellow": 4, "green": 6}
    state = after(state, Roll("Jan", jan))
    for allowed in ("purple", "yellow", "green"):
        after(state, Choose("Jan", allowed))
    assert refused(state, Choose("Jan", "dark_blue")).rule == "K5"
    state = after(state, Choose("Jan", "purple"))
    # "Margaret rolls and may choose any die, because she only rolled numbers that are
    # already on the Hay card. She chooses the green 2."
    state = after(state, Roll("Margaret", {"dark_blue": 1, "yellow": 5, "green": 2}))
    for allowed in ("dark_blue", "yellow", "green"):
        after(state, Choose("Margaret", allowed))
    state = after(state, Choose("Margaret", "green"))
    # "Olivia rolls and must choose the dark blue 3."
    state = after(state, Roll("Olivia", {"dark_blue": 3, "yellow": 2}))
    assert refused(state, Choose("Olivia", "yellow")).rule == "K5"
    state = after(state, Choose("Olivia", "dark_blue"))
    # "Fran chooses not to reroll the final die and places the yellow 2 on the Hay
    # card. This phase is now over."
    assert state.phase == DecidingLastDie("Fran", "yellow", 2)
    state = after(state, LastDie("Fran", None))
    assert dict(state.hay) == EXAMPLE_HAY
    assert view(state).phase == "reveal"


def test_the_dice_phase_helper_leaves_the_hay_it_was_asked_for():
    state = dice_phase(new_game(), EXAMPLE_HAY)
    assert state.hay == tuple(EXAMPLE_HAY.items()) and state.phase == Revealing()
