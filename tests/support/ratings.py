"""Games imported and played through the API, and the ratings openskill gives their
players when it folds them by hand: what the service's ratings must be."""

from __future__ import annotations

import json

import msgspec
from openskill.models import PlackettLuce

from domain.game import Setup
from domain.names import name_key
from domain.registry import BUILT_IN
from tests.support.exports import NDJSON
from tests.support.http import move
from tests.support.keys import bearer

MODEL = PlackettLuce()


class Table:
    """Games logged through the API, and the order their finishing moves were
    stored in: the order the ratings must fold them in."""

    def __init__(
        self, client, game: str = "dobro", group_visibility: str = "public"
    ) -> None:
        self.client = client
        self.game = game
        self.finished: list[str] = []  # game ids, in finishing order
        self.last_moves: dict[str, bytes] = {}
        self.groups: dict[str, str | None] = {}
        self.visibilities: dict[str, str] = {}
        self.keys: dict[str, str] = {}  # by group name, as names are compared
        # What the groups this table makes give their games unless they ask.
        self.group_visibility = group_visibility

    def key_of(self, group: str) -> str:
        """The owner's key of the group named `group`, made on first use."""
        if name_key(group) not in self.keys:
            body = {"name": group, "device": "table"}
            body["visibility"] = self.group_visibility
            made = self.client.post("/groups", json=body)
            assert made.status_code == 201, made.text
            self.keys[name_key(group)] = made.json()["key"]
        return self.keys[name_key(group)]

    def play(
        self, players, seed, group=None, stop_before_end=False, visibility=None
    ) -> dict:
        """Import a simulated game played to its end (or all but its last move),
        into the group named `group` with its key, seen as `visibility` says (by
        default its group's, or public)."""
        rules = BUILT_IN[self.game]
        setup = Setup(players=tuple(players), first_player=players[0], seed=seed)
        created = {
            "type": "game_created",
            "game": self.game,
            "players": list(players),
            "first_player": players[0],
            "seed": seed,
            "options": {},
        }
        headers = dict(NDJSON)
        if group is not None:
            headers["Authorization"] = f"Bearer {self.key_of(group)}"
        moves = [msgspec.json.encode(m) for m in rules.simulate(setup)]
        lines = [
            json.dumps(created).encode(),
            *moves[: -1 if stop_before_end else None],
        ]
        params = {} if visibility is None else {"visibility": visibility}
        answer = self.client.post(
            "/games/import",
            content=b"\n".join(lines) + b"\n",
            headers=headers,
            params=params,
        )
        assert answer.status_code == 201, answer.text
        game = answer.json()
        self.last_moves[game["id"]] = moves[-1]
        self.groups[game["id"]] = group
        default = "public" if group is None else self.group_visibility
        self.visibilities[game["id"]] = visibility or default
        if not stop_before_end:
            self.finished.append(game["id"])
        return game

    def undo(self, game: dict) -> None:
        assert move(self.client, game, {"type": "undo"}).status_code == 201
        self.finished.remove(game["id"])

    def finish(self, game: dict) -> None:
        body = json.loads(self.last_moves[game["id"]])
        answer = move(self.client, game, body)
        assert answer.status_code == 201, answer.text
        self.finished.append(game["id"])

    def abandon(self, game: dict) -> None:
        assert move(self.client, game, {"type": "abandon"}).status_code == 201

    def rated_on(self, game_id: str, group: str | None, public_only: bool) -> bool:
        """Whether a ladder rates the game: its game's own ladder its public games,
        a group's all its games (with `public_only`, its public ones)."""
        public = self.visibilities[game_id] == "public"
        if group is None:
            return public
        return self.groups[game_id] == group and (public or not public_only)

    def expected(
        self, group: str | None = None, public_only: bool = False
    ) -> dict[str, list[tuple]]:
        """Each player's (mu, sigma) after each rated game, folded here with
        openskill from the standings of each finished game's score sheet."""
        ratings: dict[str, object] = {}
        history: dict[str, list[tuple]] = {}
        for game_id in self.finished:
            if not self.rated_on(game_id, group, public_only):
                continue
            owner = self.groups[game_id]
            headers = {} if owner is None else bearer(self.key_of(owner))
            sheet = self.client.get(
                f"/games/{game_id}/scoresheet", headers=headers
            ).json()
            players = sheet["players"]
            teams = [[ratings.get(p) or MODEL.rating()] for p in players]
            ranks = [sheet["standings"][p] for p in players]
            for player, (after,) in zip(
                players, MODEL.rate(teams, ranks=ranks), strict=True
            ):
                ratings[player] = after
                history.setdefault(player, []).append((after.mu, after.sigma))
        return history

    def served(
        self, player: str, group: str | None = None, as_member: bool = True
    ) -> list[tuple]:
        """The player's ratings as served: on the game's own ladder, or on the
        group's as its members (`as_member`) or anyone else is shown it."""
        params = {} if group is None else {"group": group}
        headers = {}
        if group is not None and as_member:
            headers = bearer(self.key_of(group))
        answer = self.client.get(
            f"/players/{player}/ratings/{self.game}", params=params, headers=headers
        )
        if answer.status_code == 404:
            return []
        assert answer.status_code == 200, answer.text
        return [(r["mu"], r["sigma"]) for r in answer.json()["ratings"]]
