"""What the service knows of a Dobro game: only what the table sees and derives.

Players are seat indices in the state (0 is the first name given, clockwise after it);
events and the public view name them.
"""

from __future__ import annotations

from functools import cached_property

import msgspec

from domain.dobro.components import Card, Deck, Direction, EditionName, Scoring


# `dict=True` lets the lookup below be computed once per game and kept on the
# instance (every state of a game shares its one Table).
class Table(msgspec.Struct, frozen=True, dict=True):
    """What stays fixed for the whole game."""

    edition: EditionName
    players: tuple[str, ...]
    hand_size: int
    set_aside: int  # cards set aside unseen each round (D5, two players)
    rounds: int
    scoring: Scoring
    deck: Deck

    @cached_property
    def seats(self) -> dict[str, int]:
        """Each player's seat by name."""
        return {name: seat for seat, name in enumerate(self.players)}


# Names to numbers only, never a cycle: out of the garbage collector like the state.
class RoundResult(msgspec.Struct, frozen=True, gc=False):
    """One scored round, as a score sheet shows it (D14, D15)."""

    round: int
    emptied_by: str
    score_piles: dict[str, int]
    rank_points: dict[str, int]
    forgetful: str | None
    forgetful_adjustment: int
    points: dict[str, int]


# One state is made per event folded. It holds only a Table, tuples and round results
# (dicts of names to numbers), so it can never be part of a reference cycle: keeping
# it out of the garbage collector spares the collector's passes over every state a
# cached timeline holds.
class State(msgspec.Struct, frozen=True, gc=False):
    table: Table
    round: int
    next_player: int
    direction: Direction
    value_in_play: int | None
    cards_in_play: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    draw_pile_size: int
    score_piles: tuple[int, ...]
    # The cards of the piles taken this round: one tuple joined when a pile is taken,
    # rather than counts per kind rebuilt at every play, the event most folded.
    taken: tuple[Card, ...]
    forgetful: int | None
    totals: tuple[int, ...]
    results: tuple[RoundResult, ...] = ()
    winners: tuple[str, ...] | None = None

    def played_of(self, card: Card) -> int:
        """How many `card` were played this round (D1): taken, or still in play."""
        return self.taken.count(card) + self.cards_in_play.count(card)

    @property
    def played(self) -> tuple[int, ...]:
        """Per `table.deck.kinds`, the cards played this round."""
        return tuple(self.played_of(kind) for kind in self.table.deck.kinds)


def deal_size(table: Table) -> int:
    """The draw pile once the hands are dealt and (D5) 10 cards set aside."""
    return table.deck.size - table.hand_size * len(table.players) - table.set_aside


def new_round(
    table: Table,
    number: int,
    starter: int,
    direction: Direction,
    totals: tuple[int, ...],
    results: tuple[RoundResult, ...],
    draw_pile_size: int,
) -> State:
    """A round just dealt: full hands, nothing in play, no Forgetful card (D12)."""
    n = len(table.players)
    return State(
        table=table,
        round=number,
        next_player=starter,
        direction=direction,
        value_in_play=None,
        cards_in_play=(),
        hand_sizes=(table.hand_size,) * n,
        draw_pile_size=draw_pile_size,
        score_piles=(0,) * n,
        taken=(),
        forgetful=None,
        totals=totals,
        results=results,
    )
