"""The sample games of seeds/ fold into their checked-in score sheets.

A failure means an engine or a projection now scores a sample differently: if that is
intended, run `python -m seeds.generate` and review the diff of seeds/scoresheets/.
"""

from __future__ import annotations

import pytest

from seeds.generate import SCORESHEETS, SEEDS, golden_score_sheet


@pytest.mark.parametrize("sample", sorted(SEEDS.glob("*.ndjson")), ids=lambda p: p.stem)
def test_a_sample_game_folds_into_its_golden_score_sheet(sample):
    golden = SCORESHEETS / f"{sample.stem}.json"
    assert golden.exists(), f"no golden score sheet for {sample.name}"
    assert golden_score_sheet(sample.read_bytes()).decode() == golden.read_text()
