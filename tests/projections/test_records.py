"""A player's seats, streak and rivals (`projections.records`), folded from their
finished games in the order they finished, with no database."""

from __future__ import annotations

from projections.records import (
    Finished,
    Rival,
    Rivals,
    SeatRecord,
    WinRate,
    rivals,
    seats_and_streak,
)


def finished(seats: str, won: str, first: str | None = None, game: str = "dobro"):
    """A finished game of Ana's: `seats` and `won` are initials in seating order."""
    names = {"A": "Ana", "B": "Bia", "C": "Caio", "D": "Davi"}
    keys = [names[s].lower() for s in seats]
    return Finished(
        game=game,
        player_key="ana",
        player_keys=keys,
        players=[names[s] for s in seats],
        winner_keys=[names[s].lower() for s in won],
        first_player_key=(first and names[first].lower()) or keys[0],
    )


def test_seats_count_the_games_played_and_won_from_each_seat_and_as_first():
    games = [finished("AB", "A"), finished("BA", "A"), finished("BA", "B", first="A")]

    seats = seats_and_streak(games)

    assert seats.by_seat == [
        SeatRecord(seat=1, played=1, won=1, win_rate=1.0),
        SeatRecord(seat=2, played=2, won=1, win_rate=0.5),
    ]
    assert seats.as_first_player == WinRate(played=2, won=1, win_rate=0.5)


def test_the_longest_streak_is_the_longest_run_of_games_won_in_finishing_order():
    won, lost = finished("AB", "A"), finished("AB", "B")

    seats = seats_and_streak([won, won, lost, won, won, won, lost, won])

    assert seats.longest_winning_streak == 3


def test_a_player_with_no_finished_game_has_no_seat_and_no_streak():
    seats = seats_and_streak([])

    assert seats.by_seat == [] and seats.longest_winning_streak == 0
    assert seats.as_first_player == WinRate(played=0, won=0, win_rate=0.0)


def test_a_nemesis_beat_the_player_three_times_and_more_often_than_they_lost():
    games = [finished("AB", "B")] * 3 + [finished("AB", "A")] * 2
    games += [finished("AC", "C")] * 3 + [finished("AC", "A")] * 3  # even: no rival
    games += [finished("AD", "D")] * 2  # twice only

    assert rivals(games) == Rivals(
        nemesis=[
            Rival(name="Bia", played=5, wins=2, losses=3, shared_wins=0, rate=0.6)
        ],
        minion=[],
    )


def test_a_minion_lost_three_times_and_shared_wins_count_for_neither():
    games = [finished("ABC", "A")] * 3 + [finished("ABC", "AB")] * 2

    found = rivals(games)

    assert found.nemesis == []
    assert found.minion == [
        Rival(name="Caio", played=5, wins=5, losses=0, shared_wins=0, rate=1.0),
        Rival(name="Bia", played=5, wins=3, losses=0, shared_wins=2, rate=0.6),
    ]


def test_rivals_of_equal_rates_go_by_their_count_then_their_name():
    games = [finished("ADB", "A")] * 3 + [finished("ACB", "A")] * 3

    found = rivals(games)

    assert [(r.name, r.rate, r.wins) for r in found.minion] == [
        ("Bia", 1.0, 6),
        ("Caio", 1.0, 3),
        ("Davi", 1.0, 3),
    ]


def test_a_rival_is_named_as_spelt_in_the_latest_game_together():
    spelt = Finished(
        game="dobro",
        player_key="ana",
        player_keys=["ana", "bia"],
        players=["Ana", "BIA"],
        winner_keys=["bia"],
        first_player_key="ana",
    )

    found = rivals([finished("AB", "B")] * 3 + [spelt])

    assert [r.name for r in found.nemesis] == ["BIA"]
