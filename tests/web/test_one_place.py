"""A game lives in one place on the page: its module, a file of the game's own
package (`Rules.page`) that the service serves as `/app/games/<family>.js`. The
page's own files (its scripts, its HTML and its catalogues of sentences) name no
game: its games are those `GET /games/kinds` lists. The service worker keeps every
file the service lists (`/app/files.json`), the page's own and each game's module,
and lists none itself."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from tablelog_toy import NIM

from domain.registry import BUILT_IN
from service.http.webpage import page_files

WEB = Path(__file__).resolve().parents[2] / "service" / "http" / "web"
GAMES = [*BUILT_IN.values(), NIM]


def own_files() -> list[Path]:
    """The page's own code and words: its scripts, HTML and catalogues, not the
    vendored library. (The stylesheet's per-game looks, a colour per card, are
    classes the game modules set.)"""
    return sorted(
        path
        for path in WEB.rglob("*")
        if path.suffix in {".js", ".html"} and "vendor" not in path.parts
    )


def game_words() -> set[str]:
    """Every way a game is named: its name, its family and its labels."""
    words = set()
    for rules in GAMES:
        words |= {rules.name, rules.family, *rules.labels.values()}
    return {word.lower() for word in words}


def test_no_file_of_the_page_names_a_game():
    words = game_words()
    assert {"dobro", "dobro-pixar", "dozito", "double-donkey", "nim"} <= words
    pattern = re.compile(
        r"(?<![\w-])(" + "|".join(map(re.escape, words)) + r")(?![\w-])", re.I
    )
    named = [
        (path.relative_to(WEB).as_posix(), found)
        for path in own_files()
        for found in sorted(set(pattern.findall(path.read_text(encoding="utf-8"))))
    ]
    assert named == []


@pytest.mark.parametrize("rules", GAMES, ids=[rules.name for rules in GAMES])
def test_a_games_page_module_is_a_file_of_its_own_package(rules):
    package = Path(sys.modules[rules.decide.__module__].__file__).parent
    page = Path(str(rules.page))
    assert page.is_file() and page.parent == package
    assert page.suffix == ".js"


def test_the_service_lists_every_file_of_the_page_and_each_games_module():
    listed = page_files(BUILT_IN).files
    own = {
        path.relative_to(WEB).as_posix()
        for path in WEB.rglob("*")
        if path.suffix in {".js", ".css", ".html", ".svg", ".webmanifest"}
    }
    assert set(listed) == {"./", *own - {"sw.js"}} | {
        f"games/{family}.js" for family in ("dobro", "dozito", "double-donkey")
    }
    assert len(listed) == len(set(listed))


def test_the_service_worker_keeps_what_the_service_lists_and_lists_nothing():
    worker = (WEB / "sw.js").read_text(encoding="utf-8")
    assert 'const FILES = "files.json";' in worker
    assert re.findall(r'"[\w/.-]+\.js"', worker) == []


def test_every_file_the_service_lists_is_served(client):
    listed = client.get("/app/files.json").json()["files"]
    for file in listed:
        assert client.get(f"/app/{file}").status_code == 200, file
    for family, rules in BUILT_IN.families().items():
        module = client.get(f"/app/games/{family}.js")
        assert module.content == rules.page.read_bytes()
        assert module.headers["content-type"].startswith("text/javascript")
    missing = client.get("/app/games/nim.js")
    assert missing.status_code == 404
    assert missing.json()["detail"] == "The page has no game module 'nim.js'."
