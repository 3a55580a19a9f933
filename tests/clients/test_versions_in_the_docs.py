"""The client generators docs/api.md tells an app developer to install are the ones
the tests generate with, at the very versions: a release of one may stop working
with another (TypeScript 7 broke openapi-typescript 7, which calls TypeScript 5's
compiler API), so the docs and the tests' package files pin them exactly."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "api.md"
# The npm packages of the tests: the TypeScript client's, and the guide's examples'.
PACKAGE_FILES = (
    ROOT / "tests" / "clients" / "typescript" / "package.json",
    ROOT / "tests" / "docs" / "typescript" / "package.json",
)
EXACT = re.compile(r"\d+\.\d+\.\d+")
# `name@version` in an npm command (`@types/node@20.19.43` too), a bare `name` after
# `npm install`, and `name==version` in a pip command.
NPM_PINNED = re.compile(r"((?:@[\w-]+/)?[\w.-]+)@([\w.^~<>=*-]+)")
PIP_PINNED = re.compile(r"([\w.-]+)==([\w.]+)")


def commands(tool: str) -> list[str]:
    """Each `tool` command the guide gives, in a code block or inline."""
    text = GUIDE.read_text(encoding="utf-8")
    return re.findall(rf"(?m)(?:^|`){tool} [^`\n]*", text)


def npm_pins() -> dict[str, str]:
    """What the tests install, each package at one exact version."""
    pins: dict[str, str] = {}
    for file in PACKAGE_FILES:
        for name, version in json.loads(file.read_text())["dependencies"].items():
            assert EXACT.fullmatch(version), f"{file}: {name} {version} is a range"
            assert pins.setdefault(name, version) == version, f"{name} twice"
    return pins


def test_the_guide_installs_the_npm_packages_the_tests_pass_with():
    pins = npm_pins()
    installs = commands("npm install")
    assert installs
    for command in installs:
        words = command.split()[2:]
        named = [w for w in words if not w.startswith("-")]
        pinned = dict(NPM_PINNED.findall(" ".join(named)))
        assert len(pinned) == len(named), f"unpinned in `{command}`"
        assert {n: pins.get(n) for n in pinned} == pinned, command
    guide_packages = json.loads(PACKAGE_FILES[1].read_text())["dependencies"]
    told = {n for c in installs for n, _ in NPM_PINNED.findall(c)}
    assert set(guide_packages) <= told
    for command in commands("npx"):
        tool = command.split()[1]
        assert tool in told or NPM_PINNED.fullmatch(tool), command


def test_the_guide_installs_the_python_generator_the_tests_pass_with():
    constraints = (ROOT / "constraints.txt").read_text()
    locked = dict(PIP_PINNED.findall(constraints))
    installs = [c for c in commands("pip install") if "openapi-python-client" in c]
    assert installs
    for command in installs:
        pinned = dict(PIP_PINNED.findall(command))
        assert pinned.get("openapi-python-client"), f"unpinned in `{command}`"
        assert {n: locked.get(n) for n in pinned} == pinned, command
