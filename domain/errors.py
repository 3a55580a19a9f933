"""Errors the engines raise when a move cannot be accepted."""


class RuleError(Exception):
    """A move the rules forbid (A1). `rule` is the ruling's id (e.g. "D8"): the
    heading it has in docs/rules.md."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})"


class GameFinished(Exception):
    """A move other than undo on a game that has ended."""

    def __init__(
        self, message: str = "The game is over: only an undo can reopen it."
    ) -> None:
        super().__init__(message)
        self.message = message
