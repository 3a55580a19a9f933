"""Nim, as a game package would define it: a pile of matches, each player in turn
takes 1 to 3 of them, and whoever takes the last one wins.

Everything a game gives the registry is here, in one module because the game is
small: options, moves, events, state, the Decider, the public view, the score
sheet, the sentences in both languages and a seeded virtual table.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Annotated, Literal

import msgspec

from domain.errors import RuleError
from domain.game import Rules, Setup
from domain.history import History, Recorded
from domain.setup import decoded_options, first_player, seated
from domain.sheet import RoundLine, ScoreSheet
from domain.wording import Message, message


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    matches: Annotated[int, msgspec.Meta(ge=5, le=50)] = 15


class Pick(msgspec.Struct, frozen=True, tag="pick"):
    player: str
    count: int


class Picked(msgspec.Struct, frozen=True, tag="picked"):
    player: str
    count: int


class Won(msgspec.Struct, frozen=True, tag="won"):
    player: str


class State(msgspec.Struct, frozen=True):
    players: tuple[str, ...]
    next: int
    matches: int
    winner: str | None = None


class NimView(msgspec.Struct, frozen=True, kw_only=True):
    game: Literal["nim"] = "nim"
    phase: Literal["pick", "finished"]
    matches: int
    next_player: str | None
    winners: list[str]
    allowed: list[Literal["pick"]] = []


def initial_state(setup: Setup) -> State:
    players = seated(setup, "Nim", 2, 3, "N1")
    first = first_player(setup, players, "N1")
    options = decoded_options(setup, Options, {"matches": "N1"}, "Nim")
    return State(players, players.index(first), options.matches)


def decide(state: State, move: Pick) -> list[Picked | Won]:
    if move.player != state.players[state.next]:
        expected = state.players[state.next]
        raise RuleError("N2", "turn.other", expected=expected, name=move.player)
    if not 1 <= move.count <= min(3, state.matches):
        raise RuleError("N2", "nim.count", most=min(3, state.matches))
    picked = Picked(move.player, move.count)
    return [picked, Won(move.player)] if move.count == state.matches else [picked]


def _picked(state: State, event: Picked) -> State:
    following = (state.next + 1) % len(state.players)
    return msgspec.structs.replace(
        state, next=following, matches=state.matches - event.count
    )


def _won(state: State, event: Won) -> State:
    return msgspec.structs.replace(state, winner=event.player)


def view(state: State) -> NimView:
    over = state.winner is not None
    return NimView(
        phase="finished" if over else "pick",
        matches=state.matches,
        next_player=None if over else state.players[state.next],
        winners=[state.winner] if over else [],
        allowed=[] if over else ["pick"],
    )


def outcome(state: State) -> tuple[str, ...] | None:
    return None if state.winner is None else (state.winner,)


def score_sheet(history: History) -> ScoreSheet:
    return _sheet(history.rules.name, history.state)


def next_sheet(
    sheet: ScoreSheet, before: State, record: Recorded, after: State
) -> ScoreSheet:
    return _sheet(sheet.game, after) if after.winner != before.winner else sheet


def _sheet(game: str, state: State) -> ScoreSheet:
    points = {name: int(name == state.winner) for name in state.players}
    over = state.winner is not None
    return ScoreSheet(
        game=game,
        players=list(state.players),
        rounds=[RoundLine(round=1, points=points)] if over else [],
        totals=points,
        winners=[state.winner] if over else [],
        finished=over,
    )


def describe(before: State, record: Recorded) -> Message:
    picked = record.events[0]
    return message("said.nim.picks", player=picked.player, count=picked.count)


def simulate(setup: Setup) -> Iterator[Pick]:
    rng = random.Random(setup.seed)
    state = initial_state(setup)
    while state.winner is None:
        move = Pick(state.players[state.next], rng.randint(1, min(3, state.matches)))
        yield move
        for event in decide(state, move):
            state = FOLDS[type(event)](state, event)


FOLDS = {Picked: _picked, Won: _won}

NIM = Rules(
    name="nim",
    labels={"en": "Nim", "fr": "Nim"},
    family="nim",
    min_players=2,
    max_players=3,
    options=Options,
    moves=(Pick,),
    events=(Picked, Won),
    initial_state=initial_state,
    decide=decide,
    folds=FOLDS,
    view=view,
    outcome=outcome,
    score_sheet=score_sheet,
    next_sheet=next_sheet,
    simulate=simulate,
    sentences={
        "en": {
            "nim.count": "Take from 1 to {most} matches.",
            "said.nim.picks": {
                "one": "{player} takes {count} match",
                "other": "{player} takes {count} matches",
            },
        },
        "fr": {
            "nim.count": "Prenez de 1 à {most} allumettes.",
            "said.nim.picks": {
                "one": "{player} prend {count} allumette",
                "other": "{player} prend {count} allumettes",
            },
        },
    },
    describe=describe,
)
