"""The refusals and a replay's sentences (`said.*`) that every game shares, in
English: one template per key (`domain.wording`). Each game words its own in its
package's `wording.py`.
"""

TEMPLATES: dict[str, str | dict[str, str]] = {
    # --- every game ---------------------------------------------------------------
    "game.over": "The game is over: only an undo can reopen it.",
    "game.abandoned": "The game was abandoned: only an undo can reopen it.",
    "game.ended": "The game is over.",
    "game.in_progress": (
        "This game is not over yet: it can be played again once it is finished or "
        "abandoned."
    ),
    "undo.nothing": "There is no move left to undo.",
    "turn.other": "It is {expected}'s turn, not {name}'s.",
    "player.absent": "{name} is not playing in this game.",
    "name.missing": "Every player needs a name.",
    "name.control": "A player's name cannot hold control characters: {name}.",
    "setup.players": "{game} is for {fewest} to {most} players, not {count}.",
    "setup.name_twice": "Every player needs a different name: {name} is given twice.",
    "setup.name_same": (
        "Every player needs a different name: {name} is the same name as {first}."
    ),
    "setup.first_player": "{name} is not one of the players.",
    "setup.no_option": "{game} has no option `{name}`.",
    "setup.option": "The option `{name}` is not valid: {error}.",
    "setup.options": "The options are not valid: {error}.",
    # --- the sentences of a replay: every game ---------------------------------------
    "said.clauses": "{said}: {clauses}",
    "said.event": "{name}",
    "said.round_ends": "round {round} ends",
    "said.starts": "{starter} starts round {round}",
    "said.scores": "{name} scores {points}",
    "said.game_ends": {
        "one": "the game ends: {winners} wins",
        "other": "the game ends: {winners} share the victory",
    },
    "said.undo": "Undo: “{move}” is taken back",
    "said.abandoned": "The game is abandoned: it ends here, and nobody wins",
    # --- a replay step's picture: every game -----------------------------------------
    "picture.start": "The game as created",
    "picture.step": "Step {step}",
    "picture.turn": "{name} to play",
    "picture.round": "Round {round} of {rounds}",
    "picture.player": "Player",
    "picture.hand": "Hand",
    "picture.points": "Points",
    "picture.draw_pile": "Draw pile",
    "picture.winners": {
        "one": "{winners} wins",
        "other": "{winners} share the victory",
    },
}
