"""The public state of a Dozito game, as the API shows it: what the table sees."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.dozito.components import Card
from domain.dozito.state import BetweenRounds, Drawing, Finished, Holding, State

MoveKind = Literal["start_round", "draw", "place", "discard"]


class DiscardTops(msgspec.Struct, frozen=True):
    left: Card | None
    right: Card | None


class DozitoView(msgspec.Struct, frozen=True, kw_only=True):
    """`grids`: 12 spots per player, null when face down. `phase` says what is awaited:
    `start_round`, `draw`, `place_or_discard`, `place` (Z5), `discard`, or `finished`.
    `starter_choices`: the tied players the next `start_round` must pick from (Z14).
    """

    game: Literal["dozito"] = "dozito"
    round: int
    rounds: int
    phase: Literal[
        "start_round", "draw", "place_or_discard", "place", "discard", "finished"
    ]
    next_player: str | None
    grids: dict[str, tuple[Card | None, ...]]
    discard_tops: DiscardTops
    discard_sizes: dict[str, int]
    held: Card | None
    final_turns: tuple[str, ...] | None
    draw_pile_size: int
    totals: dict[str, int]
    round_scores: tuple[dict[str, int], ...]
    starter_choices: tuple[str, ...]
    winners: tuple[str, ...]
    # The kinds of move the rules await now (`undo` aside): a client offers only these.
    allowed: list[MoveKind] = []


# The moves each phase awaits: a card just drawn from the deck may be placed or
# discarded (Z4); one taken from a discard pile must be placed (Z5); after a STOP
# only a discard is left.
_ALLOWED: dict[str, tuple[MoveKind, ...]] = {
    "start_round": ("start_round",),
    "draw": ("draw",),
    "place_or_discard": ("place", "discard"),
    "place": ("place",),
    "discard": ("discard",),
    "finished": (),
}


def view(state: State) -> DozitoView:
    phase = state.phase
    left, right = state.piles
    phase_name = _phase_name(state)
    return DozitoView(
        round=state.round,
        rounds=state.rounds,
        phase=phase_name,
        next_player=_next_player(state),
        grids=dict(zip(state.players, state.grids, strict=True)),
        discard_tops=DiscardTops(*(pile[-1] if pile else None for pile in state.piles)),
        discard_sizes={"left": len(left), "right": len(right)},
        held=phase.card if isinstance(phase, Holding) else None,
        final_turns=state.final_turns,
        draw_pile_size=state.draw_pile_size,
        totals=dict(zip(state.players, state.totals, strict=True)),
        round_scores=tuple(
            dict(zip(state.players, points, strict=True))
            for points in state.round_scores
        ),
        starter_choices=phase.tied if isinstance(phase, BetweenRounds) else (),
        winners=phase.winners if isinstance(phase, Finished) else (),
        allowed=list(_ALLOWED[phase_name]),
    )


def _phase_name(state: State) -> str:
    phase = state.phase
    if isinstance(phase, BetweenRounds):
        return "start_round"
    if isinstance(phase, Drawing):
        return "draw"
    if isinstance(phase, Holding):
        return "discard" if phase.choice == "discard_after_stop" else phase.choice
    return "finished"


def _next_player(state: State) -> str | None:
    phase = state.phase
    if isinstance(phase, Drawing | Holding):
        return phase.player
    if isinstance(phase, BetweenRounds):
        return phase.starter
    return None


def outcome(state: State) -> tuple[str, ...] | None:
    phase = state.phase
    return phase.winners if isinstance(phase, Finished) else None
