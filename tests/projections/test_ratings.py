"""The players' ratings as pure folds (`projections.ratings`), with no database:
what a batch changes on the ladders (a game rated, withdrawn, moved), and the rows
a ladder's games give from the ratings their players had before, checked against
openskill's own Plackett-Luce model."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from uuid import uuid4

from openskill.models import PlackettLuce

from domain.history import Abandon, Undo
from domain.names import name_fault
from domain.registry import BUILT_IN
from projections.ratings import (
    EVERY_GROUP,
    Changes,
    HistoryRow,
    LadderGame,
    Placed,
    Standing,
    changes,
    finish_of,
    ladders,
    public_part,
    refolded,
)
from tests.projections.games import played

AT = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
LATER = datetime(2026, 12, 2, 21, 0, tzinfo=UTC)
OPENSKILL = PlackettLuce()
GAME_ID, OTHER_ID = uuid4(), uuid4()


def a_game(game_id=GAME_ID, at=(700, 3), finished_at=AT, winners=("ana",), **seats):
    """A rated game of a ladder, as the ladder folds it; `seats`: key -> rank."""
    seats = seats or {"ana": 1, "bia": 2, "caio": 2}
    return LadderGame(
        game_id=game_id,
        finish_transaction=at[0],
        finish_position=at[1],
        finished_at=finished_at,
        players=[key.title() for key in seats],
        player_keys=list(seats),
        winner_keys=list(winners),
        ranks=list(seats.values()),
    )


def openskill_rates(game, before):
    """The players' ratings after `game`, by openskill itself."""
    teams = [
        [OPENSKILL.rating(mu=before[key].mu, sigma=before[key].sigma)]
        if key in before
        else [OPENSKILL.rating()]
        for key in game.player_keys
    ]
    return [after for (after,) in OPENSKILL.rate(teams, ranks=list(game.ranks))]


# ---------------------------------------------------------------- a game's result


def test_a_finished_game_is_rated_in_its_standings_T3():
    game, history = played(BUILT_IN["dozito"], ("Ana", "Bia", "Caio"), 4, group="Club")

    finish = finish_of(game, history, AT)

    standings = history.score_sheet().standings
    assert finish.ranks == tuple(standings[p] for p in game.players)
    assert (finish.game, finish.group, finish.players) == (
        "dozito",
        "Club",
        ("Ana", "Bia", "Caio"),
    )
    assert (finish.winners, finish.finished_at) == (history.winners, AT)


def test_an_abandoned_game_gives_no_result_and_changes_no_ladder():
    game, history = played(BUILT_IN["dobro"], ("Ana", "Bia"), 4, moves=5)
    _, abandoned = history.play(Abandon())

    finish = finish_of(game, abandoned, AT)

    assert finish is None
    assert changes({}, {game.id: (7, finish)}, {}) == Changes()


def test_a_finished_variation_gives_no_result():
    game, history = played(
        BUILT_IN["dobro"], ("Ana", "Bia"), 4, variation_of=uuid4(), variation_step=3
    )
    assert history.finished

    assert finish_of(game, history, AT) is None


# ------------------------------------------------------ what a batch changes


def test_a_game_finished_now_is_added_at_its_finishing_move():
    game, history = played(BUILT_IN["dobro"], ("Ana", "Bia"), 4)
    finish = finish_of(game, history, AT)

    changed = changes({}, {game.id: (history.version, finish)}, {game.id: (900, 1)})

    assert changed == Changes(added=[(game.id, (900, 1), finish)])


def test_an_added_game_refolds_its_own_ladder_and_its_groups_from_its_move():
    changed = Changes()

    changed.refold(Placed("dobro", "club", (900, 1)))
    changed.refold(Placed("dobro", None, (950, 0)))

    assert changed.refolds == {
        ("dobro", EVERY_GROUP): (900, 1),
        ("dobro", "club"): (900, 1),
        ("dobro", public_part("club")): (900, 1),
    }


def test_a_members_game_refolds_its_groups_ladder_only():
    changed = Changes()

    changed.refold(Placed("dobro", "club", (900, 1), on_global=False, public=False))

    assert changed.refolds == {("dobro", "club"): (900, 1)}


def test_no_group_name_is_the_key_of_a_groups_public_part():
    assert name_fault(public_part("club")) is not None
    assert public_part("club") != "club"


def test_a_members_game_is_on_no_games_own_ladder_and_a_keyless_one_when_asked():
    game, history = played(BUILT_IN["dobro"], ("Ana", "Bia"), 4, group="Club")
    hidden = dataclasses.replace(game, visibility="members")
    assert finish_of(hidden, history, AT).on_global is False
    assert finish_of(game, history, AT).on_global is True
    assert finish_of(game, history, AT, needs_key=True).on_global is False
    keyed = dataclasses.replace(game, keyed=True)
    assert finish_of(keyed, history, AT, needs_key=True).on_global is True


def test_a_sample_game_is_on_its_groups_ladders_alone():
    game, history = played(BUILT_IN["dobro"], ("Ana", "Bia"), 4, group="Samples")
    sample = dataclasses.replace(game, sample=True, keyed=True)

    finish = finish_of(sample, history, AT)

    assert finish is not None and finish.on_global is False
    assert ladders("samples", finish.on_global, public=True) == [
        "samples",
        public_part("samples"),
    ]


def test_a_game_reopened_by_an_undo_is_withdrawn_and_its_ladders_refold_from_it():
    game, history = played(BUILT_IN["dobro"], ("Ana", "Bia"), 4, group="Club")
    _, reopened = history.play(Undo())
    rated = {game.id: Placed(game="dobro", group_key="club", position=(900, 1))}

    changed = changes(
        rated, {game.id: (reopened.version, finish_of(game, reopened, AT))}, {}
    )

    assert changed == Changes(
        withdrawn=[game.id],
        refolds={
            ("dobro", EVERY_GROUP): (900, 1),
            ("dobro", "club"): (900, 1),
            ("dobro", public_part("club")): (900, 1),
        },
    )


def test_a_members_game_reopened_refolds_its_groups_ladder_alone():
    game, history = played(BUILT_IN["dobro"], ("Ana", "Bia"), 4, group="Club")
    _, reopened = history.play(Undo())
    hidden = dataclasses.replace(game, visibility="members")
    placed = Placed("dobro", "club", (900, 1), on_global=False, public=False)

    changed = changes(
        {game.id: placed},
        {game.id: (reopened.version, finish_of(hidden, reopened, AT))},
        {},
    )

    assert changed == Changes(
        withdrawn=[game.id], refolds={("dobro", "club"): (900, 1)}
    )


def test_a_game_finished_again_is_moved_to_its_new_finishing_move():
    game, history = played(BUILT_IN["dobro"], ("Ana", "Bia"), 4)
    finish = finish_of(game, history, AT)
    rated = {game.id: Placed(game="dobro", group_key=None, position=(900, 1))}

    changed = changes(rated, {game.id: (history.version, finish)}, {game.id: (990, 0)})

    assert changed == Changes(
        withdrawn=[game.id],
        added=[(game.id, (990, 0), finish)],
        refolds={("dobro", EVERY_GROUP): (900, 1)},
    )


def test_a_game_folded_again_at_the_same_finishing_move_changes_nothing():
    game, history = played(BUILT_IN["dobro"], ("Ana", "Bia"), 4)
    finish = finish_of(game, history, AT)
    rated = {game.id: Placed(game="dobro", group_key=None, position=(900, 1))}

    changed = changes(rated, {game.id: (history.version, finish)}, {game.id: (900, 1)})

    assert changed == Changes()


def test_a_ladder_refolds_from_the_earliest_of_its_changes():
    first, second = uuid4(), uuid4()
    rated = {
        first: Placed(game="dobro", group_key=None, position=(950, 0)),
        second: Placed(game="dobro", group_key=None, position=(900, 4)),
    }

    changed = changes(rated, {first: (9, None), second: (12, None)}, {})

    assert changed.refolds == {("dobro", EVERY_GROUP): (900, 4)}
    assert changed.withdrawn == [first, second]


# ------------------------------------------------------------- a ladder's fold


def test_a_first_game_rates_its_players_from_openskills_defaults():
    game = a_game()

    rows = list(refolded("dobro", EVERY_GROUP, [game], {}))

    ana, bia, caio = openskill_rates(game, {})
    assert rows == [
        HistoryRow("dobro", "", 700, 3, "ana", "Ana", GAME_ID, AT, 1,
                   ana.mu, ana.sigma, ana.mu - 3 * ana.sigma, 1, 1),
        HistoryRow("dobro", "", 700, 3, "bia", "Bia", GAME_ID, AT, 2,
                   bia.mu, bia.sigma, bia.mu - 3 * bia.sigma, 1, 0),
        HistoryRow("dobro", "", 700, 3, "caio", "Caio", GAME_ID, AT, 2,
                   caio.mu, caio.sigma, caio.mu - 3 * caio.sigma, 1, 0),
    ]  # fmt: skip


def test_a_game_rates_its_players_from_the_ratings_they_had_before():
    before = {"ana": Standing(30.0, 6.0, 4, 3), "bia": Standing(22.5, 7.25, 1, 0)}
    game = a_game(winners=("bia",), ana=2, bia=1, caio=3)

    rows = list(refolded("dozito", "club", [game], before))

    ana, bia, caio = openskill_rates(game, before)
    assert [(r.player_key, r.rank, r.mu, r.sigma, r.rated, r.wins) for r in rows] == [
        ("ana", 2, ana.mu, ana.sigma, 5, 3),
        ("bia", 1, bia.mu, bia.sigma, 2, 1),
        ("caio", 3, caio.mu, caio.sigma, 1, 0),
    ]
    assert {(r.game, r.ladder) for r in rows} == {("dozito", "club")}
    assert before["ana"] == Standing(30.0, 6.0, 4, 3)  # the fold changes none of it


def test_a_ladder_folds_its_games_in_order_each_from_the_ratings_left_before():
    first = a_game()
    second = a_game(
        OTHER_ID, at=(701, 0), finished_at=LATER, winners=("caio",), caio=1, ana=2
    )

    rows = list(refolded("dobro", EVERY_GROUP, [first, second], {}))

    after_first = {
        r.player_key: Standing(r.mu, r.sigma, r.rated, r.wins) for r in rows[:3]
    }
    assert rows[3:] == list(refolded("dobro", EVERY_GROUP, [second], after_first))
    caio, ana = openskill_rates(second, after_first)
    assert [(r.player_key, r.mu, r.sigma, r.rated, r.wins) for r in rows[3:]] == [
        ("caio", caio.mu, caio.sigma, 2, 1),
        ("ana", ana.mu, ana.sigma, 2, 1),
    ]
    assert [(r.game_id, r.rated_at) for r in rows] == [(GAME_ID, AT)] * 3 + [
        (OTHER_ID, LATER)
    ] * 2


def test_a_ladder_with_no_games_to_fold_gives_no_rows():
    assert list(refolded("dobro", EVERY_GROUP, [], {})) == []
