"""Outputs of the commands: --json everywhere a result is printed, output paths checked before
the work, the shipped data never overwritten, the distribution's name in install hints."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import typer
from typer.testing import CliRunner

import loki
from loki.cli import app

LOKI = [sys.executable, "-c", "from loki.cli import app; app()"]


def _run(*args: str, input: str | None = None):
    return CliRunner().invoke(app, list(args), input=input)


def test_json_option_on_every_command_that_prints_a_result():
    cmds = typer.main.get_command(app).commands
    for name in ("replay", "match", "dealer", "acpc", "play"):
        assert any("--json" in p.opts for p in cmds[name].params), name


def test_dealer_and_acpc_json_over_loopback(tmp_path):
    log = tmp_path / "m.log"
    dealer = subprocess.Popen(
        LOKI + ["dealer", "--hands", "6", "--seed", "4", "--out", str(log), "--t-connect", "60", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = json.loads(dealer.stdout.readline())
        assert len(first["ports"]) == 2 and first["names"] == ["p1", "p2"]
        clients = [
            subprocess.Popen(
                LOKI + ["acpc", "127.0.0.1", str(p), "--player", "calling", "--json"],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for p in first["ports"]
        ]
        outs = [c.communicate(timeout=120) for c in clients]
        rest, err = dealer.communicate(timeout=60)
    finally:
        dealer.kill()
    assert dealer.returncode == 0, err
    res = json.loads(rest.strip().splitlines()[-1])
    assert res["complete"] and res["hands_played"] == 6 and res["log"] == str(log) and res["seed"] == 4
    assert [p["seat"] for p in res["players"]] == [1, 2] and res["score_line"].startswith("SCORE:")
    for (o, e), c, p in zip(outs, clients, res["players"]):
        assert c.returncode == 0, e
        mine = json.loads(o)
        assert mine["hands"] == 6 and mine["chips"] == p["chips"] and mine["protocol_errors"] == 0


def test_play_json_keeps_stdout_for_the_result(tmp_path):
    out = tmp_path / "s.phhs"
    r = _run(
        "play", "--player", "calling", "--opponents", "2", "--hands", "2", "--out", str(out), "--json", input="c\n" * 40
    )
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    assert res["hands"] == 2 and [p["seat"] for p in res["players"]] == [1, 2, 3] and res["history"] == str(out)
    assert "your cards" in r.stderr


def test_ir_tables_never_write_the_shipped_data(tmp_path, monkeypatch):
    shipped = Path(loki.__file__).parent / "data" / "income_rates.csv"
    before = shipped.read_bytes()
    r = _run("ir-tables", "--samples", "100", "--out", str(shipped))
    assert r.exit_code == 2 and "shipped data folder" in r.stderr
    monkeypatch.chdir(tmp_path)
    r = _run("ir-tables", "--samples", "100", "--seed", "2")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "income_rates.csv").exists() and "shipped tables are unchanged" in r.stdout
    r = _run("ir-tables", "--samples", "100", "--seed", "2")  # never over an earlier one either
    assert r.exit_code == 0 and (tmp_path / "income_rates-1.csv").exists()
    assert shipped.read_bytes() == before


def test_replay_checks_its_output_before_the_work(tmp_path, monkeypatch):
    import loki.tournament.replay

    called = []
    monkeypatch.setattr(loki.tournament.replay, "replay_hands", lambda *a, **k: called.append(1))
    log = tmp_path / "x.log"
    log.write_text("# empty\n")
    for out, needle in [("/proc/nope/h.png", "does not exist"), (str(tmp_path / "h.txt"), "expected a file ending")]:
        r = _run("replay", str(log), "--out", out)
        assert r.exit_code == 2 and needle in r.stderr and called == []


def test_install_hints_name_the_distribution():
    r = CliRunner().invoke(app, ["tournament", "--help"], env={"COLUMNS": "250"}, terminal_width=250)
    assert "pip install 'loki-poker[cluster]'" in r.stdout  # rich markup does not eat [cluster]
    root = Path(__file__).resolve().parents[1]
    text = (root / "pyproject.toml").read_text()
    assert 'name = "loki-poker"' in text and 'loki = "loki.cli:app"' in text
    for doc in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        for line in doc.read_text().splitlines():
            if "pip install" in line and "[" in line:
                assert "loki-poker[" in line or '".[' in line or "'.[" in line, (doc.name, line)


def test_plain_replay_shows_intervals_by_hand_and_nothing_is_cut_on_a_pipe(tmp_path, monkeypatch):
    """Without AIVAT, `loki replay` gives sb/hand with its 95 % interval (the hand as unit, with the
    caveat that hands are correlated); printed to a pipe, no table cell is cut to fit 80 columns."""
    shared = Path(__file__).resolve().parents[2] / "shared" / "acpc" / "3p.limit.h1000.r0.log"
    if not shared.exists():
        shared = Path("/work/shared/acpc/3p.limit.h1000.r0.log")
    lines = shared.read_text().splitlines()
    log = tmp_path / "3p.log"
    log.write_text("\n".join(lines[:34]) + "\n")  # the header and 30 hands
    monkeypatch.delenv("COLUMNS", raising=False)
    r = _run("replay", str(log), "--player", "calling", "--out", str(tmp_path / "p.png"))
    assert r.exit_code == 0, r.output
    assert "…" not in r.stdout
    table = r.stdout[r.stdout.index("sb/hand with 95% intervals") :].splitlines()
    header = next(x for x in table if "± 95%" in x)
    assert "sb/hand" in header
    rows = [x for x in table if x.strip("│ ").startswith(("p1", "p2", "p3"))]
    assert len(rows) == 3 and all(x.count(".") >= 2 for x in rows)  # sb/hand and its half-width
    assert "caveat: the hands of one log are correlated" in r.stdout


def test_fig4_plots_draw_each_styles_loki1_and_loki2_as_a_pair(tmp_path, monkeypatch):
    """In fig4's plots the Loki-1 and Loki-2 of one style share a colour and differ in marker and line
    style (bars: hatch); different styles differ in colour."""
    from types import SimpleNamespace

    import matplotlib.pyplot as plt
    import numpy as np

    from loki.tournament.config import load_preset
    from loki.tournament.results import pair_styles, plot_results

    cfg = load_preset("fig4")
    spec = {s.label: s.spec for s in cfg.seats}
    types = [{"type": lab, "spec": spec[lab], "sb_per_hand": 0.01 * i, "ci": 0.02} for i, lab in enumerate(cfg.labels)]
    look = pair_styles(types)
    for style in ("TC", "TA", "LC", "LA"):
        one, two = look[f"Loki-1 {style}"], look[f"Loki-2 {style}"]
        assert one["color"] == two["color"] and one["marker"] != two["marker"] and one["linestyle"] != two["linestyle"]
    assert len({look[f"Loki-1 {s}"]["color"] for s in ("TC", "TA", "LC", "LA")}) == 4
    figs = []
    real_close = plt.close
    monkeypatch.setattr(plt, "close", lambda fig=None: (figs.append(fig), real_close(fig)))
    run = SimpleNamespace(config=cfg, chips=np.random.default_rng(0).normal(0, 20, size=(30, cfg.n_players)))
    plot_results(run, tmp_path, {"types": types, "deals": 30, "hands": 300})
    assert (tmp_path / "sb_per_hand.png").exists() and (tmp_path / "cumulative.png").exists()
    bars, cumulative = figs
    lines = {ln.get_label(): ln for ln in cumulative.axes[0].get_lines() if not ln.get_label().startswith("_")}
    for style in ("TC", "TA", "LC", "LA"):
        one, two = lines[f"Loki-1 {style}"], lines[f"Loki-2 {style}"]
        assert one.get_color() == two.get_color() and one.get_marker() != two.get_marker()
    from matplotlib.container import BarContainer

    patches = {c.get_label(): c.patches[0] for c in bars.axes[0].containers if isinstance(c, BarContainer)}
    one, two = patches["Loki-1 LA"], patches["Loki-2 LA"]
    assert one.get_facecolor() == two.get_facecolor() and one.get_hatch() != two.get_hatch()


def test_dollar_signs_in_names_and_labels_are_drawn_as_written(tmp_path, monkeypatch):
    """A label "$\\frac{$" ended a finished tournament or league with a ParseSyntaxException in its plots (matplotlib
    read it as mathtext), a name "x$a^b^c$" with a ParseFatalException; both are drawn as plain text."""
    import matplotlib.pyplot as plt
    from matplotlib.text import Text

    figs = []
    real_close = plt.close
    monkeypatch.setattr(plt, "close", lambda fig=None: (figs.append(fig), real_close(fig)))
    cfg = tmp_path / "t.toml"
    cfg.write_text(
        'name = "x$a^b^c$"\ndeals = 2\n[[players]]\ntype = "calling"\nlabel = "$\\\\frac{$"\n'
        '[[players]]\ntype = "random"\nlabel = "y$"\n'
    )
    r = _run("tournament", "-c", str(cfg), "-w", "0", "-q", "-o", str(tmp_path / "t"))
    assert r.exit_code == 0 and r.exception is None, (r.exception, r.output[-2000:])
    assert (tmp_path / "t" / "sb_per_hand.png").exists() and (tmp_path / "t" / "cumulative.png").exists()
    r = _run("league", "--player", "calling", "--player", "random", "--label", "$\\frac{$", "--label", "b",
             "--deals", "2", "-w", "0", "-q", "-o", str(tmp_path / "l"))  # fmt: skip
    assert r.exit_code == 0 and r.exception is None, (r.exception, r.output[-2000:])
    assert (tmp_path / "l" / "cross.png").exists()
    texts = [t for f in figs for t in f.findobj(Text) if "$" in t.get_text()]
    assert {"x$a^b^c$: 2 deals, 4 games (95% CI)", "$\\frac{$", "y$"} <= {t.get_text() for t in texts}
    assert not any(t.get_parse_math() for t in texts)  # plain text, not a formula
