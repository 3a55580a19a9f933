"""Z13: round scores from grids built by hand, and "Arthur counts his points"."""

from msgspec.structs import replace

from domain.dozito import scoring
from domain.dozito.state import Drawing
from tests.domain.dozito.given import (
    ARTHUR,
    MAELLE,
    Discard,
    after,
    card,
    draws,
    joker,
    plain,
    started,
    when,
    with_grid,
)


def grid(spots):
    return tuple(spots.get(spot) for spot in range(1, 13))


def test_the_chart_for_every_group_size_Z13():
    assert scoring.CHART[1:] == (0, 2, 5, 10, 16, 25, 35, 45, 55, 65, 75)


def test_diagonals_never_join_Z13():
    """Z13: red on spots 1, 6 and 11 touch only at corners: three groups of one."""
    spots = {1: plain("red", 1), 6: plain("red", 6), 11: plain("red", 11)}
    assert scoring.groups(grid(spots)) == (("red", 1), ("red", 1), ("red", 1))
    assert scoring.points(grid(spots)) == 0


def test_several_groups_of_one_colour_score_apart_Z13():
    """Z13: blue 1-2 and blue 4-8 are two groups of 2 (2 + 2), not one of 4 (10)."""
    spots = {
        1: plain("blue", 1),
        2: plain("blue", 2),
        3: plain("red", 3),
        4: plain("blue", 4),
        8: plain("blue", 8),
    }
    assert sorted(scoring.groups(grid(spots))) == [
        ("blue", 2),
        ("blue", 2),
        ("red", 1),
    ]
    assert scoring.points(grid(spots)) == 4


def test_face_down_cards_are_ignored_and_break_groups_Z13():
    """Z13: a face-down spot 2 between red 1 and red 3 leaves two lone reds."""
    spots = {1: plain("red", 1, suns=1), 3: plain("red", 3, suns=2)}
    assert scoring.groups(grid(spots)) == (("red", 1), ("red", 1))
    assert scoring.points(grid(spots)) == 3


def test_jokers_count_as_their_colour_and_their_suns_count_Z13():
    spots = {1: plain("green", 1), 2: joker("green", suns=1), 3: plain("green", 3)}
    assert scoring.points(grid(spots)) == 5 + 1


def test_suns_count_on_every_face_up_card_in_a_group_or_not_Z13():
    spots = {
        1: plain("red", 1, suns=3),
        5: plain("red", 5, suns=1),
        12: plain("blue", 12, suns=2),
    }
    assert scoring.points(grid(spots)) == 2 + 3 + 1 + 2


def test_an_empty_grid_scores_nothing_Z13():
    assert scoring.points(grid({})) == 0


def test_eleven_of_one_colour_score_75_Z13():
    spots = {n: plain("red", n) for n in range(1, 12)}
    spots[12] = plain("blue", 12)
    assert scoring.points(grid(spots)) == 75


# Scoring, "Example: Arthur counts his points": three red (5), four blue (10), two
# green (2), a lone green 6 that touches no other green (0), 10 suns: 27 points; his
# face-down card (spot 7) stays face down. A lone yellow 12 fills the grid.
#    R1  R2  R3  G4
#    B5  G6  ??  G8
#    B9  B10 B11 Y12
ARTHUR_GRID = {
    1: plain("red", 1),
    2: plain("red", 2, suns=1),
    3: plain("red", 3),
    4: plain("green", 4, suns=3),
    5: plain("blue", 5),
    6: plain("green", 6, suns=2),
    8: plain("green", 8),
    9: plain("blue", 9, suns=2),
    10: plain("blue", 10, suns=1),
    11: plain("blue", 11),
    12: plain("yellow", 12, suns=1),
}


def test_rulebook_scoring_example_arthur_counts_his_points_Z13():
    """Scoring, "Example: Arthur counts his points": 5 + 10 + 2 + 10 suns = 27."""
    assert sorted(scoring.groups(grid(ARTHUR_GRID))) == [
        ("blue", 4),
        ("green", 1),
        ("green", 2),
        ("red", 3),
        ("yellow", 1),
    ]
    assert scoring.suns(grid(ARTHUR_GRID)) == 10
    assert scoring.points(grid(ARTHUR_GRID)) == 27


def test_rulebook_scoring_example_scored_by_the_engine_at_the_round_end_Z13():
    """Z13 through the engine: the round's RoundScored gives Arthur 27 points."""
    state = with_grid(started(), ARTHUR, ARTHUR_GRID)
    state = replace(state, final_turns=(MAELLE,), phase=Drawing(MAELLE))
    state = after(state, draws(MAELLE, card("purple", 1)))
    scored = when(state, Discard(MAELLE, "left"))[-1]
    [arthur, maelle] = scored.scores
    assert (arthur.player, arthur.points, arthur.suns) == (ARTHUR, 27, 10)
    assert maelle.points == 0 and scored.totals == {ARTHUR: 27, MAELLE: 0}
