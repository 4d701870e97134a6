"""Hand histories from real logs: ACPC and PHH records, PHH writing, the replay report."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from loki.cards import parse_cards
from loki.io.acpc_log import read_acpc_log
from loki.io.phh import read_phh, record_to_phh, write_phh
from loki.tournament.replay import holding_percentile, load_hands, plot_percentiles, render_report, replay_hands

ACPC = Path(__file__).resolve().parents[1] / ".." / "shared" / "acpc"
needs_acpc = pytest.mark.skipif(not ACPC.exists(), reason="shared ACPC material not found")
LOGS = ["2p.limit.h1000.r0.log", "3p.limit.h1000.r0.log"]


@needs_acpc
@pytest.mark.parametrize("name", LOGS)
def test_every_hand_parses_and_payoffs_match(name):
    lg = read_acpc_log(ACPC / name)
    assert len(lg.hands) == 1000
    for rec in lg.hands:
        assert list(rec.replay().payoffs) == list(rec.payoffs)


@needs_acpc
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


@needs_acpc
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


@needs_acpc
def test_replay_reports_model_quality_of_the_bots_models():
    """The report's model quality: every showdown percentile the replay measured is one of the bots' model-store
    percentiles too (same tables, same count), the log-likelihood is per traced action, and the opponent-specific
    model never collapses on the 3-player log (the paper's observer model does: its triples are mostly pure)."""
    recs = load_hands(ACPC / "3p.limit.h1000.r0.log")[:60]
    spec = 'loki2{"features": "BR", "opponent_model": "specific"}'
    report = replay_hands(recs, spec)
    mq = report.to_dict()["model_quality"]
    assert mq["showdowns"] == report.percentile_values.size > 20
    assert mq["mean_percentile"] == pytest.approx(float(report.percentile_values.mean()))
    assert report.quality.actions > 0 and math.log(1e-6) < mq["loglik_per_action"] < 0
    assert report.quality.reweights > 50 and mq["collapse_rate"] == 0.0
    observer = replay_hands(recs, "loki2:BR").to_dict()["model_quality"]
    assert observer["collapse_rate"] > 0.05 and observer["loglik_per_action"] < mq["loglik_per_action"]


@needs_acpc
def test_replay_cli_on_acpc_and_phh(tmp_path, monkeypatch):
    from loki.cli import app

    log = tmp_path / "2p.log"
    lines = (ACPC / "2p.limit.h1000.r0.log").read_text().splitlines()
    log.write_text("\n".join(lines[:45]) + "\n")
    r = CliRunner().invoke(app, ["replay", str(log), "--player", "loki1", "--out", str(tmp_path / "p.png")])
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
    assert [p.name for p in work.iterdir()] == ["h.phhs.percentiles.png"]
    assert not (tmp_path / "h.phhs.percentiles.png").exists()
    # a read-only current folder: the user data folder instead; --json gives the report as JSON
    ro = tmp_path / "ro"
    ro.mkdir()
    monkeypatch.chdir(ro)
    real_access = os.access  # read-only for everyone, root included (CI runs as root)
    monkeypatch.setattr(
        os, "access", lambda p, mode: (mode == os.R_OK or not str(p).startswith(str(ro))) and real_access(p, mode)
    )
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    r = CliRunner().invoke(app, ["replay", str(tmp_path / "h.phhs"), "--hands", "10", "--json"])
    assert r.exit_code == 0, r.output
    rep = json.loads(r.stdout)
    want = tmp_path / "data" / "loki" / "replay" / "h.phhs.percentiles.png"
    assert rep["histogram"] == str(want) and want.exists() and rep["hands"] == 10
    assert not list(ro.iterdir())
    assert {p["name"] for p in rep["players"]} == {"p1", "p2"} and rep["percentiles"]["cases"] >= 0


# ------------------------------------------------------------------ bad input (no shared material needed)


def _acpc_lines(n_hands: int, n: int = 2, seed: int = 5) -> list[str]:
    """STATE lines of random legal hands, as the dealer writes them."""
    import numpy as np

    from loki.cards import format_cards
    from loki.engine import new_hand
    from loki.io.acpc_log import HandRecord, format_state_line
    from loki.io.gamedef import bundled_gamedef

    g = bundled_gamedef(n)
    rng = np.random.default_rng(seed)
    out = []
    for h in range(n_hands):
        cards = rng.permutation(52)[: 2 * n + 5]
        holes = [format_cards(cards[2 * i : 2 * i + 2]) for i in range(n)]
        board = format_cards(cards[2 * n :])
        s = new_hand(g.config, g.button, hole_cards=holes, board=board)
        while not s.is_terminal:
            legal = s.legal_actions()
            s.apply(legal[int(rng.integers(len(legal)))] if rng.random() < 0.3 else legal[min(1, len(legal) - 1)])
        out.append(
            format_state_line(
                HandRecord(
                    h,
                    g.config,
                    g.button,
                    tuple(holes),
                    board,
                    s.history,
                    tuple(s.payoffs),
                    tuple(f"p{(i + h) % n + 1}" for i in range(n)),
                )
            )
        )
    return out


def test_acpc_log_misplaced_slash_bad_letter_and_garbage(tmp_path):
    line = "STATE:17:{}:5d5c|9hQd/8dAs8s/4h/6d:20|-20:p1|p2"
    f = tmp_path / "m.log"
    f.write_text(
        line.format("rc/crc/cc/cc")
        + "\nsome garbage\n"
        + line.format("rcc/c/cc/cc")
        + "\n"
        + line.format("rc/cr9/cc/cc")
        + "\n"
        + "STATE:x\n"
    )
    with pytest.raises(ValueError, match=r"m.log:5: malformed STATE"):
        read_acpc_log(f)
    lg = read_acpc_log(f, strict=False)
    assert lg.warnings == [f"{f}:2: ignored line (not STATE, SCORE or #comment): 'some garbage'"]
    assert [w for w, _ in lg.skipped] == [f"{f}:5"]
    good, slash, nine = lg.hands
    good.replay()
    with pytest.raises(ValueError, match=r"misplaced '/'.*hand 17 of .*m.log:3.*preflop betting ended at 'rc'"):
        slash.replay()
    with pytest.raises(ValueError, match=r"invalid action '9' at position 5 .* in hand 17 of .*m.log:4"):
        nine.replay()
    for bad in ("rc/crc/cc/cc/", "rf/", "rc/crc/cc", "rc/crc/cc/ccc"):
        with pytest.raises(ValueError, match="hand 17"):
            read_acpc_log_line(line.format(bad)).replay()
    long = tmp_path / "long.log"
    long.write_text(line.format("rc/crc/cc/cc") + "\n" + "x" * 100_000 + "\n")
    (w,) = read_acpc_log(long).warnings
    assert len(w) < 300 and "100000 chars" in w


def read_acpc_log_line(text):
    from loki.io.acpc_log import parse_state_line

    return parse_state_line(text, source="F")


def test_replay_skips_bad_hands_and_lists_them(tmp_path, monkeypatch):
    from loki.cli import app

    lines = _acpc_lines(30)
    bad = lines[7].split(":")
    bad[2] = bad[2] + "/"  # a '/' after the end of the hand
    lines[7] = ":".join(bad)
    lines[12] = lines[12].replace("STATE:12:", "STATE:12:9")  # invalid action '9'
    lines[15] = lines[15].replace("STATE:15:", "STATE:1x5:")  # unreadable hand number
    lines.insert(20, "garbage line")
    log = tmp_path / "s.log"
    log.write_text("\n".join(lines) + "\n")
    recs = read_acpc_log(log, strict=False).hands
    with pytest.raises(ValueError, match="hand 7 of"):
        replay_hands(recs, "calling")
    report = replay_hands(recs, "calling", skip_bad=True)
    assert report.hands == 27 and [h for h, _ in report.skipped] == [7, 12]
    assert "invalid action '9' at position 0" in report.skipped[1][1]
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("COLUMNS", raising=False)  # a pipe's width (pytest-xdist's workers set COLUMNS=80)
    r = CliRunner().invoke(app, ["replay", str(log), "--player", "calling", "--out", str(tmp_path / "h.svg")])
    assert r.exit_code == 0, r.output
    out = " ".join(r.output.split())
    assert "27 hands" in out and "3 hands skipped" in out and "skipped hand 7:" in out, out
    assert f"skipped hand {log}:16" in out and f"hand 12 of {log}:13" in out
    assert f"{log}:21: ignored line" in out and (tmp_path / "h.svg").exists()


@pytest.mark.parametrize("plot,msg", [("/proc/nope/p.png", "does not exist"), ("p.txt", ".png, .pdf, .svg"), (".", "")])
def test_replay_bad_plot_refused_before_replaying(tmp_path, monkeypatch, plot, msg):
    import loki.tournament.replay
    from loki.cli import app

    log = tmp_path / "s.log"
    log.write_text("\n".join(_acpc_lines(3)) + "\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(loki.tournament.replay, "replay_hands", lambda *a, **k: pytest.fail("replayed"))
    r = CliRunner().invoke(app, ["replay", str(log), "--out", plot])
    assert r.exit_code == 2 and r.output.startswith("error: --out") and msg in r.output, r.output
    assert "Traceback" not in r.output
    r = CliRunner().invoke(app, ["replay", str(log), "--seed", "-2"])
    assert r.exit_code == 2 and "--seed" in r.output


PHH_HAND = """variant = 'FT'
antes = [0, 0]
blinds_or_straddles = [5, 10]
small_bet = 10
big_bet = 20
starting_stacks = [1000000, 1000000]
actions = ['d dh p1 5d5c', 'd dh p2 9hQd', 'p2 cbr 20', 'p1 cc', 'd db 8s4h6d', 'p1 cc', 'p2 cbr 10', 'p1 f']
"""


@pytest.mark.parametrize(
    "old,new,msg",
    [
        (None, None, None),
        ("'p2 cbr 20'", "'p1 f'", r"action 3 'p1 f': p2 is to act, not p1"),
        ("d dh p1 5d5c", "d dh p0 5d5c", r"action 1 'd dh p0 5d5c': player 'p0' is not one of p1..p2"),
        ("d dh p2 9hQd", "d dh p3 9hQd", r"action 2 'd dh p3 9hQd': player 'p3'"),
        ("d dh p1 5d5c", "d dh p1", r"action 1 'd dh p1': expected 'd dh pK CARDS'"),
        ("d dh p1 5d5c", "d dh pX 5d5c", r"player 'pX'"),
        ("d dh p1 5d5c", "d dh p1 5d5x", r"expected 'd dh pK CARDS'"),
        ("p2 cbr 20", "p2 cbr 35", r"action 3 'p2 cbr 35': fixed-limit bet/raise to 20 expected"),
        ("p2 cbr 10", "p2 cbr 20", r"action 7 'p2 cbr 20': fixed-limit bet/raise to 10 expected"),
        ("p2 cbr 20", "p2 zz", r"action 3 'p2 zz'"),
        ("'p1 cc', 'd db 8s4h6d'", "'d db 8s4h6d', 'p1 cc'", "board dealt before the betting round is over"),
        ("'FT'", "'NT'", r"hand 0: PHH variant 'NT'"),
        ("small_bet = 10\n", "", "bad or missing game fields"),
        ("actions", "actionz", "missing or unknown fields"),
        ("antes = [0, 0]", "antes = [0, ", "malformed TOML"),
    ],
)
def test_phh_bad_hands_named(tmp_path, old, new, msg):
    f = tmp_path / "h.phh"
    f.write_text(PHH_HAND if old is None else PHH_HAND.replace(old, new))
    if msg is None:
        (rec,) = read_phh(f)
        assert rec.betting == "rc/cr" + "f" and rec.replay().is_terminal
        return
    with pytest.raises(ValueError, match=msg) as e:
        read_phh(f)
    assert str(f) in str(e.value)


def test_phhs_bad_tables_binary_and_skipping(tmp_path):
    f = tmp_path / "x.phhs"
    f.write_text("[1]\nfoo = 1\n")
    with pytest.raises(ValueError, match=r"x.phhs:1: a hand with missing or unknown fields"):
        read_phh(f)
    b = tmp_path / "b.phhs"
    b.write_bytes(b"\xff\xfe\x00\x01garbage")
    with pytest.raises(ValueError, match=r"b.phhs: not a PHH file \((not UTF-8|a NUL byte)"):
        read_phh(b)
    with pytest.raises(ValueError, match=r"b.log: not an ACPC log"):
        read_acpc_log(b.with_suffix(".log")) if b.rename(b.with_suffix(".log")) else None
    two = tmp_path / "two.phhs"
    two.write_text(f"[1]\n{PHH_HAND}\nhand = 4\n\n[2]\n{PHH_HAND.replace('p2 cbr 20', 'p2 cbr 30')}\nhand = 5\n")
    with pytest.raises(ValueError, match=r"two.phhs: hand 5, action 3 'p2 cbr 30'"):
        read_phh(two)
    skipped = []
    assert [r.hand_id for r in read_phh(two, skipped)] == [4] and [h for h, _ in skipped] == [5]


def test_a_log_whose_betting_goes_past_its_board_names_the_hand(tmp_path):
    # the betting reaches the river, the log gives four board cards: an error naming the hand and its line, in the
    # log's terms (not the engine's "no rng")
    from loki.errors import HandHistoryError

    f = tmp_path / "short.log"
    f.write_text("STATE:3:cc/crc/cc/cc:5d5c|9hQd/8dAs8s/4h:20|-20:p1|p2\n")
    (rec,) = read_acpc_log(f).hands
    with pytest.raises(HandHistoryError) as e:
        rec.replay()
    msg = str(e.value)
    assert msg.startswith(f"hand 3 of {f}:1: ") and "goes on past the board given (4 cards)" in msg, msg
    assert "rng" not in msg


def test_a_log_of_unreadable_state_lines_says_so_and_names_the_first(tmp_path):
    from loki.errors import HandHistoryError

    f = tmp_path / "one.log"
    f.write_text("STATE:0:c:AsKd:0:p1\n")  # a STATE line of one player
    with pytest.raises(
        HandHistoryError, match=r"no readable STATE line \(.*one\.log:1: n_players=1: expected 2\.\.10\)"
    ):
        read_acpc_log(f, strict=False)
    f.write_text("# only a comment\n")
    with pytest.raises(HandHistoryError, match="no STATE lines"):
        read_acpc_log(f, strict=False)


@pytest.mark.parametrize(
    "field, value, expected",
    [
        ("antes", "[2, 2, 2]", "antes = [2, 2, 2]: loki's game has no antes"),
        ("blinds_or_straddles", "[5, 10, 20]", "a straddle (a third forced bet)"),
    ],
)
def test_a_phh_hand_with_antes_or_a_straddle_is_refused_by_name(tmp_path, field, value, expected):
    # pokerkit reads both; loki's game has neither, and an ante counted as nothing gave the engine's payoffs for a
    # hand whose record paid otherwise
    from loki.errors import HandHistoryError

    text = (
        "variant = 'FT'\nante_trimming_status = false\nantes = [0, 0, 0]\nblinds_or_straddles = [5, 10, 0]\n"
        "small_bet = 10\nbig_bet = 20\nstarting_stacks = [1000, 1000, 1000]\n"
        "actions = ['d dh p1 AsKs', 'd dh p2 2c7d', 'd dh p3 QhQd', 'p3 f', 'p1 f']\n"
    )
    f = tmp_path / "h.phh"
    f.write_text(text)
    assert tuple(read_phh(f)[0].replay().payoffs) == (-5, 5, 0)  # p1, p2, p3: the small blind folds to the big blind
    default = "antes = [0, 0, 0]" if field == "antes" else "blinds_or_straddles = [5, 10, 0]"
    f.write_text(text.replace(default, f"{field} = {value}"))
    with pytest.raises(HandHistoryError, match=re.escape(expected)):
        read_phh(f)


def test_an_aggression_without_calls_is_shown_as_json_gives_it(tmp_path):
    """A player that bets and raises and never calls has no aggression factor: the table shows "-" where --json
    gives null (it showed "inf")."""
    from rich.console import Console

    from loki.engine import GameConfig
    from loki.players.registry import make_player
    from loki.players.table import play_hand

    players, rng = [make_player("maniac", seed=1), make_player("calling")], np.random.default_rng(2)
    states = [play_hand(GameConfig(n_players=2), players, h % 2, rng) for h in range(8)]
    write_phh(tmp_path / "h.phhs", [(s, ["maniac", "station"], i) for i, s in enumerate(states)])
    report = replay_hands(load_hands(tmp_path / "h.phhs"), "calling")
    assert report.stats["maniac"].aggression == float("inf")
    assert {p["name"]: p for p in report.to_dict()["players"]}["maniac"]["aggression"] is None
    con = Console(record=True, width=160)
    render_report(report, con)
    row = next(line for line in con.export_text().splitlines() if "maniac" in line)
    assert "inf" not in row and " - " in row, row


def test_a_three_way_split_of_a_log_reads_back_and_replays_equal(tmp_path):
    """A payoff of 5/3 chips is written as the ACPC dealer writes it (``1.666667``, not ``1.666666666666666``), and a
    replay of the log finds the engine's payoffs equal to it (within the log's six decimals)."""
    from loki.engine import new_hand
    from loki.io.acpc_log import HandRecord, format_state_line
    from loki.io.gamedef import bundled_gamedef

    g = bundled_gamedef(4)
    holes = ("2c3d", "4c5d", "6c7d", "8c9h")
    s = new_hand(g.config, button=g.button, hole_cards=list(holes), board="AsKsQsJsTs")
    s.apply_many("ccfc/ccc/ccc/ccc")  # the board plays: three ways
    rec = HandRecord(
        0, g.config, g.button, holes, "AsKsQsJsTs", "ccfc/ccc/ccc/ccc", tuple(s.payoffs), ("a", "b", "c", "d")
    )
    line = format_state_line(rec)
    assert line.endswith(":-5|1.666667|1.666667|1.666667:a|b|c|d"), line
    log = tmp_path / "four.log"
    log.write_text(line + "\n")
    report = replay_hands(read_acpc_log(log, game=g).hands, "calling")
    assert report.hands == 1 and report.payoff_mismatches == []
