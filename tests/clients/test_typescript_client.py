"""A TypeScript client typed from the committed OpenAPI document alone plays a whole
game of every kind against the real service, and makes a group a phone joins.

`openapi-typescript` turns the document into types, `openapi-fetch` makes the calls,
`tsc --strict` checks `typescript/play.ts` against them, and node runs it; it also
checks `typescript/narrow.ts`, what such a client types without help: a state narrowed
by its `game`, closed names and statuses, and moves the service refuses not compiling.
The npm packages are installed by this test (from the npm registry) into a folder of
its own; npm's cache, outside the repository, spares a download the next time.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import uuid
from pathlib import Path

import msgspec
import pytest

from domain.game import Setup
from domain.registry import BUILT_IN

HERE = Path(__file__).resolve().parent
DOCUMENT = HERE.parents[1] / "openapi" / "openapi.json"


def run(*command: str | Path, cwd: Path, timeout: float = 180) -> str:
    done = subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, f"{command}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def compiled(tmp_path_factory) -> Path:
    """The client compiled: a folder holding play.js and its node_modules."""
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.skip("needs Node.js and npm")
    work = tmp_path_factory.mktemp("typescript-client")
    for name in ("package.json", "tsconfig.json", "play.ts", "narrow.ts", "groups.ts"):
        shutil.copy(HERE / "typescript" / name, work / name)
    installed = subprocess.run(
        [
            "npm",
            "install",
            "--prefer-offline",
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
        ],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if installed.returncode != 0:
        pytest.skip(f"npm could not install the client's packages: {installed.stderr}")
    bin_ = work / "node_modules" / ".bin"
    run(bin_ / "openapi-typescript", DOCUMENT, "-o", "schema.d.ts", cwd=work)
    run(bin_ / "tsc", "-p", ".", cwd=work)
    return work


@pytest.mark.parametrize("game", sorted(BUILT_IN))
def test_a_typescript_client_plays_a_whole_game(compiled, client, game):
    setup = Setup(players=("Ana", "Bia", "Caio"), first_player="Ana", seed=11)
    moves = [msgspec.to_builtins(move) for move in BUILT_IN[game].simulate(setup)]
    moves_file = compiled / f"{game}.json"
    moves_file.write_text(json.dumps(moves))

    out = run("node", "play.js", str(client.base_url), game, moves_file, cwd=compiled)

    played = json.loads(out.strip().splitlines()[-1])
    assert played["status"] == "finished"
    assert played["version"] == len(moves) + 1
    assert played["winners"] and played["winners"] == played["sheet_winners"]


def test_a_typescript_client_makes_a_group_invites_a_phone_and_plays_in_it(
    compiled, client
):
    name = f"Club {uuid.uuid4().hex[:6]}"

    out = run("node", "groups.js", str(client.base_url), name, cwd=compiled)

    assert json.loads(out.strip().splitlines()[-1]) == {
        "joined": True,
        "role": "member",
        "game_group": name,
        "devices": ["Owner's phone", "Second phone"],
        "revoked": 200,
        "after": 401,
    }


# No database, but a build: npm installs the client's packages, tsc compiles it.
@pytest.mark.db
def test_a_typescript_client_narrows_a_state_by_its_game_without_a_guard(compiled):
    # narrow.ts compiled under --strict, its every @ts-expect-error an error indeed.
    assert (compiled / "narrow.js").is_file()
