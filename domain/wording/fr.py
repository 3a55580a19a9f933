"""The refusals and a replay's sentences (`said.*`) that every game shares, in
French: one template per key (`domain.wording`). Each game words its own in its
package's `wording.py`.

Sentences put a player's name where French needs no elision (« à Ana », never « de
Ana »).
"""

TEMPLATES: dict[str, str | dict[str, str]] = {
    # --- every game ---------------------------------------------------------------
    "game.over": "La partie est terminée : seule une annulation peut la rouvrir.",
    "game.abandoned": (
        "La partie a été abandonnée : seule une annulation peut la rouvrir."
    ),
    "game.ended": "La partie est terminée.",
    "game.in_progress": (
        "Cette partie n'est pas finie : on pourra la rejouer une fois terminée ou "
        "abandonnée."
    ),
    "undo.nothing": "Il ne reste aucun coup à annuler.",
    "turn.other": "C'est à {expected} de jouer, pas à {name}.",
    "player.absent": "{name} ne joue pas dans cette partie.",
    "name.missing": "Chaque joueur a besoin d'un nom.",
    "name.control": (
        "Un nom de joueur ne peut pas contenir de caractère de contrôle : {name}."
    ),
    "setup.players": "{game} se joue de {fewest} à {most} joueurs, pas à {count}.",
    "setup.name_twice": (
        "Chaque joueur a besoin d'un nom à lui : {name} est donné deux fois."
    ),
    "setup.name_same": (
        "Chaque joueur a besoin d'un nom à lui : {name} et {first} sont le même nom."
    ),
    "setup.first_player": "{name} ne fait pas partie des joueurs.",
    "setup.no_option": "{game} n'a pas d'option `{name}`.",
    "setup.option": "L'option `{name}` n'est pas valable : {error}.",
    "setup.options": "Les options ne sont pas valables : {error}.",
    # --- the sentences of a replay: every game ---------------------------------------
    "said.clauses": "{said} : {clauses}",
    "said.event": "{name}",
    "said.round_ends": "fin de la manche {round}",
    "said.starts": "{starter} commence la manche {round}",
    "said.scores": "{name} marque {points}",
    "said.game_ends": {
        "one": "fin de la partie : {winners} gagne",
        "other": "fin de la partie : {winners} se partagent la victoire",
    },
    "said.undo": "Annulation : « {move} » est annulé",
    "said.abandoned": "La partie est abandonnée : elle s'arrête là, sans gagnant",
    # --- a replay step's picture: every game -----------------------------------------
    "picture.start": "La partie à sa création",
    "picture.step": "Étape {step}",
    "picture.turn": "À {name} de jouer",
    "picture.round": "Manche {round} sur {rounds}",
    "picture.player": "Joueur",
    "picture.hand": "Main",
    "picture.points": "Points",
    "picture.draw_pile": "Pioche",
    "picture.winners": {
        "one": "{winners} gagne",
        "other": "{winners} se partagent la victoire",
    },
}
