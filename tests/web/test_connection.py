"""The red banner that says the service cannot be reached goes once it can: a view
that could not load loads when the connection returns, and a read that failed
while following a game is forgotten when the next one is answered."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.support.http import create, move
from tests.support.pages import fact, open_game

PHONE = {"width": 412, "height": 915}


def new_game(client) -> dict:
    return create(client, game="dobro", players=["Ana", "Bo", "Cy"], first_player="Ana")


def test_a_game_opened_offline_loads_and_the_banner_goes_when_the_connection_returns(
    new_page, client
):
    game = new_game(client)
    page = new_page(service_workers="block")
    page.set_viewport_size(PHONE)
    page.goto("/app/")
    expect(page.get_by_role("heading", name="Start a game")).to_be_visible()
    page.context.set_offline(True)
    page.evaluate("id => { location.hash = `#/games/${id}`; }", game["id"])
    banner = page.locator("#refusal")
    expect(banner).to_contain_text("cannot be reached")

    page.context.set_offline(False)
    expect(page.get_by_role("heading", name="On the table")).to_be_visible()
    expect(banner).to_be_empty()
    expect(banner).to_be_hidden()
    assert page.errors == []


def test_a_read_that_failed_while_following_is_forgotten_once_one_is_answered(
    new_page, client
):
    game = new_game(client)
    page = new_page(service_workers="block", locale="fr-FR")
    page.set_viewport_size(PHONE)
    open_game(page, game, heading="Sur la table")
    cut = [True]

    def reads_lost_while_cut(route):
        if cut[0] and "/stream" not in route.request.url:
            route.abort("internetdisconnected")
        else:
            route.continue_()

    # The stream brings the move; the reads it calls for are lost.
    page.route(f"**/games/{game['id']}?*", reads_lost_while_cut)
    page.route(f"**/games/{game['id']}/*", reads_lost_while_cut)
    page.route(f"**/games/{game['id']}", reads_lost_while_cut)
    assert move(
        client, game, {"type": "play", "player": "Ana", "cards": [6]}
    ).is_success
    banner = page.locator("#refusal")
    expect(banner).to_contain_text("Le service est injoignable")

    cut[0] = False
    assert move(client, game, {"type": "play", "player": "Bo", "cards": [7]}).is_success
    expect(fact(page, "Valeur en jeu")).to_have_text("7")
    expect(banner).to_be_empty()
    assert page.errors == []
