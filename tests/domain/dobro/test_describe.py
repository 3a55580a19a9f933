"""One sentence per logged move for a replay: what the move did, with the facts the
rulings derive from it (the value and its doubling, D8; the draw pile running out, D11;
the Forgetful card, D12; the round's end and points, D13-D15; the next starter, D17;
the winners, D16)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.dobro import DOBRO, DOBRO_PIXAR
from domain.dobro.describe import describe as worded
from domain.dobro.events import PileTaken, RefillForgotten, RoundScored
from domain.dobro.moves import ForgotRefill, Play, Reverse, Skip, Take
from domain.dobro.state import State
from domain.game import Rules, Setup
from domain.history import History, Recorded
from tests.domain import sentences
from tests.domain.dobro.given import (
    PIXAR_TABLE,
    after,
    draw_pile_empty,
    given,
    round_played,
    start,
    when,
)

FOUR = ("Ana", "Bia", "Caio", "Davi")

describe = sentences.english(worded)


def said(state: object, move: object) -> str:
    return sentences.said(DOBRO, state, move)


def told(state: object, *moves: object) -> list[str]:
    return sentences.told(DOBRO, state, *moves)


def last_move_of_round(
    state: State, piles: dict[str, int], forgetful: str | None = None
) -> tuple[State, Play]:
    """Given the round's climbs end with these score piles, the last taker holds one
    card with the draw pile empty: their 7 is the round's last move (D13)."""
    events: list[object] = [PileTaken(name, count) for name, count in piles.items()]
    if forgetful is not None:
        events.append(RefillForgotten(forgetful))
    state = given(state, *events)
    last = state.table.players[state.next_player]
    return draw_pile_empty(state, **{last: 1}), Play(last, (7,))


def test_pixar_rulebook_example_of_a_climb_D8() -> None:
    """Pixar rulebook, "End of a Climb", "Example of a Climb": "The current value in
    play is 2. On her turn, Priscila plays a 4. Mauricio also plays a 4, and since this
    card has the same value as the previous one, its value doubles, becoming 8. Next,
    Karen plays two 5s, which add up to 10. It is Priscila's turn again. As she cannot
    play a value equal to or greater than 10, she puts all the cards played onto her
    Score Pile and plays a 2 to start the new Climb." """
    state = start(("Priscila", "Mauricio", "Karen"), first="Karen")
    assert told(
        state,
        Play("Karen", (2,)),
        Play("Priscila", (4,)),
        Play("Mauricio", (4,), announced=8),
        Play("Karen", (5, 5), announced=10),
        Take("Priscila"),
        Play("Priscila", (2,)),
    ) == [
        "Karen plays 2: the value is 2",
        "Priscila plays 4: the value is 4",
        "Mauricio plays 4: equal to the value, it doubles to 8",
        "Karen plays 5 + 5: the value is 10",
        "Priscila takes 5 cards",
        "Priscila plays 2: the value is 2",
    ]


def test_a_play_of_twice_the_value_is_not_a_doubling_D8() -> None:
    state = after(start(FOUR), Play("Ana", (5,)))
    assert said(state, Play("Bia", (10,))) == "Bia plays 10: the value is 10"


def test_an_equal_pair_doubles_the_value_D8() -> None:
    state = after(start(FOUR), Play("Ana", (8,)))
    assert (
        said(state, Play("Bia", (4, 4)))
        == "Bia plays 4 + 4: equal to the value, it doubles to 16"
    )


def test_a_wild_is_told_with_the_value_it_takes_D9() -> None:
    assert (
        said(start(FOUR), Play("Ana", ("wild",), wild_as=7))
        == "Ana plays a Wild as 7: the value is 7"
    )
    assert (
        said(start(FOUR), Play("Ana", ("wild", "wild"), wild_as=6))
        == "Ana plays Wild + Wild as 6: the value is 12"
    )
    assert (
        said(start(FOUR), Play("Ana", (5, "wild")))
        == "Ana plays 5 + Wild: the value is 10"
    )


def test_skip_and_reverse_D8() -> None:
    state = after(start(PIXAR_TABLE), Play("Priscila", (5,)))
    assert said(state, Skip("Mauricio")) == "Mauricio plays a Skip"
    assert (
        said(state, Reverse("Mauricio"))
        == "Mauricio plays a Reverse: play goes counterclockwise"
    )


def test_taking_a_single_card_D8() -> None:
    state = after(start(FOUR), Play("Ana", (5,)))
    assert said(state, Take("Bia")) == "Bia takes 1 card"


def test_the_refill_that_empties_the_draw_pile_is_told_D11() -> None:
    state = replace(start(FOUR), draw_pile_size=1)
    assert (
        said(state, Play("Ana", (7, 7)))
        == "Ana plays 7 + 7: the value is 14; the draw pile is empty"
    )


def test_the_forgetful_card_goes_to_the_forgetful_player_from_its_holder_D12() -> None:
    state = start(PIXAR_TABLE)
    assert told(
        state, ForgotRefill("Karen"), ForgotRefill("Mauricio"), ForgotRefill("Mauricio")
    ) == [
        "Karen forgot to refill and takes the Forgetful card",
        "Mauricio forgot to refill and takes the Forgetful card from Karen",
        "Mauricio forgot to refill again and keeps the Forgetful card",
    ]


def test_the_round_end_tells_the_points_and_the_next_starter_D13_D14_D17() -> None:
    piles = {"Ana": 10, "Bia": 5, "Caio": 3, "Davi": 1}
    state, last = last_move_of_round(start(FOUR), piles, forgetful="Bia")
    assert said(state, last) == (
        "Davi plays 7: the value is 7; Davi's hand is empty: round 1 ends; "
        "Ana scores 1, Bia scores 1 (Forgetful card: -1), Caio scores 3, "
        "Davi scores 4; Ana opens round 2"
    )


def test_the_points_are_told_in_seat_order_as_the_store_returns_them_D14() -> None:
    """A stored dict may come back with its keys in another order (jsonb sorts them):
    the sentence still follows the seats."""
    piles = {"Ana": 10, "Bia": 5, "Caio": 3, "Davi": 1}
    state, last = last_move_of_round(start(FOUR), piles)
    events = [
        replace(e, points=dict(reversed(e.points.items())))
        if isinstance(e, RoundScored)
        else e
        for e in when(state, last)
    ]
    assert "Ana scores 1, Bia scores 2, Caio scores 3, Davi scores 4;" in describe(
        state, Recorded(last, tuple(events))
    )


def test_a_skip_may_end_the_round_D13() -> None:
    state = draw_pile_empty(after(start(FOUR), Play("Ana", (5,))), Bia=1)
    assert said(state, Skip("Bia")).startswith(
        "Bia plays a Skip; Bia's hand is empty: round 1 ends; "
    )


def test_pixar_rulebook_final_scoring_example_D14_D16() -> None:
    """Pixar rulebook, "End of the Game", "Final scoring example": "[...] Karen wins
    the game with 8 points, adding 2 from the first, 2 from the second and 4 from the
    third round." """
    state = start(PIXAR_TABLE)
    first = {"Priscila": 18, "Karen": 12, "Patricia": 12, "Mauricio": 8}
    state, _ = round_played(state, first)
    second = {"Mauricio": 15, "Karen": 12, "Patricia": 10, "Priscila": 5}
    state, _ = round_played(state, second, forgetful="Priscila")
    third = {"Patricia": 16, "Mauricio": 12, "Priscila": 9, "Karen": 4}
    state, last = last_move_of_round(state, third, forgetful="Priscila")
    assert said(state, last) == (
        f"{last.player} plays 7: the value is 7; {last.player}'s hand is empty: "
        "round 3 ends; Priscila scores 2 (Forgetful card: -1), Mauricio scores 2, "
        "Karen scores 4, Patricia scores 1; the game ends: Karen wins"
    )


def test_a_shared_victory_is_told_D16() -> None:
    piles = {"Ana": 9, "Bia": 2, "Caio": 2, "Davi": 9}
    state, last = last_move_of_round(start(FOUR, rounds=1), piles)
    assert said(state, last).endswith("the game ends: Bia and Caio share the victory")


@pytest.mark.parametrize("rules", [DOBRO, DOBRO_PIXAR], ids=lambda r: r.name)
def test_both_editions_describe_every_simulated_move(rules: Rules) -> None:
    assert rules.describe is worded
    for seed in range(20):
        setup = Setup(players=FOUR[: 2 + seed % 3], first_player="Ana", seed=seed)
        history = History.start(rules, setup)
        for move in rules.simulate(setup):
            record, after_move = history.play(move)
            sentence = describe(history.state, record)
            assert sentence.startswith(move.player) and "?" not in sentence
            history = after_move
        assert "the game ends: " in sentence
