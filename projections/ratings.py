"""Players' ratings as folds: a finished game's result, what a batch of games
changes on the ladders, and the ratings a ladder's games give.

Every finished game is one match of its players in their standings (ruling T3),
rated with openskill's Plackett-Luce model and its default parameters. Each game
has its own ladder (`ladder` ''), which rates its public games (and of those only
the ones created with a key, when the service says so: `rated_needs_key`), never a
sample game (`tablelog seed`), which is no one's record; each
group one more (`ladder`: the group's key), which rates all that group's games and
is shown to its members; and each group the ladder of its public games alone
(`public_part`), shown to everyone else. A variation (a game branched from a step
of another) is never rated, nor counts in a player's records. A ladder rates its
games in the order of their finishing moves in the global log, the order the runner
reads it in. An abandoned game is not rated.

The ratings are always those of the games finished now: a game an undo reopens is
withdrawn, and a game finished again is rated at its new finishing move. Both can
change a ladder's past, so a ladder keeps each player's rating after each game
(`HistoryRow`, table `rating_history`): a change at a position refolds the ladder
from there (`refolded`), starting from the ratings of the rows before it, and never
from zero. In the common case a game finishes after every game already rated, and
the refold is that one game. Rebuilt from the log, or followed move by move, a
ladder folds the same games in the same order from the same numbers, so its ratings
are the same to the last bit.

`service/readside/ratings.py` reads what these take from the tables and writes
what they give.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple
from uuid import UUID

from openskill.models import PlackettLuce

from domain.history import History
from domain.sheet import standings as ranked
from projections.created import Created

MODEL = PlackettLuce()
# A rating is provisional until this many games are rated on its ladder.
PROVISIONAL_BELOW = 5
# A game's own ladder: its public games, whatever their group.
EVERY_GROUP = ""
# What begins the ladder of a group's public games: a control character, which no
# name holds (`domain.names.name_fault`), so no group's own key is ever one.
PUBLIC_PART = "\x1fpublic\x1f"
PUBLIC = "public"


def public_part(group_key: str) -> str:
    """The ladder of the public games of the group whose key is `group_key`."""
    return PUBLIC_PART + group_key


def ladders(group_key: str | None, on_global: bool, public: bool) -> list[str]:
    """The ladders a game is rated on: its game's (when `on_global`), its
    group's, and its group's public part (when `public`)."""
    found = [EVERY_GROUP] if on_global else []
    if group_key is not None:
        found.append(group_key)
        if public:
            found.append(public_part(group_key))
    return found


# A position in the global log: (transaction, position), the runner's order.
Position = tuple[int, int]
Ladder = tuple[str, str]  # (game, ladder)


def ordinal(mu: float, sigma: float) -> float:
    """The rating shown: the model's ordinal, mu - 3 sigma."""
    return mu - 3 * sigma


# ------------------------------------------------------------ a game's result


@dataclass(frozen=True, slots=True)
class Finish:
    """A finished game as the ratings take it: its players in seating order, their
    ranks in its standings (T3), and when its finishing move was stored."""

    game: str
    group: str | None
    players: tuple[str, ...]
    first_player: str
    winners: tuple[str, ...]
    ranks: tuple[int, ...]
    finished_at: datetime
    # Who sees it, and whether its game's own ladder rates it.
    visibility: str = PUBLIC
    on_global: bool = True


def finish_of(
    game: Created,
    history: History,
    recorded_at: datetime,
    *,
    needs_key: bool = False,
) -> Finish | None:
    """The game's result once finished at `history`'s version; None otherwise (in
    progress or abandoned), and for a variation, which is never rated: it replays
    another game's moves from one of its steps, not a game the table played.
    `needs_key`: its game's own ladder rates it only if it was created with a
    key. A sample is rated on its group's ladders alone."""
    if history.status != "finished" or game.variation_of is not None:
        return None
    sheet = history.score_sheet()
    winners = tuple(history.winners or ())
    # A game whose sheet ranks no one (T3 is each game's to apply) still has its
    # winners first and the others sharing the next rank.
    standings = sheet.standings or ranked(
        dict.fromkeys(game.players, 0), winners, most_wins=True
    )
    return Finish(
        game=game.game,
        group=game.group,
        players=tuple(game.players),
        first_player=game.first_player,
        winners=winners,
        ranks=tuple(standings[player] for player in game.players),
        finished_at=recorded_at,
        visibility=game.visibility,
        on_global=game.visibility == PUBLIC
        and not game.sample
        and (game.keyed or not needs_key),
    )


# ------------------------------------------------- what a batch changes


@dataclass(frozen=True, slots=True)
class Placed:
    """A game rated already: its game, its group's key (as the database keys
    names), and its finishing move's position, where its ladders hold it; whether
    its game's ladder rates it, and whether it is public."""

    game: str
    group_key: str | None
    position: Position
    on_global: bool = True
    public: bool = True


@dataclass(slots=True)
class Changes:
    """What a batch changes on the ladders: the rated games it withdraws, the games
    it rates (each at its finishing move's position), and the position each ladder
    touched refolds from."""

    withdrawn: list[UUID] = field(default_factory=list)
    added: list[tuple[UUID, Position, Finish]] = field(default_factory=list)
    refolds: dict[Ladder, Position] = field(default_factory=dict)

    def refold(self, placed: Placed) -> None:
        """A game placed so changes each of its ladders (`ladders`): each
        refolds from its earliest change."""
        at = placed.position
        for ladder in ladders(placed.group_key, placed.on_global, placed.public):
            key = (placed.game, ladder)
            self.refolds[key] = min(self.refolds.get(key, at), at)


def changes(
    rated: Mapping[UUID, Placed],
    finishes: Mapping[UUID, tuple[int, Finish | None]],
    positions: Mapping[UUID, Position],
) -> Changes:
    """What the games of a batch change: each game id with its version folded and
    its result then (`finishes`), the games among them rated already (`rated`),
    and where each finished game's finishing move is in the log (`positions`).

    A rated game no longer finished (an undo reopened it) is withdrawn, and one
    finished at another move is withdrawn and rated again there; both refold their
    ladders from where they were. The ladders of a game added refold from its
    position once its group's key is known (`Changes.refold`)."""
    changed = Changes()
    for game_id, (_, finish) in finishes.items():
        old = rated.get(game_id)
        position = positions.get(game_id)
        moved = old is None or old.position != position
        if old is not None and (finish is None or moved):
            changed.withdrawn.append(game_id)
            changed.refold(old)
        if finish is not None and position is not None and moved:
            changed.added.append((game_id, position, finish))
    return changed


# -------------------------------------------------------------- a ladder's fold


class Standing(NamedTuple):
    """A player's rating on a ladder, and how many of its games were rated and won."""

    mu: float
    sigma: float
    rated: int
    wins: int


class LadderGame(NamedTuple):
    """A rated game as its ladders fold it: a row of `rated_games`, the players'
    and the winners' keys as the database keys names."""

    game_id: UUID
    finish_transaction: int
    finish_position: int
    finished_at: datetime
    players: list[str]
    player_keys: list[str]
    winner_keys: list[str]
    ranks: list[int]


class HistoryRow(NamedTuple):
    """A player's rating after one game of a ladder: a row of `rating_history`, in
    its columns' order (the runner copies it in as it is)."""

    game: str
    ladder: str
    finish_transaction: int
    finish_position: int
    player_key: str
    player: str
    game_id: UUID
    rated_at: datetime
    rank: int
    mu: float
    sigma: float
    ordinal: float
    rated: int
    wins: int


def refolded(
    game: str,
    ladder: str,
    games: Iterable[LadderGame],
    before: Mapping[str, Standing],
) -> Iterator[HistoryRow]:
    """The ladder's history rows for `games`, in their order, each game rated from
    the ratings its players had after the games before it: at first `before`
    (by player key; a player absent has none yet and starts at the model's
    default)."""
    standing = dict(before)
    for played in games:
        teams = [
            [MODEL.rating(mu=s.mu, sigma=s.sigma)]
            if (s := standing.get(key))
            else [MODEL.rating()]
            for key in played.player_keys
        ]
        rated = MODEL.rate(teams, ranks=list(played.ranks))
        for name, key, rank, (after,) in zip(
            played.players, played.player_keys, played.ranks, rated, strict=True
        ):
            was = standing.get(key)
            now = Standing(
                after.mu,
                after.sigma,
                (was.rated if was else 0) + 1,
                (was.wins if was else 0) + (key in played.winner_keys),
            )
            standing[key] = now
            yield HistoryRow(
                game,
                ladder,
                played.finish_transaction,
                played.finish_position,
                key,
                name,
                played.game_id,
                played.finished_at,
                rank,
                now.mu,
                now.sigma,
                ordinal(now.mu, now.sigma),
                now.rated,
                now.wins,
            )
