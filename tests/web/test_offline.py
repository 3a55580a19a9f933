"""Logging with the table's Wi-Fi down: a move tapped offline waits on the phone,
visible, and is stored exactly once when the connection returns; one refused on
arrival is shown for the table to settle; the app shell opens with no network."""

from __future__ import annotations

from playwright.sync_api import Page, Response, expect

from tests.support.http import create, move
from tests.support.pages import fact, open_game


def new_game(client) -> dict:
    return create(client, game="dobro", players=["Ana", "Bo", "Cy"], first_player="Ana")


def stored(client, game: dict) -> list[dict]:
    events = client.get(f"/games/{game['id']}/events").json()["events"]
    return [event["data"]["move"] for event in events[1:]]


def is_a_move(response: Response) -> bool:
    return response.request.method == "POST" and response.url.endswith("/moves")


def ana_plays_6_offline(new_page, client) -> tuple[dict, Page]:
    """A new game on a phone that loses the network, then Ana's 6 tapped."""
    game = new_game(client)
    page = new_page()
    open_game(page, game)
    page.context.set_offline(True)
    page.get_by_role("radio", name="6", exact=True).check()
    page.get_by_role("button", name="Ana plays 6").click()
    return game, page


def test_a_move_tapped_offline_waits_and_is_stored_once_when_it_returns(
    new_page, client
):
    game, page = ana_plays_6_offline(new_page, client)
    waiting = page.get_by_role("region", name="Waiting to be sent: 1")
    expect(waiting).to_contain_text("Ana plays 6")
    assert stored(client, game) == []
    queued = page.evaluate(f"localStorage.getItem('tablelog:queue:{game['id']}')")
    assert '"key":"web-' in queued

    page.context.set_offline(False)
    expect(fact(page, "Value in play")).to_have_text("6")
    expect(waiting).to_be_hidden()
    assert [(m["player"], m["cards"]) for m in stored(client, game)] == [("Ana", [6])]
    assert page.errors == []


def test_a_move_whose_answer_was_lost_is_sent_again_at_once_and_stored_once(
    new_page, client
):
    """The request reached the service, the answer never came back: the queue sends
    it again under its Idempotency-Key at once, not at its next five-second tick
    (the page's clock is stopped here), and the service answers without storing it
    a second time. (No service worker here: the route can miss the moves while one
    is in control, and the worker passes every write to the network anyway.)"""
    game = new_game(client)
    page = new_page(service_workers="block")
    page.clock.install()
    open_game(page, game)
    page.clock.pause_at(page.evaluate("Date.now()") + 1_000)
    keys: list[str] = []

    def lose_the_first_answer(route):
        keys.append(route.request.headers["idempotency-key"])
        if len(keys) == 1:
            route.fetch()  # it arrives and is stored...
            route.abort("internetdisconnected")  # ...and the answer is lost
        else:
            route.continue_()

    page.route("**/games/*/moves", lose_the_first_answer)
    page.get_by_role("radio", name="8", exact=True).check()
    with page.expect_response(is_a_move) as resent:
        page.get_by_role("button", name="Ana plays 8").click()
    assert resent.value.ok
    expect(fact(page, "Value in play")).to_have_text("8")
    expect(page.get_by_role("region", name="Waiting to be sent: 1")).to_be_hidden()
    assert len(keys) == 2 and keys[0] == keys[1]
    assert [(m["player"], m["cards"]) for m in stored(client, game)] == [("Ana", [8])]
    assert client.get(f"/games/{game['id']}").json()["version"] == 2


def test_a_queued_move_refused_on_arrival_is_shown_for_the_table_to_settle(
    new_page, client
):
    game, page = ana_plays_6_offline(new_page, client)
    expect(page.get_by_role("region", name="Waiting to be sent: 1")).to_be_visible()
    # Meanwhile another phone logs Ana's move first.
    other = move(client, game, {"type": "play", "player": "Ana", "cards": [9]})
    assert other.status_code == 201

    page.context.set_offline(False)
    settle = page.get_by_role("region", name="Waiting to be sent: 1")
    expect(settle.get_by_role("alert")).to_contain_text("Refused on arrival")
    expect(fact(page, "Value in play")).to_have_text("9")
    settle.get_by_role("button", name="Drop this move").click()
    expect(settle).to_be_hidden()
    assert [(m["player"], m["cards"]) for m in stored(client, game)] == [("Ana", [9])]


def test_the_app_shell_opens_with_no_network(new_page, client):
    page = new_page()
    page.goto("/app/")
    expect(page.get_by_role("heading", name="Start a game")).to_be_visible()
    # The service worker has kept the shell and controls the page.
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    page.reload()
    expect(page.get_by_role("heading", name="Start a game")).to_be_visible()


def test_the_start_form_offers_every_game_with_no_network(new_page, client):
    """The kinds of game (`/games/kinds`) are kept by the service worker, like the
    shell: the form is built from them even on a phone that kept no copy itself."""
    page = new_page()
    page.goto("/app/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    page.evaluate("localStorage.removeItem('tablelog:kinds')")
    page.reload()
    games = page.get_by_label("Game", exact=True).locator("option")
    expect(games).to_have_text(["Dobro", "Dobro Pixar", "Dozito", "Double Donkey"])
    # The worker's own copy, which outlives the browser's HTTP cache (an hour).
    kept = page.evaluate("caches.match('/games/kinds').then((a) => a && a.json())")
    assert [kind["name"] for kind in kept["kinds"]][:2] == ["dobro", "dobro-pixar"]
    assert page.errors == []
