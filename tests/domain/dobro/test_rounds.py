"""Round ends (D13), scoring (D14, D15), the Forgetful card (D12), the next round's
starter (D17) and the winners (D16)."""

from __future__ import annotations

from domain.dobro import DOBRO
from domain.dobro.events import (
    CardsPlayed,
    GameEnded,
    PileTaken,
    RefillForgotten,
    RoundDealt,
    RoundScored,
)
from domain.dobro.moves import ForgotRefill, Play, Reverse, Skip, Take
from domain.dobro.view import DobroView
from tests.domain.dobro.given import (
    FINAL_SCORING_EXAMPLE,
    PIXAR_TABLE,
    after,
    draw_pile_empty,
    given,
    refused,
    round_played,
    start,
    when,
)

FOUR = ("Ana", "Bia", "Caio", "Davi")


def test_the_round_ends_when_a_hand_empties_with_the_draw_pile_empty_D13() -> None:
    state = after(start(FOUR), Play("Ana", (5,)), Play("Bia", (6,)))
    state = given(state, PileTaken("Caio", 2))
    state = draw_pile_empty(state, Caio=1)
    played, scored, dealt = when(state, Play("Caio", (3,)))
    assert isinstance(played, CardsPlayed) and played.next_player is None
    assert isinstance(scored, RoundScored) and scored.emptied_by == "Caio"
    assert isinstance(dealt, RoundDealt) and dealt.round == 2


def test_cards_in_play_and_in_hands_score_for_no_one_D13() -> None:
    state = after(start(FOUR), Play("Ana", (5,)), Play("Bia", (6,)))
    state = draw_pile_empty(state, Caio=1)
    state = after(state, Play("Caio", (7,)))
    assert state.results[0].score_piles == {"Ana": 0, "Bia": 0, "Caio": 0, "Davi": 0}
    assert state.round == 2
    assert (state.value_in_play, state.cards_in_play) == (None, ())
    assert state.hand_sizes == (6, 6, 6, 6)
    assert state.draw_pile_size == 33
    assert state.played == (0,) * len(state.played)


def _round_ended_mid_climb(rounds: int) -> DobroView:
    """Given Davi forgot to refill and Caio took 2 cards, Davi empties his hand with
    the draw pile empty while 3 is in play: round 1 ends. The public state then."""
    state = after(start(FOUR, rounds=rounds), Play("Ana", (5,)), Play("Bia", (6,)))
    state = given(state, RefillForgotten("Davi"), PileTaken("Caio", 2))
    state = draw_pile_empty(after(state, Play("Caio", (3,))), Davi=1)
    return DOBRO.view(after(state, Play("Davi", (4,))))


def test_the_table_is_cleared_after_the_final_round_as_after_the_others_D13() -> None:
    """D13: "The cards in play and in hands are discarded"; D12: the Forgetful card
    returns to the centre after each round. A round's score piles are in its result."""
    earlier, final = _round_ended_mid_climb(rounds=2), _round_ended_mid_climb(rounds=1)
    assert (earlier.round, final.round) == (2, 1)
    for shown in (earlier, final):
        assert (shown.value_in_play, shown.cards_in_play) == (None, [])
        assert shown.forgetful is None
        assert shown.score_piles == dict.fromkeys(FOUR, 0)
        [result] = shown.results
        assert result.score_piles == {"Ana": 0, "Bia": 0, "Caio": 2, "Davi": 0}
        assert result.forgetful == "Davi"
    # After an earlier round the next one is dealt; after the last, nothing is.
    assert earlier.hand_sizes == dict.fromkeys(FOUR, 6)
    assert earlier.draw_pile_size == 33
    assert (final.hand_sizes, final.draw_pile_size) == (dict.fromkeys(FOUR, 0), 0)
    assert final.next_player is None and final.winners is not None


def test_a_hand_emptied_while_the_draw_pile_has_cards_refills_D13() -> None:
    from msgspec.structs import replace

    state = replace(start(FOUR), hand_sizes=(1, 6, 6, 6), draw_pile_size=3)
    state = after(state, Play("Ana", (7,)))
    assert (state.round, state.hand_sizes[0]) == (1, 3)


def test_a_skip_or_reverse_may_be_the_last_card_D13() -> None:
    state = after(draw_pile_empty(start(FOUR), Bia=1), Play("Ana", (5,)))
    assert after(state, Skip("Bia")).round == 2
    state = after(draw_pile_empty(start(FOUR), Bia=1), Play("Ana", (5,)))
    assert after(state, Reverse("Bia")).round == 2


def test_pixar_rulebook_scoring_example_D14() -> None:
    """Pixar rulebook, "Round Scoring", "Scoring example": "Priscila finished with 18
    cards in her Score Pile. Karen and Patricia finished with 12 cards, and Mauricio
    with 8 cards. [...] Priscila receives 1 point. Karen and Patricia are tied for
    second place, so both receive 2 points. Mauricio is the fourth player with the
    most cards and receives 4 points." """
    piles = {"Priscila": 18, "Karen": 12, "Patricia": 12, "Mauricio": 8}
    state, events = round_played(start(PIXAR_TABLE), piles)
    scored = events[1]
    assert isinstance(scored, RoundScored)
    assert scored.score_piles == piles
    assert scored.rank_points == {
        "Priscila": 1,
        "Mauricio": 4,
        "Karen": 2,
        "Patricia": 2,
    }
    assert scored.points == scored.rank_points
    assert state.totals == (1, 4, 2, 2)


def test_the_forgetful_card_costs_a_point_on_the_official_scale_D14() -> None:
    piles = {"Ana": 10, "Bia": 5, "Caio": 3, "Davi": 1}
    _, events = round_played(start(FOUR), piles, forgetful="Bia")
    scored = events[1]
    assert isinstance(scored, RoundScored)
    assert (scored.forgetful, scored.forgetful_adjustment) == ("Bia", -1)
    assert scored.rank_points["Bia"] == 2
    assert scored.points == {"Ana": 1, "Bia": 1, "Caio": 3, "Davi": 4}


def test_no_forgetful_card_no_adjustment_D14() -> None:
    _, events = round_played(start(FOUR), {"Ana": 3})
    scored = events[1]
    assert isinstance(scored, RoundScored)
    assert (scored.forgetful, scored.forgetful_adjustment) == (None, 0)


def test_fewest_first_scale_ranks_from_the_fewest_cards_D15() -> None:
    piles = {"Ana": 18, "Bia": 12, "Caio": 12, "Davi": 8}
    _, events = round_played(
        start(FOUR, scoring="fewest-first"), piles, forgetful="Davi"
    )
    scored = events[1]
    assert isinstance(scored, RoundScored)
    assert scored.rank_points == {"Ana": 4, "Bia": 2, "Caio": 2, "Davi": 1}
    assert scored.forgetful_adjustment == 1
    assert scored.points == {"Ana": 4, "Bia": 2, "Caio": 2, "Davi": 2}


def test_the_forgetful_card_returns_to_the_centre_each_round_D12() -> None:
    state, _ = round_played(start(FOUR), {"Ana": 3}, forgetful="Caio")
    assert state.round == 2
    assert state.forgetful is None
    assert DOBRO.view(state).forgetful is None


def test_last_place_starts_the_next_round_D17() -> None:
    state, events = round_played(
        start(FOUR), {"Ana": 9, "Bia": 7, "Caio": 5, "Davi": 3}
    )
    assert events[2] == RoundDealt(2, "Ana", 33)
    assert state.table.players[state.next_player] == "Ana"


def test_a_tie_for_last_place_goes_to_the_first_met_after_the_emptier_D17() -> None:
    """Ana and Caio share the lowest total; Davi empties his hand: going clockwise
    from Davi, Ana comes before Caio."""
    state = given(start(FOUR), PileTaken("Ana", 9), PileTaken("Caio", 9))
    state = given(state, PileTaken("Davi", 1))
    state = draw_pile_empty(state, Davi=1)
    *_, dealt = when(state, Play("Davi", (4,)))
    assert dealt == RoundDealt(2, "Ana", 33)


def test_the_tie_follows_the_current_direction_D17() -> None:
    """Counterclockwise from Ana: Davi, Caio, Bia, Ana; Bia and Davi tie last."""
    state = given(start(FOUR), PileTaken("Bia", 9), PileTaken("Davi", 9))
    state = given(state, PileTaken("Ana", 1))
    state = draw_pile_empty(after(state, Play("Ana", (3,))), Ana=1)
    state = after(state, Reverse("Bia"))
    *_, dealt = when(state, Play("Ana", (4,)))
    assert dealt == RoundDealt(2, "Davi", 33)


def test_the_emptier_counts_last_among_the_tied_D17() -> None:
    state = given(start(FOUR), PileTaken("Bia", 5), PileTaken("Caio", 5))
    state = given(state, PileTaken("Davi", 5), PileTaken("Ana", 5))
    state = draw_pile_empty(state, Ana=1)
    *_, dealt = when(state, Play("Ana", (4,)))
    assert dealt == RoundDealt(2, "Bia", 33)


def test_the_direction_carries_over_to_the_next_round_D17() -> None:
    state = after(
        draw_pile_empty(start(FOUR), Bia=1), Play("Ana", (5,)), Reverse("Bia")
    )
    assert (state.round, state.direction) == (2, "counterclockwise")


def test_fewest_first_starts_with_the_highest_total_D17() -> None:
    state = start(FOUR, scoring="fewest-first")
    _, events = round_played(state, {"Ana": 9, "Bia": 7, "Caio": 5, "Davi": 3})
    assert events[2] == RoundDealt(2, "Ana", 33)


def test_pixar_rulebook_final_scoring_example_D14_D16() -> None:
    """Pixar rulebook, "End of the Game", "Final scoring example": "Priscila scored 1
    point in the first round, 4 in the second and 3 in the third. However, she finished
    the second and third rounds with the Forgetful card (Dory), so she loses 2 points.
    Her final score is 6 points. Patricia also finishes the game with 6 points, adding
    2 in the first round, 3 in the second and 1 in the third. Mauricio finishes with 7
    points, adding 4 from the first, 1 from the second and 2 from the third. Karen wins
    the game with 8 points, adding 2 from the first, 2 from the second and 4 from the
    third round." """
    state = start(PIXAR_TABLE)
    for piles, forgetful in FINAL_SCORING_EXAMPLE:
        state, events = round_played(state, piles, forgetful=forgetful)
    ranks = [result.rank_points["Priscila"] for result in state.results]
    assert ranks == [1, 4, 3]
    assert [r.points["Priscila"] for r in state.results] == [1, 3, 2]
    assert [r.points["Patricia"] for r in state.results] == [2, 3, 1]
    assert [r.points["Mauricio"] for r in state.results] == [4, 1, 2]
    assert [r.points["Karen"] for r in state.results] == [2, 2, 4]
    view = DOBRO.view(state)
    assert view.totals == {"Priscila": 6, "Mauricio": 7, "Karen": 8, "Patricia": 6}
    assert events[-1] == GameEnded(("Karen",))
    assert DOBRO.outcome(state) == ("Karen",)
    assert view.next_player is None


def test_a_final_tie_with_as_many_last_round_cards_is_shared_D16() -> None:
    state = start(FOUR, rounds=1)
    state, events = round_played(state, {"Ana": 9, "Bia": 2, "Caio": 2, "Davi": 9})
    # Ana and Davi 1 point, Bia and Caio 3 points and 2 cards each.
    assert events[-1] == GameEnded(("Bia", "Caio"))


def test_a_final_tie_is_broken_by_the_last_rounds_cards_D16() -> None:
    state = start(FOUR, rounds=2)
    state, _ = round_played(state, {"Ana": 9, "Bia": 8, "Caio": 7, "Davi": 1})
    # Round 1: Ana 1, Bia 2, Caio 3, Davi 4.
    state, events = round_played(state, {"Ana": 1, "Bia": 2, "Caio": 3, "Davi": 9})
    # Round 2: Ana 4, Bia 3, Caio 2, Davi 1: every total is 5; Ana had 1 card.
    assert state.totals == (5, 5, 5, 5)
    assert events[-1] == GameEnded(("Ana",))


def test_fewest_first_the_lowest_total_wins_D15_D16() -> None:
    state = start(FOUR, rounds=1, scoring="fewest-first")
    _, events = round_played(state, {"Ana": 9, "Bia": 2, "Caio": 4, "Davi": 6})
    assert events[-1] == GameEnded(("Bia",))


def test_no_move_is_taken_once_the_last_round_is_scored_D16() -> None:
    state = start(FOUR, rounds=1)
    state, _ = round_played(state, {"Ana": 9, "Bia": 2, "Caio": 4, "Davi": 6})
    assert DOBRO.is_terminal(state) and DOBRO.allowed(state) == ()
    for move in (Play("Ana", (7,)), Take("Bia"), ForgotRefill("Caio")):
        assert refused(state, move, "D16").said.key == "game.ended"
