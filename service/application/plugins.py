"""The games a service hosts: the four built into tablelog, and every game an
installed distribution declares under the entry-point group `tablelog.games`, found
as pytest finds its `pytest11` plug-ins.

An entry point names a game's `Rules` (`nim = "tablelog_toy:NIM"`), or a callable
that returns one or several. A plug-in that cannot be hosted is left out with an
error in the log naming its distribution and why: one that does not import, or
whose callable fails, a game the registry refuses (`domain.registry.faults`: a name
a built-in game or another plug-in has, a part of the Rules missing, ...) and one
whose page module is not installed.
The service starts with the others. The registry is found once in a process and
handed to what hosts it (`create_app`, the shell's commands).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterable
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from domain.registry import BUILT_IN, Registry, faults

GROUP = "tablelog.games"

log = logging.getLogger(__name__)


@functools.cache
def installed_games() -> Registry:
    """The built-in games and those of every plug-in installed."""
    return games_of(entry_points(group=GROUP))


def games_of(found: Iterable[EntryPoint], built_in: Registry = BUILT_IN) -> Registry:
    """`built_in` and the games the entry points `found` name, each that may join
    them (in the order found); `built_in` itself when none is added."""
    games = list(built_in.values())
    for entry in found:
        for rules in _loaded(entry):
            refused = faults(rules, games) or _shipped(rules)
            if refused:
                log.error(
                    "game plug-in %s left out: %s", _origin(entry), "; ".join(refused)
                )
                continue
            log.info("game plug-in %s hosts %s", _origin(entry), rules.name)
            games.append(rules)
    return Registry(games) if len(games) > len(built_in) else built_in


def _shipped(rules: Any) -> list[str]:
    """Its page module is installed with it (a package that leaves it out of its
    distribution could not be played in the page)."""
    if rules.page.is_file():
        return []
    return [f"its page module {rules.page} is not installed"]


def _loaded(entry: EntryPoint) -> list[Any]:
    """The games an entry point names: its object, or what its callable returns
    (one game or several); none, said in the log, when it cannot give them."""
    try:
        named = entry.load()
        if callable(named) and not hasattr(named, "decide"):
            named = named()
    except Exception as error:  # a plug-in may fail in any way: say which
        log.error(
            "game plug-in %s left out: it does not load: %s: %s",
            _origin(entry),
            type(error).__name__,
            error,
        )
        return []
    if hasattr(named, "decide") or isinstance(named, str | bytes):
        return [named]
    try:
        return list(named)
    except TypeError:
        return [named]


def _origin(entry: EntryPoint) -> str:
    """The entry point and its distribution, as a log line names them:
    `nim = tablelog_toy:NIM (tablelog-toy 0.1.0)`."""
    dist = entry.dist
    where = "an unknown distribution" if dist is None else f"{dist.name} {dist.version}"
    return f"{entry.name} = {entry.value} ({where})"
