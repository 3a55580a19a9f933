"""A replay's move list as the best analysis boards keep one: beside the board on a
wide screen and below it on a phone, headed by round where the game has rounds,
each step's notes under it, each variation under the step it branches from (named,
renamed and hidden once confirmed), and a swipe on the board stepping through it."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.support.http import create, play_simulated
from tests.support.pages import confirming, serious

PHONE = {"width": 412, "height": 915}
WIDE = {"width": 1280, "height": 800}

WORDS = {
    "en": {
        "locale": "en-GB",
        "steps": "Every step",
        "round": "Round {round}",
        "mark": "dubious move",
        "text": "Your note",
        "add": "Add the note",
        "withdraw": "Withdraw the note: {text}",
        "from": "From step {step}",
        "rename": "Rename the variation: {name}",
        "name": "Name of the variation",
        "save": "Save the name",
        "rename_confirm": "Rename the variation “{name}” to “{to}”?",
        "hide": "Hide the variation: {name}",
        "hide_confirm": "Hide the variation “{name}”? It leaves this list; its own "
        "link still opens it.",
    },
    "fr": {
        "locale": "fr-FR",
        "steps": "Toutes les étapes",
        "round": "Manche {round}",
        "mark": "coup douteux",
        "text": "Votre note",
        "add": "Ajouter la note",
        "withdraw": "Retirer la note : {text}",
        "from": "Depuis l'étape {step}",
        "rename": "Renommer la variante : {name}",
        "name": "Nom de la variante",
        "save": "Enregistrer le nom",
        "rename_confirm": "Renommer la variante « {name} » en « {to} » ?",
        "hide": "Masquer la variante : {name}",
        "hide_confirm": "Masquer la variante « {name} » ? Elle quitte cette liste ; "
        "son propre lien l'ouvre toujours.",
    },
}


def opened(new_page, language: str, size: dict) -> Page:
    page = new_page(locale=WORDS[language]["locale"])
    page.set_viewport_size(size)
    return page


def holding_token(page: Page, game: dict) -> None:
    page.goto("/app/")
    page.evaluate(
        "([id, token]) => localStorage.setItem(`tablelog:token:${id}`, token)",
        [game["id"], game["write_token"]],
    )


def under(page: Page, step: int):
    """The move list's entry of `step`: its button, its notes and its variations."""
    return page.locator(f'.steps li:has(> button[data-step="{step}"])')


def current(page: Page):
    return page.locator('.steps [aria-current="step"]')


def scrolled_to_current(page: Page) -> bool:
    """Whether the list is scrolled to show the step shown, whole."""
    return page.evaluate("""() => {
      const shown = document.querySelector('.steps [aria-current="step"]');
      const at = shown.getBoundingClientRect();
      const list = shown.closest(".steps-scroll").getBoundingClientRect();
      return at.top >= list.top - 1 && at.bottom <= list.bottom + 1;
    }""")


def rounds_of_dobro(client: httpx.Client, game_id: str) -> list[int]:
    """The round each step's move was played in, from the replay as the API gives
    it: a Dobro move is of the round its table was in before it (the play that
    scores a round deals the next one too)."""
    start = client.get(f"/games/{game_id}/replay/0").json()["state"]
    steps = client.get(f"/games/{game_id}/replay").json()["steps"]
    states = [start, *(step["state"] for step in steps)]
    return [state["round"] for state in states[:-1]]


@pytest.mark.parametrize("size", [PHONE, WIDE], ids=["phone", "wide"])
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_move_list_is_headed_by_round_beside_the_board_or_below_it(
    new_page, client, axe_source, language, size
):
    words = WORDS[language]
    game = create(
        client, game="dobro", players=["Ana", "Bo"], seed=7, options={"rounds": 2}
    )
    last = play_simulated(client, game)
    rounds = rounds_of_dobro(client, game["id"])
    second = rounds.index(2) + 1  # the first step played in round 2
    assert 1 < second <= last and set(rounds) == {1, 2}
    page = opened(new_page, language, size)
    page.goto(f"/app/#/games/{game['id']}/replay/{second}")

    listed = page.get_by_role("region", name=words["steps"])
    headings = listed.get_by_role("heading", level=3)
    expect(headings).to_have_text(
        [words["round"].format(round=1), words["round"].format(round=2)]
    )
    runs = listed.locator("ol.steps")
    expect(runs.nth(0).locator("button[data-step]").first).to_have_attribute(
        "data-step", "0"
    )
    expect(runs.nth(1).locator("button[data-step]").first).to_have_attribute(
        "data-step", str(second)
    )
    expect(listed.locator("button[data-step]")).to_have_count(last + 1)
    expect(current(page)).to_have_attribute("data-step", str(second))
    assert scrolled_to_current(page)

    board = page.locator(".replay-board").bounding_box()
    moves = page.locator(".movelist").bounding_box()
    if size is PHONE:  # below the board, as wide as it
        assert moves["y"] >= board["y"] + board["height"], (board, moves)
        assert abs(moves["x"] - board["x"]) < 1
    else:  # beside it, level with it
        assert moves["x"] >= board["x"] + board["width"], (board, moves)
        assert abs(moves["y"] - board["y"]) < 1
    assert serious(page, axe_source) == []
    assert page.errors == []


@pytest.mark.parametrize("language", ["en", "fr"])
def test_each_steps_notes_stand_under_it_in_the_move_list(new_page, client, language):
    words = WORDS[language]
    game = create(client, game="dobro", players=["Ana", "Bo"], seed=7)
    play_simulated(client, game, limit=6)
    token = {"Authorization": f"Bearer {game['write_token']}"}
    for body in (
        {"step": 2, "text": "Bo should take", "mark": "?!"},
        {"step": 2, "text": "Or wait"},
        {"step": 5, "text": "Gone soon"},
    ):
        posted = client.post(f"/games/{game['id']}/notes", json=body, headers=token)
        assert posted.status_code == 201, posted.text
    client.post(f"/games/{game['id']}/notes/3/withdrawal", headers=token)
    page = opened(new_page, language, PHONE)
    holding_token(page, game)
    page.goto(f"/app/#/games/{game['id']}/replay/4")

    noted = under(page, 2).locator(".step-notes li")
    expect(noted).to_have_text([re.compile(r"^\?!\s*Bo should take$"), "Or wait"])
    expect(noted.first.locator("abbr")).to_have_attribute("title", words["mark"])
    expect(under(page, 5).locator(".step-notes li")).to_have_count(0)  # withdrawn
    expect(under(page, 4).locator(".step-notes li")).to_have_count(0)

    # A note written on the step shown joins the list at once, and leaves it when
    # withdrawn.
    page.get_by_label(words["text"]).fill("Ana leads")
    page.get_by_role("button", name=words["add"]).click()
    expect(under(page, 4).locator(".step-notes li")).to_have_text(["Ana leads"])
    page.get_by_role("button", name=words["withdraw"].format(text="Ana leads")).click()
    expect(under(page, 4).locator(".step-notes li")).to_have_count(0)
    expect(noted).to_have_count(2)
    assert page.errors == []


def swipe(page: Page, dx: float, dy: float = 0, pointer: str = "touch") -> None:
    """A finger (or `pointer`) put on the board and lifted `dx`, `dy` pixels away."""
    stage = page.locator(".stage")
    box = stage.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    down = {"pointerId": 7, "pointerType": pointer, "isPrimary": True}
    stage.dispatch_event("pointerdown", down | {"clientX": x, "clientY": y})
    stage.dispatch_event("pointerup", down | {"clientX": x + dx, "clientY": y + dy})


def test_a_swipe_on_the_board_steps_and_the_address_follows(new_page, client):
    game = create(client, game="dobro", players=["Ana", "Bo"], seed=7)
    last = play_simulated(client, game, limit=5)
    page = opened(new_page, "en", PHONE)
    page.goto(f"/app/#/games/{game['id']}/replay/2")
    expect(current(page)).to_have_attribute("data-step", "2")

    for dx, dy, pointer, step in (
        (-120, 8, "touch", 3),  # to the left: the next step
        (-80, 0, "pen", 4),
        (150, -5, "touch", 3),  # to the right: the one before
        (-30, 0, "touch", 3),  # too short
        (-60, 90, "touch", 3),  # a scroll, not a swipe
        (-200, 0, "mouse", 3),  # a mouse's drag is the mouse's
    ):
        swipe(page, dx, dy, pointer)
        expect(current(page)).to_have_attribute("data-step", str(step))
        expect(page.get_by_role("slider")).to_have_value(str(step))
        assert page.url.endswith(f"/replay/{step}"), (dx, dy, pointer, page.url)

    page.goto(f"/app/#/games/{game['id']}/replay/{last}")
    swipe(page, -120)  # past the last step: it stays
    expect(current(page)).to_have_attribute("data-step", str(last))
    assert page.errors == []


def branch(client: httpx.Client, game_id: str, at: int) -> dict:
    answer = client.post(f"/games/{game_id}/variations", json={"at": at})
    assert answer.status_code == 201, answer.text
    return answer.json()


def listed_names(client: httpx.Client, game_id: str) -> dict[str, str | None]:
    found = client.get(f"/games/{game_id}/variations").json()["games"]
    return {game["id"]: game["name"] for game in found}


@pytest.mark.parametrize("size", [PHONE, WIDE], ids=["phone", "wide"])
@pytest.mark.parametrize("language", ["en", "fr"])
def test_variations_stand_under_their_step_and_are_renamed_and_hidden_once_confirmed(
    new_page, client, axe_source, language, size
):
    words = WORDS[language]
    game = create(client, game="dobro", players=["Ana", "Bo"], seed=7)
    play_simulated(client, game, limit=8)
    early, first, second = (branch(client, game["id"], at) for at in (2, 4, 4))
    named = client.patch(
        f"/games/{game['id']}/variations/{second['id']}",
        json={"name": "Bo keeps"},
        headers={"Authorization": f"Bearer {game['write_token']}"},
    )
    assert named.status_code == 200, named.text

    # Every phone sees the tree; only one that may write has its controls.
    watcher = opened(new_page, language, size)
    watcher.goto(f"/app/#/games/{game['id']}/replay/0")
    at_four = under(watcher, 4).locator(".step-variations").get_by_role("link")
    expect(at_four).to_have_text([words["from"].format(step=4), "Bo keeps"])
    expect(at_four.nth(1)).to_have_attribute("href", f"#/games/{second['id']}")
    expect(under(watcher, 2).locator(".step-variations li")).to_have_count(1)
    expect(watcher.locator(".step-variations button")).to_have_count(0)

    page = opened(new_page, language, size)
    holding_token(page, game)
    page.goto(f"/app/#/games/{game['id']}/replay/0")
    unnamed = words["from"].format(step=2)
    page.get_by_role("button", name=words["rename"].format(name=unnamed)).click()
    page.get_by_label(words["name"]).fill("  Ana leads ")
    asked = confirming(page, False)  # "no": nothing is stored
    page.get_by_role("button", name=words["save"]).click()
    assert asked == [words["rename_confirm"].format(name=unnamed, to="Ana leads")]
    assert listed_names(client, game["id"])[early["id"]] is None
    confirming(page, True)
    page.get_by_role("button", name=words["save"]).click()
    expect(under(page, 2).locator(".step-variations a")).to_have_text("Ana leads")
    expect(under(page, 2).locator(".step-variations a")).to_be_focused()
    assert listed_names(client, game["id"])[early["id"]] == "Ana leads"
    assert serious(page, axe_source) == []

    asked = confirming(page, True)
    page.get_by_role("button", name=words["hide"].format(name="Bo keeps")).click()
    assert asked == [words["hide_confirm"].format(name="Bo keeps")]
    expect(under(page, 4).locator(".step-variations a")).to_have_text(
        [words["from"].format(step=4)]
    )
    expect(under(page, 4).locator("button[data-step]")).to_be_focused()
    assert set(listed_names(client, game["id"])) == {early["id"], first["id"]}
    # Hidden from the list, it is still a game, and its link still opens it.
    page.goto(f"/app/#/games/{second['id']}/replay/4")
    expect(current(page)).to_have_attribute("data-step", "4")
    assert page.errors == watcher.errors == []
