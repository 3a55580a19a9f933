"""Games as the read models take them: a game as created (what its stored row
tells of it, as the service's `GameRow` does) and its history, played by the
game's own simulated table up to a point."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from uuid import UUID, uuid4

from domain.game import Rules, Setup
from domain.history import History

CREATED_AT = datetime(2026, 11, 30, 19, 0, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Created:
    """A game as created, with the fields of its stored row the read models read."""

    id: UUID
    game: str
    players: tuple[str, ...]
    first_player: str
    created_at: datetime = CREATED_AT
    title: str | None = None
    group: str | None = None
    variation_of: UUID | None = None
    variation_step: int | None = None
    visibility: str = "public"
    keyed: bool = False
    sample: bool = False


def played(
    rules: Rules,
    players: tuple[str, ...],
    seed: int,
    moves: int | None = None,
    **about: object,
) -> tuple[Created, History]:
    """A game created with `about` (title, group, variation_of, ...) and its history
    after its first `moves` simulated moves (by default, played to its end)."""
    setup = Setup(players=players, first_player=players[0], seed=seed)
    history = History.start(rules, setup)
    for count, move in enumerate(rules.simulate(setup)):
        if count == moves:
            break
        _, history = history.play(move)
    created = Created(
        id=uuid4(), game=rules.name, players=players, first_player=players[0], **about
    )
    return created, history
