"""Replay steps: each stored move's sentence, state and score sheet, undos included.

The sheets of all the steps are folded in one pass; these seeded games check that each
step's sheet is the one its history folds into on its own, and that a step that
changed nothing on the sheet shares the sheet of the step before it (the pass is
linear in the moves, not quadratic)."""

from __future__ import annotations

from itertools import pairwise

import pytest

from domain.game import Rules
from domain.history import Undo
from domain.registry import BUILT_IN
from projections import replay
from projections.scoresheet import score_sheet
from tests.projections.simulated import timeline

RULES = sorted(BUILT_IN.values(), key=lambda rules: rules.name)


@pytest.mark.parametrize("rules", RULES, ids=lambda rules: rules.name)
def test_every_step_carries_the_sheet_as_it_stood_after_that_move(rules: Rules) -> None:
    for seed in range(6):
        histories, records = timeline(rules, 2 + seed % 3, seed, undo_every=7)
        steps = replay.steps(histories, records)
        assert [s.step for s in steps] == list(range(1, len(records) + 1))
        for n, built in enumerate(steps, start=1):
            assert built.scoresheet == score_sheet(histories[n]), (seed, n)
        assert steps[-1].scoresheet.finished


@pytest.mark.parametrize("rules", RULES, ids=lambda rules: rules.name)
def test_a_step_that_changes_nothing_on_the_sheet_shares_the_one_before(
    rules: Rules,
) -> None:
    histories, records = timeline(rules, 3, seed=1, undo_every=5)
    steps = replay.steps(histories, records)
    shared = 0
    for before, after in pairwise(steps):
        if after.scoresheet == before.scoresheet:
            assert after.scoresheet is before.scoresheet, after.step
            shared += 1
    assert shared > len(steps) // 2


def test_an_undo_takes_the_sheet_back_to_before_the_retracted_move_A2() -> None:
    """Given a game up to the move that scores its first round, when that move is
    undone, then the undo's step has the sheet of the step before the move."""
    histories, records = timeline(BUILT_IN["dozito"], 2, seed=5)
    steps = replay.steps(histories, records)
    scored = next(s.step for s in steps if s.scoresheet.rounds)
    histories, records = histories[: scored + 1], records[:scored]
    record, undone = histories[-1].play(Undo())
    steps = replay.steps([*histories, undone], [*records, record])
    assert steps[-2].scoresheet.rounds and not steps[-1].scoresheet.rounds
    assert steps[-1].scoresheet is steps[-3].scoresheet
    assert steps[-1].description.startswith("Undo: “")


@pytest.mark.parametrize("rules", RULES, ids=lambda rules: rules.name)
def test_a_step_alone_is_the_step_of_the_whole_replay(rules: Rules) -> None:
    histories, records = timeline(rules, 2, seed=3, undo_every=9)
    steps = replay.steps(histories, records)
    for n in (1, len(records) // 2, len(records)):
        assert replay.step(histories, records, n) == steps[n - 1]
