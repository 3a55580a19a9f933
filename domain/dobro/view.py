"""The public state of a Dobro game, as the API shows it: what the table sees."""

from __future__ import annotations

import msgspec

from domain.dobro.components import Card, Direction, EditionName, Scoring
from domain.dobro.rules import MoveKind, Phase, allowed, phase
from domain.dobro.state import RoundResult, State
from domain.game import choices, kinds


class DobroView(msgspec.Struct, frozen=True, kw_only=True):
    # The game's name: one view serves both editions, so it is the edition's.
    game: EditionName
    edition: str
    # A player's turn in a climb, or `finished`.
    phase: Phase
    round: int
    rounds: int
    scoring: Scoring
    next_player: str | None  # None once the game is over
    direction: Direction
    value_in_play: int | None
    cards_in_play: list[Card]
    hand_sizes: dict[str, int]
    draw_pile_size: int
    hand_size: int
    set_aside: int
    wild_range: tuple[int, int]
    score_piles: dict[str, int]
    forgetful: str | None
    totals: dict[str, int]
    results: list[RoundResult]
    winners: list[str] | None
    # The kinds of move that can be legal now (`undo` aside, always possible once a
    # move is stored): a client offers only these.
    allowed: list[MoveKind] = []
    # What each kind allows now: `player` who may make it, and for `play` the
    # `cards` (numbered values, `wild`) still in the deck that can reach the value.
    choices: dict[MoveKind, dict[str, list[int | str]]] = {}


def view(state: State) -> DobroView:
    players = state.table.players

    def by_name(values: tuple[int, ...]) -> dict[str, int]:
        return dict(zip(players, values, strict=True))

    finished = state.winners is not None
    offers = allowed(state)
    return DobroView(
        game=state.table.edition,
        edition=state.table.edition,
        phase=phase(state),
        round=state.round,
        rounds=state.table.rounds,
        scoring=state.table.scoring,
        next_player=None if finished else players[state.next_player],
        direction=state.direction,
        value_in_play=state.value_in_play,
        cards_in_play=list(state.cards_in_play),
        hand_sizes=by_name(state.hand_sizes),
        draw_pile_size=state.draw_pile_size,
        hand_size=state.table.hand_size,
        set_aside=state.table.set_aside,
        wild_range=(state.table.deck.wild_low, state.table.deck.wild_high),
        score_piles=by_name(state.score_piles),
        forgetful=None if state.forgetful is None else players[state.forgetful],
        totals=by_name(state.totals),
        results=list(state.results),
        winners=None if state.winners is None else list(state.winners),
        allowed=kinds(offers),
        choices=choices(offers),
    )


def outcome(state: State) -> tuple[str, ...] | None:
    return state.winners


def is_terminal(state: State) -> bool:
    """D16: the last round is scored and the winners known."""
    return state.winners is not None
