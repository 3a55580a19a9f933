"""One sentence per stored Dozito move for a replay: what the move did, with the facts
the rulings derive from it (a STOP card ending the turn, Z8; a Replay turn, Z9; a
reshuffle, Z10; the final turns, Z11; an instant win, Z12; the round's points, Z13;
the next starter, Z14; the winners, Z15).

Given a state, when a move is stored with the events the engine decides for it, then
its sentence."""

from __future__ import annotations

from msgspec.structs import replace

from domain.dozito import DOZITO
from domain.dozito.describe import describe as worded
from domain.dozito.state import Drawing, State
from domain.game import Setup
from domain.history import History, Recorded
from domain.registry import BUILT_IN
from tests.domain import sentences
from tests.domain.dozito.given import (
    ARTHUR,
    MAELLE,
    NOE,
    Discard,
    Draw,
    Place,
    StartRound,
    after,
    card,
    draws,
    full_grid,
    game,
    joker,
    mixed_grid,
    plain,
    started,
    with_grid,
)

THREE = (ARTHUR, MAELLE, NOE)

describe = sentences.english(worded)


def said(state: object, move: object) -> str:
    return sentences.said(DOZITO, state, move)


def told(state: object, *moves: object) -> list[str]:
    return sentences.told(DOZITO, state, *moves)


def last_final_turn(
    totals: tuple[int, int],
    round_scores: tuple[tuple[int, int], ...] = (),
    rounds: int = 3,
) -> State:
    """Maëlle plays the last final turn of round `len(round_scores) + 1` of `rounds`,
    holding a purple 1; before it the totals are `totals`. Arthur's grid shows a red 1
    with 2 suns (2 points), Maëlle's a blue 2 with 1 sun (1 point)."""
    state = started(rounds=rounds)
    state = with_grid(state, ARTHUR, {1: plain("red", 1, suns=2)})
    state = with_grid(state, MAELLE, {2: plain("blue", 2, suns=1)})
    state = replace(
        state,
        round=len(round_scores) + 1,
        totals=totals,
        round_scores=round_scores,
        final_turns=(MAELLE,),
        phase=Drawing(MAELLE),
    )
    return after(state, draws(MAELLE, card("purple", 1)))


def test_the_registry_describes_with_this_module() -> None:
    assert DOZITO.describe is worded


def test_a_round_starts_with_its_starter_and_two_discard_piles_Z3() -> None:
    assert (
        said(game(), StartRound((card("red", 3), card("yellow", 7, replay=True))))
        == "Round 1 starts with Arthur; the discard piles show the red 3 and "
        "the yellow 7 (Replay)"
    )


def test_a_turn_draws_places_reveals_and_discards_Z4() -> None:
    state = with_grid(started(), ARTHUR, {5: plain("blue", 5)})
    assert told(
        state,
        Draw(ARTHUR, "deck", card("red", 3)),
        Place(ARTHUR, revealed=joker("green")),
        Place(ARTHUR, 5),
        Discard(ARTHUR, "right"),
        Draw(MAELLE, "discard_right"),
    ) == [
        "Arthur draws the red 3 from the deck",
        "Arthur places the red 3 on spot 3, revealing the green joker",
        "Arthur places the green joker on spot 5",
        "Arthur discards the blue 5 on the right pile",
        "Maëlle takes the blue 5 from the right discard pile",
    ]


def test_a_stop_card_drawn_ends_the_turn_once_placed_or_discarded_Z8() -> None:
    assert (
        said(started(), draws(ARTHUR, card("red", 4, stop=True)))
        == "Arthur draws the red 4 (STOP) from the deck: "
        "the turn ends once it is placed or discarded"
    )


def test_a_stop_card_taken_from_a_pile_ends_the_turn_once_placed_Z5_Z8() -> None:
    state = started(discards=(card("red", 4, stop=True), plain("red", 5)))
    assert (
        said(state, Draw(ARTHUR, "discard_left"))
        == "Arthur takes the red 4 (STOP) from the left discard pile: "
        "the turn ends once it is placed"
    )


def test_a_stop_card_revealed_ends_the_turn_once_placed_or_discarded_Z8() -> None:
    state = after(started(), draws(ARTHUR, card("red", 1)))
    assert (
        said(state, Place(ARTHUR, revealed=card("green", 6, stop=True)))
        == "Arthur places the red 1 on spot 1, revealing the green 6 (STOP): "
        "the turn ends once it is placed or discarded"
    )


def test_the_card_a_stop_card_reveals_must_be_discarded_Z8() -> None:
    state = after(started(), draws(ARTHUR, card("red", 4, stop=True)))
    assert (
        said(state, Place(ARTHUR, revealed=card("blue", 9)))
        == "Arthur places the red 4 (STOP) on spot 4, revealing the blue 9, "
        "which must be discarded"
    )


def test_a_replay_card_discarded_gives_another_turn_Z9() -> None:
    state = after(started(), draws(ARTHUR, card("red", 4, replay=True)))
    assert (
        said(state, Discard(ARTHUR, "left"))
        == "Arthur discards the red 4 (Replay) on the left pile: Arthur plays again"
    )


def test_a_replay_card_displaced_by_a_stop_card_gives_another_turn_Z8_Z9() -> None:
    state = after(started(), draws(ARTHUR, card("red", 4, stop=True)))
    assert told(
        state,
        Place(ARTHUR, revealed=card("green", 2, replay=True)),
        Discard(ARTHUR, "left"),
    ) == [
        "Arthur places the red 4 (STOP) on spot 4, revealing the green 2 (Replay), "
        "which must be discarded",
        "Arthur discards the green 2 (Replay) on the left pile: Arthur plays again",
    ]


def test_an_empty_draw_pile_is_reshuffled_at_the_next_turn_Z10() -> None:
    state = started(discards=(plain("red", 1), plain("red", 2)))
    state = after(state, draws(ARTHUR, card("blue", 1)), Discard(ARTHUR, "left"))
    state = after(state, draws(MAELLE, card("blue", 2)), Discard(MAELLE, "right"))
    state = replace(state, draw_pile_size=1)
    state = after(state, draws(ARTHUR, card("blue", 3)))
    assert (
        said(state, Discard(ARTHUR, "left"))
        == "Arthur discards the blue 3 on the left pile: the draw pile is empty, so "
        "the discard piles but their top cards are shuffled into a new draw pile of "
        "3 cards"
    )


def test_a_full_grid_gives_every_other_player_a_final_turn_Z11() -> None:
    state = with_grid(started(THREE), ARTHUR, mixed_grid(hole=12))
    state = after(
        state,
        draws(ARTHUR, card("green", 12)),
        Place(ARTHUR, revealed=card("yellow", 12)),
    )
    assert (
        said(state, Discard(ARTHUR, "left"))
        == "Arthur discards the yellow 12 on the left pile: Arthur's grid is all "
        "face up, Maëlle and Noé play a final turn"
    )


def test_twelve_cards_of_one_colour_win_at_once_Z12() -> None:
    state = with_grid(started(), ARTHUR, full_grid("red", hole=5))
    state = after(state, draws(ARTHUR, card("red", 5)))
    assert (
        said(state, Place(ARTHUR, revealed=card("blue", 7)))
        == "Arthur places the red 5 on spot 5, revealing the blue 7: "
        "Arthur's twelve cards are all red, Arthur wins at once"
    )


def test_a_round_end_tells_the_points_and_the_next_starter_Z13_Z14() -> None:
    assert (
        said(last_final_turn((10, 4)), Discard(MAELLE, "left"))
        == "Maëlle discards the purple 1 on the left pile: round 1 ends; "
        "Arthur scores 2, Maëlle scores 1; Maëlle starts round 2"
    )


def test_a_tie_for_the_fewest_points_is_left_to_the_table_Z14() -> None:
    assert (
        said(last_final_turn((6, 7)), Discard(MAELLE, "left"))
        == "Maëlle discards the purple 1 on the left pile: round 1 ends; "
        "Arthur scores 2, Maëlle scores 1; Arthur and Maëlle share the fewest "
        "points: the table names which of them starts round 2"
    )


def test_the_last_round_end_tells_the_winner_Z15() -> None:
    assert said(last_final_turn((10, 4), ((10, 4),), 2), Discard(MAELLE, "left")) == (
        "Maëlle discards the purple 1 on the left pile: round 2 ends; "
        "Arthur scores 2, Maëlle scores 1; the game ends: Arthur wins"
    )


def test_a_final_tie_goes_to_the_best_single_round_Z15() -> None:
    state = last_final_turn((8, 9), ((8, 9),), rounds=2)
    assert said(state, Discard(MAELLE, "left")) == (
        "Maëlle discards the purple 1 on the left pile: round 2 ends; Arthur scores 2, "
        "Maëlle scores 1; the game ends: Arthur and Maëlle tie on 10 points, Maëlle "
        "wins with the best single round (9)"
    )


def test_a_final_tie_on_the_best_round_too_is_a_shared_victory_Z15() -> None:
    state = last_final_turn((10, 11), ((10, 10), (0, 1)))
    assert said(state, Discard(MAELLE, "left")) == (
        "Maëlle discards the purple 1 on the left pile: round 3 ends; Arthur scores 2, "
        "Maëlle scores 1; the game ends: Arthur and Maëlle tie on 12 points and on "
        "their best round (10): they share the victory"
    )


def test_simulated_sentences_leave_no_clause_empty() -> None:
    """Seeded games: no clause is left empty, nothing is unknown, and a sentence
    names the player whose move it tells."""
    names = (ARTHUR, MAELLE, NOE, "Karen", "Eva")
    for seed in range(20):
        setup = Setup(players=names[: 2 + seed % 4], first_player=ARTHUR, seed=seed)
        history = History.start(DOZITO, setup)
        for move in DOZITO.simulate(setup):
            record, after = history.play(move)
            sentence = describe(history.state, record)
            assert not sentence.endswith((":", ": ")), sentence
            assert ": ;" not in sentence and ", ;" not in sentence, sentence
            assert "None" not in sentence and "?" not in sentence, sentence
            if not isinstance(move, StartRound):
                assert sentence.startswith(move.player), sentence
            history = after


def test_a_final_tie_may_be_shared_by_some_of_the_tied_only_Z15() -> None:
    """All three end on 12 points; Arthur's and Maëlle's best rounds (10) beat Noé's
    (6)."""
    state = started(THREE)
    state = with_grid(state, ARTHUR, {1: plain("red", 1, suns=2)})
    state = with_grid(state, MAELLE, {2: plain("blue", 2, suns=1)})
    state = replace(
        state,
        round=3,
        totals=(10, 11, 12),
        round_scores=((10, 10, 6), (0, 1, 6)),
        final_turns=(MAELLE,),
        phase=Drawing(MAELLE),
    )
    state = after(state, draws(MAELLE, card("purple", 1)))
    assert said(state, Discard(MAELLE, "left")) == (
        "Maëlle discards the purple 1 on the left pile: round 3 ends; Arthur scores 2, "
        "Maëlle scores 1, Noé scores 0; the game ends: Arthur, Maëlle and Noé tie on "
        "12 points, Arthur and Maëlle share the victory with the best round (10)"
    )


def test_the_boxs_colours_are_said_in_french_and_a_tables_own_as_named_Z2() -> None:
    state = with_grid(started(), ARTHUR, {5: plain("blue", 5)})
    sentences = []
    for move in (
        Draw(ARTHUR, "deck", joker("red")),
        Place(ARTHUR, 5),
        Discard(ARTHUR, "right"),
    ):
        events = tuple(DOZITO.decide(state, move))
        sentences.append(
            BUILT_IN.languages["fr"].render(worded(state, Recorded(move, events)))
        )
        state = after(state, move)
    assert sentences == [
        "Arthur pioche le joker rouge",
        "Arthur place le joker rouge sur la case 5",
        "Arthur défausse le 5 bleu sur la défausse de droite",
    ]
    own = started(
        discards=(plain("rose", 1), plain("ocre", 1)),
        colors=["rose", "ocre", "vert", "violet", "jaune"],
    )
    drawn = Draw(ARTHUR, "deck", card("rose", 4))
    events = tuple(DOZITO.decide(own, drawn))
    assert BUILT_IN.languages["fr"].render(worded(own, Recorded(drawn, events))) == (
        "Arthur pioche le 4 rose"
    )
