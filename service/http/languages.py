"""The language of the words in an answer, from the request's `Accept-Language`
(RFC 9110, section 12.5.4): the listed language of highest quality that the service
speaks, by its primary tag (`fr-CA` is French), else English. Each language's
catalogue holds the words of the app's games (`spoken`)."""

from __future__ import annotations

from collections.abc import Mapping

from litestar.connection import ASGIConnection
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from domain.wording import Language


def spoken(connection: ASGIConnection) -> Mapping[str, Language]:
    """The languages of the app answering, with its games' words (set where the
    app is built: `service.application.wording.catalogues`)."""
    return connection.app.state.languages


def negotiated(
    accept_language: str | None, languages: Mapping[str, Language]
) -> Language:
    """The language of `languages` that `accept_language` ranks highest, else
    English."""
    # Werkzeug reads the q-values and orders by them; its own best_match would rank
    # an exact `en` above `fr-CA` of higher quality, so the primary tags are ours.
    for tag, quality in parse_accept_header(accept_language or "", LanguageAccept):
        if tag == "*":
            break
        primary = tag.split("-")[0].lower()
        if quality > 0 and primary in languages:
            return languages[primary]
    return languages["en"]
