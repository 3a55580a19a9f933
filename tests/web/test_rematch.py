"""The phones of a table playing again (T4): a finished game's page offers "Play
again" to a phone that logs the game (with its write token, or its group's key),
and one tap makes the next game at the same table and opens it, its write token
kept on the phone, which logs its first move (the next game links to the one
before); a second phone of the group that taps it later is taken to the same next
game; a phone that only watches is not offered it."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.support.groups import make_group, new_players
from tests.support.http import play_simulated
from tests.support.keys import bearer
from tests.support.pages import fact, open_game

# Ana and Bo join the roster of the group that seats them.
GAME = {
    "game": "dobro",
    "players": new_players("Ana", "Bo"),
    "seed": 7,
    "options": {"rounds": 1},
}


def test_one_tap_plays_a_finished_game_again_and_opens_the_next_game_T4(
    new_page, client
):
    group = make_group(client, visibility="public")
    answer = client.post(
        "/games", json={**GAME, "first_player": "Ana"}, headers=bearer(group["key"])
    )
    assert answer.status_code == 201, answer.text
    game = answer.json()
    play_simulated(client, game)

    # The phone that started the game holds its token: it is offered to play again.
    table = new_page()
    open_game(table, game)
    expect(table.get_by_text("Game over")).to_be_visible()
    table.get_by_role("button", name="Play again").click()
    expect(table).not_to_have_url(re.compile(game["id"]))
    next_id = re.search(r"#/games/([0-9a-f-]{36})", table.url)[1]
    following = client.get(f"/games/{next_id}").json()
    assert following["rematch_of"] == game["id"]
    assert following["players"] == ["Ana", "Bo"] and following["group"] == group["name"]
    kept = table.evaluate(f"localStorage.getItem('tablelog:token:{next_id}')")
    assert kept, "the next game's write token is kept on this phone"
    previous = table.get_by_role("link", name="The game before")
    expect(previous).to_have_attribute("href", f"#/games/{game['id']}")

    # Its token logs the next game's first move, from the phone.
    first = following["first_player"]
    expect(table.get_by_text(f"{first}'s turn")).to_be_visible()
    table.get_by_role("radio", name="6", exact=True).check()
    table.get_by_role("button", name=f"{first} plays 6").click()
    expect(fact(table, "Value in play")).to_have_text("6")

    # A phone of the group, which logs the group's games with its key, taps later:
    # it is taken to the same next game, and logs it too.
    member = new_page()
    member.goto("/app/")
    member.evaluate(
        "(group) => localStorage.setItem('tablelog:groups', "
        'JSON.stringify({[group.id]: {...group, device: "Bo\'s phone"}}))',
        group,
    )
    open_game(member, game, with_token=False)
    member.get_by_role("button", name="Play again").click()
    expect(member).to_have_url(re.compile(f"#/games/{next_id}$"))
    expect(fact(member, "Value in play")).to_have_text("6")
    expect(member.get_by_role("heading", name="Log a move")).to_be_visible()
    expect(member.get_by_text("This device is watching.")).to_have_count(0)

    # A phone that only watches sees the game over, and nothing to play again.
    watcher = new_page()
    open_game(watcher, game, with_token=False)
    expect(watcher.get_by_text("The game is over.")).to_be_visible()
    expect(watcher.get_by_role("button", name="Play again")).to_have_count(0)
    assert table.errors == member.errors == watcher.errors == []
