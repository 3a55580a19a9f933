"""One sentence per logged Dozito move, for people reading a replay.

The derived facts (the card a draw or a placement brings into the hand, a STOP card
ending the turn, a Replay turn, the final turns, a reshuffle, the round's points and
next starter, the winners) come from the events the engine stored with the move; the
state before it gives only what was already on the table (the rounds' points so far,
whether final turns had begun).
"""

from __future__ import annotations

from domain.dozito.components import Card
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


def describe(before: State, record: Recorded) -> str:
    """The sentence for a stored move; `before` is the state before it."""
    first, *rest = record.events
    said = _act(first)
    derived = _stop(first) + _derived(before, first, rest)
    return f"{said}: {'; '.join(derived)}" if derived else said


def _card(card: Card) -> str:
    """ "the red 5", "the red 4 (STOP)", "the blue joker"."""
    kind = " (STOP)" if card.stop else " (Replay)" if card.replay else ""
    return f"the {card}{kind}"


def _act(event: object) -> str:
    """What the player did (Z3, Z4, Z8)."""
    match event:
        case RoundStarted(number, starter, (left, right)):
            return (
                f"Round {number} starts with {starter}; the discard piles show "
                f"{_card(left)} and {_card(right)}"
            )
        case CardDrawn(player, "deck", card):
            said = f"{player} draws {_card(card)} from the deck"
        case CardDrawn(player, source, card):
            side = source.removeprefix("discard_")
            said = f"{player} takes {_card(card)} from the {side} discard pile"
        case CardPlaced():
            return _placed(event)
        case CardDiscarded(player, pile, card):
            return f"{player} discards {_card(card)} on the {pile} pile"
        case _:
            return type(event).__name__
    return said


def _placed(event: CardPlaced) -> str:
    """Z4: a face-down card it displaces is revealed; Z8: one a STOP card displaces
    is discarded without chaining."""
    said = f"{event.player} places {_card(event.card)} on spot {event.spot}"
    if not event.revealed:
        return said
    said += f", revealing {_card(event.held)}"
    return f"{said}, which must be discarded" if event.card.stop else said


def _stop(first: object) -> list[str]:
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
    way = "placed" if choice == "place" else "placed or discarded"
    return [f"the turn ends once it is {way}"]


def _derived(before: State, first: object, rest: list[object]) -> list[str]:
    """What the rules derive once the move is made (Z9-Z15), clause by clause."""
    said: list[str] = []
    for event in rest:
        match event:
            case TurnBegan(player, replay=True):
                said.append(f"{player} plays again")
            case TurnBegan(final_turns=(*final,)) if before.final_turns is None:
                said.append(_final_turns(_player(first), tuple(final)))
            case DeckReshuffled(size):
                said.append(
                    "the draw pile is empty, so the discard piles but their top "
                    f"cards are shuffled into a new draw pile of {size} cards"
                )
            case RoundScored():
                said += _round_end(event)
            case GameEnded(winners, "instant_win") if isinstance(first, CardPlaced):
                said.append(_instant_win(first.card, winners[0]))
            case GameEnded(winners):
                said.append(_game_end(before, rest, winners))
    return said


def _player(event: object) -> str:
    return getattr(event, "player", "")


def _final_turns(player: str, final: tuple[str, ...]) -> str:
    """Z11: the turn ended with every card of the grid face up."""
    verb = "plays a final turn" if len(final) == 1 else "play a final turn"
    return f"{player}'s grid is all face up, {_names(final)} {verb}"


def _instant_win(placed: Card, winner: str) -> str:
    """Z12: twelve face-up cards of one colour (the one just placed) win at once."""
    return f"{winner}'s twelve cards are all {placed.color}, {winner} wins at once"


def _round_end(scored: RoundScored) -> list[str]:
    """Z13: the round's points; Z14: the next round's starter, or the tie to settle."""
    points = ", ".join(f"{s.player} scores {s.points}" for s in scored.scores)
    said = [f"round {scored.round} ends", points]
    if scored.next_starter is not None:
        said.append(f"{scored.next_starter} starts round {scored.round + 1}")
    elif scored.tied:
        said.append(
            f"{_names(scored.tied)} share the fewest points: the table names which "
            f"of them starts round {scored.round + 1}"
        )
    return said


def _game_end(before: State, rest: list[object], winners: tuple[str, ...]) -> str:
    """Z15: most points wins; a tie goes to the best single round; still tied, the
    victory is shared."""
    scored = next(event for event in rest if isinstance(event, RoundScored))
    totals = scored.totals
    most = max(totals.values())
    tied = tuple(player for player in before.players if totals[player] == most)
    if len(tied) == 1:
        return f"the game ends: {winners[0]} wins"
    rounds = (*before.round_scores, tuple(s.points for s in scored.scores))
    seat = {player: before.seat(player) for player in tied}
    best = max(points[seat[winners[0]]] for points in rounds)
    said = f"the game ends: {_names(tied)} tie on {most} points"
    if len(winners) == 1:
        return f"{said}, {winners[0]} wins with the best single round ({best})"
    if winners == tied:
        return f"{said} and on their best round ({best}): they share the victory"
    return f"{said}, {_names(winners)} share the victory with the best round ({best})"


def _names(names: tuple[str, ...]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"
