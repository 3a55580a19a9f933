"""The integration guide's examples run against a real service, as written.

Every `sh`, `python` and `ts` block of docs/api.md is marked `<!-- example: run -->`;
the blocks of one language are run in order as one script (so later steps use the
game that earlier ones created), each on a server of its own database, so that the
feed from its beginning holds the guide's games alone. The scripts check what they
show themselves (`test`, `assert`): a script that exits non-zero fails here.

The TypeScript is typed from the app's OpenAPI document with `openapi-typescript`,
type-checked with `tsc --strict` and run with node, as in tests/clients; its npm
packages are installed from the npm registry into a temporary folder.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from service.http.openapi import document
from service.storage.migrate import migrate
from tests.docs.examples import GUIDE, README, examples
from tests.support.receivers import receiver
from tests.support.server import running_server

HERE = Path(__file__).resolve().parent
LANGUAGES = ("sh", "python", "ts")


def script(page: Path, language: str) -> str:
    """The page's blocks in `language` marked to run, in order, as one script."""
    blocks = [
        e.text for e in examples(page) if e.kind == language and e.target == "run"
    ]
    assert blocks, f"{page.name} has no {language} example to run"
    return "\n".join(blocks)


def test_every_code_block_of_the_guide_runs():
    code = [e for e in examples(GUIDE) if e.kind in LANGUAGES]
    assert len(code) > 3 * len(LANGUAGES)
    assert [str(e) for e in code if e.target != "run"] == []


@pytest.fixture(scope="module")
def api(create_database) -> str:
    database = create_database()
    migrate(database)
    # The webhooks' endpoint (step 9) is a receiver on loopback, as a test rig's.
    with (
        running_server(database, webhooks_allow_private=True) as base_url,
        keys_on(database),
        receiver() as hook,
    ):
        os.environ["HOOK_URL"] = hook.url
        try:
            yield base_url
        finally:
            os.environ.pop("HOOK_URL", None)


@contextmanager
def keys_on(database: str) -> Iterator[None]:
    """The guide's scripts as the service's host runs them: `tablelog` at hand, on
    the service's database, and the app's key in `APP_KEY` (steps 8 and 9)."""
    bin_ = str(Path(sys.executable).parent)
    env = {"DATABASE_URL": database, "PATH": f"{bin_}{os.pathsep}{os.environ['PATH']}"}
    made = subprocess.run(
        [bin_ + "/tablelog", "keys", "create", "--name", "guide", "--scopes",
         "games:create,moves:write,read,webhooks"],
        env={**os.environ, **env}, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    (key,) = [line[5:] for line in made.stdout.splitlines() if line[:5] == "key: "]
    before = {name: os.environ.get(name) for name in (*env, "APP_KEY")}
    os.environ.update(env, APP_KEY=key)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def run(command: list[str | Path], cwd: Path, api: str, timeout: float = 120) -> str:
    env = {**os.environ, "API": api}
    done = subprocess.run(
        [str(part) for part in command],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip
    assert done.returncode == 0, f"{command}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def shell_script(folder: Path, text: str) -> list[str | Path]:
    """The command that runs `text` with bash, stopping at the first failure (and
    tracing each command, for the message of a failure)."""
    for tool in ("bash", "curl", "python3"):
        if shutil.which(tool) is None:
            pytest.skip(f"the curl examples need {tool}")
    (folder / "example.sh").write_text("set -euxo pipefail\n" + text)
    return ["bash", "example.sh"]


def test_the_curl_examples_run(api, tmp_path):
    run(shell_script(tmp_path, script(GUIDE, "sh")), tmp_path, api)


def test_the_readmes_curl_example_runs(api, tmp_path):
    # The README talks to `tablelog serve` at its default address.
    text = script(README, "sh").replace("localhost:8000", api.removeprefix("http://"))
    out = run(shell_script(tmp_path, text), tmp_path, api)
    assert '{"version":2,' in out and '"value_in_play":4' in out
    assert '"type":"game_created"' in out


def test_the_python_examples_run(api, tmp_path):
    (tmp_path / "guide.py").write_text(script(GUIDE, "python"))
    run([sys.executable, "guide.py"], tmp_path, api)


def test_the_typescript_examples_type_check_and_run(api, tmp_path):
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.skip("the TypeScript examples need Node.js and npm")
    for name in ("package.json", "tsconfig.json"):
        shutil.copy(HERE / "typescript" / name, tmp_path / name)
    installed = subprocess.run(
        ["npm", "install", "--prefer-offline", "--no-audit", "--no-fund",
         "--loglevel=error"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    if installed.returncode != 0:
        pytest.skip(f"npm could not install the packages: {installed.stderr}")
    (tmp_path / "openapi.json").write_text(document())
    (tmp_path / "guide.ts").write_text(script(GUIDE, "ts"))
    bin_ = tmp_path / "node_modules" / ".bin"
    run(
        [bin_ / "openapi-typescript", "openapi.json", "-o", "schema.d.ts"],
        tmp_path,
        api,
    )
    run([bin_ / "tsc", "-p", "."], tmp_path, api)
    run(["node", "guide.js"], tmp_path, api)
