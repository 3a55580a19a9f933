"""Webhooks, told to a real receiving server on loopback: every message's signature
verified with the `standardwebhooks` package, at least once and in the log's order,
retried under the same `webhook-id` after a failure, an endpoint that answers 410
switched off, an address inside the network refused, and a slow endpoint that
holds up no other."""

from __future__ import annotations

import socket
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from urllib.parse import urlsplit

import httpx
import pytest

from service.application.webhooks import RESENDS_PER_MINUTE
from service.readside import sender
from tests.service.names import ScriptedNames
from tests.support.groups import new_players
from tests.support.keys import BODY, KEYED, bearer, make_key, revoke
from tests.support.problems import assert_problem
from tests.support.receivers import receiver
from tests.support.server import running_server
from tests.support.waiting import eventually
from tests.support.webhooks import play, register, verified

# Fast retries, so a test sees the second attempt within a second.
FAST = {"webhooks_allow_private": True, "webhook_retries": (0.2, 0.2, 0.2)}


@pytest.fixture
def served(fresh_database_url):
    def serve(**settings):
        return running_server(fresh_database_url, **{**FAST, **settings})

    return fresh_database_url, serve


MOVES = [
    {"type": "play", "player": "Ann", "cards": [4]},
    {"type": "play", "player": "Bob", "cards": [9]},
    {"type": "undo"},
]


def new_game(client: httpx.Client, **extra) -> dict:
    answer = client.post("/games", json={**BODY, **extra})
    assert answer.status_code == 201, answer.text
    return answer.json()


def test_every_move_is_told_signed_in_order_under_a_stable_id(served):
    database_url, serve = served
    key = make_key(database_url, KEYED)
    with receiver() as got, serve() as url, httpx.Client(base_url=url) as client:
        endpoint = register(client, key, got.url, kinds=["move.stored"])
        assert endpoint["secret"].startswith("whsec_")
        game = new_game(client)
        play(client, game, *MOVES)
        eventually(lambda: len(got.received) == 3, seconds=15)
        messages = verified(got, endpoint["secret"])
        assert [m["data"]["version"] for m in messages] == [2, 3, 4]
        assert [m["data"]["move"] for m in messages] == ["play", "play", "undo"]
        assert {m["type"] for m in messages} == {"move.stored"}
        assert messages[0]["data"]["href"] == f"/games/{game['id']}"
        ids = [headers["webhook-id"] for headers, _ in got.received]
        assert len(set(ids)) == 3
        # What the endpoint was told is in its deliveries, each a 200.
        path = f"/webhooks/{endpoint['id']}/deliveries"

        def deliveries_logged() -> list[dict]:
            return client.get(path, headers=bearer(key)).json()["attempts"]

        eventually(lambda: len(deliveries_logged()) == 3, seconds=15)
        deliveries = deliveries_logged()
        assert sorted(d["webhook_id"] for d in deliveries) == sorted(ids)
        assert {d["status"] for d in deliveries} == {200}
        # Another key sees no such endpoint.
        other = make_key(database_url, KEYED)
        answer = client.get(f"/webhooks/{endpoint['id']}", headers=bearer(other))
        assert_problem(answer, 404, "no webhook endpoint")


def test_a_failed_delivery_is_retried_under_the_same_id_and_holds_back_the_next(
    served,
):
    database_url, serve = served
    key = make_key(database_url, KEYED)
    with receiver() as got, serve() as url, httpx.Client(base_url=url) as client:
        got.answers = [500, 503]
        endpoint = register(client, key, got.url, kinds=["move.stored"])
        game = new_game(client)
        play(client, game, *MOVES[:2])
        eventually(lambda: len(got.received) == 4, seconds=15)
        ids = [headers["webhook-id"] for headers, _ in got.received]
        assert ids[0] == ids[1] == ids[2] != ids[3]
        versions = [m["data"]["version"] for m in verified(got, endpoint["secret"])]
        assert versions == [2, 2, 2, 3]

        # The attempts are written after each failure and at the batch's end.
        def attempts_logged() -> list[dict]:
            path = f"/webhooks/{endpoint['id']}/deliveries"
            return client.get(path, headers=bearer(key)).json()["attempts"]

        eventually(lambda: len(attempts_logged()) == 4, seconds=15)
        attempts = attempts_logged()
        assert [(a["attempt"], a["status"]) for a in reversed(attempts)] == [
            (1, 500),
            (2, 503),
            (3, 200),
            (1, 200),
        ]
        # Sent again by hand: the same message under the same id.
        first = attempts[-1]
        again = client.post(
            f"/webhooks/{endpoint['id']}/deliveries/{first['id']}/resend",
            headers=bearer(key),
        )
        assert again.status_code == 200, again.text
        assert again.json()["by_hand"] and again.json()["status"] == 200
        eventually(lambda: len(got.received) == 5, seconds=15)
        assert got.received[-1][0]["webhook-id"] == ids[0]
        assert got.received[-1][1] == got.received[0][1]


def test_an_answer_that_never_ends_is_cut_short_and_retried(served):
    database_url, serve = served
    key = make_key(database_url, KEYED)
    with receiver() as got, serve() as url, httpx.Client(base_url=url) as client:
        got.answers, got.endless = [500], 1
        endpoint = register(client, key, got.url, kinds=["move.stored"])
        play(client, new_game(client), MOVES[0])
        eventually(lambda: len(got.received) == 2, seconds=15)
        path = f"/webhooks/{endpoint['id']}/deliveries"

        def attempts_logged() -> list[dict]:
            return client.get(path, headers=bearer(key)).json()["attempts"]

        eventually(lambda: len(attempts_logged()) == 2, seconds=15)
        failed, taken = reversed(attempts_logged())
        assert (failed["status"], taken["status"]) == (500, 200)
        assert failed["error"] == "x" * 200


def test_an_answer_sent_a_byte_at_a_time_has_the_whole_timeout(served, monkeypatch):
    monkeypatch.setattr(sender, "TIMEOUT_SECONDS", 1.0)
    database_url, serve = served
    key = make_key(database_url, KEYED)
    with receiver() as got, serve() as url, httpx.Client(base_url=url) as client:
        got.answers, got.endless, got.drip = [500], 1, 0.1
        endpoint = register(client, key, got.url, kinds=["move.stored"])
        play(client, new_game(client), MOVES[0])
        eventually(lambda: len(got.received) == 2, seconds=5)
        path = f"/webhooks/{endpoint['id']}/deliveries"
        attempts = client.get(path, headers=bearer(key)).json()["attempts"]
        assert attempts[-1]["error"] == "no whole answer within 1 s"


def test_a_revoked_keys_endpoint_is_told_nothing_more(served):
    database_url, serve = served
    key = make_key(database_url, KEYED)
    with receiver() as got, serve() as url, httpx.Client(base_url=url) as client:
        register(client, key, got.url, kinds=["move.stored"])
        game = new_game(client)
        play(client, game, MOVES[0])
        eventually(lambda: len(got.received) == 1, seconds=15)

        revoke(database_url, key)
        play(client, game, MOVES[1])
        time.sleep(2)  # two of the deliverer's polls

        assert len(got.received) == 1


def test_an_endpoint_that_answers_410_is_switched_off_and_says_why(served):
    database_url, serve = served
    key = make_key(database_url, KEYED)
    with receiver() as got, serve() as url, httpx.Client(base_url=url) as client:
        got.answers = [410]
        endpoint = register(client, key, got.url, kinds=["move.stored"])
        play(client, new_game(client), *MOVES[:2])
        path = f"/webhooks/{endpoint['id']}"

        def switched_off() -> bool:
            return not client.get(path, headers=bearer(key)).json()["enabled"]

        eventually(switched_off, seconds=15)
        assert "410" in client.get(path, headers=bearer(key)).json()["reason"]
        time.sleep(0.5)
        assert len(got.received) == 1  # nothing more
        # Switched on again, it is told from the event it stopped at.
        assert client.post(f"{path}/enable", headers=bearer(key)).json()["enabled"]
        eventually(lambda: len(got.received) == 3, seconds=15)
        assert [m["data"]["version"] for m in got.messages()] == [2, 2, 3]


def test_an_endpoint_failing_every_attempt_is_switched_off_then_retried_afresh(
    served,
):
    database_url, serve = served
    key = make_key(database_url, KEYED)
    with receiver() as got, serve() as url, httpx.Client(base_url=url) as client:
        got.answers = [500] * 10
        endpoint = register(client, key, got.url, kinds=["move.stored"])
        play(client, new_game(client), MOVES[0])
        path = f"/webhooks/{endpoint['id']}"
        eventually(
            lambda: not client.get(path, headers=bearer(key)).json()["enabled"],
            seconds=15,
        )
        assert (
            "every attempt failed, 4 of them"
            in (client.get(path, headers=bearer(key)).json()["reason"])
        )
        assert len(got.received) == 4
        # Switched on again, it has the retries afresh: one more failure is retried.
        got.answers = [500]
        assert client.post(f"{path}/enable", headers=bearer(key)).json()["enabled"]
        eventually(lambda: len(got.received) == 6, seconds=15)
        time.sleep(0.5)
        assert client.get(path, headers=bearer(key)).json()["enabled"]
        ids = {headers["webhook-id"] for headers, _ in got.received}
        assert len(ids) == 1


def test_a_finished_game_and_its_reopening_are_told_with_the_move(served):
    database_url, serve = served
    key = make_key(database_url, KEYED)
    with receiver() as got, serve() as url, httpx.Client(base_url=url) as client:
        endpoint = register(
            client, key, got.url, kinds=["game.abandoned", "game.reopened"]
        )
        game = new_game(client)
        play(client, game, MOVES[0], {"type": "abandon"}, {"type": "undo"})
        eventually(lambda: len(got.received) == 2, seconds=15)
        messages = verified(got, endpoint["secret"])
        assert [(m["type"], m["data"]["status"]) for m in messages] == [
            ("game.abandoned", "abandoned"),
            ("game.reopened", "in_progress"),
        ]


def test_filters_keep_other_games_out(served):
    database_url, serve = served
    key = make_key(database_url, KEYED)
    with receiver() as got, serve() as url, httpx.Client(base_url=url) as client:
        name = f"Thursday club {uuid.uuid4().hex[:6]}"
        made = client.post("/groups", json={"name": name, "device": "the table"})
        assert made.status_code == 201, made.text
        owner = {"Authorization": f"Bearer {made.json()['key']}"}
        # A public game of the group: its members-only games are no other app's.
        seats = new_players(*BODY["players"])
        body = {**BODY, "players": seats, "visibility": "public"}
        answer = client.post("/games", json=body, headers=owner)
        assert answer.status_code == 201, answer.text
        game = answer.json()
        register(client, key, got.url, kinds=["move.stored"], group=name.upper())
        register(client, key, got.url, kinds=["move.stored"], game="dozito")
        play(client, new_game(client), MOVES[0])  # neither: no group, a Dobro game
        play(client, game, MOVES[0])
        eventually(lambda: len(got.received) == 1, seconds=15)
        time.sleep(1)
        assert [m["data"]["game_id"] for m in got.messages()] == [game["id"]]


def test_a_rotated_secret_and_the_one_before_both_sign(served):
    database_url, serve = served
    key = make_key(database_url, KEYED)
    with receiver() as got, serve() as url, httpx.Client(base_url=url) as client:
        endpoint = register(client, key, got.url, kinds=["move.stored"])
        rotated = client.post(
            f"/webhooks/{endpoint['id']}/rotate", headers=bearer(key)
        ).json()
        assert rotated["secret"] != endpoint["secret"]
        play(client, new_game(client), MOVES[0])
        eventually(lambda: len(got.received) == 1, seconds=15)
        assert verified(got, endpoint["secret"]) == verified(got, rotated["secret"])
        assert len(got.received[0][0]["webhook-signature"].split(" ")) == 2


def test_a_slow_endpoint_holds_up_no_other(served):
    database_url, serve = served
    key = make_key(database_url, KEYED)
    with (
        receiver() as slow,
        receiver() as quick,
        serve() as url,
        httpx.Client(base_url=url) as client,
    ):
        slow.delay = 3
        register(client, key, slow.url, kinds=["move.stored"])
        register(client, key, quick.url, kinds=["move.stored"])
        game = new_game(client)
        started = time.monotonic()
        play(client, game, *MOVES)
        assert time.monotonic() - started < 2  # the moves did not wait either
        eventually(lambda: len(quick.received) == 3, seconds=2.5)
        assert len(slow.received) <= 1


# What a refused address is told, whatever the reason: nothing of where a name
# points inside.
REFUSED = (
    "webhooks go to public internet addresses only; a server run with "
    "--webhooks-allow-private (TABLELOG_WEBHOOKS_ALLOW_PRIVATE=on) also takes "
    "loopback and private addresses"
)
REFUSED_EVEN_PRIVATE = "no webhook goes to"


@pytest.fixture
def names(monkeypatch) -> ScriptedNames:
    """Made-up names the test answers for the whole process: for a server served
    on asyncio's loop (`ON_ASYNCIO`), whose `getaddrinfo` is the socket module's
    (uvloop resolves inside libuv, out of a test's reach)."""
    scripted = ScriptedNames(socket.getaddrinfo)
    monkeypatch.setattr(socket, "getaddrinfo", scripted.getaddrinfo)
    return scripted


ON_ASYNCIO = {"loop": "asyncio"}


def registered(client: httpx.Client, key: str, url: str) -> httpx.Response:
    return client.post(
        "/webhooks", json={"url": url, "kinds": ["move.stored"]}, headers=bearer(key)
    )


def test_an_address_inside_the_network_is_refused(served):
    database_url, serve = served
    key = make_key(database_url, KEYED)
    with (
        serve(webhooks_allow_private=False) as url,
        httpx.Client(base_url=url) as client,
    ):
        for address in (
            "http://127.0.0.1:9/hook",
            "http://10.0.0.7/hook",
            "http://169.254.169.254/latest/meta-data",
            "http://100.64.0.1/hook",
            "http://100.100.100.200/latest/meta-data",
            "http://192.0.0.192/hook",
            "http://[::1]/hook",
            "http://[fec0::1]/hook",
            "http://[2002:7f00:1::]/hook",
            "http://[::ffff:10.0.0.7]/hook",
            "http://[64:ff9b::a9fe:a9fe]/hook",
            "http://localhost/hook",
        ):
            assert_problem(registered(client, key, address), 422, REFUSED)
        answer = registered(client, key, "ftp://example.com/")
        assert_problem(answer, 422, "not an http or https address")


def test_with_private_receivers_allowed_the_metadata_services_stay_refused(served):
    database_url, serve = served
    key = make_key(database_url, KEYED)
    with (
        serve(webhooks_allow_private=True) as url,
        httpx.Client(base_url=url) as client,
    ):
        for address in (
            "http://169.254.169.254/latest/meta-data",
            "http://[::ffff:169.254.169.254]/latest/meta-data",
            "http://[::ffff:a9fe:a9fe]/latest/meta-data",
            "http://[fd00:ec2::254]/latest/meta-data",
            "http://100.100.100.200/latest/meta-data",
            "http://[::ffff:100.100.100.200]/latest/meta-data",
            "http://[64:ff9b::a9fe:a9fe]/latest/meta-data",
            "http://[2002:a9fe:a9fe::]/latest/meta-data",
            "http://0.0.0.0:9/hook",
            "http://224.0.0.1/hook",
            "http://255.255.255.255/hook",
            "http://[ff02::1]/hook",
        ):
            assert_problem(registered(client, key, address), 422, REFUSED_EVEN_PRIVATE)
        for address in ("http://127.0.0.1:9/hook", "http://[fd12::1]/hook"):
            assert registered(client, key, address).status_code == 201


def test_a_refusal_tells_nothing_of_where_a_name_points(served, names):
    names.script("inside.test", ["10.0.0.7"])
    names.script("partly.test", ["8.8.8.8", "192.168.1.20"])
    names.script("metadata.test", ["169.254.169.254"])
    names.script("nowhere.test", [])
    database_url, serve = served
    key = make_key(database_url, KEYED)
    with (
        serve(webhooks_allow_private=False, **ON_ASYNCIO) as url,
        httpx.Client(base_url=url) as client,
    ):
        details = set()
        for host in ("inside.test", "partly.test", "metadata.test", "nowhere.test"):
            answer = registered(client, key, f"http://{host}/hook")
            assert_problem(answer, 422, REFUSED)
            details.add(answer.json()["detail"].replace(host, "NAME"))
    # One sentence for a name not found and a name inside, and no address in it.
    (detail,) = details
    for address in ("10.0.0.7", "192.168.1.20", "169.254.169.254"):
        assert address not in detail


def test_a_name_rebound_to_loopback_after_its_check_is_never_reached(served, names):
    database_url, serve = served
    key = make_key(database_url, KEYED)
    with (
        receiver() as inside,
        serve(webhooks_allow_private=False, **ON_ASYNCIO) as url,
        httpx.Client(base_url=url) as client,
    ):
        inside.answers, inside.body = [500] * 10, b"what only the inside knows"
        # Public when the endpoint is registered, loopback ever after.
        names.script("rebind.test", ["93.184.215.14"], ["127.0.0.1"])
        port = urlsplit(inside.url).port
        endpoint = register(
            client, key, f"http://rebind.test:{port}/hook", kinds=["move.stored"]
        )
        play(client, new_game(client), MOVES[0])
        path = f"/webhooks/{endpoint['id']}"
        eventually(
            lambda: not client.get(path, headers=bearer(key)).json()["enabled"],
            seconds=15,
        )
        attempts = client.get(f"{path}/deliveries", headers=bearer(key)).json()
        assert len(attempts["attempts"]) == 4
        for attempt in attempts["attempts"]:
            assert attempt["status"] is None
            assert REFUSED in attempt["error"]
            assert "127.0.0.1" not in attempt["error"]
        assert inside.received == []


def test_an_attempt_connects_to_the_address_it_checked(served, names):
    database_url, serve = served
    key = make_key(database_url, KEYED)
    with ExitStack() as stack:
        first = stack.enter_context(receiver())
        port = urlsplit(first.url).port
        second = stack.enter_context(receiver(host="127.0.0.2", port=port))
        url = stack.enter_context(serve(webhooks_allow_private=True, **ON_ASYNCIO))
        client = stack.enter_context(httpx.Client(base_url=url))
        # Each resolution answers the other loopback address.
        names.script("pinned.test", *[["127.0.0.1"], ["127.0.0.2"]] * 10)
        register(client, key, f"http://pinned.test:{port}/hook", kinds=["move.stored"])
        play(client, new_game(client), MOVES[0])
        eventually(lambda: len(first.received) + len(second.received) == 1, seconds=15)
        time.sleep(0.5)
    # Resolved once to register and once for the attempt, which went where its
    # resolution said, under the endpoint's name.
    assert names.answered["pinned.test"] == [["127.0.0.1"], ["127.0.0.2"]]
    assert first.received == []
    ((headers, _),) = second.received
    assert headers["host"] == f"pinned.test:{port}"


def test_a_slow_resolver_holds_an_attempt_no_longer_than_its_time(
    served, names, monkeypatch
):
    monkeypatch.setattr(sender, "TIMEOUT_SECONDS", 1.0)
    database_url, serve = served
    key = make_key(database_url, KEYED)
    with (
        receiver() as got,
        serve(webhooks_allow_private=True, **ON_ASYNCIO) as url,
        httpx.Client(base_url=url) as client,
    ):
        names.script("slow.test", ["127.0.0.1"])
        port = urlsplit(got.url).port
        endpoint = register(
            client, key, f"http://slow.test:{port}/hook", kinds=["move.stored"]
        )
        names.seconds["slow.test"] = 2.5
        play(client, new_game(client), MOVES[0])
        path = f"/webhooks/{endpoint['id']}/deliveries"
        eventually(
            lambda: client.get(path, headers=bearer(key)).json()["attempts"], seconds=15
        )
        names.seconds["slow.test"] = 0
        (first, *_) = client.get(path, headers=bearer(key)).json()["attempts"]
    assert first["error"] == "no whole answer within 1 s"
    assert first["milliseconds"] < 1500


def test_resends_are_limited_per_key_and_hold_up_no_other_key(served):
    database_url, serve = served
    greedy, other = make_key(database_url, KEYED), make_key(database_url, KEYED)
    with (
        receiver() as slow,
        receiver() as quick,
        serve() as url,
        httpx.Client(base_url=url) as client,
    ):
        game = new_game(client)
        slow_hook = register(
            client, greedy, slow.url, kinds=["move.stored"], game_id=game["id"]
        )
        quick_hook = register(client, other, quick.url, kinds=["move.stored"])
        play(client, game, MOVES[0])
        eventually(lambda: len(slow.received) == len(quick.received) == 1, seconds=15)

        def resend(key: str, hook: dict) -> httpx.Response:
            path = f"/webhooks/{hook['id']}/deliveries"
            eventually(
                lambda: client.get(path, headers=bearer(key)).json()["attempts"],
                seconds=15,
            )
            (first,) = client.get(path, headers=bearer(key)).json()["attempts"]
            return client.post(f"{path}/{first['id']}/resend", headers=bearer(key))

        slow.delay = 0.3
        asked = RESENDS_PER_MINUTE + 3
        with ThreadPoolExecutor(asked) as threads:
            burst = [threads.submit(resend, greedy, slow_hook) for _ in range(asked)]
            eventually(lambda: slow.answering >= 1, seconds=15)
            # Meanwhile another key's resend and deliveries go at once.
            started = time.monotonic()
            assert resend(other, quick_hook).status_code == 200
            play(client, new_game(client), MOVES[0])
            eventually(lambda: len(quick.received) == 3, seconds=2)
            assert time.monotonic() - started < 2
            answers = [future.result() for future in burst]
    statuses = sorted(answer.status_code for answer in answers)
    assert statuses == [200] * RESENDS_PER_MINUTE + [429] * 3
    for answer in answers:
        if answer.status_code == 429:
            assert_problem(answer, 429, "resent")
            assert int(answer.headers["retry-after"]) > 0
    # The key's resends went one at a time.
    assert slow.most_at_once == 1
    assert len(slow.received) == 1 + RESENDS_PER_MINUTE


def test_registering_needs_a_key_with_the_webhooks_scope(served):
    database_url, serve = served
    reader = make_key(database_url, ("read",))
    with serve() as url, httpx.Client(base_url=url) as client:
        asked = {"url": "http://127.0.0.1:9/", "kinds": ["move.stored"]}
        assert_problem(client.post("/webhooks", json=asked), 401)
        answer = client.post("/webhooks", json=asked, headers=bearer(reader))
        assert_problem(answer, 403, "webhooks")
        key = make_key(database_url, KEYED)
        answer = client.post(
            "/webhooks", json={**asked, "kinds": ["game.won"]}, headers=bearer(key)
        )
        assert_problem(answer, 422, "game.won")
        for _ in range(10):
            register(client, key, asked["url"])
        answer = client.post("/webhooks", json=asked, headers=bearer(key))
        assert_problem(answer, 422, "at most 10")


def test_when_the_delivering_process_stops_another_takes_its_turn(served):
    database_url, serve = served
    key = make_key(database_url, KEYED)
    with receiver() as got, ExitStack() as first:
        # The first process up takes the turn; the second waits for it.
        first_url = first.enter_context(serve())
        before = first.enter_context(httpx.Client(base_url=first_url))
        with serve() as second, httpx.Client(base_url=second) as client:
            endpoint = register(before, key, got.url, kinds=["move.stored"])
            game = new_game(before)
            play(before, game, MOVES[0])
            eventually(lambda: len(got.received) == 1, seconds=15)
            first.close()
            play(client, game, MOVES[1])
            eventually(lambda: len(got.received) >= 2, seconds=15)
    versions = [m["data"]["version"] for m in verified(got, endpoint["secret"])]
    assert versions[-1] == 3 and set(versions) == {2, 3}
