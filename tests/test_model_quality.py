"""Model quality as a tournament metric: compact tallies, the ``model_quality`` summary section,
journal checks."""

from __future__ import annotations

import json

import numpy as np
import pytest

from loki.errors import JournalError
from loki.modeler.quality import ModelQuality, QualityTally
from loki.tournament import config_from_dict, run_tournament
from loki.tournament.journal import journal_key
from loki.tournament.results import results_table, write_results
from loki.tournament.runner import read_journal, signed_line


def test_tally_reproduces_the_exact_counters_and_a_median_within_one_point():
    rng = np.random.default_rng(5)
    for size in (200, 1001, 5000):  # the grouped median is close once the middle values share or neighbour a bin
        pct = list(rng.uniform(0, 100, size)) + [100.0]
        q = ModelQuality(pct, -float(size), size, 3 * size, 1)
        s, t = q.summary(), QualityTally.from_quality(q).summary()
        assert t["showdowns"] == s["showdowns"] and t["mean_percentile"] == pytest.approx(s["mean_percentile"])
        assert t["loglik_per_action"] == s["loglik_per_action"] and t["collapse_rate"] == s["collapse_rate"]
        assert abs(t["median_percentile"] - s["median_percentile"]) <= 1.0
    # additive: the tally of merged counters is the sum of the tallies
    a, b = ModelQuality([10.0, 20.0], -1.0, 2, 4, 0), ModelQuality([99.5], -0.5, 1, 2, 1)
    m = ModelQuality()
    m.merge(a)
    m.merge(b)
    ab = QualityTally.from_quality(a) + QualityTally.from_quality(b)
    assert ab.as_dict() == QualityTally.from_quality(m).as_dict()
    assert QualityTally.from_dict(ab.as_dict()).as_dict() == ab.as_dict()
    with pytest.raises(ValueError):
        QualityTally.from_dict({**ab.as_dict(), "histogram": [1] * 99})


def _cfg(**kw):
    d = {
        "name": "mq",
        "deals": 6,
        "seed": 3,
        "block_deals": 3,
        "histories": False,
        "players": [{"type": "loki1", "count": 2}, {"type": "loki2:BR"}, {"type": "calling"}],
        "compare": [],
    }
    d.update(kw)
    return config_from_dict(d)


def test_tournament_summary_has_model_quality_per_type_with_models(tmp_path):
    run = run_tournament(_cfg(), workers=0, out=tmp_path)
    write_results(run, tmp_path, plots=False)
    s = json.loads((tmp_path / "summary.json").read_text())
    mq = {e["type"]: e for e in s["model_quality"]}
    assert sorted(mq) == ["loki1", "loki2:BR"]  # the calling station keeps no models
    for e in mq.values():
        assert e["showdowns"] > 0 and 0 <= e["median_percentile"] <= 100 and 0 <= e["mean_percentile"] <= 100
        assert e["loglik_per_action"] < 0 and 0 <= e["collapse_rate"] <= 1
    # the section is the sum of the block tallies of the players of each type
    tallies = run.quality
    assert tallies[3] is None
    both = QualityTally.from_dict(tallies[0]) + QualityTally.from_dict(tallies[1])
    assert mq["loki1"]["showdowns"] == int(both.histogram.sum())
    from rich.console import Console

    con = Console(record=True, width=160)
    for t in results_table(s):
        con.print(t)
    assert "opponent-model quality at showdowns" in con.export_text()


def test_an_adaptive_players_summary_has_its_model_weights(tmp_path):
    """The adaptive model's candidate weights reach summary.json; other types carry no such key."""
    cfg = _cfg(players=[{"type": "loki1", "count": 2}, {"type": "loki2:BR:adaptive"}, {"type": "maniac"}], deals=4)
    run = run_tournament(cfg, workers=0, out=tmp_path)
    write_results(run, tmp_path, plots=False)
    s = json.loads((tmp_path / "summary.json").read_text())
    mq = {e["type"]: e for e in s["model_quality"]}
    w = mq["loki2:BR:adaptive"]["model_weights"]
    assert set(w) == {"observer", "specific", "blind"} and abs(sum(w.values()) - 1.0) < 1e-6  # the default's (A5)
    assert "model_weights" not in mq["loki1"]


def test_a_damaged_quality_record_is_refused(tmp_path):
    run_tournament(_cfg(deals=3), workers=0, out=tmp_path)
    j = tmp_path / "journal.jsonl"
    lines = j.read_text().splitlines()
    rec = json.loads(lines[1])
    rec.pop("sum")
    rec["quality"][0] = {"histogram": [1, 2]}
    j.write_text("\n".join([lines[0], signed_line(rec, journal_key(tmp_path)), *lines[2:]]) + "\n")
    with pytest.raises(JournalError, match="'quality' entry is not a model-quality tally"):
        read_journal(j)
