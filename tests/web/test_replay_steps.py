"""A replay's every step, listed: each one a tap away, the one shown marked, the
arrow keys (← → Home End) stepping through them, the address following the step."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.support.http import create, play_simulated

PHONE = {"width": 412, "height": 915}


def test_every_step_is_listed_tapped_and_stepped_through_by_keys(new_page, client):
    game = create(client, game="dobro", players=["Ana", "Bo"], seed=7)
    logged = play_simulated(client, game, limit=6)
    steps = client.get(f"/games/{game['id']}/replay").json()["steps"]
    page = new_page()
    page.set_viewport_size(PHONE)
    page.goto(f"/app/#/games/{game['id']}/replay/2")
    listed = page.get_by_role("region", name="Every step").get_by_role("button")
    expect(listed).to_have_count(logged + 1)
    expect(listed.nth(0)).to_have_text("Before the first move.")
    expect(listed.nth(3)).to_have_text(steps[2]["description"])
    current = page.locator('.steps [aria-current="step"]')
    expect(current).to_have_attribute("data-step", "2")

    listed.nth(4).click()
    slider = page.get_by_role("slider", name="Step")
    expect(slider).to_have_value("4")
    expect(current).to_have_attribute("data-step", "4")
    expect(page.locator(".sentence")).to_have_text(steps[3]["description"])
    assert page.url.endswith("/replay/4")

    for key, step in (
        ("ArrowRight", 5),
        ("ArrowLeft", 4),
        ("End", logged),
        ("ArrowRight", logged),
        ("Home", 0),
        ("ArrowLeft", 0),
    ):
        page.keyboard.press(key)
        expect(current).to_have_attribute("data-step", str(step))
        expect(current).to_be_focused()
        expect(slider).to_have_value(str(step))
        assert page.url.endswith(f"/replay/{step}"), (key, page.url)
    assert page.errors == []
