"""The sample games of seeds/ replay into their checked-in replays: every step's
sentence and the score sheet after it.

A failure means a sentence or a sheet of a sample now reads differently: if that is
intended, run `python -m seeds.generate` and review the diff of seeds/replays/.
"""

from __future__ import annotations

import pytest

from seeds.generate import REPLAYS, SEEDS, golden_replay


@pytest.mark.parametrize("sample", sorted(SEEDS.glob("*.ndjson")), ids=lambda p: p.stem)
def test_a_sample_game_replays_into_its_golden_replay(sample):
    golden = REPLAYS / f"{sample.stem}.json"
    assert golden.exists(), f"no golden replay for {sample.name}"
    assert golden_replay(sample.read_bytes()).decode() == golden.read_text()
