"""Games installed as plug-ins: every distribution that declares a game under the
entry-point group `tablelog.games` joins the built-in games, and one that cannot
(it does not import, its game takes a built-in game's name, its game fails the
registry's checks) is left out with an error naming its distribution, the others
hosted. The distributions here are made in a folder of the test's, as pip would
install them."""

from __future__ import annotations

import ast
import logging
from importlib.metadata import EntryPoint, distributions
from pathlib import Path

import pytest

from domain.registry import BUILT_IN
from service.application.plugins import GROUP, games_of

TOY = "tablelog_toy"


def installed(folder: Path, name: str, entry_points: dict[str, str]) -> None:
    """A distribution `name` 1.0 in `folder`, declaring `entry_points`."""
    info = folder / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n", encoding="utf-8"
    )
    declared = "".join(f"{key} = {value}\n" for key, value in entry_points.items())
    (info / "entry_points.txt").write_text(f"[{GROUP}]\n{declared}", encoding="utf-8")


def found(folder: Path) -> list[EntryPoint]:
    """The game entry points of the distributions in `folder`, by name."""
    dists = sorted(distributions(path=[str(folder)]), key=lambda d: d.name)
    return [entry for dist in dists for entry in dist.entry_points.select(group=GROUP)]


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where the test's distributions are installed: importable, as site-packages."""
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_a_game_declared_by_a_distribution_joins_the_built_in_games(folder, caplog):
    installed(folder, "tablelog-toy", {"nim": f"{TOY}:NIM"})
    with caplog.at_level(logging.INFO):
        games = games_of(found(folder))
    assert list(games) == [*BUILT_IN, "nim"]
    assert games.languages["fr"].templates["nim.count"].startswith("Prenez")
    assert "game plug-in nim = tablelog_toy:NIM (tablelog-toy 1.0) hosts nim" in (
        caplog.messages
    )


def test_without_plug_ins_the_built_in_games_are_hosted(folder):
    assert games_of(found(folder)) is BUILT_IN


def test_an_entry_point_may_name_a_callable_that_gives_several_games(folder):
    (folder / "two_nims.py").write_text(
        "from tablelog_toy import Nim\n"
        "class Big(Nim):\n"
        "    name = 'big-nim'\n"
        "def games():\n"
        "    return [Nim(), Big()]\n",
        encoding="utf-8",
    )
    installed(folder, "two-nims", {"nims": "two_nims:games"})
    assert list(games_of(found(folder)))[-2:] == ["nim", "big-nim"]


def test_a_broken_plug_in_is_left_out_naming_its_distribution_and_others_are_hosted(
    folder, caplog
):
    (folder / "broken_game.py").write_text(
        "import a_module_nobody_installed\n", encoding="utf-8"
    )
    (folder / "half_game.py").write_text(
        "class Half:\n    name = 'half'\nHALF = Half()\n", encoding="utf-8"
    )
    installed(folder, "a-broken-game", {"broken": "broken_game:GAME"})
    installed(folder, "b-dobro-again", {"dobro": "domain.dobro:DOBRO"})
    installed(folder, "c-half-game", {"half": "half_game:HALF"})
    installed(folder, "d-toy", {"nim": f"{TOY}:NIM"})
    with caplog.at_level(logging.INFO):
        games = games_of(found(folder))
    assert list(games) == [*BUILT_IN, "nim"]
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert errors[0] == (
        "game plug-in broken = broken_game:GAME (a-broken-game 1.0) left out: it "
        "does not load: ModuleNotFoundError: No module named "
        "'a_module_nobody_installed'"
    )
    assert errors[1] == (
        "game plug-in dobro = domain.dobro:DOBRO (b-dobro-again 1.0) left out: "
        "another game is named 'dobro' already"
    )
    assert errors[2].startswith(
        "game plug-in half = half_game:HALF (c-half-game 1.0) left out: it lacks "
        "labels, family"
    )
    assert len(errors) == 3


def test_a_game_whose_page_module_is_not_installed_is_left_out(folder, caplog):
    (folder / "pageless.py").write_text(
        "from pathlib import Path\n"
        "from tablelog_toy import Nim\n"
        "class Pageless(Nim):\n"
        "    name = family = 'pageless'\n"
        "    page = Path(__file__).parent / 'pageless.js'\n"
        "PAGELESS = Pageless()\n",
        encoding="utf-8",
    )
    installed(folder, "pageless", {"pageless": "pageless:PAGELESS"})
    assert games_of(found(folder)) is BUILT_IN
    (error,) = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert error == (
        "game plug-in pageless = pageless:PAGELESS (pageless 1.0) left out: its page "
        f"module {folder / 'pageless.js'} is not installed"
    )


SERVICE = Path(__file__).resolve().parents[2] / "service"
# Who may name the built-in games: the finder, which adds the plug-ins to them, and
# the writer of the committed document, which is theirs.
NAMES_THE_BUILT_IN_GAMES = {"application/plugins.py", "http/openapi.py"}


def test_no_module_of_the_service_reads_a_registry_of_its_own():
    named = {}
    for path in sorted(SERVICE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "domain.registry":
                names = {alias.name for alias in node.names} - {"Registry", "faults"}
                if names:
                    named[path.relative_to(SERVICE).as_posix()] = names
    assert named == {path: {"BUILT_IN"} for path in NAMES_THE_BUILT_IN_GAMES}
