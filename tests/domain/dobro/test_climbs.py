"""Turns and climbs: who plays (D8), what opens a climb (D7), what beats the value in
play (D8), wilds and pairs (D9), announcements (D10), the deck's limits (D1, D5) and
refills (D11)."""

from __future__ import annotations

from domain.dobro import DOBRO
from domain.dobro.events import (
    CardsPlayed,
    PileTaken,
    RefillForgotten,
    ReversePlayed,
    SkipPlayed,
)
from domain.dobro.moves import ForgotRefill, Play, Reverse, Skip, Take
from tests.domain.dobro.given import after, draw_pile_empty, refused, start, when
from tests.domain.specification import english

FOUR = ("Ana", "Bia", "Caio", "Davi")


def test_pixar_rulebook_example_of_a_climb_D8() -> None:
    """Pixar rulebook, "End of a Climb", "Example of a Climb": "The current value in
    play is 2. On her turn, Priscila plays a 4. Mauricio also plays a 4, and since this
    card has the same value as the previous one, its value doubles, becoming 8. Next,
    Karen plays two 5s, which add up to 10. It is Priscila's turn again. As she cannot
    play a value equal to or greater than 10, she puts all the cards played onto her
    Score Pile and plays a 2 to start the new Climb."""
    state = after(
        start(("Priscila", "Mauricio", "Karen"), first="Karen"), Play("Karen", (2,))
    )
    assert state.value_in_play == 2
    state = after(state, Play("Priscila", (4,)))
    assert state.value_in_play == 4
    state = after(state, Play("Mauricio", (4,), announced=8))
    assert state.value_in_play == 8
    state = after(state, Play("Karen", (5, 5), announced=10))
    assert state.value_in_play == 10
    refused(state, Play("Priscila", (9,)), "D8")
    assert when(state, Take("Priscila")) == [PileTaken("Priscila", 5)]
    state = after(state, Take("Priscila"), Play("Priscila", (2,)))
    assert state.score_piles == (5, 0, 0)
    assert (state.value_in_play, state.cards_in_play) == (2, (2,))
    assert state.table.players[state.next_player] == "Mauricio"


def test_french_guide_example_of_a_climb_D8() -> None:
    """French guide, "Comment se termine une enchère", "Exemple concret": "la valeur en
    jeu est 4. Raphaël joue un 5 (nouvelle valeur : 5). Yolaine joue aussi un 5,
    égalité donc doublement (nouvelle valeur : 10). Luis joue deux 6, soit une paire à
    12 (nouvelle valeur : 12). Florent préfère passer pour conserver ses bonnes cartes.
    Il ramasse tout, puis ouvre la prochaine enchère avec un 3." """
    players = ("Raphaël", "Yolaine", "Luis", "Florent")
    state = after(start(players, first="Florent", rules=DOBRO), Play("Florent", (4,)))
    state = after(state, Play("Raphaël", (5,), announced=5))
    state = after(state, Play("Yolaine", (5,), announced=10))
    assert state.value_in_play == 10
    state = after(state, Play("Luis", (6, 6), announced=12))
    assert state.value_in_play == 12
    state = after(state, Take("Florent"))
    assert state.score_piles == (0, 0, 0, 5)
    state = after(state, Play("Florent", (3,)))
    assert (state.value_in_play, state.table.players[state.next_player]) == (
        3,
        "Raphaël",
    )


def test_a_player_out_of_turn_is_refused_D8() -> None:
    error = refused(start(FOUR), Play("Caio", (5,)), "D8")
    assert "Ana" in english(error)


def test_an_unknown_player_is_refused_D3() -> None:
    refused(start(FOUR), ForgotRefill("Zé"), "D3")


def test_an_opener_plays_any_single_card_without_doubling_D7() -> None:
    [played] = when(start(FOUR), Play("Ana", (2,)))
    assert isinstance(played, CardsPlayed) and played.value == 2


def test_an_opener_plays_an_equal_pair_for_its_sum_D7() -> None:
    [played] = when(start(FOUR), Play("Ana", (3, 3)))
    assert isinstance(played, CardsPlayed) and played.value == 6


def test_a_wild_may_open_with_a_declared_value_D7() -> None:
    [played] = when(start(FOUR), Play("Ana", ("wild",), wild_as=9))
    assert isinstance(played, CardsPlayed) and played.value == 9


def test_nothing_to_take_while_no_value_is_in_play_D7() -> None:
    refused(start(FOUR), Take("Ana"), "D7")


def test_skip_and_reverse_cannot_open_while_the_draw_pile_has_cards_D7() -> None:
    refused(start(FOUR), Skip("Ana"), "D7")
    refused(start(FOUR), Reverse("Ana"), "D7")


def test_once_the_draw_pile_is_empty_a_reverse_may_open_D7() -> None:
    state = draw_pile_empty(start(FOUR), Ana=3)
    state = after(state, Reverse("Ana"))
    assert state.direction == "counterclockwise"
    assert (state.value_in_play, state.cards_in_play) == (None, ("reverse",))
    assert state.table.players[state.next_player] == "Davi"
    refused(state, Take("Davi"), "D7")
    state = after(state, Play("Davi", (2,)))
    assert state.cards_in_play == ("reverse", 2)


def test_a_lower_single_card_is_refused_with_both_numbers_D8() -> None:
    state = after(start(FOUR), Play("Ana", (8,)))
    error = refused(state, Play("Bia", (7,)), "D8")
    assert "7" in english(error) and "8" in english(error)


def test_a_higher_single_card_becomes_the_value_D8() -> None:
    state = after(start(FOUR), Play("Ana", (4,)), Play("Bia", (9,)))
    assert state.value_in_play == 9


def test_an_equal_single_card_doubles_the_value_D8() -> None:
    state = after(start(FOUR), Play("Ana", (6,)), Play("Bia", (6,)))
    assert state.value_in_play == 12


def test_equal_pair_doubles_the_value_D8() -> None:
    state = after(start(FOUR), Play("Ana", (8,)), Play("Bia", (4, 4)))
    assert state.value_in_play == 16


def test_a_pair_summing_below_the_value_is_refused_with_the_sum_D8() -> None:
    state = after(start(FOUR), Play("Ana", (9,)))
    error = refused(state, Play("Bia", (4, 4)), "D8")
    assert "(8)" in english(error) and "9" in english(error)


def test_a_skip_keeps_the_value_and_passes_the_turn_D8() -> None:
    state = after(start(FOUR), Play("Ana", (5,)))
    [skipped] = when(state, Skip("Bia"))
    assert skipped == SkipPlayed("Bia", refill=1, next_player="Caio")
    state = after(state, Skip("Bia"))
    assert (state.value_in_play, state.cards_in_play) == (5, (5, "skip"))


def test_a_reverse_flips_the_direction_then_passes_D8() -> None:
    """A plays, B reverses, A plays next."""
    state = after(start(FOUR), Play("Ana", (5,)))
    [reversed_] = when(state, Reverse("Bia"))
    assert reversed_ == ReversePlayed("Bia", "counterclockwise", 1, "Ana")
    state = after(state, Reverse("Bia"), Play("Ana", (7,)))
    assert state.table.players[state.next_player] == "Davi"


def test_taking_moves_every_card_in_play_to_the_score_pile_D8() -> None:
    state = after(
        start(FOUR), Play("Ana", (5,)), Skip("Bia"), Play("Caio", ("wild", 5))
    )
    state = after(state, Take("Davi"))
    assert state.score_piles == (0, 0, 0, 4)
    assert (state.value_in_play, state.cards_in_play) == (None, ())
    assert state.table.players[state.next_player] == "Davi"


def test_a_wild_alone_needs_a_value_in_the_editions_range_D9() -> None:
    refused(start(FOUR), Play("Ana", ("wild",)), "D9")
    refused(start(FOUR), Play("Ana", ("wild",), wild_as=11), "D9")
    [played] = when(start(FOUR, rules=DOBRO), Play("Ana", ("wild",), wild_as=12))
    assert isinstance(played, CardsPlayed) and played.value == 12


def test_a_wild_with_a_numbered_card_takes_its_value_D9() -> None:
    state = after(start(FOUR), Play("Ana", (10,)))
    [played] = when(state, Play("Bia", (5, "wild")))
    assert isinstance(played, CardsPlayed) and played.value == 20
    refused(state, Play("Bia", (5, "wild"), wild_as=6), "D9")


def test_two_wilds_take_one_declared_value_D9() -> None:
    state = after(start(FOUR), Play("Ana", (9,)))
    [played] = when(state, Play("Bia", ("wild", "wild"), wild_as=5))
    assert isinstance(played, CardsPlayed) and played.value == 10
    refused(state, Play("Bia", ("wild", "wild")), "D9")


def test_a_pair_must_be_two_equal_values_D9() -> None:
    refused(start(FOUR), Play("Ana", (4, 5)), "D9")


def test_skip_and_reverse_are_their_own_moves_D9() -> None:
    refused(start(FOUR), Play("Ana", ("skip",)), "D9")
    refused(start(FOUR), Play("Ana", (5, "reverse")), "D9")


def test_wild_as_without_a_wild_is_refused_D9() -> None:
    refused(start(FOUR), Play("Ana", (5,), wild_as=5), "D9")


def test_a_wild_declared_too_low_is_refused_with_its_declared_value_D8_D9() -> None:
    state = after(start(FOUR), Play("Ana", (7,)))
    error = refused(state, Play("Bia", ("wild",), wild_as=3), "D8")
    assert english(error) == (
        "A wild declared as 3 cannot follow 7: a play must make 7 or more."
    )


def test_two_wilds_declared_too_low_are_refused_with_the_value_and_sum_D8_D9() -> None:
    state = after(start(FOUR), Play("Ana", (7,)))
    error = refused(state, Play("Bia", ("wild", "wild"), wild_as=3), "D8")
    assert english(error) == (
        "Two wilds declared as 3 (6) cannot follow 7: a play must make 7 or more."
    )


def test_a_wild_paired_too_low_is_refused_with_the_value_it_takes_D8_D9() -> None:
    state = after(start(FOUR), Play("Ana", (7,)))
    error = refused(state, Play("Bia", (3, "wild"), wild_as=3), "D8")
    assert english(error) == (
        "3 + a wild declared as 3 (6) cannot follow 7: a play must make 7 or more."
    )
    error = refused(state, Play("Bia", ("wild", 3)), "D8")
    assert english(error) == (
        "3 + a wild as 3 (6) cannot follow 7: a play must make 7 or more."
    )


def test_a_wrong_announcement_is_refused_with_both_values_D10() -> None:
    state = after(start(FOUR), Play("Ana", (6,)))
    error = refused(state, Play("Bia", (6,), announced=6), "D10")
    assert "6" in english(error) and "12" in english(error)


def test_a_value_the_deck_lacks_is_refused_D1() -> None:
    refused(start(FOUR), Play("Ana", (11,)), "D1")
    refused(start(FOUR), Play("Ana", ("wild", 12)), "D1")


def test_no_value_is_played_more_often_than_the_deck_holds_D1() -> None:
    """The Pixar deck holds four 2s."""
    state = after(start(FOUR), Play("Ana", (2, 2)), Play("Bia", (2, 2)))
    refused(state, Play("Caio", (2,)), "D1")
    refused(state, Play("Caio", ("wild", 2)), "D1")


def test_no_more_wilds_than_the_deck_holds_D1() -> None:
    """The original deck holds three wilds."""
    state = after(start(FOUR, rules=DOBRO), Play("Ana", ("wild", "wild"), wild_as=2))
    state = after(state, Take("Bia"), Play("Bia", ("wild",), wild_as=3))
    refused(state, Play("Caio", ("wild",), wild_as=4), "D1")


def test_the_played_count_resets_each_round_D1() -> None:
    state = after(start(FOUR), Play("Ana", (2, 2)), Play("Bia", (2, 2)))
    state = draw_pile_empty(state, Caio=1)
    state = after(state, Play("Caio", (10,)))
    assert state.round == 2
    assert after(state, Play(state.table.players[state.next_player], (2, 2)))


def test_a_player_cannot_play_more_cards_than_they_hold_D11() -> None:
    state = draw_pile_empty(start(FOUR), Ana=1)
    refused(state, Play("Ana", (5, 5)), "D11")


def test_a_player_refills_after_playing_D11() -> None:
    state = start(FOUR)
    [played] = when(state, Play("Ana", (7, 7)))
    assert isinstance(played, CardsPlayed) and played.refill == 2
    state = after(state, Play("Ana", (7, 7)))
    assert (state.hand_sizes[0], state.draw_pile_size) == (6, 33 - 2)


def test_the_last_card_of_the_draw_pile_refills_part_of_a_hand_D11() -> None:
    from msgspec.structs import replace

    state = replace(start(FOUR), draw_pile_size=1)
    state = after(state, Play("Ana", (7, 7)))
    assert (state.hand_sizes[0], state.draw_pile_size) == (5, 0)
    state = after(state, Play("Bia", (7, 7)))
    assert state.hand_sizes[1] == 4


def test_no_refill_once_the_draw_pile_is_empty_D11() -> None:
    state = after(draw_pile_empty(start(FOUR)), Play("Ana", (7,)))
    assert state.hand_sizes[0] == 5


def test_a_forgotten_refill_takes_no_turn_and_moves_the_forgetful_card_D12() -> None:
    state = after(start(FOUR), Play("Ana", (7,)))
    assert when(state, ForgotRefill("Ana")) == [RefillForgotten("Ana")]
    state = after(state, ForgotRefill("Ana"))
    assert state.forgetful == 0
    assert state.hand_sizes == (6, 6, 6, 6)
    assert state.table.players[state.next_player] == "Bia"
    state = after(state, ForgotRefill("Davi"))
    assert state.forgetful == 3
