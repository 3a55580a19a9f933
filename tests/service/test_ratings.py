"""Players' ratings, over HTTP on a real PostgreSQL: games imported and played
through the API, with undos, abandons and groups (a group's games imported with its
key), rated as an independent fold with openskill says they must be; a rebuild from
the log gives the same numbers."""

from __future__ import annotations

import asyncio
import json
import uuid

import psycopg
import pytest

from domain.names import name_key
from domain.registry import BUILT_IN
from service import bootstrap
from service.readside.projector import Projector
from service.settings import Settings
from service.storage.pools import connection_pool
from service.storage.store import EventStore
from tests.support.groups import ADDRESSES, new_players
from tests.support.http import client_from, move
from tests.support.keys import bearer
from tests.support.ratings import Table
from tests.support.server import running_server
from tests.support.waiting import eventually


def names(count: int) -> list[str]:
    tag = uuid.uuid4().hex[:6]
    return [f"{name}-{tag}" for name in ("Ana", "Bia", "Caio", "Davi")[:count]]


def assert_rated_as_expected(table: Table, players, group=None) -> None:
    expected = table.expected(group)
    eventually(
        lambda: all(table.served(p, group) == expected[p] for p in players), seconds=20
    )


def test_finished_games_are_rated_in_finishing_order_undos_withdraw_them(client):
    table = Table(client)
    ana, bia, caio, davi = names(4)
    club = f"Club-{uuid.uuid4().hex[:6]}"
    first = table.play([ana, bia, caio], seed=1, group=club)
    table.play([bia, caio, davi], seed=2)
    table.play([ana, caio, davi], seed=3, group=club.upper())  # the same group
    assert_rated_as_expected(table, [ana, bia, caio, davi])
    table.undo(first)  # reopened: withdrawn from every ladder
    assert_rated_as_expected(table, [ana, bia, caio, davi])
    dropped = table.play([ana, bia, davi], seed=4, stop_before_end=True)
    table.abandon(dropped)  # never rated
    table.finish(first)  # rated again, at its new finishing move
    table.play([ana, bia, davi], seed=5, group=club)
    players = [ana, bia, caio, davi]
    assert_rated_as_expected(table, players)
    table.groups = {gid: None if g is None else club for gid, g in table.groups.items()}
    assert_rated_as_expected(table, players, group=club)
    assert len(table.served(ana)) == 3 and len(table.served(bia)) == 3


def test_a_leaderboard_ranks_a_group_by_ordinal_with_every_field(client):
    table = Table(client, game="dozito")
    ana, bia, caio = names(3)
    club = f"Club-{uuid.uuid4().hex[:6]}"
    for seed in range(6):
        table.play([ana, bia, caio], seed=seed, group=club)
    table.play([ana, bia, caio], seed=9)  # outside the group
    expected = table.expected(club)

    def board():
        answer = client.get("/leaderboards/dozito", params={"group": club})
        assert answer.status_code == 200, answer.text
        page = answer.json()
        return page if sum(p["games_rated"] for p in page["players"]) == 18 else None

    page = eventually(board, seconds=20)
    lines = page["players"]
    assert [line["name"] for line in lines] == sorted(
        expected, key=lambda p: -(expected[p][-1][0] - 3 * expected[p][-1][1])
    )
    for line in lines:
        mu, sigma = expected[line["name"]][-1]
        assert (line["mu"], line["sigma"]) == (mu, sigma)
        assert line["ordinal"] == mu - 3 * sigma
        assert line["games_rated"] == 6 and line["provisional"] is False
        assert line["last_rated_at"]
    assert [line["place"] for line in lines] == [1, 2, 3]
    assert page["next_offset"] is None and page["group"] == club
    second = client.get(
        "/leaderboards/dozito", params={"group": club, "limit": 1, "offset": 1}
    ).json()
    assert [line["name"] for line in second["players"]] == [lines[1]["name"]]
    assert second["players"][0]["place"] == 2 and second["next_offset"] == 2
    overall = eventually(
        lambda: (
            (r := client.get(f"/players/{ana}").json())["games"]["dozito"]["rating"]
            and r["games"]["dozito"]["rating"]["games_rated"] == 7
            and r
        ),
        seconds=20,
    )
    assert overall["games"]["dozito"]["rating"]["provisional"] is False


def test_records_give_seats_first_player_streaks_rivals_and_versus(client):
    table = Table(client)
    ana, bia, caio = names(3)
    games = [table.play([ana, bia, caio], seed=seed) for seed in range(10)]
    sheets = [client.get(f"/games/{g['id']}/scoresheet").json() for g in games]
    record = eventually(
        lambda: (
            (r := client.get(f"/players/{ana}").json())["games"]["dobro"].get("rating")
            and r["games"]["dobro"]["rating"]["games_rated"] == 10
            and r
        ),
        seconds=20,
    )
    mine = record["games"]["dobro"]
    won = [ana in sheet["winners"] for sheet in sheets]
    assert mine["by_seat"] == [
        {"seat": 1, "played": 10, "won": sum(won), "win_rate": sum(won) / 10}
    ]
    assert mine["as_first_player"]["played"] == 10
    longest = run = 0
    for w in won:
        run = run + 1 if w else 0
        longest = max(longest, run)
    assert mine["longest_winning_streak"] == longest
    for other in (bia, caio):
        losses = sum(other in s["winners"] and ana not in s["winners"] for s in sheets)
        wins = sum(ana in s["winners"] and other not in s["winners"] for s in sheets)
        shared = sum(ana in s["winners"] and other in s["winners"] for s in sheets)
        nemesis = [r for r in record["rivals"]["nemesis"] if r["name"] == other]
        minion = [r for r in record["rivals"]["minion"] if r["name"] == other]
        assert bool(nemesis) == (losses >= 3 and losses > wins)
        assert bool(minion) == (wins >= 3 and wins > losses)
        for rival in nemesis + minion:
            assert (rival["wins"], rival["losses"], rival["shared_wins"]) == (
                wins,
                losses,
                shared,
            )
        versus = client.get(f"/players/{ana}/versus/{other}").json()
        assert versus["played"] == 10 and versus["shared_wins"] == shared
        assert versus["wins"] == {ana: wins, other: losses}
        assert [g["id"] for g in versus["games"]] == [g["id"] for g in reversed(games)]
    rates = [r["rate"] for r in record["rivals"]["nemesis"]]
    assert rates == sorted(rates, reverse=True)


def test_a_variation_is_never_rated_nor_counted_in_records(client):
    table = Table(client)
    ana, bia, caio = names(3)
    game = table.play([ana, bia, caio], seed=6)
    last = client.get(f"/games/{game['id']}").json()["version"] - 1
    finished = client.post(f"/games/{game['id']}/variations", json={"at": last})
    assert finished.status_code == 201, finished.text
    assert finished.json()["status"] == "finished"
    branched = client.post(f"/games/{game['id']}/variations", json={"at": last - 1})
    assert branched.status_code == 201, branched.text
    variation = branched.json()
    body = json.loads(table.last_moves[game["id"]])
    assert move(client, variation, body).status_code == 201  # finished as well
    table.play([ana, bia, caio], seed=7)  # a game played after them: rated
    assert_rated_as_expected(table, [ana, bia, caio])
    assert len(table.served(ana)) == 2
    record = client.get(f"/players/{ana}").json()["games"]["dobro"]
    assert record["by_seat"][0]["played"] == 2
    assert client.get(f"/players/{ana}/versus/{bia}").json()["played"] == 2


def test_reads_are_tagged_and_answer_304_when_unchanged(client):
    table = Table(client)
    ana, bia, caio = names(3)
    table.play([ana, bia, caio], seed=1)
    assert_rated_as_expected(table, [ana])
    for path in (
        "/leaderboards/dobro",
        f"/players/{ana}",
        f"/players/{ana}/versus/{bia}",
        f"/players/{ana}/ratings/dobro",
    ):
        answer = client.get(path)
        assert answer.status_code == 200, answer.text
        tag = answer.headers["etag"]
        again = client.get(path, headers={"If-None-Match": tag})
        assert again.status_code == 304 and again.content == b""


def test_unknown_games_players_and_overlong_names_are_refused(client):
    assert client.get("/leaderboards/chess").status_code == 404
    assert client.get("/players/Nobody-at-all/ratings/dobro").status_code == 404
    assert client.get("/leaderboards/dobro", params={"limit": 101}).status_code in (
        400,
        422,
    )
    assert client.get(f"/players/{'x' * 41}/versus/Ann").status_code == 422


def test_a_group_is_named_as_a_player_is_and_its_games_carry_its_name(client):
    name = f"  Família {uuid.uuid4().hex[:6]} "
    made = client.post("/groups", json={"name": name, "device": "Ana's phone"})
    assert made.status_code == 201, made.text
    assert made.json()["name"] == name.strip()
    body = {"game": "dobro", "players": new_players("Ana", "Bia")}
    key = {"Authorization": f"Bearer {made.json()['key']}"}
    created = client.post("/games", json=body, headers=key)
    assert created.status_code == 201, created.text
    assert created.json()["group"] == name.strip()
    path = f"/games/{created.json()['id']}"
    assert client.get(path, headers=key).json()["group"] == name.strip()
    export = client.get(f"{path}/export", headers=key).text
    assert json.loads(export.splitlines()[0])["group"] == name.strip()
    for bad in ("\u200b", "a\tb", "x" * 41):
        refused = client.post("/groups", json={"name": bad, "device": "Ana's phone"})
        assert refused.status_code == 422, refused.text


async def _rebuild(url: str) -> None:
    async with connection_pool(Settings(database_url=url, pool_min_size=1)) as pool:
        games = bootstrap.shell_games(EventStore(pool), BUILT_IN)
        await Projector(pool, games.store, games.timelines).rebuild()


def _ratings_tables(url: str) -> dict[str, list]:
    with psycopg.connect(url) as conn:
        return {
            "ratings": conn.execute(
                "SELECT * FROM ratings ORDER BY game, ladder, player_key"
            ).fetchall(),
            "rating_history": conn.execute(
                "SELECT * FROM rating_history ORDER BY game, ladder,"
                " finish_transaction, finish_position, player_key"
            ).fetchall(),
        }


@pytest.mark.parametrize("seed", [11])
def test_a_rebuild_gives_exactly_the_ratings_the_log_was_followed_to(
    fresh_database_url, seed
):
    import httpx

    with (
        running_server(fresh_database_url) as base_url,
        httpx.Client(base_url=base_url, timeout=30) as client,
    ):
        table = Table(client)
        ana, bia, caio, davi = names(4)
        games = [
            table.play([ana, bia, caio], seed=seed, group="Club"),
            table.play([bia, caio, davi], seed=seed + 1),
            table.play([davi, ana, caio], seed=seed + 2, group="Club"),
        ]
        table.undo(games[0])
        table.play([ana, davi, bia], seed=seed + 3)
        table.finish(games[0])
        assert_rated_as_expected(table, [ana, bia, caio, davi])
        followed = _ratings_tables(fresh_database_url)
        # Four games of three on the games' own ladder; the club's two on its
        # ladder and on its public part (they are public).
        assert len(followed["rating_history"]) == 3 * 4 + 2 * (2 * 3)
        asyncio.run(_rebuild(fresh_database_url))
        assert _ratings_tables(fresh_database_url) == followed
        assert_rated_as_expected(table, [ana, bia, caio, davi])


def _group_of(table: Table, name: str, visibility: str = "public") -> dict:
    """A group made for `table`, whose games it then imports with its key: from an
    address of its own, as groups made from one address in an hour are limited."""
    with client_from(str(table.client.base_url), next(ADDRESSES)) as maker:
        made = maker.post(
            "/groups", json={"name": name, "device": "table", "visibility": visibility}
        )
    assert made.status_code == 201, made.text
    table.keys[name_key(name)] = made.json()["key"]
    return made.json()


def _roster_ids(client, group: dict) -> dict[str, str]:
    answer = client.get(f"/groups/{group['id']}/players", headers=bearer(group["key"]))
    assert answer.status_code == 200, answer.text
    return {player["name"]: player["id"] for player in answer.json()["players"]}


def test_a_roster_players_record_counts_their_groups_games_alone(client):
    """Two clubs each have a Karen: each club's page of its Karen counts its own
    games, rated on its own ladder, and names only its own players as rivals."""
    table = Table(client)
    karen, ana, bia, caio = names(4)
    tag = uuid.uuid4().hex[:6]
    home, away = _group_of(table, f"Home-{tag}"), _group_of(table, f"Away-{tag}")
    played = [
        table.play([karen, ana, bia], seed=seed, group=home["name"])
        for seed in range(5)
    ]
    table.play([karen, caio], seed=7, group=away["name"])
    table.play([karen, caio], seed=8)  # of no group
    ids = _roster_ids(client, home)
    address = f"/groups/{home['id']}/players/{ids[karen]}"
    keyed = bearer(home["key"])

    def rated() -> dict | None:
        answer = client.get(f"{address}/record", headers=keyed)
        assert answer.status_code == 200, answer.text
        record = answer.json()
        rating = record["games"].get("dobro", {}).get("rating")
        return record if rating and rating["games_rated"] == 5 else None

    record = eventually(rated, seconds=20)
    everywhere = client.get(f"/players/{karen}").json()
    assert (record["name"], record["played"], record["finished"]) == (karen, 5, 5)
    assert everywhere["played"] == 7  # both clubs' public games and the other one
    mu, sigma = table.expected(home["name"])[karen][-1]
    mine = record["games"]["dobro"]
    assert (mine["rating"]["mu"], mine["rating"]["sigma"]) == (mu, sigma)
    board = client.get(
        "/leaderboards/dobro", params={"group": home["name"]}, headers=keyed
    ).json()
    place = next(line["place"] for line in board["players"] if line["name"] == karen)
    assert mine["place"] == place
    rivals = record["rivals"]["nemesis"] + record["rivals"]["minion"]
    assert {rival["name"] for rival in rivals} <= {ana, bia}

    versus = client.get(f"{address}/versus/{ids[ana]}", headers=keyed).json()
    assert versus["played"] == 5 and (versus["name"], versus["other"]) == (karen, ana)
    assert {g["id"] for g in versus["games"]} == {g["id"] for g in played}
    history = client.get(f"{address}/ratings/dobro", headers=keyed).json()
    assert len(history["ratings"]) == 5 and history["group"] == home["name"]
    assert history["ratings"][-1]["mu"] == mu


def test_a_roster_players_record_is_empty_before_their_first_game(client):
    group = _group_of(Table(client), f"Club-{uuid.uuid4().hex[:6]}")
    (name,) = names(1)
    added = client.post(
        f"/groups/{group['id']}/players",
        json={"name": name},
        headers=bearer(group["key"]),
    ).json()

    record = client.get(
        f"/groups/{group['id']}/players/{added['id']}/record",
        headers=bearer(group["key"]),
    )

    assert record.status_code == 200, record.text
    assert record.json() == {
        "name": name,
        "played": 0,
        "finished": 0,
        "abandoned": 0,
        "won": 0,
        "games": {},
        "rivals": {"nemesis": [], "minion": []},
    }
    assert record.headers["Cache-Control"] == "no-cache, private"


def test_a_roster_players_record_is_its_groups_members_only(client):
    """Without a key of the group, its player's record is the group's 404; a player
    of another group is the 404 of a player the roster lacks; a player against
    themselves is a 422."""
    table = Table(client)
    home = _group_of(table, f"Home-{uuid.uuid4().hex[:6]}")
    other = _group_of(table, f"Other-{uuid.uuid4().hex[:6]}")
    ana, bia = names(2)
    table.play([ana, bia], seed=1, group=home["name"])
    table.play([ana, bia], seed=2, group=other["name"])
    ids, theirs = _roster_ids(client, home), _roster_ids(client, other)
    address = f"/groups/{home['id']}/players"
    keyed = bearer(home["key"])

    stranger = client.get(f"{address}/{ids[ana]}/record")
    other_key = client.get(f"{address}/{ids[ana]}/record", headers=bearer(other["key"]))
    their_player = client.get(f"{address}/{theirs[ana]}/record", headers=keyed)
    their_rival = client.get(
        f"{address}/{ids[ana]}/versus/{theirs[bia]}", headers=keyed
    )
    themselves = client.get(f"{address}/{ids[ana]}/versus/{ids[ana]}", headers=keyed)

    assert stranger.status_code == other_key.status_code == 404
    assert stranger.json()["detail"] == f"There is no group {home['id']}."
    assert stranger.content == other_key.content
    assert their_player.status_code == their_rival.status_code == 404
    assert their_player.json()["detail"] == f"The group has no player {theirs[ana]}."
    assert themselves.status_code == 422
    for path in ("versus/" + ids[bia], "ratings/dobro"):
        assert client.get(f"{address}/{ids[ana]}/{path}").status_code == 404
