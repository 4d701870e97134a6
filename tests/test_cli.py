"""Tests of the ``loki`` command line as a whole: the option vocabulary, the error style, 1-based
seats, ``--version`` and a fast start (no numba, engine or evaluator at import or ``--help``)."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from importlib.metadata import entry_points

import pytest
import typer
from typer.testing import CliRunner

import loki
from loki.cli import app

HEAVY = ("numba", "loki.engine", "loki.evaluator", "loki.tournament", "loki.players", "scipy", "matplotlib")


def _run(*args: str, input: str | None = None):
    return CliRunner().invoke(app, list(args), input=input)


def _options(command: str) -> dict[str, list[str]]:
    """``{parameter name: its option strings}`` of a command (hidden ones and ``--no-x`` included)."""
    cmd = typer.main.get_command(app).commands[command]
    return {p.name: list(p.opts) + list(getattr(p, "secondary_opts", [])) for p in cmd.params}


# ------------------------------------------------------------------ fast start


@pytest.mark.parametrize(
    "code",
    [
        "import loki",
        "import loki.cli",
        "from loki.cli import app\ntry:\n    app(['--help'])\nexcept SystemExit:\n    pass",
        "from loki.cli import app\nfor c in ('tournament', 'dealer', 'acpc', 'match', 'play', 'replay', 'demo', 'ir-tables', 'warmup'):\n"
        "    try:\n        app([c, '--help'])\n    except SystemExit:\n        pass",
        "from loki.cli import app\ntry:\n    app(['--version'])\nexcept SystemExit:\n    pass",
    ],
)
def test_import_and_help_import_nothing_heavy(code):
    check = f"\nimport sys\nheavy = sorted(m for m in sys.modules if m.startswith({HEAVY!r}))\nprint('HEAVY', heavy)"
    r = subprocess.run([sys.executable, "-c", code + check], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "HEAVY []", r.stdout[-2000:]


@pytest.mark.parametrize("preset", [None, "3"])
def test_the_command_runs_one_blas_thread_unless_asked(preset):
    # OpenBLAS's threads only spin at start-up for loki's vectors: the command sets one before numpy is loaded (worker
    # processes inherit it), and keeps a count the user set
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if preset is not None:
        env["OPENBLAS_NUM_THREADS"] = preset
    code = "import os, sys\nimport loki.cli\nimport numpy\nprint(os.environ['OPENBLAS_NUM_THREADS'], 'numpy' in sys.modules)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [preset or "1", "True"]


@pytest.mark.parametrize("args", [["--version"], ["tournament", "--preset", "nope"]])
def test_a_finished_command_leaves_its_objects_frozen_for_the_shutdown(args):
    # the process's entry point freezes what is left (the shutdown's collections then skip it), on success and on an
    # error alike; the exit handlers still run (this one reads the count)
    code = (
        "import atexit, gc\nfrom loki.cli import app\n"
        "atexit.register(lambda: print('FROZEN', gc.get_freeze_count()))\n"
        f"app({args!r})"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == (0 if args == ["--version"] else 2), r.stderr
    frozen = int(r.stdout.strip().splitlines()[-1].split()[1])
    assert frozen > 10_000, r.stdout[-2000:]


def test_a_command_run_in_process_freezes_nothing():
    # CliRunner (tests, embedding) calls the group's main: the calling process goes on, and its objects stay collectable
    before = gc.get_freeze_count()
    assert _run("--version").exit_code == 0
    assert gc.get_freeze_count() == before


def test_entry_point_is_the_app():
    (ep,) = [e for e in entry_points(group="console_scripts") if e.name == "loki"]
    assert ep.value == "loki.cli:app" and ep.load() is app


# ------------------------------------------------------------------ version


def test_version_option_and_command():
    for args in (["--version"], ["version"]):
        r = _run(*args)
        assert r.exit_code == 0 and r.output.strip() == loki.__version__


# ------------------------------------------------------------------ one vocabulary


def test_shared_options_have_one_name():
    # --player SPEC for a seat: one on acpc and replay, repeatable on dealer and play
    for cmd in ("acpc", "replay", "dealer", "play", "match", "warmup"):
        assert _options(cmd)["player"] == ["--player"], cmd
    for cmd in ("dealer", "play", "match", "warmup"):
        (p,) = [p for p in typer.main.get_command(app).commands[cmd].params if p.name == "player"]
        assert p.multiple, cmd
    # --seed everywhere, --hands for hands, --deals only on tournament
    for cmd in ("tournament", "acpc", "dealer", "match", "replay", "play", "demo", "ir-tables"):
        assert "--seed" in _options(cmd)["seed"], cmd
    for cmd in ("dealer", "match", "replay", "play", "demo"):
        assert _options(cmd)["hands"] == ["--hands"], cmd
    assert "--deals" in _options("tournament")["deals"] and "deals" not in _options("dealer")
    # --out for the output file or folder
    for cmd in ("tournament", "dealer", "match", "replay", "play", "ir-tables"):
        assert "--out" in _options(cmd)["out"], cmd
    # the old spellings survive only as hidden aliases
    for cmd, old in [("dealer", "names"), ("dealer", "log"), ("replay", "plot"), ("play", "phh")]:
        (p,) = [p for p in typer.main.get_command(app).commands[cmd].params if p.name == old]
        assert p.hidden, (cmd, old)
    (p,) = [p for p in typer.main.get_command(app).commands["play"].params if p.name == "opponent_type"]
    assert p.hidden


def test_tournament_keeps_the_guard_options():
    opts = {o for v in _options("tournament").values() for o in v}
    for o in ["--preset", "--config", "--deals", "--seed", "--workers", "--out", "--no-histories", "--no-plots"]:
        assert o in opts, o
    assert "--quiet" in opts


# ------------------------------------------------------------------ one error style


@pytest.mark.parametrize(
    "args, needle",
    [
        (["nosuchcommand"], "No such command"),
        (["tournament", "--bogus"], "--bogus"),
        (["play", "--seed", "-1"], "--seed"),
        (["demo", "--players", "11"], "--players"),
        (["tournament", "--preset", "fig9"], "unknown preset 'fig9'"),
        (["acpc", "127.0.0.1", "7000", "--player", "nosuchbot"], "--player: unknown player type 'nosuchbot'"),
        (["replay", "/no/such/log"], "FILE /no/such/log: no such file"),
        (["dealer", "--player", "a", "--player", "b", "--player", "c"], "--player given 3 times for a 2-player game"),
        (["play", "--player", "loki1", "--player", "calling", "--opponents", "3"], "--opponents 3 but --player"),
        (["play", "--player", "loki1", "--opponent-type", "calling"], "give --player only"),
    ],
)
def test_errors_are_one_line_on_stderr_with_exit_2(args, needle):
    r = _run(*args)
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert lines and lines[-1].startswith("error: ") and needle in lines[-1], r.stderr
    assert "Traceback" not in r.output and "╭" not in r.stderr


def test_loki_errors_from_the_library_become_error_lines(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[players]]\ntype = "random"\ncount = 3\nspeed = 1\n')
    r = _run("tournament", "--config", str(bad), "--out", str(tmp_path / "o"))
    assert r.exit_code == 2 and r.stderr.startswith("error: ") and "speed" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "args",
    [
        ["tournament", "--deals", "2", "--quiet", "--no-plots", "--out", "/proc/loki-x"],
        ["dealer", "--out", "/proc/nope/x.log", "--t-connect", "0.2"],
        ["play", "--hands", "1", "--out", "/proc/nope/s.phhs"],
        ["ir-tables", "--samples", "100", "--out", "/proc/nope/ir.csv"],
    ],
)
def test_unwritable_outputs_are_error_lines(args):
    r = _run(*args, input="q\n")
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith("error: ") and "/proc/" in r.stderr and "Traceback" not in r.output


def test_a_subprocess_gets_the_same_error_line(tmp_path):
    r = subprocess.run(
        [sys.executable, "-c", "from loki.cli import app; app()", "tournament", "--preset", "nope"],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ),
    )
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("error: unknown preset 'nope'") and r.stderr.count("\n") == 1


# ------------------------------------------------------------------ seats from 1


def test_demo_numbers_seats_from_one():
    r = _run("demo", "--hands", "2", "--players", "3", "--seed", "1")
    assert r.exit_code == 0, r.output
    assert "holes 1:" in r.output and " 0:" not in r.output and "button seat " in r.output
    rows = [ln for ln in r.output.splitlines() if ln.startswith("│")]
    assert [ln.split("│")[1].strip() for ln in rows] == ["1", "2", "3"]


def test_dealer_lists_seats_from_one():
    r = _run("dealer", "--player", "loki2:BR", "--player", "calling", "--t-connect", "0.2")
    assert r.exit_code == 2  # nobody connects
    ports = r.stdout.splitlines()[0].split()
    assert len(ports) == 2 and all(p.isdigit() for p in ports)
    assert f"seat 1 (loki2-BR): port {ports[0]}" in r.stderr and f"seat 2 (calling): port {ports[1]}" in r.stderr
    assert "did not connect" in r.stderr.strip().splitlines()[-1]


def test_dealer_names_alias_still_works_with_a_warning():
    r = _run("dealer", "--names", "x", "--names", "y", "--t-connect", "0.2")
    assert "warning: --names is deprecated, use --player" in r.stderr and "seat 1 (x)" in r.stderr


def test_play_with_one_bot_per_player_option(tmp_path):
    out = tmp_path / "s.phhs"
    r = _run("play", "--player", "calling", "--player", "random", "--hands", "2", "--out", str(out), input="c\n" * 100)
    assert r.exit_code == 0, r.output
    assert "calling-2" in r.output and "random-3" in r.output and out.exists()
    r = _run("play", "--opponent-type", "calling", "--hands", "1", "--phh", str(tmp_path / "t.phhs"), input="c\n" * 50)
    assert r.exit_code == 0 and "--opponent-type is deprecated" in r.stderr and "--phh is deprecated" in r.stderr
    assert "calling-6" in r.output  # 5 bots by default, in seats 2..6


def test_tournament_summary_from_the_cli(tmp_path):
    f = tmp_path / "t.toml"
    f.write_text(
        'name = "t"\ndeals = 2\nblock_deals = 1\nhistories = false\n[[players]]\ntype = "calling"\ncount = 2\n'
    )
    r = _run("tournament", "--config", str(f), "--out", str(tmp_path / "o"), "--quiet", "--no-plots", "--workers", "1")
    assert r.exit_code == 0, r.output
    s = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert s["hands"] == 4 and [p["index"] for p in s["players"]] == [0, 1]
