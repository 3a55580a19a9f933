"""A player's record as folds of their finished games, taken in the order the games
finished: the games played and won from each seat and as first player, the longest
run of games won, and their rivals.

`service/readside/records.py` reads a player's finished games (`rated_games`) and
answers with these.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import NamedTuple

import msgspec

# Rivals: at least this many losses to a nemesis (wins over a minion).
RIVAL_GAMES = 3


class Finished(NamedTuple):
    """One finished game of a player, as `rated_games` holds it: the game, the
    player's key, the players' keys and names in seating order, the winners' keys
    and the first player's key."""

    game: str
    player_key: str
    player_keys: list[str]
    players: list[str]
    winner_keys: list[str]
    first_player_key: str


class WinRate(msgspec.Struct, kw_only=True):
    played: int
    won: int
    win_rate: float


class SeatRecord(WinRate, kw_only=True):
    """The games played from one seat (1 is the first name of a game's players)."""

    seat: int


class Seats(NamedTuple):
    """A player's finished games of one game by seat and as first player, and the
    longest run of them won."""

    by_seat: list[SeatRecord]
    as_first_player: WinRate
    longest_winning_streak: int


class Rival(msgspec.Struct, kw_only=True):
    """Finished games against one opponent: `wins` over them (this player won and
    they did not), `losses` to them, `shared_wins` (both won); `rate` is the loss
    rate of a nemesis, the win rate of a minion, over the games played together."""

    name: str
    played: int
    wins: int
    losses: int
    shared_wins: int
    rate: float


class Rivals(msgspec.Struct, kw_only=True):
    """`nemesis`: the opponents this player lost to at least 3 times and more often
    than they beat them, the highest loss rate first; `minion`: the other way."""

    nemesis: list[Rival]
    minion: list[Rival]


def _win_rate(played: int, won: int) -> dict[str, int | float]:
    return {"played": played, "won": won, "win_rate": won / played if played else 0.0}


def seats_and_streak(games: Sequence[Finished]) -> Seats:
    """Seats, first player and the longest winning streak of one game's finished
    games, in the order they finished."""
    seats: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    first = [0, 0]
    streak = longest = 0
    for played in games:
        me = played.player_key
        won = me in played.winner_keys
        seat = seats[played.player_keys.index(me) + 1]
        seat[0] += 1
        seat[1] += won
        if played.first_player_key == me:
            first[0] += 1
            first[1] += won
        streak = streak + 1 if won else 0
        longest = max(longest, streak)
    return Seats(
        by_seat=[
            SeatRecord(seat=seat, **_win_rate(*counts))
            for seat, counts in sorted(seats.items())
        ],
        as_first_player=WinRate(**_win_rate(*first)),
        longest_winning_streak=longest,
    )


def rivals(games: Sequence[Finished]) -> Rivals:
    """Every opponent's games, wins, losses and shared wins, then the rivals."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    names: dict[str, str] = {}
    for played in games:
        i_won = played.player_key in played.winner_keys
        for key, name in zip(played.player_keys, played.players, strict=True):
            if key == played.player_key:
                continue
            names[key] = name  # as spelt in their latest game together
            they_won = key in played.winner_keys
            tally = counts[key]
            tally[0] += 1
            tally[1] += i_won and not they_won
            tally[2] += they_won and not i_won
            tally[3] += i_won and they_won
    opponents = [
        (key, played, wins, losses, shared)
        for key, (played, wins, losses, shared) in counts.items()
    ]

    def listed(by_losses: bool) -> list[Rival]:
        found = []
        for key, played, wins, losses, shared in opponents:
            beaten, beating = (losses, wins) if by_losses else (wins, losses)
            if beaten >= RIVAL_GAMES and beaten > beating:
                found.append(
                    Rival(
                        name=names[key],
                        played=played,
                        wins=wins,
                        losses=losses,
                        shared_wins=shared,
                        rate=beaten / played,
                    )
                )
        return sorted(
            found,
            key=lambda r: (-r.rate, -(r.losses if by_losses else r.wins), r.name),
        )

    return Rivals(nemesis=listed(True), minion=listed(False))
