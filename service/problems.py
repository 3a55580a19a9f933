"""Every error the API answers, as RFC 9457 problem details (problem+json)."""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

import msgspec
import psycopg
import psycopg_pool
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.plugins.problem_details import (
    ProblemDetailsConfig,
    ProblemDetailsException,
    ProblemDetailsPlugin,
)

from domain.errors import GameFinished, RuleError

log = logging.getLogger(__name__)


class Problem(ProblemDetailsException):
    """An error answer: `title` names the kind of problem, `detail` what happened."""

    def __init__(self, status: int, detail: str, **extra: Any) -> None:
        super().__init__(
            status_code=status,
            title=HTTPStatus(status).phrase,
            detail=detail,
            extra=extra or None,
        )


def rule_broken(error: RuleError) -> Problem:
    """A1: the move is refused, nothing is stored, and the ruling is named."""
    problem = Problem(422, str(error), rule=error.rule)
    problem.title = "Move not allowed"
    return problem


def game_finished(error: GameFinished) -> Problem:
    return Problem(409, error.message, rule="A2")


def invalid_body(error: ValidationException | msgspec.ValidationError) -> Problem:
    """422: a body the API cannot read (bad JSON, a wrong type, a missing field)."""
    if isinstance(error, msgspec.ValidationError):
        return Problem(422, f"The request is not valid: {error}.")
    errors = error.extra if isinstance(error.extra, list) else []
    reasons = "; ".join(
        f"{e['key']}: {e.get('message')}" if e.get("key") else str(e.get("message"))
        for e in errors
        if isinstance(e, dict)
    )
    return Problem(422, f"The request is not valid: {reasons or error.detail}.")


def http_error(error: HTTPException) -> Problem:
    problem = Problem(error.status_code, str(error.detail))
    problem.headers = error.headers
    return problem


def too_deep(error: RecursionError) -> Problem:
    """422: JSON nested deeper than the decoder follows (a body no client sends)."""
    return Problem(422, "The request is not valid: its JSON is nested too deeply.")


def unstorable(error: psycopg.DataError) -> Problem:
    """422: a value PostgreSQL cannot hold (text with a NUL) reached a query."""
    log.info("refused data the database cannot store: %s", error)
    return Problem(422, "The request holds a value that cannot be stored (e.g. NUL).")


def database_unavailable(error: Exception) -> Problem:
    log.warning("database unavailable: %s", error)
    problem = Problem(503, "The database is not answering; try again in a moment.")
    problem.headers = {"Retry-After": "1"}
    return problem


def unexpected(request: Request, error: Exception) -> Response:
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    return Problem(500, "Something went wrong on our side.").to_response(request)


def plugin() -> ProblemDetailsPlugin:
    return ProblemDetailsPlugin(
        ProblemDetailsConfig(
            exception_to_problem_detail_map={
                RuleError: rule_broken,
                GameFinished: game_finished,
                ValidationException: invalid_body,
                msgspec.ValidationError: invalid_body,
                HTTPException: http_error,
                psycopg.DataError: unstorable,
                RecursionError: too_deep,
                psycopg.OperationalError: database_unavailable,
                psycopg_pool.PoolTimeout: database_unavailable,
            }
        )
    )
