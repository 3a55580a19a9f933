"""One sentence per logged Dobro move, for people reading a replay.

The derived facts (the new value, a doubling, the draw pile running out, the cards a
take ends with, the round's end and scores, the winners) come from the events the
engine stored with the move, so the sentence never disagrees with what the game
recorded; the state before the move gives only what was already on the table (the
value in play, the draw pile, the Forgetful card's holder).
"""

from __future__ import annotations

from domain.dobro.components import WILD, Card
from domain.dobro.events import (
    CardsPlayed,
    GameEnded,
    PileTaken,
    RefillForgotten,
    ReversePlayed,
    RoundDealt,
    RoundScored,
    SkipPlayed,
)
from domain.dobro.state import DobroState
from domain.history import Recorded


def describe(before: DobroState, record: Recorded) -> str:
    """The sentence for a stored move; `before` is the state before it."""
    first, *rest = record.events
    said = _sentence(before, first)
    ending = _round_end(before.table.players, rest)
    return f"{said}: {'; '.join(ending)}" if ending else said


def _sentence(state: DobroState, event: object) -> str:
    match event:
        case CardsPlayed(player, cards, wild_as, value):
            played = _cards(cards, wild_as)
            said = f"{player} plays {played}: {_value(cards, wild_as, value)}"
        case SkipPlayed(player):
            said = f"{player} plays a Skip"
        case ReversePlayed(player, direction):
            said = f"{player} plays a Reverse: play goes {direction}"
        case PileTaken(player, count):
            return f"{player} takes {count} card{'' if count == 1 else 's'}"
        case RefillForgotten(player):
            return _forgetful(state, player)
        case _:
            return type(event).__name__
    return _turn_end(state, said, event)


def _cards(cards: tuple[Card, ...], wild_as: int | None) -> str:
    """ "5 + 5", "a Wild as 7", "5 + Wild"."""
    if cards == (WILD,):
        return "a Wild" if wild_as is None else f"a Wild as {wild_as}"
    shown = " + ".join("Wild" if card == WILD else str(card) for card in cards)
    if all(card == WILD for card in cards) and wild_as is not None:
        return f"{shown} as {wild_as}"
    return shown


def _value(cards: tuple[Card, ...], wild_as: int | None, value: int) -> str:
    """D8: a play equal to the value in play doubles it (the stored value is then
    twice the cards' sum); any other sets it."""
    face = next((card for card in cards if isinstance(card, int)), wild_as)
    if face is not None and value == 2 * face * len(cards):
        return f"equal to the value, it doubles to {value}"
    return f"the value is {value}"


def _turn_end(state: DobroState, said: str, event: object) -> str:
    """D11's refill emptying the draw pile, or D13's empty hand ending the round."""
    player = getattr(event, "player", "?")
    refill = getattr(event, "refill", 0)
    if getattr(event, "next_player", "") is None:
        return f"{said}; {player}'s hand is empty"
    if refill and refill == state.draw_pile_size:
        return f"{said}; the draw pile is empty"
    return said


def _forgetful(state: DobroState, player: str) -> str:
    """D12: the Forgetful card goes to the player named, from whoever had it."""
    holder = None if state.forgetful is None else state.table.players[state.forgetful]
    if holder == player:
        return f"{player} forgot to refill again and keeps the Forgetful card"
    said = f"{player} forgot to refill and takes the Forgetful card"
    return said if holder is None else f"{said} from {holder}"


def _round_end(players: tuple[str, ...], events: list[object]) -> list[str]:
    """D13-D17: the round's points, then the next round's starter or the winners."""
    said: list[str] = []
    for event in events:
        match event:
            case RoundScored():
                said += [f"round {event.round} ends", _points(players, event)]
            case RoundDealt(number, starter):
                said.append(f"{starter} opens round {number}")
            case GameEnded(winners):
                verb = "wins" if len(winners) == 1 else "share the victory"
                said.append(f"the game ends: {_names(winners)} {verb}")
    return said


def _points(players: tuple[str, ...], scored: RoundScored) -> str:
    """ "Priscila scores 1, Karen scores 1 (Forgetful card: -1), ...", in seat order
    whatever order the stored dict comes back in."""
    parts = []
    for name in players:
        part = f"{name} scores {scored.points[name]}"
        if name == scored.forgetful and scored.forgetful_adjustment:
            part += f" (Forgetful card: {scored.forgetful_adjustment:+d})"
        parts.append(part)
    return ", ".join(parts)


def _names(names: tuple[str, ...]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"
