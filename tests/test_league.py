"""The heads-up league: a cross table of duplicate matches, resumable pair by pair."""

from __future__ import annotations

import json

import pytest

from loki.errors import ConfigError
from loki.tournament.league import run_league, write_league
from loki.tournament.runner import ResumeError


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
    # run again: every pair is read back from its journal, not played again
    pair = tmp_path / "pairs" / "1-2"
    text = (pair / "summary.json").read_text()
    assert json.loads((pair / "run.json").read_text())["blocks_played_now"] > 0
    again = run_league(players, players, deals=6, seed=4, out=tmp_path, workers=1)
    assert again.value == res.value and json.loads((pair / "run.json").read_text())["blocks_played_now"] == 0
    assert (pair / "summary.json").read_text() == text
    # a damaged or edited summary.json never reaches the cross table: it is rewritten from the checked journal
    for bad in ("garbage", "[]", '{"config": 1}', text.replace('"sb_per_hand": ', '"sb_per_hand": 9', 1)):
        (pair / "summary.json").write_text(bad)
        assert run_league(players, players, deals=6, seed=4, out=tmp_path, workers=1).value == res.value
        assert (pair / "summary.json").read_text() == text


def test_a_league_needs_distinct_players():
    with pytest.raises(ConfigError, match="distinct"):
        run_league(["random", "random"], ["a", "a"], 2, 0, "x")


def test_a_league_has_a_bounded_number_of_players(tmp_path):
    """`loki league` took 3,000 --player entries: 4.5 million pairs.  Past MAX_LEAGUE_PLAYERS a league is refused
    before any player is built or any folder made, naming the cap."""
    from typer.testing import CliRunner

    from loki.cli import app
    from loki.tournament.league import MAX_LEAGUE_PLAYERS

    too_many = [f"random{i}" for i in range(MAX_LEAGUE_PLAYERS + 1)]
    with pytest.raises(ConfigError, match=f"65 players \\(2,080 pairs\\): a league has at most {MAX_LEAGUE_PLAYERS}"):
        run_league(too_many, too_many, 2, 0, tmp_path / "lib")
    args = [a for _ in range(3000) for a in ("--player", "random")]
    r = CliRunner().invoke(app, ["league", *args, "--out", str(tmp_path / "cli")])
    assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.output[-500:]
    assert r.stderr.startswith("error: --player: 3,000 players (4,498,500 pairs): a league has at most 64 players")
    assert not (tmp_path / "lib").exists() and not (tmp_path / "cli").exists()
    r = CliRunner().invoke(app, ["league", "--player", "random", "--out", str(tmp_path / "cli")])
    assert r.exit_code == 2 and "error: --player: 1 player: a league needs at least two" in r.stderr


def test_blocks_bound_what_a_player_learns(tmp_path):
    """Each block is played by fresh players: memoryless players (equity, calling: pure functions of the cards) give
    the same match whatever the block size, a learning one (Loki-1's frequencies) does not; a league run again in the
    same folder with another block size is refused instead of reading the old pairs back."""
    memoryless = ["equity", "calling"]
    a = run_league(memoryless, memoryless, deals=8, seed=3, out=tmp_path / "a", workers=1, block_deals=2)
    b = run_league(memoryless, memoryless, deals=8, seed=3, out=tmp_path / "b", workers=1, block_deals=8)
    assert a.value == b.value and a.block_deals == 2 and b.block_deals == 8
    e = run_league(memoryless, memoryless, deals=8, seed=3, out=tmp_path / "e", workers=1, block_deals=25)
    assert e.value == a.value and e.block_deals == 8  # as played: a block holds at most the pair's deals
    learner = ["loki1", "equity"]
    c = run_league(learner, learner, deals=40, seed=3, out=tmp_path / "c", workers=1, block_deals=2)
    d = run_league(learner, learner, deals=40, seed=3, out=tmp_path / "d", workers=1, block_deals=40)
    assert c.value != d.value
    with pytest.raises(ResumeError, match="different tournament"):
        run_league(learner, learner, deals=40, seed=3, out=tmp_path / "c", workers=1, block_deals=40)


def test_a_pair_plays_the_same_games_whatever_else_is_in_the_league(tmp_path):
    # what lets docs/EXPERIMENTS.md pair two leagues of one seed by deal (scripts/experiments_tables.py,
    # heads_up_across): a pair's match depends on its two players, the seed and the blocks, not on the pair's place
    small = run_league(["random", "maniac"], ["random", "maniac"], deals=8, seed=7, out=tmp_path / "a", workers=1)
    big = run_league(
        ["calling", "random", "equity", "maniac"],
        ["calling", "random", "equity", "maniac"],
        deals=8,
        seed=7,
        out=tmp_path / "b",
        workers=1,
    )
    assert big.value[1][3] == small.value[0][1] and big.plain[1][3] == small.plain[0][1]
    a = (tmp_path / "a" / "pairs" / "1-2" / "deals-aivat.csv").read_text()
    b = (tmp_path / "b" / "pairs" / "2-4" / "deals-aivat.csv").read_text()
    assert a == b and len(a.splitlines()) == 9
    other = run_league(["random", "maniac"], ["random", "maniac"], deals=8, seed=8, out=tmp_path / "c", workers=1)
    assert other.value[0][1] != small.value[0][1]  # and the seed does change the games
