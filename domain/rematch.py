"""Playing a game again (T4): the next game at the same table, once this one is over.

The next game is a new game of the same kind, with the same players in the same
seats and the same options, and a seed of its own. Who opens it is each game's
own rule, `Rules.rematch_first_player`: its rulebook's way of choosing the first
player of a game, applied to the next one (each game cites its ruling), or, where
a rulebook says nothing of it, the player seated after the one who opened the game
before (`next_seat`). A game still being played is finished or abandoned first.
"""

from __future__ import annotations

from typing import Any

from domain.errors import GameInProgress
from domain.game import Setup
from domain.history import History


def rematch_first_player(history: History) -> str | None:
    """Who opens the game played after `history`: one of its players, or None when
    the game's rules draw the first player, from the new game's seed (D4).
    GameInProgress (T4) while the game is still being played."""
    if history.status == "in_progress":
        raise GameInProgress("T4", "game.in_progress")
    return history.rules.rematch_first_player(history.setup, history.state)


def next_seat(setup: Setup, state: Any) -> str:
    """T4, for a game whose rulebook does not say who opens the next game: the
    player seated after the one who opened this one (clockwise, the seating
    order), so that the opening goes round the table game after game."""
    players = setup.players
    return players[(players.index(setup.first_player) + 1) % len(players)]
