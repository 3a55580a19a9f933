"""Double Donkey's score sheet (K7-K12): a game without scored rounds.

Each round that reached its reveal is a line: the Hay card as the dice were placed, the
Angry Donkeys' flips, every revealed card with its value, and who took the Biggest
Donkey and how (K9). A line's `points` are each player's highest card value that round,
the value K9 compares; nothing adds up across rounds. `totals` are the cards each player
still holds (hand and personal pile): the game is won by emptying both (K12).

A K9 tie is explained in full: `tied` names every player who shared the highest card,
`fewest_personal_pile` the players the personal piles kept when they narrowed the tie,
and `roll_offs` each roll-off among those still tied.

The line is folded from the stored events with the engine's own `evolve`, so the
personal piles a K9 tie-break compared are the ones the engine saw at the reveal.
"""

from __future__ import annotations

from typing import Any

from domain.double_donkey import events as ev
from domain.double_donkey.evolve import evolve
from domain.double_donkey.state import State, initial_state
from domain.history import History
from projections.sheet import RoundLine, ScoreSheet

POINTS_NOTE = (
    "points are each player's highest card value this round (K8, K9); "
    "Double Donkey scores no rounds"
)


def score_sheet(history: History) -> ScoreSheet:
    state: State = history.state
    winners = history.winners
    return ScoreSheet(
        players=list(state.players),
        rounds=_rounds(history),
        totals={
            player: state.hand(player) + state.personal_pile(player)
            for player in state.players
        },
        winners=list(winners or ()),
        finished=winners is not None,
    )


def _rounds(history: History) -> list[RoundLine]:
    state = initial_state(history.setup)
    lines: list[RoundLine] = []
    hay: dict[str, int] = {}
    for _, record in history.records():
        for event in record.events:
            if isinstance(event, ev.DieChosen | ev.LastDiePlaced):
                hay[event.color] = event.pips
            elif isinstance(event, ev.CardsRevealed):
                lines.append(_revealed(state, event, hay))
            elif isinstance(event, ev.RoundStarted):
                hay = {}
            else:
                _note(lines[-1] if lines else None, state, event)
            state = evolve(state, event)
    return lines


def _revealed(state: State, event: ev.CardsRevealed, hay: dict[str, int]) -> RoundLine:
    return RoundLine(
        round=state.round,
        points={},
        detail={
            "note": POINTS_NOTE,
            "hay": dict(hay),
            "flipped": [],
            "hay_after_flips": dict(hay),
            "cards": {player: list(cards) for player, cards in event.cards.items()},
            "values": {},
            "biggest_donkey": None,
            "biggest_donkey_by": None,
            "personal_piles": {p: state.personal_pile(p) for p in state.players},
            "roll_offs": [],
        },
    )


def _note(line: RoundLine | None, state: State, event: Any) -> None:
    """What an event after the reveal adds to the round's line."""
    if line is None or line.round != state.round:
        return
    detail = line.detail
    if isinstance(event, ev.DiceFlipped):
        detail["flipped"] = list(event.colors)
        detail["hay_after_flips"] = dict(event.hay)
    elif isinstance(event, ev.CardsValued):
        detail["values"] = {p: list(values) for p, values in event.values.items()}
        line.points = {p: max(values) for p, values in event.values.items() if values}
        _tied(detail, line.points)
    elif isinstance(event, ev.RollOffCalled) and not detail["roll_offs"]:
        _narrowed(detail, event.among)
    elif isinstance(event, ev.RollOffRolled):
        detail["roll_offs"].append(dict(event.rolls))
    elif isinstance(event, ev.BiggestDonkeyTaken):
        detail["biggest_donkey"] = event.player
        detail["biggest_donkey_by"] = _how(line)
    elif isinstance(event, ev.GameWon):
        detail["game_won_by"] = list(event.winners)


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


def _how(line: RoundLine) -> str:
    """K9: the single highest card, else the fewest personal-pile cards among the
    players tied on it, else a roll-off among those still tied."""
    detail = line.detail
    if detail["roll_offs"]:
        return "roll_off"
    if "tied" in detail:
        _narrowed(detail, [detail["biggest_donkey"]])
        return "fewest_personal_pile_cards"
    return "highest_card"
