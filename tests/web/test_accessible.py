"""axe-core, run inside the browser on the home, game and replay pages: no serious or
critical violation. axe comes from npm, installed for the test session only: the page
itself has no build step and ships nothing of it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.support.http import create, play_simulated
from tests.web.test_page import open_game
from tests.web.test_phone import tap_donkey_card, up_to_the_reveal

AXE_VERSION = "4.14.1"


@pytest.fixture(scope="session")
def axe_source(tmp_path_factory) -> str:
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed: axe-core cannot be fetched")
    prefix = tmp_path_factory.mktemp("axe")
    try:
        subprocess.run(
            [
                "npm",
                "install",
                "--prefix",
                str(prefix),
                "--prefer-offline",
                "--no-audit",
                "--no-fund",
                f"axe-core@{AXE_VERSION}",
            ],
            check=True,
            capture_output=True,
            timeout=180,
        )
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as error:
        pytest.skip(f"npm could not install axe-core: {error}")
    return (Path(prefix) / "node_modules/axe-core/axe.min.js").read_text()


def serious(page, axe_source: str) -> list[str]:
    # Evaluated by the browser's devtools protocol, not added as an inline <script>,
    # which the page's Content-Security-Policy refuses.
    page.evaluate(axe_source)
    results = page.evaluate("async () => await axe.run()")
    assert results["passes"], "axe checked nothing"
    found = results["violations"]
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


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
