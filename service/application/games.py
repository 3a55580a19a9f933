"""Games created and moves logged: each use case reads load → decide → append.

A move is decided on the game's folded history and stored as the next version; the
primary key (game, version) settles races between requests and between processes.
The histories come from the timeline cache, caught up from the store when a race or
a refusal says the cached game may be behind.
"""

from __future__ import annotations

import secrets
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Protocol, TypeVar

import anyio
import msgspec
from msgspec import Meta

from domain.creation import GAME_CREATED, GameCreated
from domain.errors import GameFinished, RuleError
from domain.game import Rules, Setup, draw_first_player
from domain.history import TABLE_MOVES, Codec, History, Recorded, Truncated, Undo
from domain.names import normal_name
from domain.wording import Language, Names, message
from projections import replay
from service.application.errors import Conflict, Duplicate, Invalid, NotFound, Refused
from service.application.idempotency import Idempotency
from service.application.timeline import Timeline, Timelines, setup_of
from service.application.tokens import new_token
from service.storage.store import (
    AlreadyImported,
    EventStore,
    GameRow,
    IdempotencyKeyUsed,
    NewGameRow,
    StoredEvent,
    Unreadable,
    VersionConflict,
)

T = TypeVar("T")

# Without expected_version a client asks for its move to follow whatever is current:
# a lost race is re-decided on the new state, a bounded number of times.
APPEND_ATTEMPTS = 8

# The most moves a game holds, logged one by one or imported (undos count: each is a
# stored move). It bounds the work and memory one game can cost: the longest
# simulated game has about 420 moves.
MAX_MOVES = 5000

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


class NewGame(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A game to create: the body of `POST /games`, and an import's first line.

    Every value is checked here against what the database and the API hold (lengths,
    the seed within bigint, dates within EARLIEST..LATEST, no NUL in text), so that
    nothing is written that could not be read back."""

    game: Annotated[str, Meta(max_length=40)]
    players: Annotated[list[PlayerName], Meta(min_length=2, max_length=12)]
    first_player: Annotated[str, Meta(max_length=NAME_LENGTH)] | None = None
    options: dict[str, Any] = {}
    seed: Annotated[int, Meta(ge=0, le=2**63 - 1)] | None = None
    title: Annotated[str, Meta(max_length=200)] | None = None
    played_at: datetime | None = None
    location: Annotated[str, Meta(max_length=200)] | None = None
    notes: Text | None = None

    def __post_init__(self) -> None:
        # msgspec turns a ValueError raised here into its ValidationError: the client
        # reads this sentence as the reason for its 422.
        texts = {"game": self.game, "first_player": self.first_player}
        texts |= {"title": self.title, "location": self.location, "notes": self.notes}
        texts |= {f"players[{i}]": name for i, name in enumerate(self.players)}
        for name, text in texts.items():
            if text is not None and "\x00" in text:
                raise ValueError(f"{name} must not contain a NUL character (\\u0000)")
        check_moment("played_at", self.played_at)
        names = {f"players[{i}]": name for i, name in enumerate(self.players)}
        for field, name in (names | {"first_player": self.first_player}).items():
            if name is not None and len(normal_name(name)) > NAME_LENGTH:
                raise ValueError(
                    f"{field} must be at most {NAME_LENGTH} characters in Unicode's "
                    "composed form (NFC)"
                )


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


class MoveObserver(Protocol):
    """Told of every move logged and every move refused under a ruling (the HTTP
    layer's metrics); the application knows nothing of how they are counted."""

    def appended(self, game: str) -> None:
        """A move of a game of kind `game` was stored."""

    def submitted(self, seconds: float) -> None:
        """A move was decided and stored (or its stored answer found) in `seconds`."""

    def refused(self, ruling: str) -> None:
        """A move was refused under the ruling `ruling` (A1, A2, D8, ...)."""


class Unobserved:
    """No metrics to tell: the shell's commands, the tests."""

    def appended(self, game: str) -> None:
        pass

    def submitted(self, seconds: float) -> None:
        pass

    def refused(self, ruling: str) -> None:
        pass


class ReadSide(Protocol):
    """What the application tells the read side of its writes (in a serving
    process: the live log followers and the projection runner)."""

    def appended(self) -> None:
        """Events were stored: wake this process's followers of the log."""

    async def new_status(self, row: GameRow, history: History, at: datetime) -> None:
        """A game appeared or its status changed (created, finished, abandoned,
        reopened), stored at `at`: awaited before the request answers, so that the
        game list reads what the request just wrote."""


class NoReadSide:
    """A process that keeps no read model (the shell's commands, the tests): a
    serving process's projection runner catches up from the log."""

    def appended(self) -> None:
        pass

    async def new_status(self, row: GameRow, history: History, at: datetime) -> None:
        pass


def move_type(move: msgspec.Struct) -> str:
    """A stored row's `type`: its move's tag (`play`, `undo`, ...)."""
    return type(move).__struct_config__.tag


class Games:
    """The games of one process: created, read and logged over the cache of folded
    games (`timelines`), telling `read_side` of every write and `observer` of every
    move. Each is given when the application is built: a process without a read
    side or metrics says so (`NoReadSide()`, `Unobserved()`)."""

    def __init__(
        self,
        timelines: Timelines,
        *,
        read_side: ReadSide,
        observer: MoveObserver,
    ) -> None:
        self.timelines = timelines
        self.store = timelines.store
        self.rules = timelines.rules
        self.read_side = read_side
        self.observer = observer
        self._moves = {name: {*r.moves, *TABLE_MOVES} for name, r in self.rules.items()}

    @classmethod
    def without_read_side(
        cls,
        store: EventStore,
        rules: Mapping[str, Rules],
        *,
        cached_games: int = 1024,
        cached_moves: int = 100_000,
    ) -> Games:
        """Games in a process that keeps no read model and counts nothing (the
        shell's commands, the tests)."""
        timelines = Timelines(store, rules, cached_games, cached_moves)
        return cls(timelines, read_side=NoReadSide(), observer=Unobserved())

    # ------------------------------------------------------------------ creating

    async def create(self, request: NewGame) -> tuple[GameRow, History, str]:
        """A new game at version 1, and its write token (shown this once)."""
        history = self.start(request)
        row, token = await self.store_new(request, history, [])
        return row, history, token

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
    ) -> tuple[GameRow, str]:
        """Store a new game with the moves already played on it (an import), all in
        one transaction; its row and its write token. `game_id` is drawn at random
        unless given (the sample games have fixed ids).

        An import also passes `logged_at`, the time the export gave each line (the
        creation first; None where it gave none), kept in the stored rows beside the
        record, and `digest`, its content's: the same content imported again raises
        Duplicate, naming the game it became.

        The rows are read back and folded before the commit: a game the service
        could not read back is never stored."""
        token, token_hash = new_token()
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
        )
        created = GameCreated.of(
            start.rules.name,
            setup,
            title=request.title,
            played_at=request.played_at.isoformat() if request.played_at else None,
            location=request.location,
            notes=request.notes,
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
                row, (GAME_CREATED, data[0]), moves, self._read_back, digest=digest
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

    # ------------------------------------------------------------------ reading

    async def timeline(self, game_id: uuid.UUID, *, whole: bool = False) -> Timeline:
        """The game as stored now; NotFound for a game never created. `whole`:
        holding every version (not resumed from a snapshot)."""
        return await self.timelines.load(game_id, whole=whole)

    async def current(self, game_id: uuid.UUID) -> tuple[GameRow, History]:
        timeline = await self.timeline(game_id)
        return timeline.row, timeline.latest

    async def events(
        self, game_id: uuid.UUID, after: int, limit: int
    ) -> tuple[Timeline, list[StoredEvent]]:
        """The game as stored now, and a page of its stored rows after `after`."""
        timeline = await self.timeline(game_id)
        # The timeline was caught up on the primary: a replica's page is no older.
        latest = timeline.version
        return timeline, await self.store.read(game_id, after, limit, at_least=latest)

    def codec(self, game: str) -> Codec:
        """The decoders of the stored rows of a game of kind `game`."""
        return self.timelines.codec(game)

    async def replay(
        self,
        game_id: uuid.UUID,
        after: int,
        limit: int,
        language: Language,
        render: Callable[[list[replay.Step], int | None], T],
    ) -> T:
        """Steps `after + 1` to `after + limit` with their sentences in `language`,
        and the `after` of the next page (None on the last), as `render` makes them:
        built and rendered in a worker thread (a long game's page is megabytes)."""
        # Its sheets are folded from the game's creation.
        timeline = await self.timeline(game_id, whole=True)
        # Taken now: the timeline may grow while the page is built in a thread.
        moves = len(timeline.records)
        last = min(moves, after + limit)
        histories, records = timeline.histories[: last + 1], timeline.records[:last]

        def page() -> T:
            steps = replay.steps(histories, records, after + 1, last, language)
            return render(steps, last if last < moves else None)

        return await anyio.to_thread.run_sync(page, limiter=self.timelines.heavy_work)

    async def frame(
        self, game_id: uuid.UUID, step: int, language: Language
    ) -> replay.Step:
        """The game after its first `step` moves; NotFound past its last."""
        timeline = await self.timeline(game_id)
        last = timeline.moves
        if not 0 <= step <= last:
            raise NotFound(message("game.no_step", last=last, step=step))
        if step == 0:
            return replay.start(timeline.latest)
        try:
            return replay.step(*timeline.steps(), step, language=language)
        except Truncated:
            # The step's sentence needs moves before the snapshot the timeline
            # resumed from (an undo's names the move it took back).
            whole = await self.timeline(game_id, whole=True)
            return replay.step(*whole.steps(), step, language=language)

    async def write_token_hash(self, game_id: uuid.UUID) -> bytes:
        """What a write's token must hash to (the game loaded, or from the cache)."""
        timeline = self.timelines.cached(game_id) or await self.timeline(game_id)
        return timeline.row.token_hash

    # ------------------------------------------------------------------ logging

    async def submit(
        self,
        game_id: uuid.UUID,
        move: Any,
        expected_version: int | None = None,
        idempotency: Idempotency | None = None,
    ) -> History:
        """Decide and store one move of the game; the history after it (the
        observer is told how long it took, or the ruling that refused it)."""
        started = time.perf_counter()
        try:
            history = await self._submit(game_id, move, expected_version, idempotency)
        except (RuleError, GameFinished, Refused) as error:
            if ruling := _ruling_of(error):
                self.observer.refused(ruling)
            raise
        self.observer.submitted(time.perf_counter() - started)
        return history

    async def _submit(
        self,
        game_id: uuid.UUID,
        move: Any,
        expected_version: int | None,
        idempotency: Idempotency | None,
    ) -> History:
        """Decide and store one move of the game; the history after it.

        The move is decided on the cached timeline without reading the store: the
        (game, version) key refuses the append if another process stored a move
        first, and only then, or when a refusal might come from a stale state, is
        the timeline caught up and the move decided again.
        """
        timeline = self.timelines.cached(game_id)
        fresh = timeline is None
        if timeline is None:
            timeline = await self.timeline(game_id)
        self.check_game(timeline.row.game, move)
        timeline = await self._able(timeline, move)
        # The state the move is decided on is taken before the key is looked up: a
        # retry racing its first copy must then collide with it on the version (and
        # replay its answer), not be decided again on the state after it.
        history = timeline.latest
        if idempotency is not None:
            answered = await self._answered(timeline, idempotency)
            if answered is not None:
                return answered
        for _ in range(APPEND_ATTEMPTS):
            stored = await self._attempt(
                timeline, history, move, expected_version, idempotency, fresh
            )
            if stored is not None:
                return stored
            timeline, fresh = await self._able(await self.timeline(game_id), move), True
            history = timeline.latest
        raise Conflict(message("game.too_fast"))

    async def _able(self, timeline: Timeline, move: Any) -> Timeline:
        """`timeline`, or the whole game when the move is an undo reaching below
        the snapshot it resumed from (A2 needs the state before the move undone)."""
        if isinstance(move, Undo) and timeline.latest.top.truncated:
            return await self.timeline(timeline.row.id, whole=True)
        return timeline

    async def _attempt(
        self,
        timeline: Timeline,
        history: History,
        move: Any,
        expected_version: int | None,
        idempotency: Idempotency | None,
        fresh: bool,
    ) -> History | None:
        """Decide the move on `history` and store it as the version after it; None
        when it must be tried again on the game caught up (another move took that
        version, or a refusal may come from a stale cached state)."""
        try:
            record = _decide(history, move, expected_version)
        except (Conflict, RuleError, GameFinished):
            if fresh:
                raise
            return None
        try:
            return await self._append(
                timeline, history.version + 1, record, idempotency
            )
        except VersionConflict:
            return None
        except IdempotencyKeyUsed:
            # A retry of this very request raced us and was stored first.
            assert idempotency is not None
            timeline = await self.timeline(timeline.row.id)
            return await self._answered(timeline, idempotency, required=True)

    def check_game(self, game: str, move: Any) -> None:
        """A1: a move of another game is refused."""
        if type(move) not in self._moves[game]:
            raise Invalid(
                message("move.other_game", move=move_type(move), game=game), rule="A1"
            )

    async def _append(
        self,
        timeline: Timeline,
        version: int,
        record: Recorded,
        idempotency: Idempotency | None,
    ) -> History:
        stored = await self.store.append(
            timeline.row.id,
            version,
            move_type(record.move),
            msgspec.json.encode(record),
            idempotency_key=idempotency.key if idempotency else None,
            request_hash=idempotency.fingerprint if idempotency else None,
        )
        before = timeline.latest
        timeline.add(version, record)
        self.timelines.remember(timeline)
        self.observer.appended(timeline.row.game)
        self.read_side.appended()
        after = timeline.at(version)
        if after.status != before.status:
            await self.read_side.new_status(timeline.row, after, stored.recorded_at)
        return after

    async def _answered(
        self, timeline: Timeline, idempotency: Idempotency, *, required: bool = False
    ) -> History | None:
        """The answer already given under the key, if the game stored one."""
        found = await self.store.find_idempotent(timeline.row.id, idempotency.key)
        if found is None:
            assert not required, "the key was stored, yet is not found"
            return None
        version, first_fingerprint = found
        idempotency.check(first_fingerprint)
        _, answered = await self.timelines.as_stored_at(timeline.row.id, version)
        return answered


def _ruling_of(error: Exception) -> str | None:
    """The ruling a refusal names, as its problem answer names it, if any."""
    if isinstance(error, RuleError | GameFinished):
        return error.rule
    return error.extra.get("rule") if isinstance(error, Refused) else None


def _decide(history: History, move: Any, expected_version: int | None) -> Recorded:
    if history.version > MAX_MOVES:  # version 1 is the creation
        raise Invalid(message("game.full", most=MAX_MOVES))
    if expected_version is not None and expected_version != history.version:
        raise Conflict(
            message(
                "game.moved_on", version=history.version, expected=expected_version
            ),
            version=history.version,
        )
    return history.decide(move)


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
    players = tuple(map(normal_name, request.players))
    seed = request.seed if request.seed is not None else secrets.randbits(63)
    first = request.first_player
    first = draw_first_player(players, seed) if first is None else normal_name(first)
    return Setup(
        players=players, first_player=first, seed=seed, options=request.options
    )
