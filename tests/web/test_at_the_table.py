"""The game's page as a new player meets it at the table, on a 412 px phone in
English and in French: no stray word, nothing the player must read or tap hidden
under the status bar, no word broken mid-word, and axe finds nothing serious.
The page's words are looked up as the page says them, in the language it speaks: in
its games' modules (their own words) and its own catalogues (`i18n.js`)."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from tests.support.http import create, move, play_simulated, simulated_moves
from tests.support.pages import serious

PHONE = {"width": 412, "height": 915}
LOCALES = {"en": "en-GB", "fr": "fr-FR"}
PLAYERS = ["Ann", "Bob", "Cleo"]


@pytest.fixture(params=["en", "fr"])
def phone(request, browser, base_url):
    """A new 412 px phone whose browser speaks the test's language."""
    context = browser.new_context(
        viewport=PHONE, base_url=base_url, locale=LOCALES[request.param]
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    yield page
    context.close()


# A sentence of a game's module that words it, else of the page's catalogue: the
# modules of the families the page has loaded (their kinds, kept on the phone).
_SAY = """async ([key, values]) => {
  const kinds = JSON.parse(localStorage.getItem("tablelog:kinds") ?? "[]");
  for (const family of new Set(kinds.map((kind) => kind.family))) {
    try {
      return (await import(`/app/games/${family}.js`)).default.say(key, values);
    } catch {}  // another game's words: the next module's
  }
  return (await import("/app/i18n.js")).t(key, values);
}"""


def say(page: Page, key: str, **values) -> str:
    """The page's sentence `key`, in the language it speaks."""
    return page.evaluate(_SAY, [key, values])


def open_game(page: Page, game: dict) -> None:
    """The game's page, with its write token on this phone."""
    page.goto("/app/")
    page.evaluate(
        "([id, token]) => localStorage.setItem(`tablelog:token:${id}`, token)",
        [game["id"], game["write_token"]],
    )
    page.goto(f"/app/#/games/{game['id']}")
    expect(
        page.get_by_role("heading", name=say(page, "game.on_the_table"))
    ).to_be_visible()


def stray_words(page: Page) -> list[str]:
    """Text the page wrote from a missing value: "null", "undefined", "NaN"."""
    return page.evaluate(
        """() => {
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          const found = [];
          while (walker.nextNode()) {
            const words = walker.currentNode.textContent.split(/[^A-Za-z]+/);
            found.push(...words.filter((w) => ["null", "undefined", "NaN"]
              .includes(w)));
          }
          return found;
        }"""
    )


@pytest.mark.parametrize("kind", ["dobro", "dozito", "double-donkey"])
def test_a_short_game_shows_no_stray_null(phone, client, axe_source, kind):
    game = create(client, game=kind, players=PLAYERS, first_player="Ann", seed=5)
    play_simulated(client, game, limit=8)
    open_game(phone, game)
    moves = phone.get_by_role("region", name=say(phone, "history.title"))
    expect(moves.get_by_role("listitem")).to_have_count(8)
    assert stray_words(phone) == []
    assert serious(phone, axe_source) == []
    assert phone.errors == []


def broken_words(page: Page, within: str) -> list[str]:
    """The words inside `within` that the browser breaks across two lines."""
    return page.evaluate(
        """(within) => {
          const broken = [];
          for (const box of document.querySelectorAll(within)) {
            const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
            while (walker.nextNode()) {
              const node = walker.currentNode;
              for (const match of node.textContent.matchAll(/[^\\s/(),]+/g)) {
                const range = document.createRange();
                range.setStart(node, match.index);
                range.setEnd(node, match.index + match[0].length);
                const lines = new Set([...range.getClientRects()].map((r) => r.top));
                if (lines.size > 1) broken.push(match[0]);
              }
            }
          }
          return broken;
        }""",
        within,
    )


def test_double_donkeys_players_table_breaks_no_word(phone, client, axe_source):
    game = create(
        client, game="double-donkey", players=PLAYERS, first_player="Ann", seed=5
    )
    play_simulated(client, game)  # to its end: every column holds a reveal
    open_game(phone, game)
    table = phone.locator("table", has=phone.get_by_text(say(phone, "state.players")))
    hand = table.get_by_role("columnheader", name=say(phone, "state.hand"))
    expect(hand).to_be_visible()
    assert broken_words(phone, "main table:not(.grid)") == []
    assert serious(phone, axe_source) == []
    assert phone.errors == []


def test_dozitos_card_is_sent_only_once_chosen(phone, client, axe_source):
    game = create(client, game="dozito", players=PLAYERS, first_player="Ann", seed=5)
    play_simulated(client, game, limit=1)  # the round starts: Ann draws
    open_game(phone, game)
    drawn = phone.get_by_role("group", name=say(phone, "dozito.card_drawn"))
    colours = drawn.get_by_role("group", name=say(phone, "dozito.colour"))
    numbers = drawn.get_by_role("group", name=say(phone, "dozito.number"))
    for chips in (colours, numbers):
        expect(chips.get_by_role("radio").first).to_be_visible()
        expect(chips.locator("input:checked")).to_have_count(0)
    draws = phone.get_by_role("button", name=say(phone, "dozito.draws", player="Ann"))
    draws.click()
    card = say(phone, "dozito.card_drawn")
    expect(
        phone.get_by_text(say(phone, "dozito.tap_colour_number", card=card))
    ).to_be_visible()
    numbers.get_by_role("radio", name="7", exact=True).check()
    draws.click()
    colour_wanted = say(phone, "dozito.tap_colour", card=card)
    expect(phone.get_by_text(colour_wanted)).to_be_visible()
    assert client.get(f"/games/{game['id']}").json()["version"] == 2
    assert serious(phone, axe_source) == []

    colours.get_by_role("radio").nth(1).check()  # the second colour, blue
    draws.click()
    expect(phone.get_by_role("status")).to_contain_text(
        say(phone, "game.logged", number=2).removesuffix(".")
    )
    drawn = client.get(f"/games/{game['id']}/events").json()["events"][-1]
    stated = drawn["data"]["move"]["card"]
    assert (stated["color"], stated["number"], stated["joker"]) == ("blue", 7, False)
    assert phone.errors == []


def log_offline(page: Page, player: str, card: int) -> None:
    """Offline, a Dobro play by any player: who plays, the card, the move."""
    moves = page.get_by_role("region", name=say(page, "game.log_a_move"))
    moves.get_by_role("group", name=say(page, "game.who")).get_by_text(
        player, exact=True
    ).click()
    moves.get_by_role("radio", name=str(card), exact=True).check()
    moves.get_by_role(
        "button", name=say(page, "dobro.plays", player=player, cards=str(card))
    ).click()


def test_several_turns_logged_offline_go_in_order_and_a_refused_one_is_corrected_D8(
    phone,
    client,
    axe_source,
):
    game = create(client, game="dobro", players=PLAYERS, first_player="Ann")
    open_game(phone, game)
    phone.context.set_offline(True)
    moves = phone.get_by_role("region", name=say(phone, "game.log_a_move"))
    expect(moves).to_contain_text(say(phone, "game.any_move"))
    # Four turns, of three players: Cleo's 5 cannot follow Bob's 8 (D8).
    for player, card in (("Ann", 6), ("Bob", 8), ("Cleo", 5), ("Ann", 10)):
        log_offline(phone, player, card)
    queue = phone.get_by_role("region", name=say(phone, "game.waiting", count=4))
    queued = [
        say(phone, "queued.dobro.play", player=player, cards=str(card))
        for player, card in (("Ann", 6), ("Bob", 8), ("Cleo", 5), ("Ann", 10))
    ]
    expect(queue.get_by_role("listitem")).to_have_text(queued)
    assert client.get(f"/games/{game['id']}").json()["version"] == 1
    assert stray_words(phone) == []
    assert serious(phone, axe_source) == []

    phone.context.set_offline(False)
    queue = phone.get_by_role("region", name=say(phone, "game.waiting", count=2))
    refusal = queue.get_by_role("alert")
    expect(refusal).to_contain_text(say(phone, "refusal.arrival_ruled", rule="D8"))
    language = {"Accept-Language": phone.evaluate("document.documentElement.lang")}
    body = {"type": "play", "player": "Cleo", "cards": [5]}
    refused = move(client, game, body, **language)
    expect(refusal).to_contain_text(refused.json()["detail"])
    expect(queue.get_by_role("listitem").first).to_contain_text(queued[2])
    expect(queue.get_by_role("listitem").first).to_contain_text(
        say(phone, "game.refused_here")
    )
    expect(queue.get_by_role("listitem").last).to_have_text(queued[3])
    assert serious(phone, axe_source) == []

    refusal.get_by_role("button", name=say(phone, "game.correct")).click()
    expect(moves).to_contain_text(
        say(phone, "game.correcting", move=queued[2]).split("«")[0].split("“")[0]
    )
    # Online again, the panel no longer speaks of a lost connection.
    expect(moves).to_contain_text(say(phone, "game.any_move_waiting"))
    cleo = moves.get_by_role("group", name=say(phone, "game.who"))
    expect(cleo.get_by_role("radio", name="Cleo")).to_be_checked()
    assert stray_words(phone) == []
    moves.get_by_role("radio", name="9", exact=True).check()
    moves.get_by_role(
        "button", name=say(phone, "dobro.plays", player="Cleo", cards="9")
    ).click()
    expect(phone.locator("section.queue")).to_be_hidden()
    stored = client.get(f"/games/{game['id']}/events").json()["events"][1:]
    plays = [e["data"]["move"] for e in stored]
    assert [(m["player"], m["cards"]) for m in plays] == [
        ("Ann", [6]),
        ("Bob", [8]),
        ("Cleo", [9]),
        ("Ann", [10]),
    ]
    # Stored, each move reads as the service words it, as it was worded waiting.
    history = phone.get_by_role("region", name=say(phone, "history.title"))
    expect(history.locator(".said")).to_have_count(4)
    service = history.locator(".said").all_inner_texts()
    queued[2] = say(phone, "queued.dobro.play", player="Cleo", cards="9")
    assert [s.startswith(q) for s, q in zip(service[::-1], queued, strict=True)] == [
        True
    ] * 4, (service, queued)
    assert phone.errors == []


def status(page: Page, text: str) -> None:
    """The status bar says `text`, as the page says a move logged."""
    page.evaluate("async (text) => (await import('/app/dom.js')).say(text)", text)


def clear_of_the_bar(page: Page, element) -> None:
    """`element`, scrolled into view, lies wholly above the status bar. Scrolled
    again while the page settles: a refresh that redraws the game, or the bar
    growing to a long sentence, can move it after a scroll; what must hold is that
    once the page is still, a scroll shows it whole."""
    deadline = time.monotonic() + 5
    while True:
        element.evaluate(
            """(el) => new Promise((done) => requestAnimationFrame(() => {
              el.scrollIntoView({ block: "nearest" });
              requestAnimationFrame(() => requestAnimationFrame(done));
            }))"""
        )
        bar = page.locator("#status").bounding_box()
        box = element.bounding_box()
        assert bar is not None and box is not None
        clear = box["y"] >= 0 and box["y"] + box["height"] <= bar["y"]
        if clear or time.monotonic() > deadline:
            break
        page.wait_for_timeout(100)
    assert clear, (box, bar)


def logged(page: Page, client, game: dict) -> str:
    """The status after the game's latest move, as the page words it."""
    summary = client.get(f"/games/{game['id']}").json()
    step = summary["version"] - 1
    language = {"Accept-Language": page.evaluate("document.documentElement.lang")}
    said = client.get(f"/games/{game['id']}/replay/{step}", headers=language).json()
    return say(page, "game.logged_said", number=step, move=said["description"])


def test_nothing_to_read_or_tap_is_under_the_status_bar(phone, client, axe_source):
    dozito = create(client, game="dozito", players=PLAYERS, first_player="Ann", seed=5)
    first_place = next(
        i for i, m in enumerate(simulated_moves(dozito)) if type(m).__name__ == "Place"
    )
    play_simulated(client, dozito, limit=first_place)
    open_game(phone, dozito)
    status(phone, logged(phone, client, dozito))
    clear_of_the_bar(
        phone, phone.get_by_role("button", name=say(phone, "dozito.place"))
    )

    donkey = create(client, game="double-donkey", players=PLAYERS, seed=5)
    play_simulated(client, donkey)  # to its end, whose sentence is the longest
    open_game(phone, donkey)
    status(phone, logged(phone, client, donkey))
    bar = phone.locator("#status").bounding_box()
    assert bar["height"] <= PHONE["height"] / 4, bar
    clear_of_the_bar(phone, phone.locator(".winners").last)
    assert serious(phone, axe_source) == []

    dobro = create(client, game="dobro", players=PLAYERS, first_player="Ann")
    open_game(phone, dobro)
    phone.context.set_offline(True)
    log_offline(phone, "Ann", 6)
    queue = phone.get_by_role("region", name=say(phone, "game.waiting", count=1))
    clear_of_the_bar(phone, queue.get_by_role("listitem"))
    clear_of_the_bar(phone, queue.locator("p"))
    language = {"Accept-Language": phone.evaluate("document.documentElement.lang")}
    body = {"type": "play", "player": "Ann", "cards": [9]}
    assert move(client, dobro, body, **language).status_code == 201
    phone.context.set_offline(False)
    refusal = queue.get_by_role("alert")
    expect(refusal).to_contain_text(say(phone, "game.settle"))
    status(phone, say(phone, "game.offline"))
    clear_of_the_bar(phone, refusal)
    assert phone.errors == []


def test_dozitos_colours_and_a_queued_move_are_in_the_pages_language(
    phone,
    client,
    axe_source,
):
    game = create(client, game="dozito", players=PLAYERS, first_player="Ann", seed=5)
    play_simulated(client, game, limit=1)  # the round starts: Ann draws
    open_game(phone, game)
    red = say(phone, "dozito.color.red")
    chip = phone.get_by_role("group", name=say(phone, "dozito.colour")).first
    expect(chip.get_by_role("radio", name=red.capitalize(), exact=True)).to_have_count(
        1
    )
    phone.context.set_offline(True)
    chip.get_by_role("radio", name=red.capitalize(), exact=True).check()
    phone.get_by_role("group", name=say(phone, "dozito.number")).first.get_by_role(
        "radio", name="7", exact=True
    ).check()
    phone.get_by_role("button", name=say(phone, "dozito.draws", player="Ann")).click()
    card = say(phone, "dozito.card", color=red, number=7)
    queued = say(
        phone,
        "queued.dozito.draws",
        player="Ann",
        card=say(phone, "queued.dozito.the_card", card=card),
    )
    queue = phone.get_by_role("region", name=say(phone, "game.waiting", count=1))
    expect(queue.get_by_role("listitem")).to_have_text([queued])
    assert serious(phone, axe_source) == []

    phone.context.set_offline(False)
    expect(phone.locator("section.queue")).to_be_hidden()
    history = phone.get_by_role("region", name=say(phone, "history.title"))
    expect(history.locator(".said").first).to_contain_text(queued)
    assert phone.errors == []


@pytest.mark.parametrize("kind", ["dobro", "dozito", "double-donkey"])
def test_offline_every_move_of_the_game_is_offered_for_any_player(
    phone,
    client,
    axe_source,
    kind,
):
    game = create(client, game=kind, players=PLAYERS, first_player="Ann", seed=5)
    play_simulated(client, game, limit=3)
    open_game(phone, game)
    phone.context.set_offline(True)
    moves = phone.get_by_role("region", name=say(phone, "game.log_a_move"))
    kinds = moves.get_by_role("group", name=say(phone, "game.which_move"))
    expect(kinds.get_by_role("radio").first).to_be_attached()
    offered = kinds.get_by_role("radio").count()
    assert offered >= 4
    for n in range(offered):
        kinds.get_by_role("radio").nth(n).check()
        who = moves.get_by_role("group", name=say(phone, "game.who"))
        if who.is_visible():
            who.get_by_text("Cleo", exact=True).click()
            expect(moves.get_by_role("button").last).to_be_visible()
        assert stray_words(phone) == []
        assert serious(phone, axe_source) == []
    assert phone.errors == []


def test_a_new_dozitos_colours_are_shown_in_the_pages_language_and_sent_as_named(
    phone,
    client,
    axe_source,
):
    phone.goto("/app/")
    phone.locator("select[name=game]").select_option("dozito")
    box = phone.get_by_role("group", name=say(phone, "start.five_colours"))
    box_colours = ["red", "blue", "green", "purple", "yellow"]
    colours = [say(phone, f"dozito.color.{c}") for c in box_colours]
    for n, colour in enumerate(colours, start=1):
        field = box.get_by_label(say(phone, "start.colour_n", n=n), exact=True)
        expect(field).to_have_value(colour)
    box.get_by_label(say(phone, "start.colour_n", n=1), exact=True).fill("rose")
    for n, name in enumerate(PLAYERS, start=1):
        phone.get_by_label(say(phone, "start.player_n", n=n), exact=True).fill(name)
    assert serious(phone, axe_source) == []
    phone.get_by_role("button", name=say(phone, "start.start")).click()
    expect(
        phone.get_by_role("heading", name=say(phone, "game.on_the_table"))
    ).to_be_visible()
    game_id = phone.url.split("#/games/")[1][:36]
    options = client.get(f"/games/{game_id}").json()["options"]
    assert options["colors"] == ["rose", *box_colours[1:]]
    assert phone.errors == []
