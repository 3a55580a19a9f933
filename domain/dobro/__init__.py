"""Dobro, in its two editions: `dobro` (the original) and `dobro-pixar` (rulings
D1-D17 in docs/rules.md). The editions share the rules and differ in their deck, wild
range and D5's two-player removals. The Dobrei card has no rule effect: it is not
modelled (D2).
"""

from __future__ import annotations

from functools import partial

from domain.dobro import wording
from domain.dobro.components import DOBRO_DECK, DOBRO_PIXAR_DECK, Edition, Options
from domain.dobro.describe import describe
from domain.dobro.events import EVENTS
from domain.dobro.evolve import FOLDS
from domain.dobro.moves import MOVES
from domain.dobro.picture import picture
from domain.dobro.rules import decide
from domain.dobro.setup import MAX_PLAYERS, MIN_PLAYERS, initial_state
from domain.dobro.sheet import next_sheet, score_sheet
from domain.dobro.table import simulate
from domain.dobro.view import outcome, view
from domain.game import Rules


def _rules(edition: Edition, label: str) -> Rules:
    return Rules(
        name=edition.name,
        labels={"en": label, "fr": label},
        family="dobro",
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        options=Options,
        moves=MOVES,
        events=EVENTS,
        initial_state=partial(initial_state, edition),
        decide=decide,
        folds=FOLDS,
        view=view,
        outcome=outcome,
        score_sheet=score_sheet,
        next_sheet=next_sheet,
        simulate=partial(simulate, edition),
        sentences={"en": wording.ENGLISH, "fr": wording.FRENCH},
        describe=describe,
        picture=picture,
    )


DOBRO = _rules(DOBRO_DECK, "Dobro")
DOBRO_PIXAR = _rules(DOBRO_PIXAR_DECK, "Dobro Pixar")

__all__ = ["DOBRO", "DOBRO_PIXAR"]
