"""Read models as pure folds: score sheets, replay steps, the game list's rows, the
players' ratings and records, folded from a game's history with no I/O."""
