"""The page in French for a phone set to French: its words, the switch to English
and back (remembered on the phone), the moves so far told in French, and a refused
move worded in French beside the control just tapped, with its ruling. axe finds
nothing serious on the French page."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from tests.support.http import create, move
from tests.support.pages import serious

SHOTS = Path("/tmp/french14")


def shot(page: Page, name: str) -> None:
    """A screenshot to look at (the page as a French player sees it)."""
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=False)


def test_a_french_phone_reads_the_page_in_french_and_switches_to_english_and_back(
    new_page,
    axe_source,
):
    page = new_page(locale="fr-FR")
    page.goto("/app/")
    expect(page.get_by_role("heading", name="Commencer une partie")).to_be_visible()
    expect(page.get_by_role("button", name="Commencer la partie")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    assert serious(page, axe_source) == []
    shot(page, "home-fr.png")

    page.get_by_role("button", name="English").click()
    expect(page.get_by_role("heading", name="Start a game")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    # Focus stays on the switch, which now offers French.
    expect(page.get_by_role("button", name="Français")).to_be_focused()
    page.get_by_role("button", name="Français").click()
    expect(page.get_by_role("heading", name="Commencer une partie")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    assert page.errors == []


def test_the_chosen_language_is_remembered_over_the_browsers(new_page):
    page = new_page(locale="en-GB")
    page.goto("/app/")
    expect(page.get_by_role("heading", name="Start a game")).to_be_visible()
    page.get_by_role("button", name="Français").click()
    page.reload()
    expect(page.get_by_role("heading", name="Commencer une partie")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "fr")


def test_a_refused_move_is_shown_in_french_beside_the_tapped_control_D8(
    new_page,
    client,
    axe_source,
):
    game = create(client, game="dobro", players=["Ana", "Bo"], first_player="Ana")
    opened = move(client, game, {"type": "play", "player": "Ana", "cards": [10]})
    assert opened.status_code == 201
    page = new_page(locale="fr-FR")
    page.goto(f"/app/#/games/{game['id']}?token={game['write_token']}")
    expect(page.get_by_role("heading", name="Sur la table")).to_be_visible()
    expect(page.get_by_role("heading", name="Coups joués")).to_be_visible()
    # The moves so far, and the move Undo takes back, as the service words them.
    said = "Ana joue 10 : la valeur en jeu est 10"
    expect(page.locator(".history")).to_contain_text(said)
    expect(
        page.get_by_role("button", name=f"Annuler le coup 1 : « {said} »")
    ).to_be_visible()
    term = page.locator("dt", has_text="Valeur en jeu")
    expect(page.locator(".facts div", has=term).locator("dd")).to_have_text("10")

    # A 5 is offered (a pair of them reaches 10), alone it falls short (D8).
    page.get_by_role("radio", name="5", exact=True).check()
    play = page.get_by_role("button", name="Bo joue 5")
    play.scroll_into_view_if_needed()
    play.click()

    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("Refusé — règle D8")
    expect(alert).to_contain_text(
        "Bo ne peut pas jouer 5 : la valeur en jeu est 10. (D8)"
    )
    expect(alert).to_be_in_viewport()
    below, button = alert.bounding_box(), play.bounding_box()
    assert 0 <= below["y"] - (button["y"] + button["height"]) < 40
    shot(page, "refusal-fr.png")
    assert serious(page, axe_source) == []
    assert client.get(f"/games/{game['id']}").json()["version"] == 2
    assert page.errors == []
