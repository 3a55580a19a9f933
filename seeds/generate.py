"""Write the sample games of seeds/ in the export format: `python -m seeds.generate`.

Every game and edition the service hosts, played to its end by the game's simulator
with a fixed seed, at the tables the rulebooks and docs/api.md use for their examples.
The rulebooks' worked examples are situations inside a round, not whole games, so they
live in the domain tests; here they lend their tables (names, seating, first player).
`tablelog seed` loads these files; a test checks that they are what this script writes.

Each sample's score sheet is written beside it, in `seeds/scoresheets/`: golden files
that a test diffs against the sheet folded from the sample, so that a change to an
engine or a projection that moves a single point shows up in review. So is its replay,
in `seeds/replays/`: every step's sentence and the score sheet after it. A step whose
sheet is the one before it says so (`scoresheet_as_at_step`) instead of repeating it,
so that a change to a sheet shows up once, at the step where it happens.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from domain.creation import GameCreated
from domain.game import Setup
from domain.history import Codec, History, Recorded, Undo
from domain.registry import BUILT_IN
from projections.replay import steps
from projections.scoresheet import score_sheet

SEEDS = Path(__file__).resolve().parent
SCORESHEETS = SEEDS / "scoresheets"
REPLAYS = SEEDS / "replays"


@dataclass(frozen=True)
class Sample:
    file: str
    game: str
    players: tuple[str, ...]
    seed: int
    title: str
    options: dict[str, Any] = field(default_factory=dict)
    played_at: str | None = None
    # Log an undo after this move and then the same move again, as a table fixing a
    # slip would: the export keeps both.
    undo_after: int | None = None


SAMPLES = (
    Sample(
        "dobro-pixar-friday-night.ndjson",
        "dobro-pixar",
        ("Priscila", "Mauricio", "Karen", "Patricia"),
        seed=42,
        title="Friday night",
        options={"rounds": 3},
        played_at="2026-11-27T20:00:00+00:00",
        undo_after=5,
    ),
    Sample("dobro-two-players.ndjson", "dobro", ("Priscila", "Dory"), 7, "Two players"),
    Sample(
        "dobro-french-scale.ndjson",
        "dobro",
        ("Priscila", "Mauricio", "Karen"),
        seed=11,
        title="The French guide's scale",
        options={"scoring": "fewest-first"},
    ),
    Sample(
        "dozito-three-players.ndjson",
        "dozito",
        ("Arthur", "Maëlle", "Karen"),
        3,
        "Dozito",
    ),
    Sample(
        "dozito-two-players.ndjson", "dozito", ("Arthur", "Maëlle"), 5, "Dozito for two"
    ),
    Sample(
        "double-donkey-four-players.ndjson",
        "double-donkey",
        ("Olivia", "Fran", "Karen", "Mauricio"),
        seed=2,
        title="Double Donkey",
    ),
    Sample(
        "double-donkey-two-players.ndjson",
        "double-donkey",
        ("Olivia", "Fran"),
        seed=9,
        title="Double Donkey for two",
    ),
)


def export(sample: Sample) -> bytes:
    """The sample played to its end, as `GET /games/{id}/export` would give it."""
    rules = BUILT_IN[sample.game]
    setup = Setup(
        players=sample.players,
        first_player=sample.players[0],
        seed=sample.seed,
        options=sample.options,
    )
    created = GameCreated.of(
        sample.game, setup, title=sample.title, played_at=sample.played_at
    )
    lines = [created]
    history = History.start(rules, setup)
    for number, move in enumerate(rules.simulate(setup), start=1):
        history = history.play(move)[1]
        lines.append(move)
        if number == sample.undo_after:
            history = history.play(Undo())[1].play(move)[1]
            lines += [Undo(), move]
    assert history.finished, f"{sample.file}: the simulated game did not end"
    # As the service exports: dict keys sorted (jsonb keeps no order).
    encode = msgspec.json.Encoder(order="deterministic").encode
    return b"".join(encode(line) + b"\n" for line in lines)


def folded(export: bytes) -> History:
    """An exported game played again through its engine, move by move."""
    histories, _ = replayed(export)
    return histories[-1]


def golden_score_sheet(export: bytes) -> bytes:
    sheet = msgspec.json.encode(score_sheet(folded(export)), order="sorted")
    return msgspec.json.format(sheet, indent=2) + b"\n"


def replayed(export: bytes) -> tuple[list[History], list[Recorded]]:
    """An exported game's histories after each stored move, and its records, as the
    service keeps them for a replay."""
    first, *moves = export.splitlines()
    created = msgspec.json.decode(first, type=GameCreated)
    rules = BUILT_IN[created.game]
    move_type = Codec(rules).move_type
    histories = [History.start(rules, created.setup())]
    records = []
    for line in moves:
        record, history = histories[-1].play(msgspec.json.decode(line, type=move_type))
        histories.append(history)
        records.append(record)
    return histories, records


def golden_replay(export: bytes) -> bytes:
    """Every step's sentence and score sheet; a sheet equal to the step before's is
    given as the step where it was last written."""
    lines: list[dict[str, Any]] = []
    shown = None
    for step in steps(*replayed(export)):
        line: dict[str, Any] = {"step": step.step, "description": step.description}
        if shown is not None and step.scoresheet == shown[1]:
            line["scoresheet_as_at_step"] = shown[0]
        else:
            line["scoresheet"] = step.scoresheet
            shown = (step.step, step.scoresheet)
        lines.append(line)
    replay = msgspec.json.encode({"steps": lines}, order="sorted")
    return msgspec.json.format(replay, indent=2) + b"\n"


def main() -> None:
    SCORESHEETS.mkdir(exist_ok=True)
    REPLAYS.mkdir(exist_ok=True)
    for sample in SAMPLES:
        exported = export(sample)
        (SEEDS / sample.file).write_bytes(exported)
        sheet = SCORESHEETS / sample.file.replace(".ndjson", ".json")
        sheet.write_bytes(golden_score_sheet(exported))
        replay = REPLAYS / sample.file.replace(".ndjson", ".json")
        replay.write_bytes(golden_replay(exported))
        print(f"wrote seeds/{sample.file}, its score sheet and its replay")


if __name__ == "__main__":
    main()
