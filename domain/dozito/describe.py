"""One sentence per logged Dozito move, for people reading a replay.

The derived facts (the card a draw or a placement brings into the hand, a STOP card
ending the turn, a Replay turn, the final turns, a reshuffle, the round's points and
next starter, the winners) come from the events the engine stored with the move; the
state before it gives only what was already on the table (the rounds' points so far,
whether final turns had begun).
"""

from __future__ import annotations

from domain.dozito.components import Card, color_said
from domain.dozito.events import (
    CardDiscarded,
    CardDrawn,
    CardPlaced,
    DeckReshuffled,
    GameEnded,
    RoundScored,
    RoundStarted,
    TurnBegan,
)
from domain.dozito.state import State
from domain.history import Recorded
from domain.wording import Clauses, Commas, Message, Names, message


def describe(before: State, record: Recorded) -> Message:
    """The sentence for a stored move; `before` is the state before it."""
    first, *rest = record.events
    said = _act(first)
    derived = _stop(first) + _derived(before, first, rest)
    return (
        message("said.clauses", said=said, clauses=Clauses(derived))
        if derived
        else said
    )


def _card(card: Card) -> Message:
    """ "the red 5", "the red 4 (STOP)", "the blue joker"."""
    kind = "stop" if card.stop else "replay" if card.replay else "plain"
    return message(f"said.dozito.card.{kind}", card=card.said)


def _act(event: object) -> Message:
    """What the player did (Z3, Z4, Z8)."""
    match event:
        case RoundStarted(number, starter, (left, right)):
            return message(
                "said.dozito.round_starts",
                round=number,
                starter=starter,
                left=_card(left),
                right=_card(right),
            )
        case CardDrawn(player, "deck", card):
            return message("said.dozito.draws", player=player, card=_card(card))
        case CardDrawn(player, source, card):
            side = message(f"dozito.side.{source.removeprefix('discard_')}")
            return message(
                "said.dozito.takes", player=player, card=_card(card), side=side
            )
        case CardPlaced():
            return _placed(event)
        case CardDiscarded(player, pile, card):
            side = message(f"dozito.side.{pile}")
            return message(
                "said.dozito.discards", player=player, card=_card(card), side=side
            )
    return message("said.event", name=type(event).__name__)


def _placed(event: CardPlaced) -> Message:
    """Z4: a face-down card it displaces is revealed; Z8: one a STOP card displaces
    is discarded without chaining."""
    values = {"player": event.player, "card": _card(event.card), "spot": event.spot}
    if not event.revealed:
        return message("said.dozito.places", **values)
    way = "revealing_discarded" if event.card.stop else "revealing"
    return message(f"said.dozito.places_{way}", **values, held=_card(event.held))


def _stop(first: object) -> list[Message | Commas]:
    """Z8: a STOP card that comes into the hand (drawn, taken or revealed) ends the
    turn once it is placed or discarded (only placed, if taken from a pile: Z5)."""
    if isinstance(first, CardDrawn):
        card, choice = first.card, first.choice
    elif isinstance(first, CardPlaced) and first.revealed and not first.card.stop:
        card, choice = first.held, first.choice
    else:
        return []
    if not card.stop:
        return []
    way = "placed" if choice == "place" else "placed_or_discarded"
    return [message(f"said.dozito.stop_{way}")]


def _derived(
    before: State, first: object, rest: list[object]
) -> list[Message | Commas]:
    """What the rules derive once the move is made (Z9-Z15), clause by clause."""
    said: list[Message | Commas] = []
    for event in rest:
        match event:
            case TurnBegan(player, replay=True):
                said.append(message("said.dozito.plays_again", player=player))
            case TurnBegan(final_turns=(*final,)) if before.final_turns is None:
                said.append(_final_turns(_player(first), tuple(final)))
            case DeckReshuffled(size):
                said.append(message("said.dozito.reshuffled", count=size))
            case RoundScored():
                said += _round_end(event)
            case GameEnded(winners, "instant_win") if isinstance(first, CardPlaced):
                said.append(_instant_win(first.card, winners[0]))
            case GameEnded(winners):
                said.append(_game_end(before, rest, winners))
    return said


def _player(event: object) -> str:
    return getattr(event, "player", "")


def _final_turns(player: str, final: tuple[str, ...]) -> Message:
    """Z11: the turn ended with every card of the grid face up."""
    return message(
        "said.dozito.final_turns", player=player, final=Names(final), count=len(final)
    )


def _instant_win(placed: Card, winner: str) -> Message:
    """Z12: twelve face-up cards of one colour (the one just placed) win at once."""
    return message(
        "said.dozito.instant_win", winner=winner, color=color_said(placed.color)
    )


def _round_end(scored: RoundScored) -> list[Message | Commas]:
    """Z13: the round's points; Z14: the next round's starter, or the tie to settle."""
    points = Commas(
        message("said.scores", name=s.player, points=s.points) for s in scored.scores
    )
    said: list[Message | Commas] = [
        message("said.round_ends", round=scored.round),
        points,
    ]
    following = scored.round + 1
    if scored.next_starter is not None:
        said.append(
            message("said.starts", starter=scored.next_starter, round=following)
        )
    elif scored.tied:
        said.append(
            message("said.dozito.tied", tied=Names(scored.tied), round=following)
        )
    return said


def _game_end(before: State, rest: list[object], winners: tuple[str, ...]) -> Message:
    """Z15: most points wins; a tie goes to the best single round; still tied, the
    victory is shared."""
    scored = next(event for event in rest if isinstance(event, RoundScored))
    totals = scored.totals
    most = max(totals.values())
    tied = tuple(player for player in before.players if totals[player] == most)
    if len(tied) == 1:
        return message("said.game_ends", winners=Names(winners[:1]), count=1)
    rounds = (*before.round_scores, tuple(s.points for s in scored.scores))
    seat = {player: before.seat(player) for player in tied}
    best = max(points[seat[winners[0]]] for points in rounds)
    values = {"tied": Names(tied), "most": most, "best": best}
    if len(winners) == 1:
        return message("said.dozito.tie_best_round", **values, winner=winners[0])
    if winners == tied:
        return message("said.dozito.tie_shared", **values)
    return message("said.dozito.tie_some_share", **values, winners=Names(winners))
