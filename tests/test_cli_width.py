"""Readable at 80 columns and in a pipe: no help text, tunable-field list or league table is cut with an ellipsis,
option ranges agree between commands, the tournament's output ends with its two-line legend, and the glossary is
the same in ``loki explain --legend`` and docs/GLOSSARY.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from loki.cli import app
from loki.cli._common import MAX_ACPC_SEED, MAX_SEED, MAX_WORKERS

ROOT = Path(__file__).resolve().parents[1]
NARROW = {"COLUMNS": "80", "LINES": "40"}


def _commands() -> list[str]:
    group = typer.main.get_command(app)
    return sorted(group.commands)


def _run(args: list[str]) -> str:
    r = CliRunner().invoke(app, args, env=NARROW, terminal_width=80)
    assert r.exit_code == 0, r.output
    return r.output


@pytest.mark.parametrize("args", [["--help"]] + [[c, "--help"] for c in _commands()])
def test_help_is_never_cut_at_80_columns(args):
    out = _run(args)
    assert "…" not in out, out
    assert all(len(line) <= 80 for line in out.splitlines()), max(out.splitlines(), key=len)
    if args == ["--help"]:
        # the command list gives each command's first sentence whole (click would cut it with "...")
        assert "..." not in out.split("Commands:")[1], out


def test_the_tunable_fields_are_listed_whole_at_80_columns():
    out = _run(["tune", "--list-params", "loki2:BRS"])
    assert "…" not in out
    # every name --param needs is on one line, whole
    assert "bettor.check_raise_probability" in out and "sim.temperature" in out


def test_the_preset_list_wraps_each_description_beside_its_name_at_80_columns():
    """``loki tournament --list`` folded each line at the edge (the name's line broken mid-description, the next line
    at column 0) and said quick's 300 deals twice."""
    from loki.tournament.config import list_presets

    out = _run(["tournament", "--list"])
    lines = out.splitlines()
    assert "…" not in out and all(len(line) <= 80 for line in lines), out
    starts = [line.split()[0] for line in lines if line and not line.startswith(" ")]
    assert starts == list(list_presets()), out  # each preset one row, its wrapped description indented beside it
    assert out.count("300 deals") == 1, out


def test_a_league_table_folds_instead_of_cutting_at_80_columns(monkeypatch):
    from loki.cli._console import make_console
    from loki.cli.league import league_table

    monkeypatch.setenv("COLUMNS", "80")
    labels = ["B+R+S adaptive A4", "B+R+S", "B+R+S tuned BRS1", "B+R+S specific, believed", "Loki-1", "equity"]
    n = len(labels)
    value = [[None if i == j else (i - j) * 0.1234 for j in range(n)] for i in range(n)]
    ci = [[None if i == j else 0.051 for j in range(n)] for i in range(n)]
    console = make_console(width=80, record=True)
    console.print(league_table("heads-up league: row's sb/hand against column", labels, value, ci))
    text = console.export_text()
    assert "…" not in text
    assert text.count("0.051") == n * (n - 1)  # every interval printed whole
    for i in range(n):
        for j in range(n):
            if i != j:
                assert f"{(i - j) * 0.1234:+.3f}" in text


def test_option_ranges_agree_between_commands():
    """--workers is 0..MAX_WORKERS everywhere; --seed is 0..2**64-1, or 0..2**32-1 where it seeds an ACPC deal, and
    its range is what the help shows (no range written in the text that differs from the option's)."""
    group = typer.main.get_command(app)
    seen = 0
    for name, cmd in group.commands.items():
        for p in cmd.params:
            if "--workers" in p.opts:
                assert (p.min, p.max) == (0, MAX_WORKERS), name
                seen += 1
            if "--seed" in p.opts:
                assert p.min == 0, name
                assert p.max in (MAX_SEED, MAX_ACPC_SEED), name
                assert "4294967295" not in (p.help or "") and "2**64" not in (p.help or ""), name
    assert seen >= 3


def test_the_preset_option_names_every_shipped_preset():
    """``tournament --preset``'s help names every preset that ships (the fitted sets' fig3-B-B1, fig3-S-S2 and
    fig3-BRS-BRS3 were missing from it), so a new preset file fails here until the help says it."""
    from loki.tournament.config import list_presets

    group = typer.main.get_command(app)
    (option,) = [p for p in group.commands["tournament"].params if "--preset" in p.opts]
    named = set(option.help.replace(",", " ").replace(";", " ").replace(".", " ").split())
    assert len(list_presets()) >= 10
    assert not set(list_presets()) - named, set(list_presets()) - named


def test_the_tournament_ends_with_its_two_line_legend(tmp_path):
    from loki.tournament.results import LEGEND

    out = _run(["tournament", "--preset", "quick", "-n", "2", "-w", "1", "--no-plots", "--quiet",
                "--out", str(tmp_path / "q")])  # fmt: skip
    lines = [ln for ln in out.splitlines() if ln.strip()]
    flat = " ".join(" ".join(lines[-12:]).split())
    assert flat.endswith(" ".join(" ".join(LEGEND).split())), flat[-300:]
    assert len(LEGEND) == 2
    for term in ("VPIP", "PFR", "AF", "WTSD", "W$SD", "± 95%", "own", "collapse %", "loki explain --legend"):
        assert term in " ".join(LEGEND)


def test_the_glossary_is_the_same_in_the_docs_and_explain():
    from loki.explain.glossary import GLOSSARY, glossary_markdown

    assert (ROOT / "docs" / "GLOSSARY.md").read_text() == glossary_markdown()
    out = _run(["explain", "--legend"])
    flat = " ".join(out.split())
    for term in ("HS", "HS_n", "PPot", "NPot", "EHS'", "make1, make2", "VPIP", "PFR", "AF", "WTSD", "W$SD"):
        assert term in GLOSSARY
        assert f"{term}: {' '.join(GLOSSARY[term].split())}" in flat
    assert all(len(line) <= 80 for line in out.splitlines())


def test_the_progress_bar_ends_on_the_rate_run_json_records(tmp_path):
    """The bar's hands/s is this run's hands over its time (a resumed journal not counted), and once the run is over
    it shows exactly what run.json records (was: rich's speed, e.g. 4,807 hands/s where run.json said 61)."""
    import json
    import re

    out = _run(["tournament", "--preset", "quick", "-n", "4", "-w", "1", "--no-plots", "--out", str(tmp_path / "q")])
    rate = json.loads((tmp_path / "q" / "run.json").read_text())["hands_per_second"]
    shown = re.findall(r"([\d,]+\.\d+) hands/s", out)
    assert shown and all(float(s.replace(",", "")) == pytest.approx(rate, abs=0.005) for s in shown[-2:]), (shown, rate)


def test_a_tuning_runs_best_values_are_printed_on_one_line_in_a_pipe(capsys, monkeypatch):
    # the best trial's values are one JSON line: in a pipe (no COLUMNS) it is printed whole, not wrapped at 80
    from loki.cli.tune import _print

    monkeypatch.delenv("COLUMNS", raising=False)
    params = {f"bettor.make{i}": 0.123456789 + i for i in range(8)}
    record = {
        "best": {"trial": 7, "params": params, "search_value": 0.05, "search_ci": 0.02},
        "validation": None,
        "files": ["best.toml", "study.db"],
    }
    _print(record, Path("out") / ("study-" + "x" * 90))
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "best trial 7: " + json.dumps(params)
    assert out[-1].startswith("study and outputs in out/study-" + "x" * 90 + ": best.toml, study.db")
