"""The frame every game's picture of a replay step shares (`domain.picture`): the
game's name and the step at the top, a status line (the round, whose turn), the
game's own scene of the table (`Rules.picture`) in the middle, and the step's
sentence at the bottom.
"""

from __future__ import annotations

from typing import Any

from domain.game import AnyRules
from domain.picture import (
    BOTTOM,
    CARD,
    HEADER,
    HEIGHT,
    LEFT,
    LINE,
    ON_HEADER,
    PAPER,
    RIGHT,
    WIDTH,
    Box,
    Label,
    Picture,
    fit,
)
from domain.wording import Language, message


def pictured(
    rules: AnyRules,
    view: Any,
    step: int,
    sentence: str | None,
    language: Language,
) -> Picture:
    """The picture of a game's `step`, after which the table shows `view` (the
    public state) and which `sentence` tells (None for step 0)."""
    label = rules.labels.get(language.code, rules.name)
    scene = rules.picture(view, language)
    said = sentence if sentence is not None else language.say(message("picture.start"))
    status = list(scene.status)
    if scene.turn is not None:
        status.append(language.say(message("picture.turn", name=scene.turn)))
    step_said = language.say(message("picture.step", step=step))
    items = (
        Box(0, 0, WIDTH, 56, HEADER),
        Label(LEFT, 37, fit(label, 40), 24, ON_HEADER),
        Label(RIGHT, 37, step_said, 20, ON_HEADER, "end"),
        *([Label(LEFT, 84, fit(" · ".join(status), 90), 18)] if status else []),
        *scene.items,
        Box(0, BOTTOM + 8, WIDTH, HEIGHT - BOTTOM - 8, CARD, LINE),
        *_sentence(said),
    )
    title = f"{label}, {step_said}: {said}"
    return Picture(WIDTH, HEIGHT, PAPER, title, items)


def _sentence(said: str) -> list[Label]:
    """The step's sentence at the bottom, on two lines at most."""
    first, rest = _wrapped(said, 100)
    lines = [first] + ([fit(rest, 100)] if rest else [])
    top = BOTTOM + 36 if len(lines) == 1 else BOTTOM + 28
    return [Label(LEFT, top + 24 * n, line, 16) for n, line in enumerate(lines)]


def _wrapped(text: str, chars: int) -> tuple[str, str]:
    """The first line of `text` broken at a space within `chars`, and the rest."""
    if len(text) <= chars:
        return text, ""
    cut = text.rfind(" ", 0, chars)
    cut = chars if cut <= 0 else cut
    return text[:cut], text[cut:].lstrip()
