"""Seeded virtual tables play whole Dobro games; every move is checked against the
rulings independently of the engine: cards accounted for (D1, D5, D11), rounds end as
D13 says, scores (D12, D14, D15), starters (D17) and winners (D16), and the stored log
survives a JSON round trip and folds back into the live state."""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec
import pytest

from domain.dobro import DOBRO, DOBRO_PIXAR
from domain.dobro.events import GameEnded, RoundDealt, RoundScored
from domain.dobro.moves import ForgotRefill, Play, Reverse, Skip, Take
from domain.game import Rules, Setup
from domain.history import Codec, History, Recorded

GAMES = 200
NAMES = ("Ana", "Bia", "Caio", "Davi", "Eva", "Fábio")

# The decks as D1 gives them (docs/rules.md): numbered counts, wilds, skips,
# reverses, and whether two players put the Skips away (D5).
DECKS: dict[str, tuple[dict[int, int], int, int, int, bool]] = {
    "dobro-pixar": (
        {2: 4, 3: 6, 4: 6, 5: 7, 6: 6, 7: 7, 8: 4, 9: 5, 10: 4},
        4,
        2,
        2,
        True,
    ),
    "dobro": (
        {2: 5, 3: 6, 4: 6, 5: 6, 6: 6, 7: 5, 8: 4, 9: 3, 10: 3, 11: 3, 12: 3},
        3,
        2,
        2,
        False,
    ),
}


def _options(seed: int, players: int) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if seed % 4 == 3:
        options["scoring"] = "fewest-first"
    if seed % 5 == 4:
        options["rounds"] = players  # the longer variant (D6)
    if players == 2 and seed % 7 == 6:
        options["two_player_remove_skips"] = seed % 2 == 0
    return options


def _positions(piles: list[int], most_first: bool) -> list[int]:
    """Tied players share a position and skip the next ones, counted by sorting."""
    ordered = sorted(piles, reverse=most_first)
    return [ordered.index(p) + 1 for p in piles]


class Audit:
    """What a careful scorekeeper at the table would check, move by move."""

    def __init__(self, name: str, setup: Setup) -> None:
        numbered, wilds, skips, reverses, drop_skips = DECKS[name]
        if house := setup.options.get("deck"):
            numbered = {int(v): count for v, count in house["numbered"].items()}
            wilds, skips, reverses = house["wilds"], house["skips"], house["reverses"]
        self.players = setup.players
        n = len(self.players)
        option = setup.options.get("two_player_remove_skips")
        drop_skips = drop_skips if option is None else option
        gone_skips = skips if n == 2 and drop_skips else 0
        gone_reverses = reverses if n == 2 else 0
        self.removed = gone_skips + gone_reverses
        self.limits: dict[Any, int] = {**numbered, "wild": wilds}
        self.limits |= {"skip": skips - gone_skips, "reverse": reverses - gone_reverses}
        self.deck = sum(numbered.values()) + wilds + skips + reverses
        self.aside = 10 if n == 2 else 0
        self.most_first = setup.options.get("scoring", "official") == "official"
        self.rounds = setup.options.get("rounds", 3)
        self.totals = [0] * n
        self.clockwise = True
        self.scored = 0
        self._new_round()

    def _new_round(self) -> None:
        self.played: Counter[Any] = Counter()
        self.piles = [0] * len(self.players)
        self.in_climb = 0
        self.forgetful: str | None = None

    def check(self, before: Any, record: Recorded, after: Any) -> None:
        move = record.move
        if isinstance(move, ForgotRefill):
            self.forgetful = move.player
            return
        seat = self.players.index(move.player)
        if isinstance(move, Take):
            self.piles[seat] += self.in_climb
            self.in_climb = 0
            return
        cards = move.cards if isinstance(move, Play) else (move.__struct_config__.tag,)
        self.played.update(cards)
        assert all(self.played[c] <= self.limits[c] for c in cards)  # D1, D5
        self.in_climb += len(cards)
        if isinstance(move, Reverse):
            self.clockwise = not self.clockwise
        emptied = before.hand_sizes[seat] == len(cards) and before.draw_pile_size == 0
        ends = [e for e in record.events if isinstance(e, RoundScored)]
        assert bool(ends) == emptied  # D13
        if ends:
            self._round_end(seat, record.events)
        self._cards_accounted(after)

    def _cards_accounted(self, state: Any) -> None:
        held = sum(state.hand_sizes) + state.draw_pile_size + len(state.cards_in_play)
        held += sum(state.score_piles)
        if state.winners is not None:
            assert held == 0  # D13: the last round's cards are off the table
            return
        assert held + self.aside + self.removed == self.deck

    def _round_end(self, emptier: int, events: list[Any]) -> None:
        scored, last = events[1], events[2]
        ranks = _positions(self.piles, self.most_first)
        adjust = -1 if self.most_first else 1
        points = [
            rank + (adjust if name == self.forgetful else 0)
            for name, rank in zip(self.players, ranks, strict=True)
        ]
        self.totals = [a + b for a, b in zip(self.totals, points, strict=True)]
        assert scored.score_piles == dict(zip(self.players, self.piles, strict=True))
        assert list(scored.rank_points.values()) == ranks  # D14, D15
        assert scored.forgetful == self.forgetful  # D12
        assert list(scored.points.values()) == points
        assert list(scored.totals.values()) == self.totals
        self.scored += 1
        if isinstance(last, GameEnded):
            assert self.scored == self.rounds
            assert last.winners == self._winners()  # D16
        else:
            assert isinstance(last, RoundDealt) and self.scored < self.rounds
            assert last.starter == self._starter(emptier)  # D17
            self._new_round()

    def _starter(self, emptier: int) -> str:
        worst = min(self.totals) if self.most_first else max(self.totals)
        n = len(self.players)
        step = 1 if self.clockwise else -1
        order = [(emptier + step * i) % n for i in range(1, n + 1)]
        return next(self.players[s] for s in order if self.totals[s] == worst)

    def _winners(self) -> tuple[str, ...]:
        best = max(self.totals) if self.most_first else min(self.totals)
        tied = [s for s, total in enumerate(self.totals) if total == best]
        fewest = min(self.piles[s] for s in tied)
        return tuple(self.players[s] for s in tied if self.piles[s] == fewest)


def _play_game(rules: Rules, setup: Setup) -> tuple[History, list[Recorded]]:
    history = History.start(rules, setup)
    audit = Audit(rules.name, setup)
    records = []
    for move in rules.simulate(setup):
        before = history.state
        record, history = history.play(move)
        audit.check(before, record, history.state)
        records.append(record)
    assert history.winners and audit.scored == audit.rounds
    return history, records


def _refold(rules: Rules, setup: Setup, records: list[Recorded]) -> History:
    """Every record through JSON and back, folded from the game's creation."""
    codec = Codec(rules)
    history = History.start(rules, setup)
    for record in records:
        stored = codec.record_from_json(msgspec.json.encode(record))
        assert (stored.move, stored.events) == (record.move, record.events)
        history = history.apply(stored)
    return history


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("rules", [DOBRO, DOBRO_PIXAR], ids=lambda r: r.name)
def test_simulated_games_keep_every_invariant(rules: Rules, players: int) -> None:
    names = NAMES[:players]
    forgotten = 0
    for seed in range(GAMES):
        setup = Setup(
            players=names,
            first_player=names[seed % players],
            seed=seed,
            options=_options(seed, players),
        )
        live, records = _play_game(rules, setup)
        assert _refold(rules, setup, records).state == live.state
        msgspec.json.encode(rules.view(live.state))
        forgotten += sum(isinstance(r.move, ForgotRefill) for r in records)
    assert forgotten > 0


@pytest.mark.parametrize("rules", [DOBRO, DOBRO_PIXAR], ids=lambda r: r.name)
def test_the_virtual_table_is_deterministic_for_a_seed(rules: Rules) -> None:
    setup = Setup(players=NAMES[:3], first_player="Bia", seed=11)
    assert list(rules.simulate(setup)) == list(rules.simulate(setup))


def test_skips_and_reverses_are_played_in_simulated_games() -> None:
    setup = Setup(players=NAMES[:4], first_player="Ana", seed=3)
    moves = [
        type(m)
        for seed in range(5)
        for m in DOBRO.simulate(msgspec.structs.replace(setup, seed=seed))
    ]
    assert Skip in moves and Reverse in moves and Take in moves


HOUSE_DECK = {
    "numbered": {"3": 9, "6": 9, "8": 9},
    "wilds": 6,
    "skips": 2,
    "reverses": 2,
}


@pytest.mark.parametrize("players", [2, 4, 6])
def test_simulated_games_with_a_house_deck_keep_every_invariant_D1(
    players: int,
) -> None:
    names = NAMES[:players]
    for seed in range(40):
        options = {**_options(seed, players), "deck": HOUSE_DECK}
        setup = Setup(players=names, first_player=names[0], seed=seed, options=options)
        live, records = _play_game(DOBRO, setup)
        assert _refold(DOBRO, setup, records).state == live.state
