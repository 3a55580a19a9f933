"""The page offers the moves the rules would accept now, as the engine says in the
game's state (`allowed` and `choices`, docs/api.md "The public state"), never a copy
of the rules: a Dobro card value no card left reaches (D8), a Dozito discard pile
the rules refuse (Z6), a spot the held card cannot go to (Z4)."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.support.http import create, move
from tests.support.pages import open_game

PHONE = {"width": 412, "height": 915}


def test_dobro_offers_only_the_card_values_the_rules_accept_now_D8(new_page, client):
    game = create(client, game="dobro", players=["Ana", "Bo", "Cy"], first_player="Ana")
    opening = {"type": "play", "player": "Ana", "cards": [10]}
    assert move(client, game, opening).is_success
    choices = client.get(f"/games/{game['id']}").json()["state"]["choices"]
    offered = [str(card) for card in choices["play"]["cards"]]
    assert "4" not in offered  # nothing reaches 10 with a 4 (D8)

    page = new_page()
    page.set_viewport_size(PHONE)
    open_game(page, game)
    cards = page.get_by_role("group", name="Card").get_by_role("radio")
    expect(cards).to_have_count(len(offered))
    names = [label.replace("Wild", "wild") for label in cards_named(page)]
    assert names == offered
    assert page.errors == []


def test_dozito_offers_only_the_discard_pile_and_the_spots_the_rules_take_Z4_Z6(
    new_page, client
):
    game = create(client, game="dozito", players=["Ana", "Bo"], first_player="Ana")
    for body in (
        {
            "type": "start_round",
            "discards": [
                {"color": "green", "number": 6},
                {"color": "purple", "number": 3},
            ],
        },
        {"type": "draw", "player": "Ana", "source": "discard_left"},
        {
            "type": "place",
            "player": "Ana",
            "spot": 6,
            "revealed": {"color": "red", "number": 1},
        },
    ):
        assert move(client, game, body).is_success
    choices = client.get(f"/games/{game['id']}").json()["state"]["choices"]
    assert choices["discard"]["pile"] == ["left"]
    assert choices["place"]["spot"] == [1]

    page = new_page()
    page.set_viewport_size(PHONE)
    open_game(page, game)
    expect(page.get_by_role("button", name="Discard on the left")).to_be_visible()
    expect(page.get_by_role("button", name="Discard on the right")).to_have_count(0)
    spots = page.get_by_role("group", name="Place on (Ana's grid)")
    expect(spots.get_by_role("radio", disabled=False)).to_have_count(1)
    expect(spots.get_by_role("radio", checked=True)).to_have_count(1)
    assert page.errors == []


def test_french_dobro_offers_the_same_values(new_page, client):
    game = create(client, game="dobro", players=["Ana", "Bo", "Cy"], first_player="Ana")
    opening = {"type": "play", "player": "Ana", "cards": [11]}
    assert move(client, game, opening).is_success
    choices = client.get(f"/games/{game['id']}").json()["state"]["choices"]
    page = new_page(locale="fr-FR")
    page.goto("/app/")
    page.evaluate(
        "([id, token]) => localStorage.setItem(`tablelog:token:${id}`, token)",
        [game["id"], game["write_token"]],
    )
    page.goto(f"/app/#/games/{game['id']}")
    cards = page.get_by_role("group", name="Carte").get_by_role("radio")
    expect(cards).to_have_count(len(choices["play"]["cards"]))
    assert page.errors == []


def cards_named(page) -> list[str]:
    return page.get_by_role("group", name="Card").locator("label").all_inner_texts()
