"""A replay's step shared from the page, one tap each: its picture, the game as a
GIF, the game's file and the step's link. A phone without the Web Share API saves
the files and copies the link; one with it hands each to its share sheet. A
members-only game's files are read with the group's key, and a variation tried
from its replay is read with it too."""

from __future__ import annotations

import re
import uuid
from pathlib import Path

from playwright.sync_api import expect

from tests.support.http import create, play_simulated
from tests.support.pages import make_group

# The Web Share API as a phone has it, recording what its share sheet was given.
SHARE_SHEET = """
window.shared = [];
navigator.canShare = (data) => Boolean(data && data.files);
navigator.share = async (data) => {
  const files = await Promise.all((data.files || []).map(async (file) => ({
    name: file.name, type: file.type,
    head: new TextDecoder("latin1").decode((await file.arrayBuffer()).slice(0, 16)),
  })));
  window.shared.push({ files, url: data.url || null, title: data.title });
};
"""


def test_a_phone_without_a_share_sheet_saves_each_file_and_copies_the_link(
    new_page, client, tmp_path
):
    game = create(
        client, game="dobro", players=["Ana", "Bo"], seed=7, options={"rounds": 1}
    )
    play_simulated(client, game, limit=8)
    page = new_page()
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(f"/app/#/games/{game['id']}/replay/6")
    page.get_by_role("button", name="Share", exact=True).click()

    saved: dict[str, bytes] = {}
    for label in (
        "Share the picture",
        "Share the game as a GIF",
        "Share the game's file",
    ):
        with page.expect_download() as waiting:
            page.get_by_role("button", name=label).click()
        download = waiting.value
        path = tmp_path / download.suggested_filename
        download.save_as(path)
        saved[download.suggested_filename] = Path(path).read_bytes()
        expect(
            page.get_by_text(f"{download.suggested_filename} is downloaded.")
        ).to_be_visible()

    assert saved["step-6.png"][1:4] == b"PNG"
    assert saved["game-6.gif"][:6] == b"GIF89a"
    exported = saved[f"game-{game['id']}.ndjson"].decode()
    assert exported.startswith('{"type":"game_created"') and exported.count("\n") == 9
    page.get_by_role("button", name="Share the link").click()
    expect(page.get_by_text("Copied.")).to_be_visible()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.endswith(f"/app/#/games/{game['id']}/replay/6")
    assert page.errors == []


def test_a_phone_with_a_share_sheet_shares_a_members_games_files_in_french(
    new_page, client
):
    page = new_page()
    page.add_init_script(SHARE_SHEET)
    make_group(page, f"Club {uuid.uuid4().hex[:6]}", "Ana's phone")
    page.get_by_text("Start a game in this group").click()
    page.get_by_label("Game", exact=True).select_option("dobro")
    page.get_by_label("Player 1", exact=True).fill("Ana")
    page.get_by_label("Player 2", exact=True).fill("Bo")
    page.get_by_label("Player 3", exact=True).fill("Cy")
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("button", name="All of them are new players").click()
    expect(page.get_by_role("link", name="Replay")).to_be_visible()
    game_id = page.url.split("/games/")[1].split("?")[0]
    assert client.get(f"/games/{game_id}/export").status_code == 404  # members only
    page.get_by_role("button", name="Language: Français").click()
    page.get_by_role("link", name="Revoir").click()
    page.get_by_role("button", name="Partager", exact=True).click()

    for label in (
        "Partager l'image",
        "Partager la partie en GIF",
        "Partager le fichier de la partie",
        "Partager le lien",
    ):
        page.get_by_role("button", name=label).click()
    page.wait_for_function("window.shared.length === 4")

    shared = page.evaluate("window.shared")
    picture, gif, file, link = shared
    assert picture["files"][0]["name"] == "step-0.png"
    assert picture["files"][0]["head"][1:4] == "PNG"
    assert gif["files"][0]["head"][:6] == "GIF89a"
    assert file["files"][0]["name"] == f"game-{game_id}.ndjson"
    assert file["files"][0]["head"].startswith('{"type":"game_cr')
    assert link["url"].endswith(f"/app/#/games/{game_id}/replay/0")

    # A variation of the members' game is theirs too, and opens on this phone.
    page.on("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Essayer un autre coup ici").click()
    expect(page).not_to_have_url(re.compile(game_id))
    expect(page.get_by_role("link", name="Revoir")).to_be_visible()
    assert page.errors == []
