"""Creating a game: the request (`POST /games`, an import's first line), the table's
set-up it gives, and the game stored at version 1 (with an import's moves after it)
in one transaction, read back and folded before the commit.
"""

from __future__ import annotations

import functools
import secrets
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Protocol

import msgspec
from msgspec import Meta
from psycopg import AsyncConnection

from domain.creation import GAME_CREATED, GameCreated
from domain.game import Setup, draw_first_player
from domain.history import History, Recorded
from domain.names import name_fault, normal_name
from domain.wording import Names, message
from service.application.errors import Duplicate, Invalid
from service.application.keys import same_group
from service.application.observers import ReadSide
from service.application.timeline import Timeline, Timelines, setup_of
from service.application.tokens import new_token
from service.application.visibility import GROUP_DEFAULT, Visibility, chosen
from service.application.wording import DEFAULT
from service.storage.notes import NewEntry
from service.storage.store import (
    AlreadyImported,
    GameRow,
    NewGameRow,
    SameGame,
    StoredEvent,
    Unreadable,
)

# A player's name, at most this many characters as typed and as kept (trimmed, in
# Unicode's composed form, `domain.names.normal_name`): NFC lengthens some text (forty
# U+0958 are 80 code points composed), and a name kept longer than this would make
# the game's own export refused on import.
NAME_LENGTH = 40
PlayerName = Annotated[str, Meta(min_length=1, max_length=NAME_LENGTH, pattern=r"\S")]
Text = Annotated[str, Meta(max_length=2000)]

# The dates a game may carry: PostgreSQL keeps far more, but Python's datetime (and so
# every read of the row) stops at year 9999, and no card game was logged before 1900.
EARLIEST = datetime(1900, 1, 1, tzinfo=UTC)
LATEST = datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)


class Seat(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A seat of a new game given as an object: a player of the group's roster by
    `id`, or by `name`, with `new` when they are not on the roster yet
    (service/application/rosters.py). A game of no group has no roster: its seats
    are names."""

    id: uuid.UUID | None = None
    name: PlayerName | None = None
    new: bool = False

    def __post_init__(self) -> None:
        if (self.id is None) == (self.name is None):
            raise ValueError("a seat gives either a roster player's id or a name")
        if self.new and self.name is None:
            raise ValueError("a new player is given by name")


class NewGame(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A game to create: the body of `POST /games`, and an import's first line.

    Every value is checked here against what the database and the API hold (lengths,
    the seed within bigint, dates within EARLIEST..LATEST, no NUL in text), so that
    nothing is written that could not be read back."""

    game: Annotated[str, Meta(max_length=40)]
    # Names, or seats (`Seat`) in a group's game.
    players: Annotated[list[PlayerName | Seat], Meta(min_length=2, max_length=12)]
    first_player: Annotated[str, Meta(max_length=NAME_LENGTH)] | None = None
    options: dict[str, Any] = {}
    seed: Annotated[int, Meta(ge=0, le=2**63 - 1)] | None = None
    title: Annotated[str, Meta(max_length=200)] | None = None
    played_at: datetime | None = None
    location: Annotated[str, Meta(max_length=200)] | None = None
    notes: Text | None = None
    # Who sees the game (service/application/visibility.py): its group's default,
    # or public for a game of no group, when not given.
    visibility: Visibility | None = None

    def __post_init__(self) -> None:
        # msgspec turns a ValueError raised here into its ValidationError: the client
        # reads this sentence as the reason for its 422.
        texts = {"game": self.game, "first_player": self.first_player}
        texts |= {"title": self.title, "location": self.location, "notes": self.notes}
        names = {f"players[{i}]": _typed(seat) for i, seat in enumerate(self.players)}
        texts |= names
        for name, text in texts.items():
            if text is not None and "\x00" in text:
                raise ValueError(f"{name} must not contain a NUL character (\\u0000)")
        check_moment("played_at", self.played_at)
        for field, name in (names | {"first_player": self.first_player}).items():
            if name is not None and len(normal_name(name)) > NAME_LENGTH:
                raise ValueError(
                    f"{field} must be at most {NAME_LENGTH} characters in Unicode's "
                    "composed form (NFC)"
                )


# What a body that still names a `group` is told: a game is put in a group by the
# key it is created with, which only the group's members hold.
GROUP_BY_KEY = (
    "A game joins a group by being created with one of the group's keys "
    "('Authorization: Bearer tlg_...', see POST /groups), not by naming it: "
    "leave out 'group'."
)


@dataclass(frozen=True, slots=True)
class InGroup:
    """The group a game is created in: its name, kept in the game's row and its
    creation event, the group key it is created with (None for an app key made
    for the group, kept as the game's `app_key`), and the visibility its games get
    unless they ask for another."""

    name: str
    key_id: uuid.UUID | None = None
    visibility: str = GROUP_DEFAULT


def _typed(seat: str | Seat) -> str | None:
    """The name a seat gives: None for a roster player given by id."""
    return seat if isinstance(seat, str) else seat.name


def unseated(request: NewGame) -> NewGame:
    """The request with its seats as names, for a game of no roster (of no group,
    or an import's): Invalid for a seat given by a roster player's id."""
    names = [_typed(seat) for seat in request.players]
    if None in names:
        raise Invalid(
            "A seat is given by a roster player's id, and only a game created in a "
            "group seats its roster's players: give the players' names."
        )
    return msgspec.structs.replace(request, players=names)


def in_the_group_of(row: GameRow, by: InGroup | None) -> InGroup | None:
    """The group of a game made from the game of `row` (a variation, a game
    played again): that game's, with the key that makes it (of the group `by`)
    kept if that key is of the group; None for a game of no group."""
    if row.group is None:
        return None
    key = None
    if by is not None and same_group(by.name, row.group):
        key = by.key_id
    return InGroup(row.group, key, row.visibility)


def check_group(group: str | None, field: str = "group") -> None:
    """ValueError unless a group's name reads as a player's name does: something
    that shows, and no control character."""
    fault = None if group is None else name_fault(group)
    if fault is not None:
        raise ValueError(f"{field}: {DEFAULT.render(fault)}")


def check_moment(name: str, moment: datetime | None) -> None:
    """ValueError unless `moment` (naive: taken as UTC) is within EARLIEST..LATEST
    once its offset is applied: 9999-12-31T23:59:59-23:00 is already year 10000."""
    if moment is None:
        return
    offset = moment.utcoffset() or timedelta(0)
    try:
        utc = (moment.replace(tzinfo=None) - offset).replace(tzinfo=UTC)
    except OverflowError:
        utc = None
    if utc is None or not EARLIEST <= utc <= LATEST:
        raise ValueError(
            f"{name} must be between {EARLIEST:%Y-%m-%d} and {LATEST:%Y-%m-%d} (UTC)"
        )


def move_type(move: msgspec.Struct) -> str:
    """A stored row's `type`: its move's tag (`play`, `undo`, ...)."""
    return type(move).__struct_config__.tag


class Roster(Protocol):
    """The groups' rosters, as a creation reads them (service/application/
    rosters.py)."""

    async def seat(self, group: str, request: NewGame) -> NewGame: ...

    async def include(
        self, conn: AsyncConnection, group: str, names: Sequence[str]
    ) -> None: ...


class Creating:
    """New games, stored over `timelines`' store; `read_side` is told of each."""

    def __init__(
        self, timelines: Timelines, read_side: ReadSide, rosters: Roster | None
    ) -> None:
        self.timelines = timelines
        self.store = timelines.store
        self.rules = timelines.rules
        self.read_side = read_side
        # The groups' rosters; None for the games of a test's shell
        # (`bootstrap.shell_games`), which reads no roster.
        self.rosters = rosters

    async def create(
        self,
        request: NewGame,
        app_key: uuid.UUID | None = None,
        group: InGroup | None = None,
        *,
        rematch_of: uuid.UUID | None = None,
        token: tuple[str, bytes] | None = None,
    ) -> tuple[GameRow, History, str]:
        """A new game at version 1, and its write token (shown this once). A
        group's game seats its roster's players (`Rosters.seat`). `rematch_of`:
        the game it plays again (`rematches.py`); `token`: the write token it gets
        and its hash, instead of a new one drawn at random."""
        if group is not None and self.rosters is not None:
            request = await self.rosters.seat(group.name, request)
        else:
            request = unseated(request)
        history = self.start(request)
        row, token_shown = await self.store_new(
            request,
            history,
            [],
            app_key=app_key,
            group=group,
            visibility=request.visibility,
            rematch_of=rematch_of,
            token=token,
        )
        return row, history, token_shown

    def start(self, request: NewGame) -> History:
        """The game the request sets up; RuleError for a set-up the rules refuse."""
        rules = self.rules.get(request.game)
        if rules is None:
            known = Names(sorted(self.rules))
            raise Invalid(
                message("game.unknown_kind", game=repr(request.game), known=known)
            )
        return History.start(rules, _setup(request))

    async def store_new(
        self,
        request: NewGame,
        start: History,
        records: Sequence[Recorded],
        game_id: uuid.UUID | None = None,
        *,
        logged_at: Sequence[datetime | None] | None = None,
        digest: bytes | None = None,
        same: SameGame | None = None,
        variation_of: tuple[uuid.UUID, int] | None = None,
        notes: Sequence[NewEntry] = (),
        app_key: uuid.UUID | None = None,
        group: InGroup | None = None,
        visibility: Visibility | None = None,
        rematch_of: uuid.UUID | None = None,
        token: tuple[str, bytes] | None = None,
    ) -> tuple[GameRow, str]:
        """Store a new game with the moves already played on it (an import), all in
        one transaction; its row and its write token. `game_id` is drawn at random
        unless given (the sample games have fixed ids).

        An import also passes `logged_at`, the time the export gave each line (the
        creation first; None where it gave none), kept in the stored rows beside the
        record, `same`, how to find the stored game it already is (then nothing is
        stored and Duplicate names that game), and `digest`, its content's, kept as
        the record of the import. A variation passes `variation_of`: the
        game it branches from and the step it starts at. `notes`: an import's notes
        on its moves, stored with them. `app_key` is the key of the app that creates
        it, kept in its row: that key may write the game. `group`: the group it is
        created in, by the key of it that creates it. `visibility`: who sees it,
        as asked (`visibility.chosen`); Invalid for members-only without a group.
        `rematch_of`: the game a game played again follows (AlreadyPlayedAgain
        when that game was played again already); `token`: its write token and
        the token's hash, when not drawn here.

        The rows are read back and folded before the commit: a game the service
        could not read back is never stored."""
        seen = chosen(
            visibility,
            None if group is None else group.name,
            GROUP_DEFAULT if group is None else group.visibility,
        )
        token, token_hash = token or new_token()
        setup = start.setup
        row = NewGameRow(
            id=game_id or uuid.uuid4(),
            game=start.rules.name,
            players=setup.players,
            first_player=setup.first_player,
            seed=setup.seed,
            options=setup.options,
            token_hash=token_hash,
            title=request.title,
            played_at=request.played_at,
            location=request.location,
            notes=request.notes,
            variation_of=variation_of[0] if variation_of else None,
            variation_step=variation_of[1] if variation_of else None,
            app_key=app_key,
            group=None if group is None else group.name,
            group_key=None if group is None else group.key_id,
            visibility=seen,
            rematch_of=rematch_of,
        )
        created = GameCreated.of(
            start.rules.name,
            setup,
            title=request.title,
            played_at=request.played_at.isoformat() if request.played_at else None,
            location=request.location,
            notes=request.notes,
            group=msgspec.UNSET if row.group is None else row.group,
        )
        joins = None
        if group is not None and self.rosters is not None:
            joins = functools.partial(
                self.rosters.include, group=group.name, names=setup.players
            )
        lines = [created, *records]
        times = logged_at if logged_at is not None else [None] * len(lines)
        data = [
            _stored_data(line, logged_at is not None, at)
            for line, at in zip(lines, times, strict=True)
        ]
        moves = [(move_type(r.move), d) for r, d in zip(records, data[1:], strict=True)]
        try:
            timeline = await self.store.import_game(
                row,
                (GAME_CREATED, data[0]),
                moves,
                self._read_back,
                digest=digest,
                same=same,
                notes=notes,
                joins=joins,
            )
        except AlreadyImported as error:
            raise Duplicate(error.game_id) from None
        except Unreadable as error:
            raise Invalid(
                f"The game cannot be stored: a value would not read back "
                f"({error.reason}). Nothing was stored."
            ) from None
        if not records:
            self.timelines.remember(timeline)
        self.read_side.appended()
        await self.read_side.new_status(
            timeline.row, timeline.latest, timeline.row.created_at
        )
        return timeline.row, token

    def _read_back(self, row: GameRow, events: Sequence[StoredEvent]) -> Timeline:
        """The game folded from its rows as the database gives them back, inside
        the transaction that stores them: whatever fails here undoes the write."""
        codec = self.timelines.codec(row.game)
        msgspec.json.decode(events[0].data, type=GameCreated)
        timeline = Timeline(row, History.start(self.rules[row.game], setup_of(row)))
        for event in events[1:]:
            timeline.add(event.version, codec.record_from_json(event.data))
        return timeline


# An imported row keeps, beside its record, when its export said the line was logged
# (null when the export did not say); rows logged here have no such key, their time
# is the row's own. The domain's decoders ignore the key, as they ignore every field
# they do not know.
LOGGED_AT = "logged_at"


class _Logged(msgspec.Struct):
    logged_at: datetime | msgspec.UnsetType | None = msgspec.UNSET


_LOGGED = msgspec.json.Decoder(_Logged)


def logged_at(event: StoredEvent) -> datetime | None:
    """When the row's move (or creation) was logged at the table: the row's own
    time, or for an imported row the time its export gave (None if it gave none)."""
    found = _LOGGED.decode(event.data).logged_at
    return event.recorded_at if found is msgspec.UNSET else found


def _stored_data(line: msgspec.Struct, imported: bool, at: datetime | None) -> bytes:
    """A row's `data`: the creation event or the record, and for an import the time
    the export gave it, as one more key the domain's decoders ignore."""
    data = msgspec.json.encode(line)
    if not imported:
        return data
    key = msgspec.json.encode(LOGGED_AT)
    return data[:-1] + b"," + key + b":" + msgspec.json.encode(at) + b"}"


def _setup(request: NewGame) -> Setup:
    """The table's set-up as requested, every name read as moves read them
    (`domain.names`); the seed, and from it the first player (D4, Z3, K3), drawn
    when not given. The game's rules check the rest."""
    players = tuple(normal_name(name) for name in unseated(request).players)
    seed = request.seed if request.seed is not None else secrets.randbits(63)
    first = request.first_player
    first = draw_first_player(players, seed) if first is None else normal_name(first)
    return Setup(
        players=players, first_player=first, seed=seed, options=request.options
    )
