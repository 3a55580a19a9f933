"""The application layer: games created and moves appended through the rules engines.

A move is decided on the game's folded history and stored as the next version; the
primary key (game, version) settles races between requests and between processes.
Each game's timeline (its history after every stored move) is kept in a small LRU
cache and caught up from the store, so an append or a replay step reads only the
events it has not seen.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import uuid
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

from domain.errors import GameFinished, RuleError
from domain.game import Rules, Setup, draw_first_player
from domain.history import Codec, History, Recorded
from service.moves import MOVE_BODIES
from service.problems import Problem
from service.store import (
    EventStore,
    GameRow,
    IdempotencyKeyUsed,
    NewGame,
    StoredEvent,
    VersionConflict,
)
from service.wire import NewGame as NewGameRequest

# Without expected_version a client asks for its move to follow whatever is current:
# a lost race is re-decided on the new state, a bounded number of times.
APPEND_ATTEMPTS = 8


class Timeline:
    """A game's histories after each stored move: `at(v)` is the game at version v.

    Only ever extended, and only in version order, so concurrent requests of one
    process can share it: a version some other request already added is skipped.
    """

    __slots__ = ("histories", "records", "row")

    def __init__(self, row: GameRow, start: History) -> None:
        self.row = row
        self.histories = [start]
        self.records: list[Recorded] = []

    @property
    def latest(self) -> History:
        return self.histories[-1]

    def at(self, version: int) -> History:
        return self.histories[version - 1]

    def add(self, version: int, record: Recorded) -> None:
        if version == self.latest.version + 1:
            self.histories.append(self.latest.apply(record))
            self.records.append(record)


class GameCreated(msgspec.Struct, tag="game_created", kw_only=True):
    """The first event of every game (version 1): the table's set-up."""

    game: str
    players: list[str]
    first_player: str
    seed: int
    options: dict[str, Any]
    title: str | None = None
    played_at: str | None = None
    location: str | None = None
    notes: str | None = None

    @classmethod
    def of(cls, game: str, setup: Setup, **about: str | None) -> GameCreated:
        """The creation event of a game set up so; `about`: title, played_at, ..."""
        return cls(
            game=game,
            players=list(setup.players),
            first_player=setup.first_player,
            seed=setup.seed,
            options=setup.options,
            **about,
        )

    def setup(self) -> Setup:
        return Setup(
            players=tuple(self.players),
            first_player=self.first_player,
            seed=self.seed,
            options=self.options,
        )


def token_hash(token: str) -> bytes:
    # Tokens are 192 random bits, so a plain SHA-256 is enough: no salt or stretching.
    return hashlib.sha256(token.encode()).digest()


def move_type(move: msgspec.Struct) -> str:
    return type(move).__struct_config__.tag


class Games:
    def __init__(
        self, store: EventStore, rules: Mapping[str, Rules], cached_games: int = 1024
    ) -> None:
        self.store = store
        self.rules = rules
        self.codecs = {name: Codec(r) for name, r in rules.items()}
        self._cache: OrderedDict[uuid.UUID, Timeline] = OrderedDict()
        self._cache_size = cached_games
        # Called after every stored event, to wake this process's log followers.
        self.on_append: Callable[[], None] = lambda: None

    async def create(self, request: NewGameRequest) -> tuple[GameRow, History, str]:
        """A new game at version 1, and its write token (shown this once)."""
        history = self.start(request)
        row, token = await self.store_new(request, history, [])
        return row, history, token

    def start(self, request: NewGameRequest) -> History:
        """The game the request sets up; RuleError for a set-up the rules refuse."""
        rules = self.rules.get(request.game)
        if rules is None:
            known = ", ".join(sorted(self.rules))
            raise Problem(422, f"Unknown game {request.game!r}: choose one of {known}.")
        return History.start(rules, self._setup(request))

    async def store_new(
        self,
        request: NewGameRequest,
        start: History,
        records: Sequence[Recorded],
        game_id: uuid.UUID | None = None,
    ) -> tuple[GameRow, str]:
        """Store a new game with the moves already played on it (an import), all in
        one transaction; its row and its write token. `game_id` is drawn at random
        unless given (the sample games have fixed ids)."""
        token = secrets.token_urlsafe(24)
        setup = start.setup
        row = NewGame(
            id=game_id or uuid.uuid4(),
            game=start.rules.name,
            players=setup.players,
            first_player=setup.first_player,
            seed=setup.seed,
            options=setup.options,
            token_hash=token_hash(token),
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
        moves = [(move_type(r.move), msgspec.json.encode(r)) for r in records]
        await self.store.import_game(
            row, ("game_created", msgspec.json.encode(created)), moves
        )
        stored = await self._row(row.id)
        if not records:
            self._remember(Timeline(stored, start))
        self.on_append()
        return stored, token

    @staticmethod
    def _setup(request: NewGameRequest) -> Setup:
        players = tuple(name.strip() for name in request.players)
        if len(set(players)) != len(players):
            raise Problem(422, "Every player needs a different name.")
        seed = request.seed if request.seed is not None else secrets.randbits(63)
        first = request.first_player
        if first is None:
            first = draw_first_player(players, seed)
        elif first not in players:
            raise Problem(422, f"The first player {first!r} is not one of the players.")
        return Setup(
            players=players, first_player=first, seed=seed, options=request.options
        )

    async def timeline(self, game_id: uuid.UUID) -> Timeline:
        """The game as stored now (caught up with moves other processes appended)."""
        timeline = self._cache.get(game_id)
        if timeline is None:
            row = await self._row(game_id)
            start = History.start(self.rules[row.game], _setup_of(row))
            timeline = Timeline(row, start)
        codec = self.codecs[timeline.row.game]
        for event in await self.store.read(game_id, timeline.latest.version):
            timeline.add(event.version, codec.record_from_json(event.data))
        self._remember(timeline)
        return timeline

    async def current(self, game_id: uuid.UUID) -> tuple[GameRow, History]:
        timeline = await self.timeline(game_id)
        return timeline.row, timeline.latest

    async def submit(
        self,
        game_id: uuid.UUID,
        authorization: str | None,
        body: Any,
        idempotency: tuple[str, bytes] | None = None,
    ) -> History:
        """Decide and store one move (a `MoveBody`, or its JSON as builtins); the
        history after it.

        The move is decided on the cached timeline without reading the store: the
        (game, version) key refuses the append if another process stored a move
        first, and only then, or when a refusal might come from a stale state, is
        the timeline caught up and the move decided again.
        """
        timeline = self._cache.get(game_id)
        caught_up = timeline is None
        if timeline is None:
            timeline = await self.timeline(game_id)
        authorize(timeline.row, authorization)
        # The state the move is decided on is taken before the key is looked up: a
        # retry racing its first copy must then collide with it on the version (and
        # replay its answer), not be decided again on the state after it.
        history = timeline.latest
        if idempotency is not None:
            replayed = await self._replay_answer(timeline, *idempotency)
            if replayed is not None:
                return replayed
        move, expected_version = MOVE_BODIES.to_domain(timeline.row.game, body)
        for _ in range(APPEND_ATTEMPTS):
            try:
                record = _decide(history, move, expected_version)
            except (Problem, RuleError, GameFinished):
                if caught_up:
                    raise
                timeline, caught_up = await self.timeline(game_id), True
                history = timeline.latest
                continue
            version = history.version + 1
            try:
                await self.store.append(
                    game_id,
                    version,
                    move_type(move),
                    msgspec.json.encode(record),
                    idempotency_key=idempotency[0] if idempotency else None,
                    request_hash=idempotency[1] if idempotency else None,
                )
            except VersionConflict:
                timeline, caught_up = await self.timeline(game_id), True
                history = timeline.latest
                continue
            except IdempotencyKeyUsed:
                # A retry of this very request raced us and was stored first.
                timeline = await self.timeline(game_id)
                replayed = await self._replay_answer(timeline, *idempotency)
                assert replayed is not None
                return replayed
            timeline.add(version, record)
            self.on_append()
            return timeline.at(version)
        raise Problem(409, "The game is changing too fast: send the move again.")

    async def _replay_answer(
        self, timeline: Timeline, key: str, request_hash: bytes
    ) -> History | None:
        found = await self.store.find_idempotent(timeline.row.id, key)
        if found is None:
            return None
        version, first_hash = found
        if first_hash is None or not hmac.compare_digest(first_hash, request_hash):
            raise Problem(
                422,
                "This Idempotency-Key was already used for another request: "
                "use a new key for a new move.",
            )
        if version > timeline.latest.version:
            timeline = await self.timeline(timeline.row.id)
        return timeline.at(version)

    async def events(
        self, game_id: uuid.UUID, after: int, limit: int
    ) -> tuple[list[StoredEvent], int]:
        timeline = await self.timeline(game_id)
        return await self.store.read(game_id, after, limit), timeline.latest.version

    async def _row(self, game_id: uuid.UUID) -> GameRow:
        row = await self.store.get_game(game_id)
        if row is None:
            raise Problem(404, f"There is no game {game_id}.")
        return row

    def _remember(self, timeline: Timeline) -> None:
        timeline = self._cache.setdefault(timeline.row.id, timeline)
        self._cache.move_to_end(timeline.row.id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)


def _decide(history: History, move: Any, expected_version: int | None) -> Recorded:
    if expected_version is not None and expected_version != history.version:
        raise _version_conflict(expected_version, history.version)
    return history.decide(move)


def _setup_of(row: GameRow) -> Setup:
    return Setup(
        players=tuple(row.players),
        first_player=row.first_player,
        seed=row.seed,
        options=row.options,
    )


def _version_conflict(expected: int, actual: int) -> Problem:
    return Problem(
        409,
        f"The game is at version {actual}, not {expected}: another move was logged "
        "first. Reload the game and log the move again if it still applies.",
        version=actual,
    )


def authorize(row: GameRow, authorization: str | None) -> None:
    """Every write needs the game's bearer token (compared in constant time)."""
    if not authorization:
        raise Problem(
            401, "Send the game's write token as 'Authorization: Bearer <token>'."
        )
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Problem(
            401, "Send the game's write token as 'Authorization: Bearer <token>'."
        )
    if not hmac.compare_digest(token_hash(token.strip()), row.token_hash):
        raise Problem(403, "That is not this game's write token.")
