"""domain/ is typed strictly, and each game's class is the Rules of domain/game.py:
mypy, with the settings of pyproject.toml, checks the domain and the toy game and
finds nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_domain_and_the_toy_game_pass_mypy_strict(tmp_path: Path) -> None:
    mypy = [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path)]
    checked = subprocess.run(
        [*mypy, "domain", "tests/toy/tablelog_toy"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "Success: no issues found" in checked.stdout
