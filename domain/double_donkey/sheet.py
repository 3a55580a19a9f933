"""Double Donkey's score sheet (K7-K12, T3): a game without scored rounds.

Each round that reached its reveal is a line: the Hay card as the dice were placed, the
Angry Donkeys' flips, every revealed card with its value, and who took the Biggest
Donkey and how (K9). A line's `points` are each player's highest card value that round,
the value K9 compares; nothing adds up across rounds. `totals` are the cards each player
still holds (hand and personal pile): the game is won by emptying both (K12).

A K9 tie is explained in full: `tied` names every player who shared the highest card,
`fewest_personal_pile` the players the personal piles kept when they narrowed the tie,
and `roll_offs` each roll-off among those still tied.

The sheet is folded one stored move at a time (`next_sheet`), with the states before
and after it, so the personal piles a K9 tie-break compared are the ones the engine
saw at the reveal. A move of the dice phase changes nothing on the sheet: the sheet
before it is returned as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import msgspec

from domain.double_donkey import events as ev
from domain.double_donkey.components import Card, Color
from domain.double_donkey.state import State
from domain.double_donkey.view import outcome
from domain.game import Recorded
from domain.sheet import RoundLine, ScoreSheet, standings

POINTS_NOTE = (
    "points are each player's highest card value this round (K8, K9); "
    "Double Donkey scores no rounds"
)


class FewestPersonalPile(msgspec.Struct, frozen=True, kw_only=True):
    """K9: the tied players the personal piles kept, and the cards each held."""

    rule: str
    cards: int
    players: list[str]


class RoundDetail(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    note: str
    # The Hay card as the dice were placed, then after the Angry Donkeys' flips.
    hay: dict[Color, int]
    flipped: list[Color]
    hay_after_flips: dict[Color, int]
    cards: dict[str, list[Card]]
    values: dict[str, list[int]]
    biggest_donkey: str | None
    biggest_donkey_by: (
        Literal["highest_card", "fewest_personal_pile_cards", "roll_off"] | None
    )
    personal_piles: dict[str, int]  # at the reveal, in seat order
    roll_offs: list[dict[str, int]]
    # Every player who shared the highest card, when several did.
    tied: list[str] | msgspec.UnsetType = msgspec.UNSET
    fewest_personal_pile: FewestPersonalPile | msgspec.UnsetType = msgspec.UNSET
    # On the line of the round that ended the game.
    game_won_by: list[str] | msgspec.UnsetType = msgspec.UNSET


class Line(RoundLine, frozen=True, kw_only=True):
    detail: RoundDetail


class Sheet(ScoreSheet, frozen=True, kw_only=True):
    game: Literal["double-donkey"] = "double-donkey"
    rounds: list[Line]


def sheet_start(state: State) -> Sheet:
    return _sheet(state, [])


def _sheet(state: State, rounds: list[Line]) -> Sheet:
    winners = outcome(state)
    totals = {
        player: state.hand(player) + state.personal_pile(player)
        for player in state.players
    }
    return Sheet(
        players=list(state.players),
        rounds=rounds,
        totals=totals,
        winners=list(winners or ()),
        finished=winners is not None,
        # T3: after the winners, the fewest cards still held first.
        standings={}
        if winners is None
        else standings(totals, winners, most_wins=False),
    )


def next_sheet(sheet: Sheet, before: State, record: Recorded, after: State) -> Sheet:
    """The sheet once `record` is stored: a reveal adds its round's line, a roll-off
    completes it; any other move leaves `sheet` itself."""
    first, *rest = record.events
    if isinstance(first, ev.CardsRevealed):
        line = _noted(_revealed(before, first), rest)
        return _sheet(after, [*sheet.rounds, line])
    if isinstance(first, ev.RollOffRolled) and sheet.rounds:
        line = _noted(sheet.rounds[-1], record.events)
        return _sheet(after, [*sheet.rounds[:-1], line])
    return sheet


def _revealed(before: State, event: ev.CardsRevealed) -> Line:
    hay = before.hay_dict()
    return Line(
        round=before.round,
        points={},
        detail=RoundDetail(
            note=POINTS_NOTE,
            hay=hay,
            flipped=[],
            hay_after_flips=dict(hay),
            cards={player: list(cards) for player, cards in event.cards.items()},
            values={},
            biggest_donkey=None,
            biggest_donkey_by=None,
            personal_piles={p: before.personal_pile(p) for p in before.players},
            roll_offs=[],
        ),
    )


def _noted(line: Line, events: Sequence[object]) -> Line:
    """A copy of the round's line with what these events add to it; the line itself
    is left as it was, since the sheet of an earlier step may share it."""
    points, detail = line.points, line.detail
    for event in events:
        if isinstance(event, ev.DiceFlipped):
            detail = msgspec.structs.replace(
                detail, flipped=list(event.colors), hay_after_flips=dict(event.hay)
            )
        elif isinstance(event, ev.CardsValued):
            points = {p: max(values) for p, values in event.values.items() if values}
            detail = msgspec.structs.replace(
                detail,
                values={p: list(values) for p, values in event.values.items()},
                tied=_tied(detail, points),
            )
        elif isinstance(event, ev.RollOffCalled) and not detail.roll_offs:
            detail = _narrowed(detail, event.among)
        elif isinstance(event, ev.RollOffRolled):
            roll_offs = [*detail.roll_offs, dict(event.rolls)]
            detail = msgspec.structs.replace(detail, roll_offs=roll_offs)
        elif isinstance(event, ev.BiggestDonkeyTaken):
            detail = _taken(detail, event.player)
        elif isinstance(event, ev.GameWon):
            detail = msgspec.structs.replace(detail, game_won_by=list(event.winners))
    return Line(round=line.round, points=points, detail=detail)


def _tied(detail: RoundDetail, points: dict[str, int]) -> list[str] | msgspec.UnsetType:
    """K9: every player who shared the highest card, before any tie-break."""
    top = max(points.values(), default=None)
    seated = detail.personal_piles  # its keys are in seat order
    tied = [player for player in seated if points.get(player, -1) == top]
    return tied if len(tied) > 1 else msgspec.UNSET


def _narrowed(detail: RoundDetail, kept: Sequence[str]) -> RoundDetail:
    """K9: the tied players with the fewest personal-pile cards, when that is fewer
    than all the tied."""
    if detail.tied is msgspec.UNSET or len(kept) >= len(detail.tied):
        return detail
    fewest = FewestPersonalPile(
        rule="K9", cards=detail.personal_piles[kept[0]], players=list(kept)
    )
    return msgspec.structs.replace(detail, fewest_personal_pile=fewest)


def _taken(detail: RoundDetail, player: str) -> RoundDetail:
    """K9: the Biggest Donkey went to `player` by the single highest card, else by
    the fewest personal-pile cards among the players tied on it, else by a roll-off
    among those still tied."""
    if detail.roll_offs:
        how = "roll_off"
    elif detail.tied is not msgspec.UNSET:
        detail = _narrowed(detail, [player])
        how = "fewest_personal_pile_cards"
    else:
        how = "highest_card"
    return msgspec.structs.replace(detail, biggest_donkey=player, biggest_donkey_by=how)
