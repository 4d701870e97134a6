"""Hand histories from real logs: ACPC and PHH records, PHH writing, the replay report (issue 7)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from typer.testing import CliRunner

from loki.cards import parse_cards
from loki.io.acpc_log import read_acpc_log
from loki.io.phh import read_phh, record_to_phh, write_phh
from loki.replay import holding_percentile, load_hands, plot_percentiles, render_report, replay_hands

ACPC = Path(__file__).resolve().parents[1] / ".." / "shared" / "acpc"
pytestmark = pytest.mark.skipif(not ACPC.exists(), reason="shared ACPC material not found")
LOGS = ["2p.limit.h1000.r0.log", "3p.limit.h1000.r0.log"]


@pytest.mark.parametrize("name", LOGS)
def test_every_hand_parses_and_payoffs_match(name):
    lg = read_acpc_log(ACPC / name)
    assert len(lg.hands) == 1000
    for rec in lg.hands:
        assert list(rec.replay().payoffs) == list(rec.payoffs)


@pytest.mark.parametrize("name", LOGS)
def test_phh_round_trip_through_pokerkit(name, tmp_path):
    from pokerkit import HandHistory

    recs = read_acpc_log(ACPC / name).hands[:150]
    # PHH payoffs follow pokerkit's odd-chip rule, not ACPC's exact split
    recs = [dataclasses.replace(r, config=dataclasses.replace(r.config, odd_chip="left_of_button")) for r in recs]
    path = tmp_path / "x.phhs"
    assert write_phh(path, recs) == len(recs)
    with open(path, "rb") as f:
        hhs = list(HandHistory.load_all(f))
    assert len(hhs) == len(recs)
    for hh in hhs[:20]:  # pokerkit itself replays the files
        states = list(hh)
        assert states[-1].status is False
    back = read_phh(path)
    for a, b in zip(recs, back):
        sa, sb = a.replay(), b.replay()
        n = a.n_players
        expected = tuple(sa.payoffs[(a.button + 1 + k) % n] for k in range(n))  # PHH p1 = left of the button
        assert sb.history == sa.history and sb.payoffs == expected and b.payoffs == expected
        assert b.names == tuple(a.names[(a.button + 1 + k) % n] for k in range(n))
    single = tmp_path / "one.phh"
    write_phh(single, recs[:1])
    assert len(read_phh(single)) == 1
    assert "variant = 'FT'" in record_to_phh(recs[0]).dumps()


def test_holding_percentile():
    import numpy as np

    w = np.ones(1326)
    assert holding_percentile(w, parse_cards("AsKs"), parse_cards("2c3c4d")) == 50.0
    from loki.cards import HOLDING_INDEX

    w[int(HOLDING_INDEX[parse_cards("AsKs")[0], parse_cards("AsKs")[1]])] = 2.0
    assert holding_percentile(w, parse_cards("AsKs"), []) > 99.9


@pytest.mark.parametrize("name,n", [("2p.limit.h1000.r0.log", 2), ("3p.limit.h1000.r0.log", 3)])
def test_replay_report(name, n, tmp_path):
    recs = load_hands(ACPC / name)[:80]
    report = replay_hands(recs, "loki1")
    assert report.hands == 80 and report.payoff_mismatches == []
    assert sorted(report.stats) == [f"p{i + 1}" for i in range(n)]
    for st in report.stats.values():
        assert st.hands == 80 and st.decisions > 80 and 0 <= st.agree <= st.decisions
        assert 0 <= st.pfr <= st.vpip <= st.hands
    assert sum(st.chips for st in report.stats.values()) == pytest.approx(0)
    v = report.percentile_values
    assert v.size > 20 and ((0 <= v) & (v <= 100)).all()
    png = plot_percentiles(report, tmp_path / "h.png")
    assert png.stat().st_size > 1000
    from rich.console import Console

    con = Console(record=True, width=140)
    render_report(report, con)
    text = con.export_text()
    assert "VPIP" in text and "agrees" in text and "percentile" in text and "equal the logged ones" in text


def test_replay_cli_on_acpc_and_phh(tmp_path, monkeypatch):
    from loki.cli import app

    log = tmp_path / "2p.log"
    lines = (ACPC / "2p.limit.h1000.r0.log").read_text().splitlines()
    log.write_text("\n".join(lines[:45]) + "\n")
    r = CliRunner().invoke(app, ["replay", str(log), "--player", "loki1", "--plot", str(tmp_path / "p.png")])
    assert r.exit_code == 0, r.output
    assert "VPIP" in r.output and (tmp_path / "p.png").exists()
    recs = read_acpc_log(log).hands
    recs = [dataclasses.replace(x, config=dataclasses.replace(x.config, odd_chip="left_of_button")) for x in recs]
    write_phh(tmp_path / "h.phhs", recs)
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)  # the default histogram goes to the current folder, never next to the log
    r = CliRunner().invoke(app, ["replay", str(tmp_path / "h.phhs"), "--hands", "20"])
    assert r.exit_code == 0, r.output
    assert "20 hands" in r.output
    assert (work / "h.phhs.percentiles.png").exists() and not (tmp_path / "h.phhs.percentiles.png").exists()
