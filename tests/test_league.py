"""The heads-up league (issue 24): a cross table of duplicate matches, resumable pair by pair."""

from __future__ import annotations

import json

import pytest

from loki.errors import ConfigError
from loki.tournament.league import run_league, write_league


def test_a_league_is_a_cross_table_of_duplicate_matches(tmp_path):
    players = ["random", "calling", "equity"]
    res = run_league(players, players, deals=6, seed=4, out=tmp_path, workers=1)
    n = len(players)
    for i in range(n):
        assert res.value[i][i] is None
        for j in range(n):
            if i != j:  # heads-up is zero-sum: the row's winnings are the column's losses, per deal
                assert res.value[i][j] == pytest.approx(-res.value[j][i], abs=1e-9)
                assert res.plain[i][j] == pytest.approx(-res.plain[j][i], abs=1e-9)
    s = json.loads((tmp_path / "pairs" / "1-3" / "summary.json").read_text())
    assert s["deals"] == 6 and s["n_players"] == 2 and "aivat" in s
    write_league(res, tmp_path, plots=True)
    doc = json.loads((tmp_path / "league.json").read_text())
    assert doc["labels"] == players and (tmp_path / "cross.png").exists()
    # run again: every pair is read back, not played again
    mtime = (tmp_path / "pairs" / "1-2" / "summary.json").stat().st_mtime_ns
    again = run_league(players, players, deals=6, seed=4, out=tmp_path, workers=1)
    assert again.value == res.value and (tmp_path / "pairs" / "1-2" / "summary.json").stat().st_mtime_ns == mtime


def test_a_league_needs_distinct_players():
    with pytest.raises(ConfigError, match="distinct"):
        run_league(["random", "random"], ["a", "a"], 2, 0, "x")
