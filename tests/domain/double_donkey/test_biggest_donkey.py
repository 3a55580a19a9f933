"""The Biggest Donkey (K9), the end of a round (K10) and the next dice holder (K11)."""

from __future__ import annotations

import pytest

from domain.double_donkey import events as ev
from domain.double_donkey.moves import Reveal, RollOff
from domain.double_donkey.state import Rolling, RollingOff
from domain.double_donkey.view import view
from tests.domain.double_donkey.given import (
    EXAMPLE_HAY,
    after,
    angry,
    at_reveal,
    dd,
    new_game,
    refused,
    when,
)
from tests.domain.specification import english

# With EXAMPLE_HAY (light blue 2, orange 5, purple 1, green 2, dark blue 3, yellow 2):
SEVEN = dd("orange", "green")
FOUR = dd("light_blue", "yellow")
THREE = dd("purple", "yellow")
OLIVIA_HIGHEST = {
    "Olivia": (SEVEN,),
    "Fran": (FOUR,),
    "Jan": (THREE,),
    "Margaret": (FOUR,),
}
OLIVIA_AND_JAN_TIED = {**OLIVIA_HIGHEST, "Jan": (dd("orange", "yellow"),)}
THREE_TIED = {**OLIVIA_AND_JAN_TIED, "Margaret": (dd("orange", "light_blue"),)}


def of_type(events, kind):
    return [e for e in events if isinstance(e, kind)]


def test_the_single_highest_card_takes_the_biggest_donkey_K9():
    events = when(at_reveal(EXAMPLE_HAY), Reveal(OLIVIA_HIGHEST))
    assert of_type(events, ev.BiggestDonkeyTaken) == [ev.BiggestDonkeyTaken("Olivia")]
    assert (
        after(at_reveal(EXAMPLE_HAY), Reveal(OLIVIA_HIGHEST)).biggest_donkey == "Olivia"
    )


def test_the_highest_single_card_counts_not_the_sum_of_a_players_cards_K9():
    cards = {**OLIVIA_HIGHEST, "Fran": (FOUR, FOUR, FOUR)}
    state = after(at_reveal(EXAMPLE_HAY), Reveal(cards))
    assert state.biggest_donkey == "Olivia"


def test_a_tie_goes_to_the_fewest_cards_in_the_personal_pile_K9():
    state = at_reveal(EXAMPLE_HAY, personal_piles=(7, 6, 5, 4))
    assert after(state, Reveal(OLIVIA_AND_JAN_TIED)).biggest_donkey == "Jan"


def test_a_tie_with_equal_personal_piles_calls_a_roll_off_among_the_tied_K9():
    state = at_reveal(EXAMPLE_HAY, personal_piles=(5, 4, 5, 5))
    events = when(state, Reveal(OLIVIA_AND_JAN_TIED))
    assert events[-1] == ev.RollOffCalled(("Olivia", "Jan"))
    assert not of_type(events, ev.BiggestDonkeyTaken)
    state = after(state, Reveal(OLIVIA_AND_JAN_TIED))
    assert state.phase == RollingOff(("Olivia", "Jan"))
    public = view(state)
    assert public.roll_off == ["Olivia", "Jan"] and public.phase == "roll_off"
    assert public.cards_in_play == 4 and public.hay == EXAMPLE_HAY


def test_only_the_tied_players_with_the_fewest_cards_roll_off_K9():
    state = at_reveal(EXAMPLE_HAY, personal_piles=(4, 7, 4, 3))
    cards = {**THREE_TIED, "Margaret": (dd("orange", "dark_blue"),)}  # 8: highest
    assert after(state, Reveal(cards)).biggest_donkey == "Margaret"
    state = at_reveal(EXAMPLE_HAY, personal_piles=(4, 7, 4, 5))
    assert after(state, Reveal(THREE_TIED)).phase == RollingOff(("Olivia", "Jan"))


def _rolling_off(cards=OLIVIA_AND_JAN_TIED):
    return after(at_reveal(EXAMPLE_HAY), Reveal(cards))


def test_the_higher_roll_takes_the_biggest_donkey_K9():
    events = when(_rolling_off(), RollOff({"Olivia": 2, "Jan": 5}))
    assert events[0] == ev.RollOffRolled({"Olivia": 2, "Jan": 5})
    assert events[1] == ev.BiggestDonkeyTaken("Jan")
    state = after(_rolling_off(), RollOff({"Olivia": 2, "Jan": 5}))
    assert state.biggest_donkey == "Jan" and state.phase == Rolling("Jan")


def test_only_those_sharing_the_highest_roll_roll_again_K9():
    state = after(
        _rolling_off(THREE_TIED), RollOff({"Olivia": 5, "Jan": 5, "Margaret": 2})
    )
    assert state.phase == RollingOff(("Olivia", "Jan"))
    assert view(state).roll_offs == [{"Olivia": 5, "Jan": 5, "Margaret": 2}]
    again = RollOff({"Olivia": 4, "Jan": 6, "Margaret": 1})
    assert refused(state, again).rule == "K9"
    assert after(state, RollOff({"Olivia": 4, "Jan": 6})).biggest_donkey == "Jan"


@pytest.mark.parametrize(
    "rolls",
    [{"Olivia": 3}, {"Olivia": 3, "Jan": 4, "Fran": 6}, {"Olivia": 3, "Fran": 4}],
)
def test_a_roll_off_names_exactly_the_tied_players_K9(rolls):
    error = refused(_rolling_off(), RollOff(rolls))
    assert error.rule == "K9" and "Olivia and Jan" in english(error)


@pytest.mark.parametrize("pips", [0, 7])
def test_a_roll_off_die_shows_1_to_6_K9(pips):
    assert refused(_rolling_off(), RollOff({"Olivia": pips, "Jan": 3})).rule == "K9"


def test_no_roll_off_is_taken_without_a_tie_K9():
    assert refused(new_game(), RollOff({"Olivia": 3, "Fran": 4})).rule == "K9"
    assert refused(at_reveal(), RollOff({"Olivia": 3, "Fran": 4})).rule == "K9"


def test_nothing_but_the_roll_off_is_taken_while_it_is_pending_K9():
    assert refused(_rolling_off(), Reveal(OLIVIA_HIGHEST)).rule == "K9"


def test_played_cards_are_discarded_and_hands_refill_from_personal_piles_K10():
    state = after(
        at_reveal(EXAMPLE_HAY), Reveal({**OLIVIA_HIGHEST, "Fran": (FOUR,) * 3})
    )
    assert (state.in_play, state.discard_pile) == (0, 6)
    assert state.hands == (3, 3, 3, 3)
    assert state.personal_piles == (7, 4, 6, 6)


def test_the_biggest_donkey_holder_draws_from_the_central_pile_K10():
    state = at_reveal(EXAMPLE_HAY, biggest_donkey="Fran")
    events = when(state, Reveal({**OLIVIA_HIGHEST, "Olivia": (SEVEN, FOUR)}))
    assert ev.CardsDrawn("Olivia", 2) in events
    assert of_type(events, ev.HandsRefilled) == [
        ev.HandsRefilled({"Fran": 1, "Jan": 1, "Margaret": 1})
    ]
    state = after(state, Reveal({**OLIVIA_HIGHEST, "Olivia": (SEVEN, FOUR)}))
    assert state.draw_pile == 15 and state.personal_piles[0] == 7


def test_a_player_who_cannot_reach_3_cards_goes_on_with_fewer_K10():
    state = at_reveal(EXAMPLE_HAY, personal_piles=(7, 1, 7, 0))
    state = after(state, Reveal({**OLIVIA_HIGHEST, "Fran": (FOUR,) * 3}))
    assert state.hands == (3, 1, 3, 2) and state.personal_piles == (7, 0, 6, 0)


def test_the_discard_pile_becomes_the_central_pile_when_a_card_must_be_drawn_K10():
    state = at_reveal(EXAMPLE_HAY, draw_pile=1, discard_pile=20)
    cards = {**OLIVIA_HIGHEST, "Olivia": (SEVEN, FOUR, THREE)}
    events = when(state, Reveal(cards))
    refill = events[events.index(ev.BiggestDonkeyTaken("Olivia")) + 3 :]
    assert refill[:3] == [
        ev.CardsDrawn("Olivia", 1),
        ev.DiscardReshuffled(26),
        ev.CardsDrawn("Olivia", 2),
    ]
    state = after(state, Reveal(cards))
    assert (state.draw_pile, state.discard_pile, state.hands[0]) == (24, 0, 3)


def test_the_discard_pile_stays_while_the_central_pile_has_the_cards_needed_K10():
    state = after(at_reveal(EXAMPLE_HAY, draw_pile=1), Reveal(OLIVIA_HIGHEST))
    assert (state.draw_pile, state.discard_pile) == (0, 4)


def test_the_reshuffled_discard_pile_includes_the_cards_just_played_K10():
    state = at_reveal(EXAMPLE_HAY, draw_pile=0, discard_pile=0)
    events = when(state, Reveal(OLIVIA_HIGHEST))
    assert ev.DiscardReshuffled(4) in events
    assert after(state, Reveal(OLIVIA_HIGHEST)).draw_pile == 3


def test_the_biggest_donkey_holder_takes_the_dice_and_starts_the_next_round_K11():
    state = at_reveal(EXAMPLE_HAY, dice_holder="Jan")
    events = when(state, Reveal(OLIVIA_HIGHEST))
    assert events[-1] == ev.RoundStarted(2, "Olivia")
    state = after(state, Reveal(OLIVIA_HIGHEST))
    public = view(state)
    assert (public.round, public.dice_holder, public.next_player) == (
        2,
        "Olivia",
        "Olivia",
    )
    assert public.phase == "roll" and public.hay == {}


def test_the_winner_of_a_roll_off_starts_the_next_round_K11():
    state = after(_rolling_off(), RollOff({"Olivia": 6, "Jan": 1}))
    assert state.dice_holder == "Olivia" and state.round == 2


def test_an_angry_donkey_can_make_the_biggest_donkey_K7_K9():
    """Olivia's Angry Donkey turns the purple 1 into a 6, making Fran's purple/orange
    an 11."""
    cards = {
        **OLIVIA_HIGHEST,
        "Olivia": (angry("purple"),),
        "Fran": (dd("purple", "orange"),),
    }
    assert after(at_reveal(EXAMPLE_HAY), Reveal(cards)).biggest_donkey == "Fran"


def test_a_player_with_an_empty_hand_reveals_nothing_and_the_others_contend_K7_K9():
    # Margaret's hand is empty (her refills found no cards) but her personal pile is
    # not, so the game goes on: she reveals nothing, and K9 is played among the rest.
    state = at_reveal(EXAMPLE_HAY, hands=(3, 3, 3, 0), personal_piles=(7, 7, 7, 2))
    cards = {**OLIVIA_HIGHEST, "Margaret": ()}
    revealed = after(state, Reveal(cards))
    assert revealed.biggest_donkey == "Olivia"
    without_her = {p: c for p, c in OLIVIA_HIGHEST.items() if p != "Margaret"}
    assert after(state, Reveal(without_her)).biggest_donkey == "Olivia"
