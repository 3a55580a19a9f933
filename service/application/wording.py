"""The service's own refusals, worded once in each language it speaks, and each
language's whole catalogue for a registry (`catalogues`): the sentences of its
games' engines (`Registry.languages`) and these.

Only the refusals a player meets at the table are here (a token, a game that moved
on, a game that is not there). Those that only a program meets, about a request's
shape, an import file's lines or a feed's cursor, are said in English.
"""

from __future__ import annotations

import functools

from domain.errors import GameFinished, GameInProgress, RuleError
from domain.registry import Registry
from domain.wording import Language, Message, message

ENGLISH = {
    "title.move_refused": "Move not allowed",
    "rule.cited": "{sentence} ({rule})",
    "token.missing": "Send the game's write token as 'Authorization: Bearer <token>'.",
    "token.wrong": "That is not this game's write token.",
    "game.unknown_kind": "Unknown game {game}: choose one of {known}.",
    "game.not_found": "There is no game {game_id}.",
    "game.no_step": "The game has steps 0 to {last}, not {step}.",
    "game.full": (
        "The game holds {most} moves, the most a game may hold: start a new game to "
        "go on."
    ),
    "game.moved_on": (
        "The game is at version {version}, not {expected}: another move was logged "
        "first. Reload the game and log the move again if it still applies."
    ),
    "game.too_fast": "The game is changing too fast: send the move again.",
    "move.other_game": "'{move}' is not a move of {game}.",
    "player.unknown": "No game has a player named {name}.",
    "player.unrated": "{name} has no rated game of {game} there.",
    "note.unknown": "The game has no note {note}.",
    "note.game_full": (
        "The game holds {most} notes and withdrawals, the most a game may hold."
    ),
    "note.step_full": "Step {step} holds {most} notes, the most a step may hold.",
    "variation.unknown": "The game has no variation {variation}.",
    "variation.full": (
        "The variation has been named or hidden {most} times, the most a variation "
        "may be."
    ),
    "roster.unknown": (
        "Nobody called {name} plays in {group} yet: add them as a new player."
    ),
    "roster.unknown_near": (
        "Nobody called {name} plays in {group}: did you mean {nearest}?"
    ),
    "roster.name_in_use": "{name} is on the roster already.",
    "roster.no_player": "The group has no player {player_id}.",
    "roster.full": "A group holds at most {most} players.",
    "import.duplicate": (
        "This file is game {game_id}, which is already here (the same players, "
        "seed, options and moves, or its first moves): nothing was stored."
    ),
    "rematch.made": "This game was already played again.",
    "rematch.made_as": (
        "This game was already played again: the next game is {game_id}."
    ),
}

FRENCH = {
    "title.move_refused": "Coup refusé",
    "rule.cited": "{sentence} ({rule})",
    "token.missing": (
        "Envoyez le jeton d'écriture de la partie en 'Authorization: Bearer <jeton>'."
    ),
    "token.wrong": "Ce n'est pas le jeton d'écriture de cette partie.",
    "game.unknown_kind": "Jeu inconnu, {game} : choisissez parmi {known}.",
    "game.not_found": "Il n'y a pas de partie {game_id}.",
    "game.no_step": "La partie a les étapes 0 à {last}, pas {step}.",
    "game.full": (
        "La partie compte {most} coups, le plus qu'une partie puisse compter : "
        "commencez une nouvelle partie pour continuer."
    ),
    "game.moved_on": (
        "La partie est à la version {version}, pas {expected} : un autre coup a été "
        "noté avant. Rechargez la partie et notez à nouveau le coup s'il vaut encore."
    ),
    "game.too_fast": "La partie change trop vite : envoyez le coup à nouveau.",
    "move.other_game": "« {move} » n'est pas un coup de {game}.",
    "player.unknown": "Aucune partie n'a de joueur nommé {name}.",
    "player.unrated": "{name} n'a pas de partie de {game} classée là.",
    "note.unknown": "La partie n'a pas de note {note}.",
    "note.game_full": (
        "La partie compte {most} notes et retraits, le plus qu'une partie puisse "
        "compter."
    ),
    "note.step_full": (
        "L'étape {step} compte {most} notes, le plus qu'une étape puisse compter."
    ),
    "variation.unknown": "La partie n'a pas de variante {variation}.",
    "variation.full": (
        "La variante a été nommée ou masquée {most} fois, le plus qu'une variante "
        "puisse l'être."
    ),
    "roster.unknown": (
        "Personne ne s'appelle {name} dans {group} : ajoutez ce nouveau joueur."
    ),
    "roster.unknown_near": (
        "Personne ne s'appelle {name} dans {group} : vouliez-vous dire {nearest} ?"
    ),
    "roster.name_in_use": "{name} est déjà dans la liste des joueurs.",
    "roster.no_player": "Le groupe n'a pas de joueur {player_id}.",
    "roster.full": "Un groupe compte au plus {most} joueurs.",
    "import.duplicate": (
        "Ce fichier est la partie {game_id}, qui est déjà là (les mêmes joueurs, "
        "graine, options et coups, ou ses premiers coups) : rien n'a été enregistré."
    ),
    "rematch.made": "Cette partie a déjà été rejouée.",
    "rematch.made_as": (
        "Cette partie a déjà été rejouée : la partie suivante est {game_id}."
    ),
}

_SERVICE = {"en": ENGLISH, "fr": FRENCH}


@functools.cache
def catalogues(games: Registry) -> dict[str, Language]:
    """Each language the service speaks with its whole catalogue: the words every
    game shares, those of `games` and the service's own. Built once a registry (a
    registry is one object, `domain.registry`)."""
    return {
        code: language.with_templates(_SERVICE[code])
        for code, language in games.languages.items()
    }


# English in the words every game shares and the service's own: what the service
# says of no game in particular (a refusal of its own, a name's fault).
DEFAULT = catalogues(Registry())["en"]


def cited(error: RuleError | GameInProgress) -> Message:
    """A refusal's sentence with the ruling it cites: "... (D8)"."""
    return message("rule.cited", sentence=error.said, rule=error.rule)


def in_english(error: RuleError | GameFinished, games: Registry) -> str:
    """A refusal of one of `games` said in English, for a program's reader (an
    import's line, the CLI): a move the rules refuse cites its ruling."""
    said = cited(error) if isinstance(error, RuleError) else error.said
    return catalogues(games)["en"].render(said)
