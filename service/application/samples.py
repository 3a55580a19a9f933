"""Sample games (`tablelog seed`): games of every kind to read and replay at once,
which are no one's record.

`tablelog seed` loads each sample into the group SAMPLE_GROUP, which it makes
public and with no key, marked sample (migrations/0026): its games are listed and
read as a public group's are, and rated on its ladder alone, never on their games'
own ladders nor in a player's records (projections/ratings.py,
service/readside/records.py). A sample's id follows from its file's name, so
seeding twice loads each once. As it counts nowhere, a sample is never refused as
a game already stored: a game played the same way by a table stays theirs, and the
sample is loaded beside it.

`tablelog seed --remove` removes the samples: their rows stay, as every row does,
and from then on every read answers for them as for a game that does not exist
(service/application/visibility.py). `tablelog seed` brings them back, the same
games under the same ids.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from domain.history import History
from service.application.creating import InGroup
from service.application.errors import Conflict
from service.application.exchange import import_game
from service.application.games import Games
from service.application.visibility import PUBLIC
from service.storage.store import GameRow, NotSample

SAMPLE_GROUP = "Sample games"
# A sample's id is uuid5(SAMPLES_NAMESPACE, its file's name).
SAMPLES_NAMESPACE = uuid.UUID("5b0c1c52-7d1a-4c55-9a43-2f1f3c1e7a10")


def sample_id(name: str) -> uuid.UUID:
    """The id of the sample loaded from the file named `name`."""
    return uuid.uuid5(SAMPLES_NAMESPACE, name)


@dataclass(frozen=True, slots=True)
class Seeded:
    """A sample file once seeded: its game's id, and its history when this seeding
    loaded it (None: it was there already, `row` says as what)."""

    game_id: uuid.UUID
    history: History | None = None
    row: GameRow | None = None

    @property
    def sample(self) -> bool:
        """Whether the game is a sample: one loaded before samples had a group of
        their own from a folder of the operator's may be an ordinary game."""
        return self.row is None or self.row.sample


class Samples:
    """The sample games of the database `games` stands on."""

    def __init__(self, games: Games) -> None:
        self.games = games
        self.store = games.store

    async def show(self) -> InGroup:
        """The sample group, made if it is not there yet, with the samples shown
        again if they were removed; Conflict if a group that is not the samples'
        holds its name."""
        try:
            name = await self.store.sample_group_named(uuid.uuid4(), SAMPLE_GROUP)
        except NotSample as taken:
            raise Conflict(
                f"A group named {SAMPLE_GROUP!r} is there already ({taken}), and "
                "its games are a table's, not samples: the samples are not loaded."
            ) from None
        await self.store.mark_samples(removed=False)
        return InGroup(name, visibility=PUBLIC)

    async def load(self, name: str, body: bytes, group: InGroup) -> Seeded:
        """The sample of the file `name` (its content `body`) in the sample group
        `group` (`show`), loaded unless it is there already."""
        game_id = sample_id(name)
        found = await self.store.get_game(game_id)
        if found is not None:
            return Seeded(game_id, row=found)
        imported = await import_game(
            self.games, body, game_id, group=group, as_sample=True
        )
        return Seeded(game_id, imported.history)

    async def remove(self) -> bool:
        """Remove the samples; False if they were removed already."""
        return await self.store.mark_samples(removed=True)
