"""Setting up a Dobro game: decks (D1), players (D3), first player (D4), two players
(D5), rounds (D6) and the options."""

from __future__ import annotations

import msgspec
import pytest

from domain.dobro import DOBRO, DOBRO_PIXAR
from domain.dobro.events import CardsPlayed
from domain.dobro.moves import Play, Reverse, Skip
from domain.errors import RuleError
from domain.game import Rules, Setup
from tests.domain.dobro.given import after, refused, start, when
from tests.domain.specification import english

FOUR = ("Ana", "Bia", "Caio", "Davi")


def test_the_pixar_deck_holds_57_cards_dealt_six_each_D1_D3() -> None:
    state = start(FOUR)
    assert state.table.deck.size == 57
    assert state.hand_sizes == (6, 6, 6, 6)
    assert state.draw_pile_size == 57 - 24


def test_the_original_deck_holds_57_cards_with_values_up_to_12_D1() -> None:
    state = start(FOUR, rules=DOBRO)
    assert state.table.deck.size == 57
    assert state.table.deck.count(12) == 3
    assert (state.table.deck.wild_low, state.table.deck.wild_high) == (2, 12)


def test_six_players_hold_five_cards_each_D3() -> None:
    state = start(("A", "B", "C", "D", "E", "F"))
    assert state.hand_sizes == (5,) * 6
    assert state.draw_pile_size == 57 - 30


@pytest.mark.parametrize("players", [("Solo",), tuple("ABCDEFG")])
def test_a_game_is_for_two_to_six_players_D3(players: tuple[str, ...]) -> None:
    with pytest.raises(RuleError) as caught:
        start(players)
    assert caught.value.rule == "D3"


def test_players_need_distinct_names_D3() -> None:
    with pytest.raises(RuleError) as caught:
        start(("Ana", "Ana"))
    assert caught.value.rule == "D3"


def test_the_first_player_opens_the_first_round_D4() -> None:
    state = start(FOUR, first="Caio")
    assert state.table.players[state.next_player] == "Caio"


def test_the_first_player_must_be_at_the_table_D4() -> None:
    with pytest.raises(RuleError) as caught:
        start(FOUR, first="Zé")
    assert caught.value.rule == "D4"


def test_two_players_of_pixar_play_without_skips_and_reverses_D5() -> None:
    state = start(("Ana", "Bia"))
    assert state.table.deck.size == 53
    assert state.draw_pile_size == 53 - 12 - 10
    refused(state, Skip("Ana"), "D5")
    refused(state, Reverse("Ana"), "D5")


def test_two_players_of_the_original_keep_their_skips_D5() -> None:
    state = start(("Ana", "Bia"), rules=DOBRO)
    assert state.table.deck.size == 55
    assert state.draw_pile_size == 55 - 12 - 10
    state = after(state, Play("Ana", (5,)), Skip("Bia"))
    assert state.cards_in_play == (5, "skip")
    refused(state, Reverse("Ana"), "D5")


def test_the_skips_option_overrides_the_edition_D5() -> None:
    assert start(("Ana", "Bia"), two_player_remove_skips=False).table.deck.size == 55
    kept = start(("Ana", "Bia"), rules=DOBRO, two_player_remove_skips=True)
    assert kept.table.deck.size == 53


def test_more_players_keep_every_card_whatever_the_skips_option_D5() -> None:
    assert start(FOUR, two_player_remove_skips=True).table.deck.size == 57


def test_three_rounds_by_default_and_the_longer_variant_D6() -> None:
    assert start(FOUR).table.rounds == 3
    assert start(FOUR, rounds=4).table.rounds == 4


@pytest.mark.parametrize(
    ("options", "rule"),
    [
        ({"rounds": 0}, "D6"),
        ({"scoring": "most-last"}, "D14"),
        ({"two_player_remove_skips": "yes"}, "D5"),
        ({"deck": {"numbered": {"13": 4}}}, "D1"),
        ({"colour": "red"}, "A1"),
    ],
)
def test_options_out_of_bounds_are_refused_D1_D5_D6_D14_A1(
    options: dict, rule: str
) -> None:
    with pytest.raises(RuleError) as caught:
        start(FOUR, **options)
    assert caught.value.rule == rule


def test_a_house_deck_replaces_the_editions_D1() -> None:
    deck = {"numbered": {"3": 10, "4": 10, "9": 10}, "wilds": 2, "skips": 1}
    state = start(FOUR, deck=deck)
    assert state.table.deck.size == 33
    refused(state, Play("Ana", (5,)), "D1")
    refused(state, Reverse("Ana"), "D1")


HOUSE_DECK = {"numbered": {"3": 10, "4": 10, "9": 10}, "wilds": 2, "skips": 1}


@pytest.mark.parametrize(
    ("rules", "low", "high"),
    [(DOBRO_PIXAR, 2, 10), (DOBRO, 2, 12)],
    ids=["pixar", "dobro"],
)
def test_a_wild_takes_the_editions_range_with_a_house_deck_D9(
    rules: Rules, low: int, high: int
) -> None:
    """D9: "A wild alone takes a declared value in the edition's wild range", also
    when the house deck's numbered cards run only from 3 to 9."""
    state = start(FOUR, rules=rules, deck=HOUSE_DECK)
    assert (state.table.deck.wild_low, state.table.deck.wild_high) == (low, high)
    assert tuple(rules.view(state).wild_range) == (low, high)
    for declared in (low, high):
        [played] = when(state, Play("Ana", ("wild",), wild_as=declared))
        assert isinstance(played, CardsPlayed) and played.value == declared
    error = refused(state, Play("Ana", ("wild",), wild_as=high + 1), "D9")
    assert f"from {low} to {high}, not {high + 1}" in english(error)
    refused(state, Play("Ana", ("wild",), wild_as=low - 1), "D9")


def test_a_house_deck_must_hold_enough_cards_to_deal_D1() -> None:
    with pytest.raises(RuleError) as caught:
        start(FOUR, deck={"numbered": {"5": 23}})
    assert caught.value.rule == "D1"
    with pytest.raises(RuleError) as caught:
        start(("Ana", "Bia"), deck={"numbered": {"5": 21}})  # 12 dealt + 10 aside
    assert caught.value.rule == "D1"
    assert start(("Ana", "Bia"), deck={"numbered": {"5": 22}}).draw_pile_size == 0


@pytest.mark.parametrize(
    ("players", "skips", "reverses"),
    [(FOUR, 3, 3), (FOUR, 6, 0), (tuple("ABCDEF"), 3, 2)],
    ids=["4 players, 6 specials", "4 players, 6 skips", "6 players, 5 specials"],
)
def test_a_house_deck_with_a_hand_of_skips_and_reverses_is_refused_T1(
    players: tuple[str, ...], skips: int, reverses: int
) -> None:
    """T1: a house deck must leave every hand something to open a climb with:
    fewer Skip and Reverse cards than a hand holds (6, or 5 with six players)."""
    deck = {"numbered": {"5": 40}, "skips": skips, "reverses": reverses}
    with pytest.raises(RuleError) as caught:
        start(players, deck=deck)
    assert caught.value.rule == "T1"
    hand = 5 if len(players) == 6 else 6
    assert f"{skips + reverses} Skip and Reverse cards" in english(caught.value)
    assert f"fewer than {hand}" in english(caught.value)


def test_a_house_deck_with_fewer_specials_than_a_hand_is_accepted_T1() -> None:
    deck = {"numbered": {"5": 40}, "skips": 3, "reverses": 2}
    assert start(FOUR, deck=deck).table.deck.size == 45
    deck = {"numbered": {"5": 40}, "skips": 2, "reverses": 2}
    assert start(tuple("ABCDEF"), deck=deck).table.hand_size == 5


def test_the_options_struct_defaults_are_the_editions_D14() -> None:
    setup = Setup(players=FOUR, first_player="Ana", seed=1)
    for rules in (DOBRO, DOBRO_PIXAR):
        state = rules.initial_state(setup)
        assert state.table.scoring == "official"
        assert rules.view(state).next_player == "Ana"


def test_the_public_state_shows_what_the_api_lists() -> None:
    state = after(start(FOUR), Play("Ana", (5, 5), announced=10))
    shown = msgspec.to_builtins(DOBRO_PIXAR.view(state))
    assert shown["round"] == 1 and shown["rounds"] == 3
    assert shown["next_player"] == "Bia"
    assert shown["direction"] == "clockwise"
    assert (shown["value_in_play"], shown["cards_in_play"]) == (10, [5, 5])
    assert shown["hand_sizes"] == {"Ana": 6, "Bia": 6, "Caio": 6, "Davi": 6}
    assert shown["draw_pile_size"] == 31
    assert shown["score_piles"] == {"Ana": 0, "Bia": 0, "Caio": 0, "Davi": 0}
    assert shown["forgetful"] is None
    assert shown["totals"] == {"Ana": 0, "Bia": 0, "Caio": 0, "Davi": 0}
    assert tuple(shown["wild_range"]) == (2, 10)
