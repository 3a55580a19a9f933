"""Every word the French page shows comes from a catalogue: the page's (i18n/fr.js)
and each game module's French words are served marked (each sentence between
⟦ and ⟧), the page is walked in French, and any word left outside the marks is
English (or another word) written into the code. What the service itself words
(a move's sentence, a game's name), the players' names and dates are data, not the
page's words."""

from __future__ import annotations

import re

from playwright.sync_api import Page, Route, expect

from tests.support.http import create, move, play_simulated

PHONE = {"width": 412, "height": 915}
PLAYERS = ["Ana", "Bo", "Cy"]
# A sentence of a catalogue: `"key": "text"`, or a plural form `one: "text"`.
SENTENCE = re.compile(
    r'((?:"[\w.]+"|\b(?:zero|one|two|few|many|other)): )"((?:[^"\\]|\\.)*)"'
)
# Text the page shows outside the marks, once data is taken out: each word of it.
WORD = re.compile(r"[A-Za-zÀ-ÿ]{2,}")
LEFT_OUT = """(data) => {
  const shown = (el) => el.checkVisibility?.() ?? true;
  const found = [];
  const look = (text, where) => {
    let rest = text;
    // A sentence in a sentence (`{move}` said in `Logged: {move}`): inner first.
    while (/⟦[^⟦⟧]*⟧/.test(rest)) rest = rest.replace(/⟦[^⟦⟧]*⟧/g, " ");
    for (const known of data) rest = rest.split(known).join(" ");
    const words = rest.match(/[A-Za-zÀ-ÿ]{2,}/g);
    const said = text.trim().slice(0, 80);
    if (words) found.push(`${where}: ${words.join(" ")} (in "${said}")`);
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !shown(parent)) continue;
    if (parent.closest("time, noscript, script, style")) continue;
    look(node.textContent, parent.tagName.toLowerCase());
  }
  const named = "[aria-label], [placeholder], [title], [alt]";
  for (const el of document.body.querySelectorAll(named)) {
    if (el.closest("time")) continue;
    for (const name of ["aria-label", "placeholder", "title", "alt"]) {
      const value = el.getAttribute(name);
      if (value) look(value, `${el.tagName.toLowerCase()}[${name}]`);
    }
  }
  return found;
}"""


def marked(text: str) -> str:
    return SENTENCE.sub(lambda m: f'{m[1]}"⟦{m[2]}⟧"', text)


def mark_french(route: Route) -> None:
    answer = route.fetch()
    body = answer.text()
    if "/games/" in route.request.url:  # a game module: its French words only
        start = body.index("\n  fr: {")
        end = body.index("\n  },\n};", start)
        body = body[:start] + marked(body[start:end]) + body[end:]
    else:
        body = marked(body)
    route.fulfill(response=answer, body=body)


def left_out(page: Page, data: list[str]) -> list[str]:
    return page.evaluate(LEFT_OUT, sorted(data, key=len, reverse=True))


def test_every_word_of_the_french_page_is_from_a_catalogue(new_page, client):
    game = create(client, game="dobro", players=PLAYERS, first_player="Ana")
    for body in (
        {"type": "play", "player": "Ana", "cards": [6]},
        {"type": "play", "player": "Bo", "cards": [7]},
    ):
        assert move(client, game, body).is_success
    french = {"Accept-Language": "fr"}
    steps = client.get(f"/games/{game['id']}/replay", headers=french).json()["steps"]
    kinds = client.get("/games/kinds").json()["kinds"]
    listed = client.get("/games?limit=100").json()["games"]  # other tests' too
    # The ladder shown names players of other tests' games, older ones too.
    ladder = client.get("/leaderboards/dobro?limit=100").json()["players"]
    data = [
        *PLAYERS,
        *(name for listed_game in listed for name in listed_game["players"]),
        *(standing["name"] for standing in ladder),
        *(listed_game["title"] for listed_game in listed if listed_game["title"]),
        "tablelog",
        "English",
        *(step["description"] for step in steps),
        *(label for kind in kinds for label in kind["labels"].values()),
    ]
    finished = create(
        client, game="dobro", players=PLAYERS, seed=7, options={"rounds": 1}
    )
    play_simulated(client, finished)
    finished_steps = client.get(
        f"/games/{finished['id']}/replay", headers=french
    ).json()["steps"]
    data += [step["description"] for step in finished_steps]
    # An English phone switched to French: nothing drawn before stays English.
    page = new_page(locale="en-GB", service_workers="block")
    page.set_viewport_size(PHONE)
    page.route("**/app/i18n/fr.js", mark_french)
    page.route("**/app/games/*.js", mark_french)
    page.goto("/app/")
    page.get_by_role("button", name="Français").click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("main h1")).to_be_visible()
    found = {"home": left_out(page, data)}

    page.evaluate(
        "([id, token]) => localStorage.setItem(`tablelog:token:${id}`, token)",
        [game["id"], game["write_token"]],
    )
    others = {
        kind: create(client, game=kind, players=PLAYERS, first_player="Ana", seed=3)
        for kind in ("dozito", "double-donkey")
    }
    for other in others.values():
        page.evaluate(
            "([id, token]) => localStorage.setItem(`tablelog:token:${id}`, token)",
            [other["id"], other["write_token"]],
        )
    for view, address in (
        ("game", f"#/games/{game['id']}"),
        *((kind, f"#/games/{other['id']}") for kind, other in others.items()),
        ("replay", f"#/games/{game['id']}/replay/1"),
        ("finished", f"#/games/{finished['id']}"),
        ("finished replay", f"#/games/{finished['id']}/replay/3"),
        ("player", "#/players/Ana"),
        ("leaderboard", "#/leaderboards/dobro"),
        ("nowhere", "#/nowhere"),
    ):
        page.goto(f"/app/{address}")
        expect(page.locator("main h1")).to_be_visible()
        page.wait_for_load_state("networkidle")
        for share in page.get_by_role("button", name=re.compile("Partager")).all():
            share.click()
        found[view] = left_out(page, data)
    # With the connection down, the game's moves are any player's.
    page.goto(f"/app/#/games/{game['id']}")
    expect(page.locator("main h1")).to_be_visible()
    page.context.set_offline(True)
    page.get_by_role("radio", name=re.compile("^⟦Jouer")).first.check()
    found["offline"] = left_out(page, data)
    page.context.set_offline(False)
    assert {view: words for view, words in found.items() if words} == {}
    assert page.errors == []
