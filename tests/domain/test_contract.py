"""The contract every game keeps (`domain.game.Rules`), checked alike for each game
the registry lists and for the toy game, which no other test of the domain knows
(OpenSpiel runs its basic tests on every registered game the same way).

Seeded virtual tables play whole games of each; at every step of them:

- deciding a move and evolving its events is what the history stores and folds
  back from the log, and deciding it again gives the same events;
- the game is over exactly when its winners are known, and then its phase is
  `finished` and nothing is allowed; the game played again after it is opened by
  one of its players, or by a draw;
- the phase names what is allowed, and the view says both as the game does;
- every kind of move offered has, for each of its choices, a move the rules
  accept; none the rules accept falls outside the choices; every kind left out is
  refused (the moves tried are the game's `examples`);
- the move the virtual table makes was offered, with its choices;
- the score sheet folded move by move, undos and an abandon included, is the sheet
  folded whole;
- moves and events survive msgspec's JSON and MessagePack;
- every sentence the game says (its replay's, its refusals', its picture's) is
  worded in English and in French by the game's own words and the shared ones.

And the set-up takes from the fewest to the most players the game declares, and
no more or fewer.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, reduce
from itertools import islice
from typing import Any

import msgspec
import pytest
from tablelog_toy import NIM

from domain.errors import RuleError
from domain.frame import pictured
from domain.game import AnyRules, Offer, Recorded, Setup, choices, kinds
from domain.history import Abandon, Codec, Histories, History, Undo
from domain.registry import BUILT_IN
from domain.wording import Language, languages
from projections.scoresheet import score_sheets

EVERY_GAME = sorted([*BUILT_IN.values(), NIM], key=lambda rules: rules.name)
every_game = pytest.mark.parametrize(
    "rules", EVERY_GAME, ids=[rules.name for rules in EVERY_GAME]
)
NAMES = ("Ana", "Bia", "Caio", "Davi", "Eva", "Fábio", "Gil")
SEEDS = range(3)


@dataclass(frozen=True)
class Step:
    """One move of a simulated game: the state before it, and the move."""

    state: Any
    move: Any


@cache
def played(name: str, seed: int) -> tuple[Setup, list[Step], Any]:
    """A seeded virtual table's whole game, from the fewest players the game takes
    to the most: its set-up, its steps and its last state."""
    rules = _rules(name)
    count = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
    players = NAMES[:count]
    setup = Setup(players=players, first_player=players[-1], seed=seed)
    state, steps = rules.initial_state(setup), []
    for move in rules.simulate(setup):
        steps.append(Step(state, move))
        state = reduce(rules.evolve, rules.decide(state, move), state)
    return setup, steps, state


def _rules(name: str) -> AnyRules:
    return next(rules for rules in EVERY_GAME if rules.name == name)


def states(rules: AnyRules) -> Iterator[Any]:
    """Every state of the simulated games, the last of each included."""
    for seed in SEEDS:
        _, steps, last = played(rules.name, seed)
        yield from (step.state for step in steps)
        yield last


def kind(move: Any) -> str:
    return str(type(move).__struct_config__.tag)


def accepts(rules: AnyRules, state: Any, move: Any) -> bool:
    try:
        rules.decide(state, move)
    except RuleError:
        return False
    return True


# --- the set-up -----------------------------------------------------------------------


@every_game
def test_the_set_up_takes_the_players_the_game_declares_and_no_others(rules):
    assert 1 <= rules.min_players <= rules.max_players < len(NAMES)
    for count in range(rules.min_players - 1, rules.max_players + 2):
        players = NAMES[:count]
        setup = Setup(players=players, first_player=NAMES[0], seed=1)
        if rules.min_players <= count <= rules.max_players:
            assert rules.initial_state(setup) is not None
        else:
            with pytest.raises(RuleError):
                rules.initial_state(setup)


@every_game
def test_the_options_have_defaults_and_refuse_one_the_game_does_not_have(rules):
    msgspec.convert({}, rules.options)
    setup = Setup(players=NAMES[:2], first_player="Ana", seed=1, options={"x": 1})
    with pytest.raises(RuleError) as caught:
        rules.initial_state(setup)
    assert caught.value.rule == "A1"


# --- the Decider ----------------------------------------------------------------------


@every_game
@pytest.mark.parametrize("seed", SEEDS)
def test_deciding_and_evolving_are_what_the_log_stores_and_folds_back(rules, seed):
    setup, steps, last = played(rules.name, seed)
    codec = Codec(rules)
    live = History.start(rules, setup)
    stored = []
    for step in steps:
        events = rules.decide(step.state, step.move)
        assert rules.decide(step.state, step.move) == events
        record, live = live.play(step.move)
        assert record.events == tuple(events)
        assert live.state == reduce(rules.evolve, events, step.state)
        stored.append(codec.record_from_json(msgspec.json.encode(record)))
    folded = Histories(History.start(rules, setup))
    folded.extend(stored)
    assert [h.state for h in folded] == [*(step.state for step in steps), last]


@every_game
def test_the_game_is_over_exactly_when_its_winners_are_known(rules):
    for state in states(rules):
        over = rules.is_terminal(state)
        assert over == (rules.outcome(state) is not None)
        assert over == (rules.phase(state) == "finished") == (not rules.allowed(state))
    for seed in SEEDS:
        assert rules.is_terminal(played(rules.name, seed)[2])


@every_game
def test_a_game_played_again_is_opened_by_one_of_its_players_or_drawn_T4(rules):
    for seed in SEEDS:
        setup, _, last = played(rules.name, seed)
        first = rules.rematch_first_player(setup, last)
        assert first is None or first in setup.players


# --- what a table sees ----------------------------------------------------------------


@every_game
def test_the_phase_names_what_is_allowed_and_the_view_says_both(rules):
    tags = {move.__struct_config__.tag for move in rules.moves}
    assert rules.phases["finished"] == ()
    assert {kind for kinds_ in rules.phases.values() for kind in kinds_} <= tags
    for state in states(rules):
        phase, offers = rules.phase(state), rules.allowed(state)
        assert set(kinds(offers)) <= set(rules.phases[phase]), (phase, offers)
        view = msgspec.to_builtins(rules.view(state))
        assert view["phase"] == phase
        assert view["allowed"] == kinds(offers)
        assert view["choices"] == msgspec.to_builtins(choices(offers))


@every_game
def test_what_is_offered_is_what_the_rules_accept(rules):
    """Every kind offered has, for each of its choices, a move the rules accept,
    and no move the rules accept falls outside its choices; every kind left out
    is refused."""
    tags = sorted(move.__struct_config__.tag for move in rules.moves)
    for state in states(rules):
        offers = {offer.kind: offer for offer in rules.allowed(state)}
        for tag in tags:
            tried = list(rules.examples(state, Offer(kind=tag)))
            assert tried, f"no {tag} to try"
            accepted = [move for move in tried if accepts(rules, state, move)]
            if tag not in offers:
                assert accepted == [], (rules.phase(state), accepted[:1])
                continue
            for move in accepted:
                assert within(move, offers[tag]), (move, offers[tag])
            _each_choice_is_accepted(rules, state, offers[tag])


def _each_choice_is_accepted(rules: AnyRules, state: Any, offer: Offer[str]) -> None:
    accepted = [m for m in rules.examples(state, offer) if accepts(rules, state, m)]
    assert accepted, offer
    for name, values in offer.choices.items():
        for value in values:
            assert any(chosen(move, name, value) for move in accepted), (name, value)


def chosen(move: Any, name: str, value: Any) -> bool:
    """Whether `move` takes `value` for its field `name` (one of its items or keys,
    for a field holding several)."""
    field = getattr(move, name)
    return value in field if isinstance(field, tuple | dict) else field == value


def within(move: Any, offer: Offer[str]) -> bool:
    """Whether `move` keeps to the offer's choices (a field left out aside)."""
    for name, values in offer.choices.items():
        field = getattr(move, name)
        taken = field if isinstance(field, tuple | dict) else (field,)
        if not all(value in values for value in taken if value is not None):
            return False
    return True


@every_game
@pytest.mark.parametrize("seed", SEEDS)
def test_each_move_the_virtual_table_makes_was_offered_with_its_choices(rules, seed):
    for step in played(rules.name, seed)[1]:
        offers = {offer.kind: offer for offer in rules.allowed(step.state)}
        assert kind(step.move) in offers, (step.move, offers)
        assert within(step.move, offers[kind(step.move)]), step.move


# --- the score sheet ------------------------------------------------------------------


@every_game
@pytest.mark.parametrize("seed", SEEDS)
def test_the_sheet_folded_move_by_move_is_the_sheet_folded_whole(rules, seed):
    setup, steps, last = played(rules.name, seed)
    moves = [step.move for step in steps]
    # Undos here and there, and an abandon taken back, as a table logs them.
    logged = [*moves[:3], Undo(), *moves[2:5], Abandon(), Undo(), *moves[5:]]
    histories = Histories(History.start(rules, setup))
    records: list[Recorded] = []
    for move in logged:
        records.append(histories[-1].decide(move))
        histories.extend(records[-1:])
    sheets = score_sheets(histories, records)
    assert histories[-1].state == last
    for history, sheet in zip(histories, sheets, strict=True):
        assert sheet == history.score_sheet()
        assert isinstance(sheet, rules.sheet_type)
    assert sheets[-1].finished and sheets[-1].winners


# --- the wire -------------------------------------------------------------------------


@every_game
@pytest.mark.parametrize("seed", SEEDS)
def test_moves_and_events_survive_json_and_msgpack(rules, seed):
    codec = Codec(rules)
    for step in played(rules.name, seed)[1]:
        record = Recorded(step.move, tuple(rules.decide(step.state, step.move)))
        as_json = msgspec.json.decode(
            msgspec.json.encode(record), type=codec.record_type
        )
        packed = msgspec.msgpack.encode(record)
        as_msgpack = msgspec.msgpack.decode(packed, type=codec.record_type)
        assert (as_json.move, as_json.events) == (record.move, record.events)
        assert (as_msgpack.move, as_msgpack.events) == (record.move, record.events)


# --- the words ------------------------------------------------------------------------


def own_languages(rules: AnyRules) -> dict[str, Language]:
    """The shared words and this game's alone, as a registry of it alone has them."""
    return languages(rules.words)


@every_game
def test_the_game_words_the_same_keys_in_english_and_in_french(rules):
    words = rules.words
    assert set(words) == {"en", "fr"} == set(rules.labels)
    assert words["en"].keys() == words["fr"].keys()
    own_languages(rules)  # no key of its own rewords a shared one


@every_game
@pytest.mark.parametrize("seed", SEEDS)
def test_every_sentence_the_game_says_is_worded_in_both_languages(rules, seed):
    _, steps, last = played(rules.name, seed)
    spoken = own_languages(rules)
    for n, step in enumerate(steps):
        record = Recorded(step.move, tuple(rules.decide(step.state, step.move)))
        said = rules.describe(step.state, record)
        refusals = [error.said for error in _refusals(rules, step.state)]
        for language in spoken.values():
            assert language.say(said)
            assert all(language.render(refusal) for refusal in refusals)
            view = rules.view(step.state)
            assert pictured(rules, view, n, language.say(said), language).items
    for language in spoken.values():
        assert pictured(rules, rules.view(last), len(steps), None, language).items


def _refusals(rules: AnyRules, state: Any) -> Iterator[RuleError]:
    """The refusals of the first few moves of each kind tried, that the rules
    refuse now."""
    for tag in (move.__struct_config__.tag for move in rules.moves):
        for move in islice(rules.examples(state, Offer(kind=tag)), 5):
            try:
                rules.decide(state, move)
            except RuleError as error:
                yield error
