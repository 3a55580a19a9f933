"""A replay on a phone 412 px wide, in English and in French: opened at a step by its
link, its address following the step, shared with a QR code; the score sheet as it
stood at each step, and at the end the tie-break that settled the game."""

from __future__ import annotations

import re
from importlib import resources

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.support.http import create, play_simulated
from tests.support.pages import confirming, serious

WIDE = {"width": 412, "height": 915}

WORDS = {
    "en": {
        "locale": "en-GB",
        "step": "Step",
        "next": "Next step",
        "counter": "Step {step} of {last}",
        "share": "Share",
        "link": "Link to step {step}: the link",
        "qr": "QR code: Link to step {step}",
        "none": "No round has been scored yet.",
        "winners": "Winners:",
        "tie": "D16: the fewest cards in the last round's score pile wins "
        "(Priscila: 24, Mauricio: 19, and Karen: 9).",
    },
    "fr": {
        "locale": "fr-FR",
        "step": "Étape",
        "next": "Étape suivante",
        "counter": "Étape {step} sur {last}",
        "share": "Partager",
        "link": "Lien vers l'étape {step} : le lien",
        "qr": "QR code : Lien vers l'étape {step}",
        "none": "Aucune manche n'a encore été comptée.",
        "winners": "Gagnants :",
        "tie": "D16 : le moins de cartes dans la pile de score de la dernière manche "
        "l'emporte (Priscila : 24, Mauricio : 19 et Karen : 9).",
    },
}


def phone(new_page, language: str) -> Page:
    page = new_page(locale=WORDS[language]["locale"])
    page.set_viewport_size(WIDE)
    return page


def imported(client: httpx.Client, name: str) -> str:
    """The id of a sample game (seeds/), imported once into the test database."""
    body = resources.files("seeds").joinpath(f"{name}.ndjson").read_bytes()
    answer = client.post(
        "/games/import",
        content=body,
        headers={"Content-Type": "application/x-ndjson"},
    )
    if answer.status_code == 409:
        return answer.json()["game_id"]
    assert answer.status_code == 201, answer.text
    return answer.json()["id"]


def at_step(page: Page, words: dict, step: int, last: int) -> None:
    expect(page.locator("output")).to_have_text(
        words["counter"].format(step=step, last=last)
    )


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_link_opens_the_replay_at_its_step_and_the_address_follows_the_step(
    new_page,
    client,
    axe_source,
    language,
):
    words = WORDS[language]
    game = create(
        client, game="dobro", players=["Ana", "Bo"], seed=7, options={"rounds": 1}
    )
    last = play_simulated(client, game)
    steps = client.get(f"/games/{game['id']}/replay").json()["steps"]
    page = phone(new_page, language)

    page.goto(f"/app/#/games/{game['id']}/replay/5")
    expect(page.get_by_role("slider", name=words["step"])).to_have_value("5")
    at_step(page, words, 5, last)
    expect(page.locator(".sentence")).to_have_text(
        client.get(
            f"/games/{game['id']}/replay/5",
            headers={"Accept-Language": language},
        ).json()["description"]
    )

    page.get_by_role("button", name=words["next"]).click()
    at_step(page, words, 6, last)
    assert page.url.endswith(f"#/games/{game['id']}/replay/6")

    page.get_by_role("button", name=words["share"], exact=True).click()
    link = page.get_by_label(words["link"].format(step=6))
    expect(link).to_have_value(re.compile(rf"/app/#/games/{game['id']}/replay/6$"))
    expect(page.get_by_role("img", name=words["qr"].format(step=6))).to_be_visible()
    assert "token" not in link.input_value()
    expect(page.locator("main")).not_to_contain_text("null")
    assert serious(page, axe_source) == []

    # The link shared opens on another phone where the sender was.
    other = phone(new_page, language)
    other.goto(link.input_value())
    at_step(other, words, 6, last)
    assert len(steps) == last
    assert page.errors == other.errors == []


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_sheet_is_the_one_of_the_step_and_the_end_explains_the_tie_D16(
    new_page,
    client,
    axe_source,
    language,
):
    words = WORDS[language]
    game_id = imported(client, "dobro-french-scale")
    last = len(client.get(f"/games/{game_id}/replay").json()["steps"])
    page = phone(new_page, language)

    page.goto(f"/app/#/games/{game_id}/replay/0")
    expect(page.get_by_text(words["none"])).to_be_visible()
    expect(page.get_by_text(words["winners"])).to_have_count(0)
    expect(page.get_by_text(words["tie"])).to_have_count(0)

    page.goto(f"/app/#/games/{game_id}/replay/{last}")
    at_step(page, words, last, last)
    expect(page.get_by_text(words["winners"])).to_be_visible()
    expect(page.get_by_text(words["tie"], exact=False)).to_be_visible()
    assert serious(page, axe_source) == []
    assert page.errors == []


NOTES = {
    "en": {
        "title": "Notes on step {step}",
        "none": "No note on this step.",
        "text": "Your note",
        "mark": "Mark",
        "add": "Add the note",
        "withdraw": "Withdraw the note: {text}",
        "try": "Try another move here",
        "of": "A variation, tried from step {step} of another game:",
        "original": "see the original",
        "try_confirm": "Try another move from step {step}? This makes a new game, a "
        "variation of this one; this game stays as it is.",
        "from": "From step {step}",
        "moves_title": "Log a move",
    },
    "fr": {
        "title": "Notes sur l'étape {step}",
        "none": "Aucune note sur cette étape.",
        "text": "Votre note",
        "mark": "Signe",
        "add": "Ajouter la note",
        "withdraw": "Retirer la note : {text}",
        "try": "Essayer un autre coup ici",
        "of": "Une variante, essayée depuis l'étape {step} d'une autre partie :",
        "original": "voir l'originale",
        "try_confirm": "Essayer un autre coup depuis l'étape {step} ? Cela crée une "
        "nouvelle partie, une variante de celle-ci ; cette partie reste telle quelle.",
        "from": "Depuis l'étape {step}",
        "moves_title": "Noter un coup",
    },
}


def holding_token(page: Page, game: dict) -> None:
    page.goto("/app/")
    page.evaluate(
        "([id, token]) => localStorage.setItem(`tablelog:token:${id}`, token)",
        [game["id"], game["write_token"]],
    )


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_phone_with_the_token_notes_a_step_and_every_phone_reads_it(
    new_page,
    client,
    axe_source,
    language,
):
    words, notes = WORDS[language], NOTES[language]
    game = create(client, game="dobro", players=["Ana", "Bo"], seed=7)
    last = play_simulated(client, game, limit=8)
    table = phone(new_page, language)
    holding_token(table, game)
    table.goto(f"/app/#/games/{game['id']}/replay/3")
    expect(
        table.get_by_role("heading", name=notes["title"].format(step=3))
    ).to_be_visible()
    expect(table.get_by_text(notes["none"])).to_be_visible()
    table.get_by_label(notes["text"]).fill("Bo should take")
    table.get_by_label(notes["mark"]).select_option("?!")
    table.get_by_role("button", name=notes["add"]).click()
    expect(table.locator(".notes li")).to_have_text(re.compile(r"\?!\s*Bo should take"))
    assert serious(table, axe_source) == []
    stored = client.get(f"/games/{game['id']}/replay/3").json()["notes"]
    assert [(n["text"], n["mark"]) for n in stored] == [("Bo should take", "?!")]

    # A phone without the token reads the note, and has nothing to write with.
    watcher = phone(new_page, language)
    watcher.goto(f"/app/#/games/{game['id']}/replay/3")
    expect(watcher.locator(".notes li")).to_have_text(re.compile("Bo should take"))
    expect(watcher.get_by_label(notes["text"])).to_have_count(0)
    watcher.get_by_role("button", name=words["next"]).click()
    at_step(watcher, words, 4, last)
    expect(watcher.get_by_text(notes["none"])).to_be_visible()

    table.get_by_role(
        "button", name=notes["withdraw"].format(text="Bo should take")
    ).click()
    expect(table.get_by_text(notes["none"])).to_be_visible()
    assert client.get(f"/games/{game['id']}/replay/3").json()["notes"] == []
    assert table.errors == watcher.errors == []


@pytest.mark.parametrize("language", ["en", "fr"])
def test_another_move_is_tried_from_a_step_and_the_variation_links_back_and_forth(
    new_page,
    client,
    axe_source,
    language,
):
    words, notes = WORDS[language], NOTES[language]
    game = create(client, game="dobro", players=["Ana", "Bo"], seed=7)
    play_simulated(client, game, limit=8)
    page = phone(new_page, language)
    page.goto(f"/app/#/games/{game['id']}/replay/4")
    at_step(page, words, 4, 8)
    # Asked first: a "no" makes nothing.
    asked = confirming(page, False)
    page.get_by_role("button", name=notes["try"]).click()
    assert asked == [notes["try_confirm"].format(step=4)]
    assert client.get(f"/games/{game['id']}/variations").json()["games"] == []
    confirming(page, True)
    page.get_by_role("button", name=notes["try"]).click()

    # The variation opens to log its moves, with its own token on this phone.
    expect(page.get_by_role("heading", name=notes["moves_title"])).to_be_visible()
    variation_id = re.search(r"#/games/([0-9a-f-]{36})$", page.url).group(1)
    assert variation_id != game["id"]
    variation = client.get(f"/games/{variation_id}").json()
    assert variation["variation_of"] == {"game": game["id"], "step": 4}
    assert variation["version"] == 5
    expect(page.get_by_text(notes["of"].format(step=4))).to_be_visible()
    assert serious(page, axe_source) == []

    page.get_by_role("link", name=notes["original"]).click()
    at_step(page, words, 4, 8)
    assert page.url.endswith(f"#/games/{game['id']}/replay/4")
    # Listed under the step it branches from, in the move list.
    branched = page.locator('.steps li:has(> button[data-step="4"]) .step-variations')
    branched.get_by_role("link", name=notes["from"].format(step=4)).click()
    expect(page.get_by_role("heading", name=notes["moves_title"])).to_be_visible()
    assert page.url.endswith(f"#/games/{variation_id}")
    assert page.errors == []


def dozito_tied(client: httpx.Client) -> str:
    """A one-round Dozito game of the virtual table (seed 2) that ends on a tie."""
    game = create(
        client,
        game="dozito",
        players=["Ana", "Bo"],
        first_player="Ana",
        seed=2,
        options={"rounds": 1},
    )
    play_simulated(client, game)
    return game["id"]


def donkeys(client: httpx.Client, seed: int) -> str:
    """A Double Donkey game of the virtual table: seed 0 ties its first round's
    highest card and rolls off, seed 1 settles round 4's tie by the personal piles
    (and seed 0's round 4 too)."""
    game = create(
        client,
        game="double-donkey",
        players=["Ana", "Bo"],
        first_player="Ana",
        seed=seed,
    )
    play_simulated(client, game)
    return game["id"]


TIES = {
    "Z15": (
        dozito_tied,
        {
            "en": "Round 1: Ana and Bo shared the most points. Z15: the best single "
            "round wins (Ana: 17 and Bo: 17).",
            "fr": "Manche 1 : Ana et Bo ont le plus de points à égalité. Z15 : la "
            "meilleure manche l'emporte (Ana : 17 et Bo : 17).",
        },
    ),
    "K9 roll-off": (
        lambda client: donkeys(client, 0),
        {
            "en": "Round 1: Ana and Bo shared the highest card. K9: Ana and Bo rolled "
            "off (last throw: Ana: 6 and Bo: 2) and Ana took the Biggest Donkey.",
            "fr": "Manche 1 : Ana et Bo ont la plus forte carte à égalité. K9 : Ana et "
            "Bo se départagent aux dés (dernier jet : Ana : 6 et Bo : 2) et Ana prend "
            "le Biggest Donkey.",
        },
    ),
    "K9 personal piles": (
        lambda client: donkeys(client, 1),
        {
            "en": "Round 4: Ana and Bo shared the highest card. K9: Ana took the "
            "Biggest Donkey with the fewest cards in their personal pile (4).",
            "fr": "Manche 4 : Ana et Bo ont la plus forte carte à égalité. K9 : Ana "
            "prend le Biggest Donkey, avec le moins de cartes dans sa pile "
            "personnelle (4).",
        },
    ),
}


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("tie", TIES)
def test_the_sheet_explains_each_tie_break_as_the_api_gives_it(
    new_page, client, tie, language
):
    make, said = TIES[tie]
    game_id = make(client)
    last = len(client.get(f"/games/{game_id}/replay").json()["steps"])
    page = phone(new_page, language)
    page.goto(f"/app/#/games/{game_id}/replay/{last}")
    at_step(page, WORDS[language], last, last)
    explained = page.locator(".tie-break").filter(has_text=said[language])
    expect(explained).to_have_count(1)
    page.goto(f"/app/#/games/{game_id}/replay/0")
    expect(page.locator(".tie-break")).to_have_count(0)
    assert page.errors == []
