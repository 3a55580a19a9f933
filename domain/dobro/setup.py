"""A Dobro game's set-up: players (D3), first player (D4), deck (D1, D5, T1)."""

from __future__ import annotations

from domain.dobro.components import (
    REVERSE,
    SKIP,
    WILD,
    Card,
    Deck,
    DeckManifest,
    Edition,
    Options,
)
from domain.dobro.state import State, Table, deal_size, new_round
from domain.errors import RuleError
from domain.game import Setup
from domain.setup import decoded_options, first_player, seated

MIN_PLAYERS, MAX_PLAYERS = 2, 6  # D3

# Which ruling governs each option.
OPTION_RULINGS = {
    "rounds": "D6",
    "scoring": "D14",
    "two_player_remove_skips": "D5",
    "deck": "D1",
}


def initial_state(edition: Edition, setup: Setup) -> State:
    """The first round dealt, `setup.first_player` to open it."""
    players = seated(setup, "Dobro", MIN_PLAYERS, MAX_PLAYERS, "D3")
    first = first_player(setup, players, "D4")
    options = decoded_options(setup, Options, OPTION_RULINGS, "Dobro")
    n = len(players)
    deck = _deck(edition, options, n)
    table = Table(
        edition=edition.name,
        players=players,
        hand_size=5 if n == 6 else 6,
        set_aside=10 if n == 2 else 0,
        rounds=options.rounds,
        scoring=options.scoring,
        deck=deck,
    )
    _check_deal(table)
    starter = players.index(first)
    return new_round(table, 1, starter, "clockwise", (0,) * n, (), deal_size(table))


def rematch_first_player(setup: Setup, state: State) -> None:
    """D18: every source draws the first player of a game at random, so a game
    played again draws its own, from its new seed (D4)."""
    return None


def _deck(edition: Edition, options: Options, n: int) -> Deck:
    """The cards shuffled each round: the edition's or the manifest's, less D5's.
    A wild's range stays the edition's whatever the deck (D9)."""
    manifest = options.deck or DeckManifest(
        numbered=dict(edition.numbered),
        wilds=edition.wilds,
        skips=edition.skips,
        reverses=edition.reverses,
    )
    values = sorted(v for v, count in manifest.numbered.items() if count > 0)
    if not values:
        raise RuleError("D1", "dobro.deck_unnumbered")
    remove_skips = options.two_player_remove_skips
    if remove_skips is None:
        remove_skips = edition.two_player_remove_skips
    gone_skips = manifest.skips if n == 2 and remove_skips else 0
    gone_reverses = manifest.reverses if n == 2 else 0
    kinds: tuple[Card, ...] = (*values, WILD, SKIP, REVERSE)
    counts = (*(manifest.numbered[v] for v in values), manifest.wilds)
    counts += (manifest.skips - gone_skips, manifest.reverses - gone_reverses)
    removed = (0,) * (len(values) + 1) + (gone_skips, gone_reverses)
    low, high = edition.wild_range
    return Deck(kinds, counts, removed, wild_low=low, wild_high=high)


def _check_deal(table: Table) -> None:
    n = len(table.players)
    needed = table.hand_size * n + table.set_aside
    if table.deck.size < needed:
        raise RuleError(
            "D1",
            "dobro.deck_small",
            size=table.deck.size,
            count=n,
            needed=needed,
        )
    specials = table.deck.count(SKIP) + table.deck.count(REVERSE)
    if specials >= table.hand_size:
        # T1, tablelog's own ruling: a full hand of Skips and Reverses could not open
        # a climb while the draw pile has cards (D7), so a house deck must leave every
        # hand something to open with.
        raise RuleError(
            "T1", "dobro.deck_specials", specials=specials, hand=table.hand_size
        )
