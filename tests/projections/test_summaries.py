"""The game list's rows (`projections.summaries`): given a game as created and its
history at the version the runner folded, then exactly this row, with no
database."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import uuid4

from domain.history import Abandon, Undo
from domain.registry import BUILT_IN
from projections.summaries import Summary, summary
from tests.projections.games import CREATED_AT, played

AT = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


def test_a_game_in_progress_is_listed_at_its_version_without_winners():
    game, history = played(
        BUILT_IN["dobro"], ("Ana", "Bia"), 4, moves=5, title="Friday"
    )

    assert summary(game, history, AT) == Summary(
        game_id=game.id,
        game="dobro",
        players=["Ana", "Bia"],
        title="Friday",
        status="in_progress",
        winners=[],
        version=6,
        created_at=CREATED_AT,
        updated_at=AT,
        variation_of=None,
        variation_step=None,
    )


def test_a_finished_game_is_listed_with_its_winners_at_its_finishing_move():
    game, history = played(BUILT_IN["dozito"], ("Ana", "Bia", "Caio"), 4)
    assert history.finished

    listed = summary(game, history, AT)

    assert (listed.status, listed.winners) == ("finished", list(history.winners))
    assert listed.version == history.version and listed.updated_at == AT


def test_an_abandoned_game_is_listed_abandoned_without_winners_T2():
    game, history = played(BUILT_IN["dobro"], ("Ana", "Bia"), 4, moves=5)
    _, abandoned = history.play(Abandon())

    listed = summary(game, abandoned, AT)

    assert (listed.status, listed.winners, listed.version) == ("abandoned", [], 7)


def test_an_undo_of_the_finishing_move_lists_the_game_in_progress_again():
    game, history = played(BUILT_IN["dobro"], ("Ana", "Bia"), 4)
    _, reopened = history.play(Undo())

    listed = summary(game, reopened, AT)

    assert (listed.status, listed.winners) == ("in_progress", [])
    assert listed.version == history.version + 1  # the undo is a stored move


def test_a_variation_names_the_game_and_the_step_it_branched_from():
    original = uuid4()
    game, history = played(
        BUILT_IN["dobro"], ("Ana", "Bia"), 4, moves=2, variation_of=original,
        variation_step=2,
    )  # fmt: skip

    listed = summary(game, history, AT)

    assert (listed.variation_of, listed.variation_step) == (original, 2)
