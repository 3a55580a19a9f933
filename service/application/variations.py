"""Variations: "what if" games branched from a step of another.

A variation is a game of its own, with its own id and write token, that starts as its
original stood after `at` moves: its log holds those moves again, each decided once
more by the game's rules as if the table logged it (a refusal there is a 422 naming
the move and its ruling), and it records where it came from (`variation_of`, the
original and the step). From then on its moves are logged and checked like any
game's. It counts in no player's record and in no list of games played: the read
model keeps `variation_of`, and the queries leave such games out
(`service.readside.summaries`).

A variation may be named ("Bo takes the 9") and hidden from its game's list of
variations, by whoever may write it or its game: each a row stored after the last
(`storage.variation_names`), never a change to one. A hidden variation is still a
game, read at its address as before; only the list leaves it out.
"""

from __future__ import annotations

import unicodedata
import uuid
from typing import Annotated, cast

import anyio
import msgspec
from msgspec import Meta

from domain.errors import GameFinished, RuleError
from domain.history import History, Recorded
from domain.names import normal_name, shows_nothing
from domain.registry import Registry
from domain.wording import message
from service.application.creating import (
    Creating,
    InGroup,
    NewGame,
    in_the_group_of,
    logged_at,
)
from service.application.errors import Invalid, NotFound
from service.application.submitting import MAX_MOVES
from service.application.timeline import FOLD_IN_THREAD, Timelines, setup_of
from service.application.visibility import Visibility
from service.application.wording import in_english
from service.storage.store import GameRow
from service.storage.variation_names import Label, add_row

# A variation's name, and the rows (names and hidings) one variation holds: a list
# of variations reads each one's latest.
NAME_LENGTH = 80
MAX_NAME_ROWS = 100


class VariationOf(msgspec.Struct, kw_only=True):
    """Where a variation came from: the original game and the step it starts at."""

    game: uuid.UUID
    step: int


def variation_of(game: uuid.UUID | None, step: int | None) -> VariationOf | None:
    """A stored row's `variation_of`, or None for a game that is not a variation."""
    return None if game is None or step is None else VariationOf(game=game, step=step)


class NewVariation(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """The body of `POST /games/{id}/variations`: the step the variation starts
    from (0 is the game before any move)."""

    at: Annotated[int, Meta(ge=0, le=MAX_MOVES)]


class VariationChange(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """The body of `PATCH /games/{id}/variations/{variation}`: a new `name`, and
    whether the variation is `hidden` from its game's list; either may be left out
    (unchanged), not both. The name is kept trimmed, as a player's name is."""

    name: Annotated[str, Meta(min_length=1, max_length=NAME_LENGTH)] | None = None
    hidden: bool | None = None

    def __post_init__(self) -> None:
        # A ValueError here is msgspec's ValidationError: the 422's sentence.
        if self.name is None and self.hidden is None:
            raise ValueError("give the variation a `name`, or say whether `hidden`")
        if self.name is not None:
            self.name = normal_name(self.name)
            if shows_nothing(self.name):
                raise ValueError(
                    "name must show something, not only spaces, invisible "
                    "characters or marks"
                )
            if any(
                unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") for c in self.name
            ):
                raise ValueError(
                    "name must be one line, without a control character (a tab, a "
                    "line break, NUL)"
                )


class Variation(msgspec.Struct, kw_only=True):
    """A variation's name and whether it is hidden from its game's list, as they
    stand: `PATCH /games/{id}/variations/{variation}`'s answer."""

    id: uuid.UUID
    variation_of: VariationOf
    name: str | None
    hidden: bool


class Variations:
    """Variations branched over `timelines`' games, stored as `creating` stores a
    new game."""

    def __init__(self, timelines: Timelines, creating: Creating) -> None:
        self.timelines = timelines
        self.creating = creating

    async def branch(
        self,
        game_id: uuid.UUID,
        at: int,
        app_key: uuid.UUID | None = None,
        group: InGroup | None = None,
    ) -> tuple[GameRow, History, str]:
        """A new game as `game_id` stood after `at` moves, and its write token;
        NotFound for an unknown game or a step it does not have. `app_key`, the key
        of the app branching it, may write it too. The variation is of its game's
        group, and seen by whoever sees its game (its visibility); `group`, the
        group of the key branching it, is kept as its group key when it is that
        group."""
        timeline = await self.timelines.load(game_id, whole=True)
        last = timeline.moves
        if at > last:
            raise NotFound(message("game.no_step", last=last, step=at))
        row = timeline.row
        moves = [record.move for record in timeline.records[:at]]
        start = History.start(self.timelines.rules[row.game], setup_of(row))
        if at > FOLD_IN_THREAD:
            records, history = await anyio.to_thread.run_sync(
                _replayed,
                self.timelines.rules,
                start,
                moves,
                limiter=self.timelines.heavy_work,
            )
        else:
            records, history = _replayed(self.timelines.rules, start, moves)
        # The original's creation and its first `at` moves, as they were logged.
        played = await self.timelines.store.read(game_id, 0, at + 1)
        request = NewGame(
            game=row.game,
            players=list(row.players),
            first_player=row.first_player,
            seed=row.seed,
            options=row.options,
            title=row.title,
        )
        stored, token = await self.creating.store_new(
            request,
            start,
            records,
            logged_at=[logged_at(event) for event in played],
            variation_of=(row.id, at),
            app_key=app_key,
            group=in_the_group_of(row, group),
            visibility=cast(Visibility, row.visibility),
        )
        return stored, history, token

    async def variation(self, game_id: uuid.UUID, variation_id: uuid.UUID) -> GameRow:
        """The row of `variation_id`, a variation branched from `game_id`; NotFound
        for any other id, worded alike whatever that id is (a game hidden from the
        caller, or of another game, is no variation of this one)."""
        row = await self.timelines.store.get_game(variation_id)
        if row is None or row.variation_of != game_id:
            raise NotFound(message("variation.unknown", variation=str(variation_id)))
        return row

    async def change(
        self, game_id: uuid.UUID, variation_id: uuid.UUID, change: VariationChange
    ) -> Variation:
        """Name the variation, or hide it from its game's list or show it there
        again, as `change` says: a row stored after the last. A change that changes
        nothing stores nothing. Invalid past MAX_NAME_ROWS rows."""
        row = await self.variation(game_id, variation_id)

        def check(label: Label) -> bool:
            named = change.name is None or change.name == label.name
            if named and (change.hidden is None or change.hidden == label.hidden):
                return False
            if label.rows >= MAX_NAME_ROWS:
                raise Invalid(message("variation.full", most=MAX_NAME_ROWS))
            return True

        pool = self.timelines.store.pool
        label = await add_row(pool, variation_id, change.name, change.hidden, check)
        return _shown(row, label)


def _shown(row: GameRow, label: Label) -> Variation:
    of = variation_of(row.variation_of, row.variation_step)
    assert of is not None  # `Variations.variation` found a variation
    return Variation(id=row.id, variation_of=of, name=label.name, hidden=label.hidden)


def _replayed(
    games: Registry, start: History, moves: list
) -> tuple[list[Recorded], History]:
    """The moves decided again by the rules from `start`: their records and the
    game after them; Invalid naming the first move the rules now refuse, in the
    words of `games`."""
    history, records = start, []
    for step, move in enumerate(moves, start=1):
        try:
            record, history = history.play(move)
        except (RuleError, GameFinished) as error:
            said = in_english(error, games)
            raise Invalid(
                f"Step {step} cannot be logged again: {said}", rule=error.rule
            ) from None
        records.append(record)
    return records, history
