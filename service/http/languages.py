"""The language of the words in an answer, from the request's `Accept-Language`
(RFC 9110, section 12.5.4): the listed language of highest quality that the service
speaks, by its primary tag (`fr-CA` is French), else English."""

from __future__ import annotations

from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from domain.wording import Language
from service.application.wording import DEFAULT, LANGUAGES


def negotiated(accept_language: str | None) -> Language:
    # Werkzeug reads the q-values and orders by them; its own best_match would rank
    # an exact `en` above `fr-CA` of higher quality, so the primary tags are ours.
    for tag, quality in parse_accept_header(accept_language or "", LanguageAccept):
        if tag == "*":
            return DEFAULT
        primary = tag.split("-")[0].lower()
        if quality > 0 and primary in LANGUAGES:
            return LANGUAGES[primary]
    return DEFAULT
