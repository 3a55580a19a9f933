"""The public state of a Dozito game, as the API shows it: what the table sees."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.dozito.components import Card
from domain.dozito.rules import MoveKind, Phase, allowed, phase
from domain.dozito.state import BetweenRounds, Drawing, Finished, Holding, State
from domain.game import choices, kinds


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
    phase: Phase
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
    # What each kind allows now: the `player` who may make it, the `starter` a
    # round may name (Z3, Z14), the `source` of a draw (Z4, Z10), the `spot` the
    # held card may go to (Z4), the `pile` it may be discarded on (Z6).
    choices: dict[MoveKind, dict[str, list[int | str]]] = {}


def view(state: State) -> DozitoView:
    current = state.phase
    left, right = state.piles
    offers = allowed(state)
    return DozitoView(
        round=state.round,
        rounds=state.rounds,
        phase=phase(state),
        next_player=_next_player(state),
        grids=dict(zip(state.players, state.grids, strict=True)),
        discard_tops=DiscardTops(*(pile[-1] if pile else None for pile in state.piles)),
        discard_sizes={"left": len(left), "right": len(right)},
        held=current.card if isinstance(current, Holding) else None,
        final_turns=state.final_turns,
        draw_pile_size=state.draw_pile_size,
        totals=dict(zip(state.players, state.totals, strict=True)),
        round_scores=tuple(
            dict(zip(state.players, points, strict=True))
            for points in state.round_scores
        ),
        starter_choices=current.tied if isinstance(current, BetweenRounds) else (),
        winners=current.winners if isinstance(current, Finished) else (),
        allowed=kinds(offers),
        choices=choices(offers),
    )


def _next_player(state: State) -> str | None:
    current = state.phase
    if isinstance(current, Drawing | Holding):
        return current.player
    if isinstance(current, BetweenRounds):
        return current.starter
    return None


def outcome(state: State) -> tuple[str, ...] | None:
    over = state.phase
    return over.winners if isinstance(over, Finished) else None


def is_terminal(state: State) -> bool:
    """Z12 or Z15: the game is won."""
    return isinstance(state.phase, Finished)
