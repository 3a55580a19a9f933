"""The layers of docs/architecture.md hold: no import cycle anywhere, and every import
points the allowed way.

Imports are read from the source (every `import` statement, also inside functions:
a cycle broken by a function-level import is still a cycle for the reader).

In tests/ no module imports from a test module (`test_*.py`): what tests share lives
in tests/support or a conftest, so that reading a test means reading its own file
and the helpers it names, and importing one runs no other's fixtures.
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("domain", "projections", "service", "migrations", "seeds")

# Who may import whom, by layer: a layer may import itself and the layers listed.
# `service.settings` is the process's configuration, read by every service layer.
LAYERS = {
    "domain": set(),
    "projections": {"domain"},
    "service.storage": {"service.settings"},
    "service.application": {"domain", "projections", "service.storage"},
    "service.readside": {
        "domain",
        "projections",
        "service.application",
        "service.storage",
    },
    # The composition root: builds every collaborator of a process from its settings.
    "service.bootstrap": {
        "domain",
        "service.application",
        "service.readside",
        "service.settings",
        "service.storage",
    },
    "service.http": {
        "domain",
        "projections",
        "service.application",
        "service.bootstrap",
        "service.readside",
        "service.settings",
        "service.storage",
    },
    "service.cli": {
        "domain",
        "service.application",
        "service.bootstrap",
        "service.http",
        "service.readside",
        "service.settings",
        "service.storage",
    },
    "seeds": {"domain", "projections"},
}


# The libraries, besides the standard library, that the pure layers may import: the
# domain keeps to msgspec; the read models' folds add openskill, the ratings' model,
# a computation with no I/O. A library that holds a read model's rules is imported
# by its fold alone: the runner that writes the rows knows no model's rules.
LIBRARIES = {"domain": {"msgspec"}, "projections": {"msgspec", "openskill"}}
RULES_OF_FOLDS = {"openskill": "projections"}


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The project's modules that `name` imports (`from package import module`
    counts as importing the module, not the package: a package's submodules are
    not in a cycle with the `__init__` that gathers them)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0]
                base = f"{anchor}.{base}" if base else anchor
            names = {f"{base}.{alias.name}" for alias in node.names}
            modules_named = names & known
            targets.update(modules_named)
            if modules_named != names:  # some names are the package's own
                targets.add(base)
    # A module imported through its package, e.g. `import service.http.app`, is an
    # edge to that module, not to every package on the way.
    return {t for t in targets if t in known and t != name}


def libraries_of(path: Path) -> set[str]:
    """The top-level names of the absolute imports of a module that are not ours."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.partition(".")[0])
    return names - set(PACKAGES) - {"__future__"}


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports_of(name, path, set(found)) for name, path in found.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in edges.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return groups


def layer_of(module: str) -> str | None:
    for layer in sorted(LAYERS, key=len, reverse=True):
        if module == layer or module.startswith(layer + "."):
            return layer
    return None


def test_no_module_imports_itself_back_through_others():
    found = cycles(graph())
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_every_import_points_the_allowed_way():
    wrong = []
    for module, targets in graph().items():
        layer = layer_of(module)
        if layer is None:
            continue
        for target in targets:
            other = layer_of(target) or target
            if other != layer and other not in LAYERS[layer]:
                wrong.append(f"{module} imports {target}")
    assert not wrong, "imports against the layers:\n" + "\n".join(sorted(wrong))


def test_the_cycle_finder_finds_a_cycle():
    edges = defaultdict(set, {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})
    assert cycles(edges) == [["a", "b", "c"]]


def test_the_pure_layers_import_only_the_standard_library_and_their_libraries():
    wrong = []
    for module, path in modules().items():
        layer = layer_of(module)
        if layer not in LIBRARIES:
            continue
        others = libraries_of(path) - sys.stdlib_module_names - LIBRARIES[layer]
        wrong.extend(f"{module} imports {name}" for name in sorted(others))
    assert not wrong, "libraries outside the pure layers' own:\n" + "\n".join(wrong)


def test_a_read_models_rules_are_imported_by_its_fold_alone():
    wrong = [
        f"{module} imports {library}, which only {home} may"
        for module, path in modules().items()
        for library, home in RULES_OF_FOLDS.items()
        if library in libraries_of(path) and layer_of(module) != home
    ]
    assert not wrong, "\n".join(sorted(wrong))


def imported_test_modules(source: str, package: str) -> list[str]:
    """The test modules (`test_*`) that `source`, a module of `package`, imports."""

    def is_test_module(name: str) -> bool:
        return any(part.startswith("test_") for part in name.split("."))

    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if is_test_module(a.name))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0]
                base = f"{anchor}.{base}" if base else anchor
            if is_test_module(base):
                found.add(base)
            else:  # `from tests.service import test_cli` imports the module itself
                named = (f"{base}.{alias.name}" for alias in node.names)
                found.update(name for name in named if is_test_module(name))
    return sorted(found)


def test_no_test_module_is_imported_by_another_module_of_the_tests():
    tests = ROOT / "tests"
    wrong = []
    for path in sorted(tests.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        package = ".".join(parts[:-1])
        source = path.read_text(encoding="utf-8")
        wrong.extend(
            f"{path.relative_to(ROOT)} imports {name}"
            for name in imported_test_modules(source, package)
        )
    assert not wrong, "import these from tests/support instead:\n" + "\n".join(wrong)


def test_the_test_import_finder_finds_each_form_of_import():
    source = """
import tests.service.test_cli
from tests.service.test_stream import open_stream
from tests.service import test_keys
from .test_page import open_game
from tests.support.http import create
"""
    assert imported_test_modules(source, "tests.web") == [
        "tests.service.test_cli",
        "tests.service.test_keys",
        "tests.service.test_stream",
        "tests.web.test_page",
    ]
