"""Every read of one game, and the rule for a game hidden from the caller (or
removed): it answers exactly as a game never created does, its status, its body
but for the id, and the headers that matter."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

DOCUMENT = Path(__file__).parents[2] / "openapi" / "openapi.json"
# Headers a hidden game's answer must share with a missing game's.
COMPARED = ("content-type", "content-language", "vary", "cache-control", "etag")


def game_paths() -> list[str]:
    """Every GET path of the document that names a game."""
    paths = json.loads(DOCUMENT.read_text())["paths"]
    return sorted(p for p, ops in paths.items() if "{game_id}" in p and "get" in ops)


def filled(path: str, game_id: str) -> str:
    return path.replace("{game_id}", game_id).replace("{step}", "1")


def read(client: httpx.Client, path: str, headers: dict) -> httpx.Response:
    """The answer to a GET; a stream's body is left unread (it never ends)."""
    with client.stream("GET", path, headers=headers) as answer:
        if not (path.endswith("/stream") and answer.status_code == 200):
            answer.read()
        return answer


def normalised(answer: httpx.Response, game_id: str) -> tuple:
    headers = {name: answer.headers.get(name) for name in COMPARED}
    return answer.status_code, answer.content.replace(game_id.encode(), b"ID"), headers
