"""Comments and docs say what the code is, not how it came to be: no issue numbers
and no history ("used to"): that is what commit messages are for."""

from __future__ import annotations

import re

from tests.support.repository import ROOT, tracked_files

# Written in pieces so that this file does not find itself.
HISTORY = re.compile(r"\b[Ii]ssue #?\d+|\b" + "used" + r" to\b (?!connect|be )")
CHECKED = {".py", ".md", ".js", ".sql", ".toml", ".html", ".css"}


def test_no_comment_or_doc_tells_history():
    found = []
    for path in tracked_files():
        if path.suffix not in CHECKED or "vendor" in path.parts:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if HISTORY.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "history told in the tree:\n" + "\n".join(found)
