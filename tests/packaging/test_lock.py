"""The lock (`constraints.txt`) still fits `pyproject.toml`.

The tests and CI install exact versions: `pip install -c constraints.txt -e
".[test]"`. A requirement of `pyproject.toml` that the lock leaves out would be
installed at whatever version is newest that day, and one the lock pins outside its
range would make that install fail; both are caught here, before a fresh machine
meets them. `uv pip compile` (the command is in the lock's header) writes the lock
again.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
_PIN = re.compile(
    r"^(?P<name>[A-Za-z0-9._-]+)==(?P<version>[^\s;]+)\s*(?:;(?P<marker>.+))?$"
)


def pins() -> dict[str, list[tuple[Version, Marker | None]]]:
    """Each locked package's versions, with the environments each is for."""
    locked: dict[str, list[tuple[Version, Marker | None]]] = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        pin = _PIN.match(line)
        assert pin, f"not an exact pin: {line!r}"
        marker = Marker(pin["marker"]) if pin["marker"] else None
        name = canonicalize_name(pin["name"])
        locked.setdefault(name, []).append((Version(pin["version"]), marker))
    return locked


def declared() -> Iterator[Requirement]:
    """Every requirement of `pyproject.toml`: the service's and each extra's."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    yield from map(Requirement, project["dependencies"])
    for extra in project["optional-dependencies"].values():
        yield from map(Requirement, extra)


def test_the_lock_pins_every_requirement_within_its_range():
    locked = pins()
    for requirement in declared():
        name = canonicalize_name(requirement.name)
        assert name in locked, f"{requirement} is not in constraints.txt"
        for version, _ in locked[name]:
            assert requirement.specifier.contains(version, prereleases=True), (
                f"constraints.txt pins {name}=={version}, outside {requirement}"
            )


def test_the_lock_pins_everything_the_tests_install():
    """Every package installed to run the tests, their requirements' requirements
    too, is in the lock: one that a new release starts to need is not installed at
    whatever version is newest that day."""
    locked = pins()
    wanted = [Requirement("tablelog[test]")]
    seen: set[str] = set()
    while wanted:
        requirement = wanted.pop()
        name = canonicalize_name(requirement.name)
        if name in seen:
            continue
        seen.add(name)
        assert name == "tablelog" or name in locked, f"{name} is not in the lock"
        extras = requirement.extras or {""}
        for needed in map(Requirement, metadata.requires(name) or []):
            marker = needed.marker
            if marker is None or any(marker.evaluate({"extra": e}) for e in extras):
                wanted.append(needed)
