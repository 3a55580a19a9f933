"""A game lives in one place on the page: its module in web/games/, listed once in
web/games/index.js by family. No other page file names a game (its bounds and labels
come from `GET /games/kinds`), and the service worker keeps every file of the page.
Read from the source, so no browser is needed."""

from __future__ import annotations

import re
from pathlib import Path

from domain.registry import BUILT_IN

WEB = Path(__file__).resolve().parents[2] / "service" / "http" / "web"
SHELL = re.compile(r"const SHELL = \[(.*?)\];", re.DOTALL)


def page_files() -> list[Path]:
    """The page's own code: its scripts and HTML, not its catalogues of sentences
    (i18n/) nor the vendored library. (The stylesheet's per-game looks, a colour
    per card, are classes the game modules set.)"""
    return sorted(
        path
        for path in WEB.rglob("*")
        if path.suffix in {".js", ".html"}
        and not {"i18n", "vendor"} & set(path.relative_to(WEB).parts)
    )


def game_words() -> set[str]:
    """Every way a game is named: its name, its family and its labels."""
    words = set()
    for rules in BUILT_IN.values():
        words |= {rules.name, rules.family, *rules.labels.values()}
    return {word.lower() for word in words}


def test_no_page_file_outside_the_games_modules_names_a_game():
    words = game_words()
    assert {"dobro", "dobro-pixar", "dozito", "double-donkey"} <= words
    pattern = re.compile(
        r"(?<![\w-])(" + "|".join(map(re.escape, words)) + r")(?![\w-])", re.I
    )
    named = []
    for path in page_files():
        if path.parent.name == "games":
            continue
        text = path.read_text(encoding="utf-8")
        if path.name == "sw.js":  # its list of the files it keeps names the modules
            text = SHELL.sub("", text)
        named += [(path.name, m) for m in sorted(set(pattern.findall(text)))]
    assert named == []


def test_the_games_registry_lists_each_family_the_service_hosts_once():
    registry = (WEB / "games" / "index.js").read_text(encoding="utf-8")
    listed = re.search(r"FAMILIES = \{(.*?)\}", registry).group(1)
    families = sorted(entry.split(":")[0].strip(' "') for entry in listed.split(","))
    assert families == sorted({rules.family for rules in BUILT_IN.values()})
    for family in families:
        assert (WEB / "games" / f"{family}.js").is_file()


def test_the_service_worker_keeps_every_file_of_the_page():
    worker = (WEB / "sw.js").read_text(encoding="utf-8")
    kept = set(re.findall(r'"([^"]+)"', SHELL.search(worker).group(1)))
    scripts = {
        path.relative_to(WEB).as_posix()
        for path in WEB.rglob("*.js")
        if path.name != "sw.js"
    }
    assert scripts - kept == set()
    assert "KINDS" in SHELL.search(worker).group(1)  # `/games/kinds`, for offline
