"""Z11, Z12, Z14, Z15: final turns, the instant win, the next starter, the winner."""

from msgspec.structs import replace

from domain.dozito import DOZITO
from domain.dozito.events import CardPlaced, GameEnded, RoundScored, TurnBegan
from domain.dozito.rules import winners
from domain.dozito.state import Drawing
from domain.dozito.view import view
from tests.domain.dozito.given import (
    ARTHUR,
    MAELLE,
    NOE,
    Discard,
    Place,
    StartRound,
    after,
    card,
    draws,
    full_grid,
    joker,
    mixed_grid,
    plain,
    refused,
    started,
    when,
    with_grid,
)

THREE = (ARTHUR, MAELLE, NOE)


def arthur_completes_his_grid(players=THREE):
    """Arthur's last face-down spot (12) is revealed and the revealed card discarded."""
    state = with_grid(started(players), ARTHUR, mixed_grid(hole=12))
    return after(
        state,
        draws(ARTHUR, card("green", 12)),
        Place(ARTHUR, revealed=card("yellow", 12)),
    )


def test_a_turn_ending_with_a_full_grid_gives_every_other_player_a_final_turn_Z11():
    state = arthur_completes_his_grid()
    assert when(state, Discard(ARTHUR, "left"))[-1] == TurnBegan(MAELLE, (MAELLE, NOE))
    state = after(state, Discard(ARTHUR, "left"))
    assert view(state).final_turns == (MAELLE, NOE)
    state = after(state, draws(MAELLE, card("purple", 1)), Discard(MAELLE, "left"))
    assert view(state).final_turns == (NOE,) and view(state).next_player == NOE
    state = after(state, draws(NOE, card("purple", 2)))
    assert isinstance(when(state, Discard(NOE, "left"))[-1], RoundScored)


def test_the_replay_turns_of_the_finisher_come_before_the_final_turns_Z11():
    state = with_grid(started(THREE), ARTHUR, mixed_grid(hole=12))
    state = after(
        state,
        draws(ARTHUR, card("green", 12)),
        Place(ARTHUR, revealed=card("yellow", 12, replay=True)),
    )
    assert when(state, Discard(ARTHUR, "left"))[-1] == TurnBegan(
        ARTHUR, None, replay=True
    )
    state = after(state, Discard(ARTHUR, "left"), draws(ARTHUR, card("purple", 3)))
    assert when(state, Discard(ARTHUR, "left"))[-1] == TurnBegan(MAELLE, (MAELLE, NOE))


def test_a_replay_card_still_earns_its_turn_during_final_turns_Z11():
    state = after(arthur_completes_his_grid(), Discard(ARTHUR, "left"))
    state = after(state, draws(MAELLE, card("purple", 1, replay=True)))
    assert when(state, Discard(MAELLE, "left"))[-1] == TurnBegan(
        MAELLE, (MAELLE, NOE), replay=True
    )
    state = after(state, Discard(MAELLE, "left"), draws(MAELLE, card("purple", 2)))
    assert when(state, Discard(MAELLE, "left"))[-1] == TurnBegan(NOE, (NOE,))


def test_completing_a_grid_during_final_turns_changes_nothing_Z11():
    state = after(arthur_completes_his_grid(), Discard(ARTHUR, "left"))
    state = with_grid(state, MAELLE, mixed_grid(hole=11))
    state = after(
        state,
        draws(MAELLE, card("green", 11)),
        Place(MAELLE, revealed=card("purple", 11)),
    )
    assert when(state, Discard(MAELLE, "left"))[-1] == TurnBegan(NOE, (NOE,))


def test_the_last_final_turn_scores_the_round_and_play_waits_for_the_next_Z3_Z11():
    state = after(arthur_completes_his_grid(), Discard(ARTHUR, "left"))
    state = after(
        state,
        draws(MAELLE, card("purple", 1)),
        Discard(MAELLE, "left"),
        draws(NOE, card("purple", 2)),
        Discard(NOE, "left"),
    )
    shown = view(state)
    assert shown.phase == "start_round" and shown.final_turns is None
    assert shown.round_scores[0][ARTHUR] == shown.totals[ARTHUR] > 0
    refused(state, draws(MAELLE, card("purple", 4)), "Z3")


def test_twelve_face_up_cards_of_one_colour_win_at_once_Z12():
    """Z12: Arthur places his last red card: the game ends with him alone winning,
    even though Maëlle has more points, and nothing is discarded."""
    state = with_grid(started(), ARTHUR, full_grid("red", hole=5))
    state = replace(state, totals=(0, 200))
    state = after(state, draws(ARTHUR, card("red", 5)))
    assert when(state, Place(ARTHUR, revealed=card("blue", 7))) == [
        CardPlaced(
            ARTHUR, 5, plain("red", 5), plain("blue", 7), True, "place_or_discard"
        ),
        GameEnded((ARTHUR,), "instant_win"),
    ]
    state = after(state, Place(ARTHUR, revealed=card("blue", 7)))
    assert DOZITO.outcome(state) == (ARTHUR,)
    assert view(state).winners == (ARTHUR,) and view(state).round_scores == ()


def test_a_joker_counts_as_its_colour_for_the_instant_win_Z12():
    state = with_grid(started(), ARTHUR, full_grid("red", hole=5))
    state = after(state, draws(ARTHUR, joker("red")))
    assert when(state, Place(ARTHUR, 5, card("blue", 7)))[-1] == GameEnded(
        (ARTHUR,), "instant_win"
    )


def test_the_instant_win_is_checked_after_a_placement_on_a_face_up_card_Z12():
    spots = {**full_grid("red"), 5: plain("blue", 5)}
    state = with_grid(started(), ARTHUR, spots)
    state = after(state, draws(ARTHUR, card("red", 5)))
    assert when(state, Place(ARTHUR))[-1] == GameEnded((ARTHUR,), "instant_win")


def test_a_joker_of_another_colour_spoils_the_instant_win_Z12():
    state = with_grid(started(), ARTHUR, full_grid("red", hole=5))
    state = after(state, draws(ARTHUR, joker("blue")))
    assert len(when(state, Place(ARTHUR, 5, card("blue", 7)))) == 1


def last_final_turn(totals, grids=None, rounds=3):
    """Maëlle plays the round's last final turn; totals before it are `totals`."""
    state = started(rounds=rounds)
    for player, spots in (grids or {}).items():
        state = with_grid(state, player, spots)
    state = replace(state, totals=totals, final_turns=(MAELLE,), phase=Drawing(MAELLE))
    return after(state, draws(MAELLE, card("purple", 1)))


def test_the_fewest_points_start_the_next_round_Z14():
    state = last_final_turn((10, 4), {ARTHUR: {1: plain("red", 1, suns=2)}})
    [_, scored] = when(state, Discard(MAELLE, "left"))
    assert scored.next_starter == MAELLE and scored.totals == {ARTHUR: 12, MAELLE: 4}
    state = after(state, Discard(MAELLE, "left"))
    assert view(state).next_player == MAELLE
    discards = (plain("red", 1, suns=2), plain("red", 2))
    refused(state, StartRound(discards, ARTHUR), "Z14")
    assert after(state, StartRound(discards)).phase == Drawing(MAELLE)
    assert after(state, StartRound(discards, MAELLE)).phase == Drawing(MAELLE)


def test_a_tie_for_fewest_points_is_settled_by_the_table_Z14():
    state = after(last_final_turn((7, 7)), Discard(MAELLE, "left"))
    assert view(state).starter_choices == (ARTHUR, MAELLE)
    assert view(state).next_player is None
    discards = (plain("red", 1), plain("red", 2))
    refused(state, StartRound(discards), "Z14")
    assert after(state, StartRound(discards, MAELLE)).phase == Drawing(MAELLE)
    assert after(state, StartRound(discards, ARTHUR)).phase == Drawing(ARTHUR)


def test_only_a_tied_player_may_be_named_Z14():
    state = started((ARTHUR, MAELLE, NOE))
    state = replace(state, totals=(3, 3, 9), final_turns=(NOE,), phase=Drawing(NOE))
    state = after(state, draws(NOE, card("purple", 1)), Discard(NOE, "left"))
    refused(state, StartRound((plain("red", 1), plain("red", 2)), NOE), "Z14")


def test_the_last_round_ends_the_game_with_the_most_points_winning_Z15():
    state = last_final_turn((10, 4), rounds=1)
    state = replace(state, round_scores=())
    recorded = when(state, Discard(MAELLE, "left"))
    assert recorded[-1] == GameEnded((ARTHUR,), "rounds_played")
    assert DOZITO.outcome(after(state, Discard(MAELLE, "left"))) == (ARTHUR,)


def test_a_tie_goes_to_the_highest_single_round_Z15():
    rounds = ((10, 2, 5), (0, 8, 5), (5, 5, 5))
    assert winners(THREE, (15, 15, 15), rounds) == (ARTHUR,)


def test_still_tied_the_victory_is_shared_Z15():
    rounds = ((10, 2, 5), (0, 10, 5), (5, 3, 5))
    assert winners(THREE, (15, 15, 15), rounds) == (ARTHUR, MAELLE)


def test_the_rounds_option_sets_the_game_length_Z15():
    assert started(rounds=5).rounds == 5
    assert started().rounds == 3
