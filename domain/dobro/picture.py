"""What a picture of a Dobro replay step shows (`domain.picture`): the players'
hands, score piles and points, the value in play and the cards of the climb, the
draw pile and the direction of play. Only the public view: a hand is a count."""

from __future__ import annotations

from domain.dobro.components import Card
from domain.dobro.view import DobroView
from domain.picture import (
    BOTTOM,
    INK,
    LEFT,
    MUTED,
    TOP,
    Item,
    Label,
    Scene,
    card,
    fact,
    fit,
    pile,
    players,
)
from domain.wording import Language, Names, message

# The cards of a climb drawn side by side; a longer climb shows its latest ones.
SHOWN_CARDS = 7
CENTRE = 520


def picture(view: DobroView, language: Language) -> Scene:
    status = [
        language.say(message("picture.round", round=view.round, rounds=view.rounds))
    ]
    columns = [
        language.say(message("picture.hand")),
        language.say(message("picture.dobro.pile")),
        language.say(message("picture.points")),
    ]
    rows = [
        (name, [view.hand_sizes[name], view.score_piles[name], view.totals[name]])
        for name in view.hand_sizes
    ]
    items = players(LEFT, TOP, 460, columns, rows, view.next_player, language)
    items += _climb(view, language)
    draw_pile = language.say(message("picture.draw_pile"))
    items += pile(CENTRE, TOP + 196, draw_pile, view.draw_pile_size, language)
    arrow = "↻" if view.direction == "clockwise" else "↺"
    direction = language.say(message(f"said.dobro.direction.{view.direction}"))
    items.append(Label(CENTRE + 80, TOP + 240, f"{arrow} {direction}", 18))
    if view.forgetful is not None:
        forgetful = language.say(message("picture.dobro.forgetful"))
        items += fact(CENTRE + 80, TOP + 270, forgetful, view.forgetful)
    if view.winners:
        items.append(_winners(view.winners, language))
    return Scene(tuple(status), view.next_player, tuple(items))


def _climb(view: DobroView, language: Language) -> list[Item]:
    """The value in play, then the cards of the climb, latest last."""
    value = "-" if view.value_in_play is None else language.say(view.value_in_play)
    items: list[Item] = [
        Label(
            CENTRE, TOP + 22, language.say(message("picture.dobro.value")), 14, MUTED
        ),
        Label(CENTRE, TOP + 70, value, 44, INK),
    ]
    shown = view.cards_in_play[-SHOWN_CARDS:]
    hidden = len(view.cards_in_play) - len(shown)
    x = CENTRE + 90
    if hidden:
        items.append(Label(x, TOP + 78, f"+{hidden}", 18, MUTED))
        x += 36
    for n, played in enumerate(shown):
        face, size = _face(played, language)
        items += card(x + 48 * n, TOP + 30, face, width=44, height=62, size=size)
    return items


def _face(played: Card, language: Language) -> tuple[str, int]:
    """A card's face and the size of its text: a number, or a special's name."""
    if isinstance(played, int):
        return str(played), 24
    return fit(language.say(message(f"picture.dobro.card.{played}")), 6), 11


def _winners(winners: list[str], language: Language) -> Label:
    said = message("picture.winners", winners=Names(winners), count=len(winners))
    return Label(CENTRE, BOTTOM - 12, fit(language.say(said), 40), 20)
