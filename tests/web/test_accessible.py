"""axe-core, run inside the browser on the home, game and replay pages: no serious or
critical violation. axe comes from npm, installed for the test session only: the page
itself has no build step and ships nothing of it."""

from __future__ import annotations

import uuid

from playwright.sync_api import expect

from tests.support.http import create, play_simulated
from tests.support.pages import open_game, serious
from tests.support.taps import tap_donkey_card, up_to_the_reveal


def test_home_game_and_replay_pages_have_no_serious_violation(
    new_page, client, axe_source
):
    game = create(
        client, game="dobro", players=["Ana", "Bo"], seed=7, options={"rounds": 1}
    )
    play_simulated(client, game, limit=30)
    page = new_page()
    page.goto("/app/")
    expect(page.get_by_role("heading", name="Games")).to_be_visible()
    assert serious(page, axe_source) == []
    open_game(page, game)
    page.get_by_role("button", name="Share").click()
    expect(page.get_by_role("heading", name="Moves so far")).to_be_visible()
    assert serious(page, axe_source) == []
    page.goto(f"/app/#/games/{game['id']}/replay")
    expect(page.get_by_role("slider", name="Step")).to_be_visible()
    assert serious(page, axe_source) == []


def test_the_double_donkey_reveal_has_no_serious_violation(
    new_page, client, axe_source
):
    game = create(client, game="double-donkey", players=["Ann", "Bob"], seed=3)
    up_to_the_reveal(client, game)
    page = new_page()
    open_game(page, game)
    tap_donkey_card(page, "Ann", {"colors": ["orange", "green"]})
    expect(page.get_by_role("group", name="Ann reveals")).to_contain_text(
        "Orange/Green Double"
    )
    assert serious(page, axe_source) == []


def test_a_groups_pages_have_no_serious_violation(new_page, axe_source):
    page = new_page(locale="fr-FR")
    page.goto("/app/#/groups")
    expect(page.get_by_role("heading", name="Groupes", level=1)).to_be_visible()
    assert serious(page, axe_source) == []
    page.get_by_label("Le nom du groupe").fill(f"Axe {uuid.uuid4().hex[:8]}")
    page.get_by_label("Le nom de cet appareil").fill("Le téléphone d'Ana")
    page.get_by_role("button", name="Créer le groupe").click()
    page.get_by_role("button", name="Créer une invitation").click()
    expect(page.get_by_role("img", name="QR code : Invitation")).to_be_visible()
    expect(page.get_by_role("region", name="Membres")).to_be_visible()
    assert serious(page, axe_source) == []
    link = page.get_by_role("textbox", name="Invitation : le lien").input_value()
    page.goto(link)
    expect(page.get_by_role("heading", name="Rejoindre un groupe")).to_be_visible()
    assert serious(page, axe_source) == []
