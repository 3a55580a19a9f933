"""The rules of the games tablelog records: pure deciders, no I/O.

Each game is a class that is a `domain.game.Rules`: an initial state built from the
table's set-up, a `decide` that checks a move and answers with the events it causes
(or a `RuleError`), an `evolve` that applies one event, and what a table needs
around them (the phase, the moves allowed now, the public view, the score sheet).
`domain.history` folds stored moves, undo included, into the state the same way for
every game; `domain.registry` lists the games and the languages they are said in.
"""
