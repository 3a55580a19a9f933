"""A long game's moves so far: the newest page comes first, older pages on demand,
and Undo still names its move when the newest page holds nothing but undos."""

from __future__ import annotations

import json
import re
import uuid

import msgspec
import pytest
from playwright.sync_api import expect

from domain.game import Setup
from domain.registry import BUILT_IN
from tests.support.pages import open_game

PLAYERS = ["Ana", "Bo", "Cy"]
UNDOS = 120  # more than a page of the history (100 moves)


@pytest.fixture(scope="module")
def long_game(client) -> dict:
    """A 10-round Dobro game played to its end, then 120 undos: 695 moves, imported."""
    setup = Setup(players=tuple(PLAYERS), first_player="Ana", seed=1)
    setup = msgspec.structs.replace(setup, options={"rounds": 10})
    moves = [msgspec.to_builtins(m) for m in BUILT_IN["dobro"].simulate(setup)]
    created = {
        "type": "game_created",
        "game": "dobro",
        "players": PLAYERS,
        "first_player": "Ana",
        "seed": 1,
        "options": {"rounds": 10},
        "title": f"A long evening {uuid.uuid4()}",
    }
    lines = [created, *moves, *[{"type": "undo"}] * UNDOS]
    answer = client.post(
        "/games/import",
        content="\n".join(json.dumps(line) for line in lines).encode(),
        headers={"Content-Type": "application/x-ndjson"},
    )
    assert answer.status_code == 201, answer.text
    game = answer.json()
    assert game["version"] == len(lines) > 500 + 1
    return game


def said(client, game: dict, step: int) -> str:
    return client.get(f"/games/{game['id']}/replay/{step}").json()["description"]


def test_a_long_games_history_loads_the_newest_first_and_older_on_demand(
    new_page, client, long_game
):
    moves = long_game["version"] - 1
    in_force = moves - 2 * UNDOS  # the latest move no undo took back
    page = new_page()
    asked: list[str] = []
    page.on("request", lambda r: "/replay?" in r.url and asked.append(r.url))
    open_game(page, long_game)
    region = page.get_by_role("region", name="Moves so far")
    items = region.get_by_role("listitem")
    expect(items).to_have_count(8)
    expect(items.first).to_contain_text(
        f"Undo: “{said(client, long_game, in_force + 1)}”"
    )
    # The undo names its move, three pages back, loaded for it and no further.
    undo = f"Undo move {in_force}: “{said(client, long_game, in_force)}”"
    expect(page.get_by_role("button", name=undo)).to_be_visible()
    first_load = [int(re.search(r"after=(\d+)", url)[1]) for url in asked]
    assert len(first_load) == 3 and min(first_load) > 0, asked

    more = region.get_by_role("button", name=re.compile("^Show earlier moves"))
    expect(more).to_have_text(f"Show earlier moves ({moves - 8} more)")
    clicks = 0
    while more.count():
        before = more.inner_text()
        more.click()
        clicks += 1
        assert clicks <= 10
        expect(region.get_by_role("button", name=before, exact=True)).to_have_count(0)
    expect(items).to_have_count(moves)
    expect(items.last).to_contain_text(said(client, long_game, 1))
    assert clicks == 5 and page.errors == []
