"""The application layer: games created and moves appended through the rules engines.

A move is decided on the game's folded history and stored as the next version; the
primary key (game, version) settles races between requests and between processes. Folded
histories are kept in a small LRU cache and caught up from the store, so an append reads
only the events it has not seen.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import uuid
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import msgspec

from domain.game import Rules, Setup, draw_first_player
from domain.history import Codec, History
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
        self._cache: OrderedDict[uuid.UUID, tuple[GameRow, History]] = OrderedDict()
        self._cache_size = cached_games

    async def create(self, request: NewGameRequest) -> tuple[GameRow, History, str]:
        """A new game at version 1, and its write token (shown this once)."""
        rules = self.rules.get(request.game)
        if rules is None:
            known = ", ".join(sorted(self.rules))
            raise Problem(422, f"Unknown game {request.game!r}: choose one of {known}.")
        setup = self._setup(request)
        history = History.start(rules, setup)  # RuleError for a set-up the rules refuse
        token = secrets.token_urlsafe(24)
        row = NewGame(
            id=uuid.uuid4(),
            game=rules.name,
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
        created = GameCreated(
            game=rules.name,
            players=list(setup.players),
            first_player=setup.first_player,
            seed=setup.seed,
            options=setup.options,
            title=request.title,
            played_at=request.played_at.isoformat() if request.played_at else None,
            location=request.location,
            notes=request.notes,
        )
        await self.store.create_game(row, "game_created", msgspec.json.encode(created))
        stored = await self._row(row.id)
        self._remember(stored, history)
        return stored, history, token

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

    async def current(self, game_id: uuid.UUID) -> tuple[GameRow, History]:
        """The game as stored now (caught up with moves other processes appended)."""
        cached = self._cache.get(game_id)
        if cached is None:
            row = await self._row(game_id)
            history = History.start(self.rules[row.game], _setup_of(row))
        else:
            row, history = cached
        history = self._fold(
            row, history, await self.store.read(game_id, history.version)
        )
        self._remember(row, history)
        return row, history

    async def at_version(self, game_id: uuid.UUID, version: int) -> History:
        row, history = await self.current(game_id)
        if history.version == version:
            return history
        history = History.start(self.rules[row.game], _setup_of(row))
        events = await self.store.read(game_id, 1, limit=version - 1)
        return self._fold(row, history, events)

    async def submit(
        self,
        game_id: uuid.UUID,
        authorization: str | None,
        body: Any,
        expected_version: int | None,
        idempotency: tuple[str, bytes] | None,
    ) -> History:
        """Decide and store one move; the history after it."""
        row, history = await self.current(game_id)
        authorize(row, authorization)
        if idempotency is not None:
            replayed = await self._replay_answer(game_id, *idempotency)
            if replayed is not None:
                return replayed
        move = self.codecs[row.game].move_from_builtins(body)
        for _ in range(APPEND_ATTEMPTS):
            if expected_version is not None and expected_version != history.version:
                raise _version_conflict(expected_version, history.version)
            record = history.decide(move)
            try:
                await self.store.append(
                    game_id,
                    history.version + 1,
                    move_type(move),
                    msgspec.json.encode(record),
                    idempotency_key=idempotency[0] if idempotency else None,
                    request_hash=idempotency[1] if idempotency else None,
                )
            except VersionConflict:
                row, history = await self.current(game_id)
                continue
            except IdempotencyKeyUsed:
                # A retry of this very request raced us and was stored first.
                replayed = await self._replay_answer(game_id, *idempotency)
                assert replayed is not None
                return replayed
            history = history.apply(record)
            self._remember(row, history)
            return history
        raise Problem(409, "The game is changing too fast: send the move again.")

    async def _replay_answer(
        self, game_id: uuid.UUID, key: str, request_hash: bytes
    ) -> History | None:
        found = await self.store.find_idempotent(game_id, key)
        if found is None:
            return None
        version, first_hash = found
        if first_hash is None or not hmac.compare_digest(first_hash, request_hash):
            raise Problem(
                422,
                "This Idempotency-Key was already used for another request: "
                "use a new key for a new move.",
            )
        return await self.at_version(game_id, version)

    async def events(
        self, game_id: uuid.UUID, after: int, limit: int
    ) -> tuple[list[StoredEvent], int]:
        _, history = await self.current(game_id)
        return await self.store.read(game_id, after, limit), history.version

    async def _row(self, game_id: uuid.UUID) -> GameRow:
        row = await self.store.get_game(game_id)
        if row is None:
            raise Problem(404, f"There is no game {game_id}.")
        return row

    def _fold(
        self, row: GameRow, history: History, events: list[StoredEvent]
    ) -> History:
        codec = self.codecs[row.game]
        for event in events:
            history = history.apply(codec.record_from_json(event.data))
        return history

    def _remember(self, row: GameRow, history: History) -> None:
        cached = self._cache.get(row.id)
        if cached is not None and cached[1].version > history.version:
            return  # a concurrent request already cached a newer state
        self._cache[row.id] = (row, history)
        self._cache.move_to_end(row.id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)


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
