"""The API's refusals as RFC 9457 problem details, checked as an app reads them."""

from __future__ import annotations

import httpx


def assert_problem(
    answer: httpx.Response,
    status: int,
    *words: str,
    rule: str | None = None,
    line: int | None = None,
) -> dict:
    """The problem `answer` is: of `status`, with a title and a detail that holds
    each of `words`; the ruling `rule` and, for an import, the `line` refused, when
    given."""
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    problem = answer.json()
    assert problem["status"] == status and problem["title"] and problem["detail"]
    for word in words:
        assert word in problem["detail"], problem
    if rule is not None:
        assert problem["rule"] == rule
    if line is not None:
        assert problem["line"] == line
        assert problem["detail"].startswith(f"Line {line}:")
    return problem
