"""Playing a game again (`POST /games/{id}/rematch`, ruling T4): the next game at
the same table, made from the game before.

- The next game is created as `POST /games` creates one (`Creating.create`), from
  the `NewGame` the table would have sent: the same game, the same players in the
  same seats, the same options, title and place, the game's group and visibility,
  and a seed of its own. Its first player is the game's rule for who opens the
  next game (`domain.rematch`): none named where the rules draw one (D18), and then
  the creation draws them from the new seed, as it does for any game.
- The creation records the caller as a creation does: the app key it is asked
  with, and the group key if that key is of the game's group.
- A game is played again once, which the games' table holds (migration 0024): a
  second request, from another phone or one that came in at the same moment, is
  told of the game the first made (`PlayedAgain`, which names it when the caller
  may read it), so that a table never finds two next games.
- A request that lost its answer is sent again with the same `Idempotency-Key`,
  and answered as the first was, the same write token included. The service keeps
  only the hash of a token, so the game made under a key gets a token drawn from
  the caller's credential and the key (`tokens.derived_token`): whoever sends both
  again is given the same token, and no one without the credential can make it.
"""

from __future__ import annotations

import hmac
import uuid
from typing import cast

from domain.history import History
from domain.rematch import rematch_first_player
from service.application.creating import Creating, InGroup, NewGame, in_the_group_of
from service.application.errors import PlayedAgain
from service.application.timeline import Timelines
from service.application.tokens import derived_token
from service.application.visibility import Viewer, Visibility, removed_now
from service.storage.store import AlreadyPlayedAgain, GameRow


class Rematches:
    """Games played again over `timelines`' games, created by `creating`."""

    def __init__(self, timelines: Timelines, creating: Creating) -> None:
        self.timelines = timelines
        self.store = timelines.store
        self.creating = creating

    async def rematch(
        self,
        game_id: uuid.UUID,
        viewer: Viewer,
        idempotency_key: str | None = None,
        app_key: uuid.UUID | None = None,
        group: InGroup | None = None,
    ) -> tuple[GameRow, History, str]:
        """The game played after `game_id`, and its write token. `viewer`: who
        asks, with the credential they ask with; `app_key` and `group` as for
        `Creating.create`. GameInProgress (T4) for a game still being played,
        PlayedAgain for a game played again already by another request."""
        timeline = await self.timelines.load(game_id)
        row = timeline.row
        first = rematch_first_player(timeline.latest)
        token = None
        if idempotency_key is not None and viewer.credential is not None:
            purpose = f"rematch {game_id} {idempotency_key}"
            token = derived_token(viewer.credential, purpose)
        made = await self.store.played_again(game_id)
        if made is None:
            request = NewGame(
                game=row.game,
                players=list(row.players),
                first_player=first,
                options=row.options,
                title=row.title,
                location=row.location,
                visibility=cast(Visibility, row.visibility),
            )
            try:
                return await self.creating.create(
                    request,
                    app_key,
                    in_the_group_of(row, group),
                    rematch_of=game_id,
                    token=token,
                )
            except AlreadyPlayedAgain:
                # Another request came in at the same moment, and stored first.
                made = await self.store.played_again(game_id)
                assert made is not None  # the key names a game that is there
        return await self._made_before(made, viewer, token)

    async def _made_before(
        self, made: GameRow, viewer: Viewer, token: tuple[str, bytes] | None
    ) -> tuple[GameRow, History, str]:
        """The game played again before, as its own request was answered when
        this one is that request sent again (its key and credential make its
        token); else PlayedAgain."""
        if token is not None and hmac.compare_digest(token[1], made.token_hash):
            timeline = await self.timelines.load(made.id)
            return timeline.row, timeline.latest, token[0]
        shown = viewer.reads(made, removed=await removed_now(made, self.store))
        raise PlayedAgain(made.id if shown else None)
