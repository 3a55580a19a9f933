"""Double Donkey's score sheet (K7-K12, T3): a game without scored rounds.

Each round that reached its reveal is a line: the Hay card as the dice were placed, the
Angry Donkeys' flips, every revealed card with its value, and who took the Biggest
Donkey and how (K9). A line's `points` are each player's highest card value that round,
the value K9 compares; nothing adds up across rounds. `totals` are the cards each player
still holds (hand and personal pile): the game is won by emptying both (K12).

A K9 tie is explained in full: `tied` names every player who shared the highest card,
`fewest_personal_pile` the players the personal piles kept when they narrowed the tie,
and `roll_offs` each roll-off among those still tied.

The sheet is folded one stored move at a time (`next_sheet`), with the states the
engine's own `evolve` gives before and after it, so the personal piles a K9 tie-break
compared are the ones the engine saw at the reveal. A move of the dice phase changes
nothing on the sheet: the sheet before it is returned as it is.
"""

from __future__ import annotations

from functools import reduce
from typing import Any

from domain.double_donkey import events as ev
from domain.double_donkey.evolve import evolve
from domain.double_donkey.state import State, initial_state
from domain.double_donkey.view import outcome
from domain.history import Abandon, History, Recorded
from domain.sheet import RoundLine, ScoreSheet, standings

POINTS_NOTE = (
    "points are each player's highest card value this round (K8, K9); "
    "Double Donkey scores no rounds"
)


def score_sheet(history: History) -> ScoreSheet:
    base = history.base()
    if base.truncated:  # resumed from a snapshot, which carries its sheet
        state, sheet = base.state, base.carried
    else:
        state = initial_state(history.setup)
        sheet = _sheet(state, [])
    for _, record in history.records():
        if isinstance(record.move, Abandon):  # nothing scored: the game just ends
            continue
        after = reduce(evolve, record.events, state)
        sheet = next_sheet(sheet, state, record, after)
        state = after
    return sheet


def _sheet(state: State, rounds: list[RoundLine]) -> ScoreSheet:
    winners = outcome(state)
    totals = {
        player: state.hand(player) + state.personal_pile(player)
        for player in state.players
    }
    return ScoreSheet(
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


def next_sheet(
    sheet: ScoreSheet, before: State, record: Recorded, after: State
) -> ScoreSheet:
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


def _revealed(before: State, event: ev.CardsRevealed) -> RoundLine:
    hay = before.hay_dict()
    return RoundLine(
        round=before.round,
        points={},
        detail={
            "note": POINTS_NOTE,
            "hay": hay,
            "flipped": [],
            "hay_after_flips": dict(hay),
            "cards": {player: list(cards) for player, cards in event.cards.items()},
            "values": {},
            "biggest_donkey": None,
            "biggest_donkey_by": None,
            "personal_piles": {p: before.personal_pile(p) for p in before.players},
            "roll_offs": [],
        },
    )


def _noted(line: RoundLine, events: list[Any]) -> RoundLine:
    """A copy of the round's line with what these events add to it; the line itself
    is left as it was, since the sheet of an earlier step may share it."""
    points = dict(line.points)
    detail = {**line.detail, "roll_offs": list(line.detail["roll_offs"])}
    for event in events:
        if isinstance(event, ev.DiceFlipped):
            detail["flipped"] = list(event.colors)
            detail["hay_after_flips"] = dict(event.hay)
        elif isinstance(event, ev.CardsValued):
            detail["values"] = {p: list(values) for p, values in event.values.items()}
            points = {p: max(values) for p, values in event.values.items() if values}
            _tied(detail, points)
        elif isinstance(event, ev.RollOffCalled) and not detail["roll_offs"]:
            _narrowed(detail, event.among)
        elif isinstance(event, ev.RollOffRolled):
            detail["roll_offs"].append(dict(event.rolls))
        elif isinstance(event, ev.BiggestDonkeyTaken):
            detail["biggest_donkey"] = event.player
            detail["biggest_donkey_by"] = _how(detail)
        elif isinstance(event, ev.GameWon):
            detail["game_won_by"] = list(event.winners)
    return RoundLine(round=line.round, points=points, detail=detail)


def _tied(detail: dict[str, Any], points: dict[str, int]) -> None:
    """K9: every player who shared the highest card, before any tie-break."""
    top = max(points.values(), default=None)
    seated = detail["personal_piles"]  # its keys are in seat order
    tied = [player for player in seated if points.get(player, -1) == top]
    if len(tied) > 1:
        detail["tied"] = tied


def _narrowed(detail: dict[str, Any], kept: tuple[str, ...] | list[str]) -> None:
    """K9: the tied players with the fewest personal-pile cards, when that is fewer
    than all the tied."""
    if len(kept) < len(detail.get("tied", ())):
        detail["fewest_personal_pile"] = {
            "rule": "K9",
            "cards": detail["personal_piles"][kept[0]],
            "players": list(kept),
        }


def _how(detail: dict[str, Any]) -> str:
    """K9: the single highest card, else the fewest personal-pile cards among the
    players tied on it, else a roll-off among those still tied."""
    if detail["roll_offs"]:
        return "roll_off"
    if "tied" in detail:
        _narrowed(detail, [detail["biggest_donkey"]])
        return "fewest_personal_pile_cards"
    return "highest_card"
