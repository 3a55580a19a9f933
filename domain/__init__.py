"""The rules of the games tablelog records: pure deciders, no I/O.

Each game is a `domain.game.Rules`: an initial state built from the table's set-up,
a `decide` that checks a move and answers with the events it causes (or a
`RuleError`), and an `evolve` that applies one event. `domain.history` folds stored
moves, undo included, into the state the same way for every game.
"""
