"""The examples of the docs, as a CommonMark parser reads them, each with what it is.

An HTML comment just before a block says what the block is an example of; it does not
show in the rendered page:

    <!-- example: POST /games request -->        the body of a request
    <!-- example: POST /games 201 -->            an answer, by status
    <!-- example: schema DozitoCard -->          a part, by the schema's name
    <!-- example: run -->                        a script the tests run

`example:` goes before a fenced block (`json`, or `text` for an event stream);
`examples:` before a table or a paragraph, whose every inline JSON object is then an
example of its target. A `json` block with no comment is an error, so none escapes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

ROOT = Path(__file__).resolve().parents[2]
PAGES = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))
GUIDE = ROOT / "docs" / "api.md"
README = ROOT / "README.md"

_ANNOTATION = re.compile(r"<!--\s*(example|examples):\s*(.+?)\s*-->")
_BLOCK_OPENINGS = {"fence", "table_open", "paragraph_open"}


@dataclass(frozen=True)
class Example:
    """One block of a page: where it is, what it is said to be, and its text."""

    page: Path
    line: int  # 1-based, of the block's first line
    kind: str  # the fence's language, or "table" / "paragraph"
    target: str | None  # what the annotation names, None without one
    text: str

    def __str__(self) -> str:
        page = self.page
        if page.is_relative_to(ROOT):
            page = page.relative_to(ROOT)
        return f"{page}:{self.line} ({self.target})"

    def inline_objects(self) -> list[object]:
        """The JSON objects among the block's inline code spans."""
        found = []
        for span in re.findall(r"`([^`]+)`", self.text):
            try:
                value = json.loads(span)
            except ValueError:
                continue
            if isinstance(value, dict):
                found.append(value)
        return found


def examples(page: Path) -> Iterator[Example]:
    """Every fenced block of the page, and every table or paragraph annotated."""
    tokens = MarkdownIt("commonmark").enable("table").parse(page.read_text())
    pending: tuple[str, str, int] | None = None
    for index, token in enumerate(tokens):
        if token.type == "html_block" and (found := _ANNOTATION.search(token.content)):
            pending = (found.group(1), found.group(2), token.map[0] + 1)
            continue
        if token.type not in _BLOCK_OPENINGS:
            continue
        if pending is not None:
            yield _annotated(page, token, tokens[index:], pending)
        elif token.type == "fence":
            yield Example(page, token.map[0] + 1, _language(token), None, token.content)
        pending = None


def _annotated(
    page: Path, token: Token, rest: list[Token], annotation: tuple[str, str, int]
) -> Example:
    keyword, target, line = annotation
    wanted = "fence" if keyword == "example" else "a table or paragraph"
    if (token.type == "fence") != (keyword == "example"):
        raise AssertionError(f"{page.name}:{line}: `{keyword}:` must precede {wanted}")
    if token.type == "fence":
        kind, text = _language(token), token.content
    else:
        kind = token.type.removesuffix("_open")
        closing = token.type.replace("_open", "_close")
        end = next(i for i, t in enumerate(rest) if t.type == closing)
        text = "\n".join(t.content for t in rest[:end] if t.type == "inline")
    return Example(page, token.map[0] + 1, kind, target, text)


def _language(fence: Token) -> str:
    return fence.info.split(maxsplit=1)[0] if fence.info.strip() else ""
