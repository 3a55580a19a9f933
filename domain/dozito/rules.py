"""Dozito's decide: every rule of a turn and a round (Z3-Z15), citing its ruling;
and what the table may log now (`phase`, `allowed`), by the same rulings."""

from __future__ import annotations

from typing import Literal

from domain.dozito import scoring
from domain.dozito.components import DECK_SIZE, GRID_SIZE, Card
from domain.dozito.events import (
    CardDiscarded,
    CardDrawn,
    CardPlaced,
    Choice,
    DeckReshuffled,
    Event,
    GameEnded,
    PlayerScore,
    RoundScored,
    RoundStarted,
    TurnBegan,
)
from domain.dozito.moves import Discard, Draw, Move, Pile, Place, Source, StartRound
from domain.dozito.state import (
    BetweenRounds,
    Drawing,
    Finished,
    Holding,
    State,
)
from domain.dozito.statements import agreeing, unseen
from domain.errors import RuleError
from domain.game import Offer
from domain.wording import Names, message

MoveKind = Literal["start_round", "draw", "place", "discard"]
# What the table logs next: a card just drawn from the deck may be placed or
# discarded (Z4); one taken from a discard pile must be placed (Z5); after a STOP
# only a discard is left (Z8).
Phase = Literal[
    "start_round", "draw", "place_or_discard", "place", "discard", "finished"
]
# The kinds of move each phase may offer.
PHASES: dict[str, tuple[MoveKind, ...]] = {
    "start_round": ("start_round",),
    "draw": ("draw",),
    "place_or_discard": ("place", "discard"),
    "place": ("place",),
    "discard": ("discard",),
    "finished": (),
}


def decide(state: State, move: Move) -> list[Event]:
    match move:
        case StartRound():
            return _start_round(state, move)
        case Draw():
            return _draw(state, move)
        case Place():
            return _place(state, move)
        case Discard():
            return _discard(state, move)
    raise TypeError(f"not a Dozito move: {move!r}")


# -- Z3, Z14: a round begins ---------------------------------------------------


def _start_round(state: State, move: StartRound) -> list[Event]:
    phase = state.phase
    if not isinstance(phase, BetweenRounds):
        raise RuleError("Z11", "dozito.round_on", round=state.round)
    left, right = (agreeing(state, card) for card in move.discards)
    if not left.joker and left.key == right.key:
        raise RuleError("Z2", "dozito.one_card_two_piles", card=left.said)
    starter = _round_starter(state, phase, move.starter)
    size = DECK_SIZE - GRID_SIZE * len(state.players) - 2
    return [RoundStarted(phase.round, starter, (left, right), size)]


def _round_starter(state: State, phase: BetweenRounds, named: str | None) -> str:
    """Z3 (round 1: the first player), Z14 (fewest points; the table settles a tie)."""
    rule = "Z3" if phase.round == 1 else "Z14"
    if phase.starter is not None:
        if named is not None and named != phase.starter:
            why = "first" if phase.round == 1 else "fewest"
            raise RuleError(
                rule,
                f"dozito.starter_{why}",
                round=phase.round,
                starter=phase.starter,
                named=named,
            )
        return phase.starter
    tied = Names(phase.tied)
    if named is None:
        raise RuleError(rule, "dozito.tie_unsettled", tied=tied)
    if named not in phase.tied:
        raise RuleError(rule, "dozito.tie_outsider", named=named, tied=tied)
    return named


# -- Z4, Z5, Z10: drawing --------------------------------------------------------


def _turn_of(state: State, player: str) -> Drawing | Holding:
    phase = state.phase
    if isinstance(phase, BetweenRounds):
        raise RuleError("Z3", "dozito.round_not_started", round=phase.round)
    if isinstance(phase, Finished):
        raise RuleError("Z15", "game.ended")
    if player != phase.player:
        raise RuleError("Z4", "turn.other", expected=phase.player, name=player)
    return phase


def _draw(state: State, move: Draw) -> list[Event]:
    phase = _turn_of(state, move.player)
    if isinstance(phase, Holding):
        raise RuleError(
            "Z4", "dozito.holding", player=move.player, card=phase.card.said
        )
    if move.source == "deck":
        if move.card is None:
            raise RuleError("Z2", "dozito.drawn_unsaid", player=move.player)
        if state.draw_pile_size == 0:
            raise RuleError("Z10", "dozito.deck_empty")
        card = unseen(state, move.card)
        size = state.draw_pile_size - 1
        return [CardDrawn(move.player, "deck", card, "place_or_discard", size)]
    if move.card is not None:
        raise RuleError("Z4", "dozito.top_known")
    side = move.source.removeprefix("discard_")
    pile = state.piles[side == "right"]
    if not pile:
        raise RuleError("Z4", "dozito.pile_empty", side=message(f"dozito.side.{side}"))
    # Z5: a card taken from a discard pile must be placed.
    size = state.draw_pile_size
    return [CardDrawn(move.player, move.source, pile[-1], "place", size)]


# -- Z4, Z7, Z8, Z12: placing ----------------------------------------------------


def _holding(state: State, player: str) -> Holding:
    phase = _turn_of(state, player)
    if isinstance(phase, Drawing):
        raise RuleError("Z4", "dozito.draw_first", player=player)
    return phase


def _place(state: State, move: Place) -> list[Event]:
    phase = _holding(state, move.player)
    card = phase.card
    _check_may_place(phase)
    spot = move.spot if move.spot is not None else card.number
    if spot is None:
        raise RuleError("Z4", "dozito.spot_unsaid", card=card.said)
    if not card.joker and spot != card.number:
        raise RuleError(
            "Z4", "dozito.spot", card=card.said, number=card.number, spot=spot
        )
    seat = state.seat(move.player)
    there = state.grids[seat][spot - 1]
    held, choice = _displaced(state, move, there, card)
    events: list[Event] = [
        CardPlaced(move.player, spot, card, held, there is None, choice)
    ]
    grid = list(state.grids[seat])
    grid[spot - 1] = card
    if _twelve_of_one_colour(grid):
        events.append(GameEnded((move.player,), "instant_win"))
    return events


def _check_may_place(phase: Holding) -> None:
    if phase.choice == "discard":
        rule = "Z7" if phase.card.joker else "Z4"
        raise RuleError(rule, "dozito.displaced_face_up", card=phase.card.said)
    if phase.choice == "discard_after_stop":
        raise RuleError("Z8", "dozito.displaced_by_stop", card=phase.card.said)


def _displaced(
    state: State, move: Place, there: Card | None, card: Card
) -> tuple[Card, Choice]:
    """The card that comes into the hand from the spot, and what may be done with it."""
    if there is not None:
        if move.revealed is not None:
            raise RuleError(
                "Z4",
                "dozito.nothing_to_reveal",
                spot=move.spot or card.number,
                card=there.said,
            )
        return there, "discard"
    if move.revealed is None:
        raise RuleError("Z4", "dozito.reveal_unsaid")
    revealed = unseen(state, move.revealed)
    return revealed, "discard_after_stop" if card.stop else "place_or_discard"


def _twelve_of_one_colour(grid: list[Card | None]) -> bool:
    """Z12: twelve face-up cards of one colour (jokers count as their colour)."""
    first = grid[0]
    return first is not None and all(
        c is not None and c.color == first.color for c in grid
    )


# -- Z4, Z5, Z6, Z9-Z11: discarding ends the turn --------------------------------


def _discard(state: State, move: Discard) -> list[Event]:
    phase = _holding(state, move.player)
    if phase.choice == "place":
        raise RuleError("Z5", "dozito.must_place", card=phase.card.said)
    side = move.pile == "right"
    if state.piles[side] and not state.piles[not side]:
        other = "right" if move.pile == "left" else "left"
        raise RuleError(
            "Z6", "dozito.discard_there", side=message(f"dozito.side.{other}")
        )
    events: list[Event] = [CardDiscarded(move.player, move.pile, phase.card)]
    return events + _turn_ended(state, move.player, phase.card.replay)


def _turn_ended(state: State, player: str, replay: bool) -> list[Event]:
    """Z9 (Replay), Z11 (final turns) and Z10 (reshuffle at the next turn's start)."""
    final = state.final_turns
    if replay:
        began = TurnBegan(player, final, replay=True)
    elif final is None:
        seat = state.seat(player)
        after = state.players[seat + 1 :] + state.players[:seat]
        if None not in state.grids[seat]:
            final = after
        began = TurnBegan(after[0], final)
    elif len(final) > 1:
        began = TurnBegan(final[1], final[1:])
    else:
        return _round_scored(state)
    if state.draw_pile_size > 0:
        return [began]
    # The discard just made is on a pile: count it; each non-empty pile keeps its top.
    cards = len(state.piles[0]) + len(state.piles[1]) + 1
    tops = 1 + bool(state.piles[0] or state.piles[1])  # Z6 fills an empty pile first
    return [began, DeckReshuffled(cards - tops)]


# -- Z13-Z15: scoring a round and ending the game -------------------------------


def _round_scored(state: State) -> list[Event]:
    scores = tuple(
        PlayerScore(
            player,
            scoring.groups(grid),
            scoring.suns(grid),
            scoring.points(grid),
        )
        for player, grid in zip(state.players, state.grids, strict=True)
    )
    totals = [t + s.points for t, s in zip(state.totals, scores, strict=True)]
    by_name = dict(zip(state.players, totals, strict=True))
    if state.round >= state.rounds:
        rounds = (*state.round_scores, tuple(s.points for s in scores))
        return [
            RoundScored(state.round, scores, by_name, None),
            GameEnded(winners(state.players, totals, rounds), "rounds_played"),
        ]
    fewest = min(totals)
    tied = tuple(p for p, t in zip(state.players, totals, strict=True) if t == fewest)
    if len(tied) == 1:
        return [RoundScored(state.round, scores, by_name, tied[0])]
    return [RoundScored(state.round, scores, by_name, None, tied)]


def winners(
    players: tuple[str, ...],
    totals: list[int] | tuple[int, ...],
    rounds: tuple[tuple[int, ...], ...],
) -> tuple[str, ...]:
    """Z15: most points; a tie goes to the best single round; still tied, shared."""
    most = max(totals)
    tied = [seat for seat, total in enumerate(totals) if total == most]
    best = {seat: max(points[seat] for points in rounds) for seat in tied}
    top = max(best.values())
    return tuple(players[seat] for seat in tied if best[seat] == top)


# -- what the table may log now, for a client to offer ------------------------


def phase(state: State) -> Phase:
    match state.phase:
        case BetweenRounds():
            return "start_round"
        case Drawing():
            return "draw"
        case Holding(choice=choice):
            return "discard" if choice == "discard_after_stop" else choice
    return "finished"


def allowed(state: State) -> tuple[Offer[MoveKind], ...]:
    """The moves the phase awaits, with what the rulings leave the table to choose:
    the round's starter (Z3, Z14), the piles a draw may take from (Z4, Z10), the
    spots the held card may go to (Z4) and the piles it may be discarded on (Z6)."""
    match state.phase:
        case BetweenRounds(starter=starter, tied=tied):
            named = tied if starter is None else (starter,)
            return (Offer(kind="start_round", choices={"starter": named}),)
        case Drawing(player=player):
            sources = _sources(state)
            return (
                Offer(kind="draw", choices={"player": (player,), "source": sources}),
            )
        case Holding(player=player, card=card, choice=choice):
            offers: list[Offer[MoveKind]] = []
            if choice in ("place_or_discard", "place"):
                spots = tuple(range(1, GRID_SIZE + 1)) if card.joker else (card.face,)
                offers.append(
                    Offer(kind="place", choices={"player": (player,), "spot": spots})
                )
            if choice != "place":
                piles = _discard_piles(state)
                offers.append(
                    Offer(kind="discard", choices={"player": (player,), "pile": piles})
                )
            return tuple(offers)
    return ()


def _sources(state: State) -> tuple[Source, ...]:
    """Z4: the deck while it has cards (Z10), and each discard pile holding one."""
    left, right = state.piles
    found: list[Source] = []
    if state.draw_pile_size:
        found.append("deck")
    if left:
        found.append("discard_left")
    if right:
        found.append("discard_right")
    return tuple(found)


def _discard_piles(state: State) -> tuple[Pile, ...]:
    """Z6: while one pile is empty and the other is not, the empty one only."""
    left, right = state.piles
    if bool(left) != bool(right):
        return ("right",) if left else ("left",)
    return ("left", "right")
