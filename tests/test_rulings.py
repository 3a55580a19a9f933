"""The rulings, their page and their tests agree.

docs/rules.md defines every ruling under a heading `### D9 — A wild's value`. The
engines in domain/ cite rulings by id in their errors, docstrings and comments; tests
carry the ids they check at the end of their names (`..._D9`, `..._D14_D16`). These
tests hold the three together, and keep the repository free of pointers to folders
outside it.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from functools import cache

from tests.support.repository import ROOT, tracked_files

RULES = ROOT / "docs" / "rules.md"

ID = r"[ADKZT]\d+"
HEADING = re.compile(rf"^### ({ID}) — \S")
CITATION = re.compile(rf"\b({ID})\b")
WHERE = "**In the code**"
MODULE = re.compile(r"`(domain/[\w/]+\.py)`")
# Written in pieces so that this file does not find itself.
OUTSIDE = ("../" + "shared", "/work/" + "shared", "RULINGS" + ".md")


def _order(ruling: str) -> tuple[int, int]:
    return ("DZKAT".index(ruling[0]), int(ruling[1:]))


def _listed(rulings) -> str:
    return ", ".join(sorted(set(rulings), key=_order))


@cache
def sections() -> dict[str, str]:
    """Each ruling of docs/rules.md and the text under its heading."""
    found: dict[str, str] = {}
    ruling = None
    for line in RULES.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            match = HEADING.match(line)
            ruling = match.group(1) if match else None
            if ruling is not None:
                found.setdefault(ruling, "")
        elif ruling is not None:
            found[ruling] += line + "\n"
    return found


@cache
def citations() -> dict[str, set[str]]:
    """Each ruling id cited in domain/ and the modules that cite it."""
    cited: dict[str, set[str]] = defaultdict(set)
    for path in sorted((ROOT / "domain").rglob("*.py")):
        for ruling in CITATION.findall(path.read_text(encoding="utf-8")):
            cited[ruling].add(path.relative_to(ROOT).as_posix())
    return cited


@cache
def defined_tests() -> tuple[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef], ...]:
    """(file, definition) of every test function under tests/, read from the source."""
    found = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            is_function = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            if is_function and node.name.startswith("test"):
                found.append((path.relative_to(ROOT).as_posix(), node))
    return tuple(found)


@cache
def named_tests() -> tuple[tuple[str, str], ...]:
    """(file, name) of every test function under tests/."""
    return tuple((path, node.name) for path, node in defined_tests())


def asserted_rulings(test: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The ruling ids a test names as values (`refused(state, move, "Z2")`,
    `problem["rule"] == "D8"`, a parametrized `"A2"`): the refusals it expects."""
    return {
        node.value
        for part in (*test.decorator_list, *test.body)
        for node in ast.walk(part)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and re.fullmatch(ID, node.value)
    }


def trailing_rulings(name: str) -> tuple[str, ...]:
    """The ruling ids a test name ends with: `..._D14_D16` gives D14 and D16."""
    parts = name.split("_")
    count = 0
    while count < len(parts) and re.fullmatch(ID, parts[len(parts) - 1 - count]):
        count += 1
    return tuple(parts[len(parts) - count :])


def test_every_heading_names_one_ruling() -> None:
    """A `###` heading is a ruling's: `### D9 — A wild's value`, each id once."""
    text = RULES.read_text(encoding="utf-8")
    headings = [line for line in text.splitlines() if line.startswith("### ")]
    malformed = [line for line in headings if not HEADING.match(line)]
    assert not malformed, f"headings not of the form `### D9 — Title`: {malformed}"
    rulings = [HEADING.match(line).group(1) for line in headings]
    twice = {ruling for ruling in rulings if rulings.count(ruling) > 1}
    assert not twice, f"rulings defined twice in docs/rules.md: {_listed(twice)}"


def test_every_ruling_the_engines_cite_is_defined() -> None:
    missing = {r: where for r, where in citations().items() if r not in sections()}
    detail = "; ".join(f"{r} in {', '.join(sorted(missing[r]))}" for r in missing)
    assert not missing, (
        f"cited in domain/ but not defined in docs/rules.md: {_listed(missing)} "
        f"({detail})"
    )


def test_every_ruling_defined_is_cited_by_an_engine() -> None:
    uncited = set(sections()) - set(citations())
    assert not uncited, (
        f"defined in docs/rules.md but cited nowhere in domain/: {_listed(uncited)}"
    )


def test_every_ruling_defined_has_a_test_named_for_it() -> None:
    named = {ruling for _, name in named_tests() for ruling in trailing_rulings(name)}
    untested = set(sections()) - named
    assert not untested, (
        "no test under tests/ ends its name with these rulings' ids: "
        f"{_listed(untested)}"
    )


def test_test_names_carry_ruling_ids_only_at_their_end() -> None:
    """`test_one_draw_per_turn_Z4`, not `test_z4_one_draw_per_turn`."""
    misplaced = defaultdict(list)
    for path, name in named_tests():
        parts = name.split("_")
        body = parts[: len(parts) - len(trailing_rulings(name))]
        for part in body:
            if re.fullmatch(ID, part, re.IGNORECASE):
                misplaced[part.upper()].append(f"{path}::{name}")
    lines = "\n".join(f"  {r}: {', '.join(misplaced[r])}" for r in misplaced)
    assert not misplaced, (
        "test names must end with their ruling ids, in upper case "
        f"(`..._Z4`); these carry {_listed(misplaced)} elsewhere:\n{lines}"
    )


def test_a_test_named_for_rulings_names_every_ruling_it_expects() -> None:
    """`pytest -k Z3` finds the tests of Z3: a test whose name ends with ruling ids
    and that expects a refusal under a ruling carries that ruling's id too. (Its name
    may also carry the rulings it shows at work without a refusal, as `..._D8_D9`
    refuses under D8 a wild's value declared under D9.)"""
    misnamed = []
    for path, test in defined_tests():
        named = set(trailing_rulings(test.name))
        unnamed = asserted_rulings(test) - named
        if named and unnamed:
            misnamed.append(f"  {path}::{test.name} expects {_listed(unnamed)}")
    assert not misnamed, (
        "tests that expect refusals under rulings their names do not end with:\n"
        + "\n".join(misnamed)
    )


def test_test_names_cite_only_rulings_that_are_defined() -> None:
    unknown = defaultdict(list)
    for path, name in named_tests():
        for ruling in trailing_rulings(name):
            if ruling not in sections():
                unknown[ruling].append(f"{path}::{name}")
    assert not unknown, (
        f"test names cite rulings docs/rules.md does not define: {_listed(unknown)} "
        f"({dict(unknown)})"
    )


def test_every_ruling_says_which_modules_apply_it() -> None:
    """Its **In the code** line names modules that exist, one at least citing it."""
    problems = {}
    for ruling, text in sections().items():
        where = text.partition(WHERE)[2]
        modules = MODULE.findall(where)
        absent = [module for module in modules if not (ROOT / module).is_file()]
        if not modules:
            problems[ruling] = f"no {WHERE} line naming domain/ modules"
        elif absent:
            problems[ruling] = f"no such module: {', '.join(absent)}"
        elif not set(modules) & citations().get(ruling, set()):
            problems[ruling] = f"none of {', '.join(modules)} cites {ruling}"
    lines = "\n".join(f"  {ruling}: {why}" for ruling, why in problems.items())
    assert not problems, (
        f"docs/rules.md does not say where these rulings live: {_listed(problems)}\n"
        f"{lines}"
    )


def test_no_tracked_file_points_outside_the_repository() -> None:
    """The rulings live in docs/rules.md, not in a folder a clone does not have."""
    found = defaultdict(list)
    for path in tracked_files():
        content = path.read_bytes()
        for needle in OUTSIDE:
            if needle.encode() in content:
                found[path.relative_to(ROOT).as_posix()].append(needle)
    lines = "\n".join(f"  {path}: {', '.join(found[path])}" for path in found)
    assert not found, f"tracked files that point outside the repository:\n{lines}"
