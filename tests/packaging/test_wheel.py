"""The package as a newcomer installs it: a wheel in a fresh virtual environment, run
from an empty directory, far from the checkout.

The wheel is built from the checkout and installed without its dependencies; those
come from this test run's own environment through a path file, so the test takes
seconds and needs no network. What it proves is that the wheel carries everything of
ours that `tablelog serve` and `tablelog seed` need (the migrations, the sample games,
the web page and each game's module for it), and that nothing is found in the
checkout instead.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from domain.registry import BUILT_IN
from tests.support.ports import free_port
from tests.support.processes import start_serving, stop

# A wheel built, and `tablelog serve` on its embedded PostgreSQL.
pytestmark = pytest.mark.db

CHECKOUT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh venv with the wheel installed; its bin/ folder."""
    work = tmp_path_factory.mktemp("wheel")
    source = _copy_of_the_checkout(work / "source")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", work, source],
        check=True,
        timeout=300,
    )
    (wheel,) = work.glob("tablelog-*.whl")
    venv = work / "venv"
    # Without a pip of its own (seeding one costs seconds): this environment's pip
    # installs into it.
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", venv], check=True, timeout=120
    )
    python = venv / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", python, "install", "-q"]
    subprocess.run([*pip, "--no-deps", wheel], check=True, timeout=300)
    # The dependencies, from this environment's site-packages: a path file adds the
    # folder to sys.path without running the path files in it, so the checkout's own
    # editable install there stays out of the venv.
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    Path(purelib, "dependencies.pth").write_text(
        "\n".join(site.getsitepackages()) + "\n"
    )
    return venv / "bin"


def test_the_installed_package_is_the_wheels_not_the_checkouts(installed, tmp_path):
    code = "import migrations, seeds, service; print(service.__file__)"
    done = subprocess.run(
        [installed / "python", "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert Path(done.stdout.strip()).is_relative_to(installed.parent), done.stdout
    assert not Path(done.stdout.strip()).is_relative_to(CHECKOUT)


def test_the_installed_tablelog_seeds_and_serves(installed, tmp_path):
    empty = tmp_path / "anywhere"
    empty.mkdir()
    data = tmp_path / "data"
    seeded = subprocess.run(
        [installed / "tablelog", "seed", "--data-dir", data],
        cwd=empty,
        env=_without_database_url(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert seeded.returncode == 0, seeded.stdout + seeded.stderr
    samples = sorted(p.name for p in (CHECKOUT / "seeds").glob("*.ndjson"))
    for name in samples:
        assert name in seeded.stdout
    port = free_port()
    server = start_serving(
        [installed / "tablelog", "serve", "--port", str(port), "--data-dir", data],
        port,
        cwd=empty,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        # `seed` ran without the service: its projection runner lists the samples
        # once it has folded them, a moment after it starts.
        deadline = time.monotonic() + 30
        while len(listed := _games(base)) < len(samples):
            assert time.monotonic() < deadline, f"listed {len(listed)} samples"
            time.sleep(0.2)
        assert len(listed) == len(samples)
        body = {"game": "dozito", "players": ["Ann", "Bob"], "first_player": "Ann"}
        answer = httpx.post(f"{base}/games", json=body)
        assert answer.status_code == 201
        # A picture's text needs the font shipped beside its renderer.
        picture = f"{base}/games/{answer.json()['id']}/replay/0/image?format=png"
        assert httpx.get(picture).status_code == 200
        assert "<html" in httpx.get(f"{base}/app/").text.lower()
        # Every file of the page, those in its folders too, and each game's module,
        # a file of the game's package.
        web = CHECKOUT / "service" / "http" / "web"
        for path in sorted(web.rglob("*.*")):
            page = path.relative_to(web).as_posix()
            assert httpx.get(f"{base}/app/{page}").status_code == 200, page
        for family, rules in BUILT_IN.families().items():
            module = httpx.get(f"{base}/app/games/{family}.js")
            assert module.content == rules.page.read_bytes(), family
    finally:
        stop(server)


def _games(base: str) -> list[dict]:
    return httpx.get(f"{base}/games", params={"limit": 100}).json()["games"]


def _copy_of_the_checkout(target: Path) -> Path:
    """The files git knows of (tracked, or new and not ignored), as a fresh clone
    would have them: no build/ folder left by an earlier build can leak in."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=CHECKOUT,
        check=True,
        capture_output=True,
    ).stdout.split(b"\0")
    for name in filter(None, listed):
        path = CHECKOUT / os.fsdecode(name)
        if path.is_file():
            (target / path.relative_to(CHECKOUT)).parent.mkdir(
                parents=True, exist_ok=True
            )
            shutil.copy2(path, target / path.relative_to(CHECKOUT))
    return target


def _without_database_url() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
