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
from domain.dobro.state import State
from domain.history import Recorded
from domain.wording import Clauses, Commas, Message, Names, Sum, message


def describe(before: State, record: Recorded) -> Message:
    """The sentence for a stored move; `before` is the state before it."""
    first, *rest = record.events
    said = _sentence(before, first)
    ending = _round_end(before.table.players, rest)
    return (
        message("said.clauses", said=said, clauses=Clauses(ending)) if ending else said
    )


def _sentence(state: State, event: object) -> Message:
    match event:
        case CardsPlayed(player, cards, wild_as, value):
            played = _cards(cards, wild_as)
            value_said = _value(cards, wild_as, value)
            said = message(
                "said.dobro.plays", player=player, cards=played, value=value_said
            )
        case SkipPlayed(player):
            said = message("said.dobro.skip", player=player)
        case ReversePlayed(player, direction):
            way = message(f"said.dobro.direction.{direction}")
            said = message("said.dobro.reverse", player=player, direction=way)
        case PileTaken(player, count):
            return message("said.dobro.takes", player=player, count=count)
        case RefillForgotten(player):
            return _forgetful(state, player)
        case _:
            return message("said.event", name=type(event).__name__)
    return _turn_end(state, said, event)


def _cards(cards: tuple[Card, ...], wild_as: int | None) -> Message:
    """ "5 + 5", "a Wild as 7", "5 + Wild"."""
    if cards == (WILD,):
        if wild_as is None:
            return message("said.dobro.a_wild")
        return message("said.dobro.a_wild_as", value=wild_as)
    shown = Sum(
        message("said.dobro.wild") if card == WILD else str(card) for card in cards
    )
    if all(card == WILD for card in cards) and wild_as is not None:
        return message("said.dobro.wilds_as", cards=shown, value=wild_as)
    return message("said.dobro.cards", cards=shown)


def _value(cards: tuple[Card, ...], wild_as: int | None, value: int) -> Message:
    """D8: a play equal to the value in play doubles it (the stored value is then
    twice the cards' sum); any other sets it."""
    face = next((card for card in cards if isinstance(card, int)), wild_as)
    if face is not None and value == 2 * face * len(cards):
        return message("said.dobro.doubles", value=value)
    return message("said.dobro.value", value=value)


def _turn_end(state: State, said: Message, event: object) -> Message:
    """D11's refill emptying the draw pile, or D13's empty hand ending the round."""
    player = getattr(event, "player", "?")
    refill = getattr(event, "refill", 0)
    if getattr(event, "next_player", "") is None:
        return message("said.dobro.hand_empty", said=said, player=player)
    if refill and refill == state.draw_pile_size:
        return message("said.dobro.pile_empty", said=said)
    return said


def _forgetful(state: State, player: str) -> Message:
    """D12: the Forgetful card goes to the player named, from whoever had it."""
    holder = None if state.forgetful is None else state.table.players[state.forgetful]
    if holder == player:
        return message("said.dobro.forgot_again", player=player)
    if holder is None:
        return message("said.dobro.forgot", player=player)
    return message("said.dobro.forgot_from", player=player, holder=holder)


def _round_end(
    players: tuple[str, ...], events: list[object]
) -> list[Message | Commas]:
    """D13-D17: the round's points, then the next round's starter or the winners."""
    said: list[Message | Commas] = []
    for event in events:
        match event:
            case RoundScored():
                said += [
                    message("said.round_ends", round=event.round),
                    _points(players, event),
                ]
            case RoundDealt(number, starter):
                said.append(message("said.dobro.opens", starter=starter, round=number))
            case GameEnded(winners):
                said.append(
                    message(
                        "said.game_ends", winners=Names(winners), count=len(winners)
                    )
                )
    return said


def _points(players: tuple[str, ...], scored: RoundScored) -> Commas:
    """ "Priscila scores 1, Karen scores 1 (Forgetful card: -1), ...", in seat order
    whatever order the stored dict comes back in."""
    parts = []
    for name in players:
        points = scored.points[name]
        if name == scored.forgetful and scored.forgetful_adjustment:
            adjustment = f"{scored.forgetful_adjustment:+d}"
            parts.append(
                message(
                    "said.dobro.scores_forgetful",
                    name=name,
                    points=points,
                    adjustment=adjustment,
                )
            )
        else:
            parts.append(message("said.scores", name=name, points=points))
    return Commas(parts)
