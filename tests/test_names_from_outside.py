"""Names from outside never reach a terminal raw, and never grow a replay without bound: player names read from a
log are escaped wherever they are printed (one function, :func:`loki.io.names.shown`, also behind every ``error:``
line); names and labels loki is given to use (tournament labels and names, league labels, web names) are checked
(:func:`loki.io.names.check_name`: printable, bounded); a replay models at most
:data:`loki.io.limits.MAX_REPLAY_PLAYERS` player names and counts a hand number once; ``--who ''`` names nobody;
names, labels and output paths printed through rich markup are printed as written (:func:`loki.io.names.shown_markup`).

The spaces of names are fuzzed with Hypothesis (derandomized, as in ``tests/test_fuzz_inputs.py``)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from loki.cli import app
from loki.cli._common import error_line
from loki.errors import ConfigError, HandHistoryError, TournamentConfigError
from loki.io.acpc_log import read_acpc_log
from loki.io.limits import MAX_REPLAY_PLAYERS
from loki.io.names import MAX_NAME_CHARS, MAX_SHOWN_CHARS, check_name, name_problem, shown

LOKI = [sys.executable, "-c", "from loki.cli import app; app()"]
FUZZ = settings(
    max_examples=80,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
#: The log line of the probe: an OSC window title, a bell, a clear-screen in a player's name.
HOSTILE = "\x1b]0;PWNED\x07\x1b[2Jevil"
LINE = "STATE:{}:cc/crc/cc/cc:5d5c|9hQd/8dAs8s/4h/6d:20|-20:{}|{}\n"
#: Characters a terminal acts on (C0 and C1 controls, DEL) and the bidirectional overrides.
DANGEROUS = {chr(c) for c in range(32)} | {chr(c) for c in range(0x7F, 0xA0)} | set("\u202a\u202b\u202d\u202e\u2066")


def _raw_controls(text: str) -> set[str]:
    return {c for c in text if c in DANGEROUS and c != "\n"}


def _log(path: Path, pairs: list[tuple[str, str]]) -> Path:
    path.write_text("".join(LINE.format(i, a, b) for i, (a, b) in enumerate(pairs)), encoding="utf-8")
    return path


# ------------------------------------------------------------------ the one function


@FUZZ
@given(st.text(max_size=200))
def test_shown_text_is_printable_bounded_and_unchanged_when_safe(text):
    s = shown(text)
    assert s.isprintable() and len(s) <= MAX_SHOWN_CHARS + 1
    if text.isprintable() and len(text) <= MAX_SHOWN_CHARS:
        assert s == text
    assert shown(text, None).isprintable()
    assert error_line(f"x {text} y").isprintable()  # every error line too


@FUZZ
@given(st.one_of(st.text(max_size=150), st.integers(), st.none()))
def test_checked_names_are_printable_and_bounded_or_refused_naming_the_input(name):
    why = name_problem(name)
    if why is None:
        assert isinstance(name, str) and name.isprintable() and 0 < len(name) <= MAX_NAME_CHARS
        assert check_name(name, "--label", ConfigError) == name
    else:
        with pytest.raises(ConfigError) as e:
            check_name(name, "--label", ConfigError)
        msg = str(e.value)
        assert msg.startswith("--label ") and why in msg and msg.isprintable() and len(msg) < 300


def test_an_error_line_echoing_a_huge_argument_is_bounded():
    """`loki acpc <5,000-character host> 1` printed a 5,113-byte error line (the argument echoed whole)."""
    from loki.cli._common import MAX_ERROR_CHARS

    r = CliRunner().invoke(app, ["acpc", "a" * 5000, "1", "--no-warmup"])
    lines = [ln for ln in r.output.splitlines() if ln.startswith("error:")]
    assert r.exit_code == 2 and len(lines) == 1, r.output[-500:]
    assert len(lines[0]) <= len("error: ") + MAX_ERROR_CHARS + 1 and lines[0].endswith("…")


# ------------------------------------------------------------------ names reported: replay, explain


def test_names_from_a_log_reach_the_terminal_escaped_in_replay_and_explain(tmp_path):
    """`printf 'STATE:...:\\e]0;PWNED\\a\\e[2Jevil|p2' > e.log; loki replay e.log` set the window title and cleared
    the screen; so did `loki explain`."""
    log = _log(tmp_path / "e.log", [(HOSTILE, "p2")] * 3)
    env = dict(os.environ, COLUMNS="200")
    for args in (
        ["replay", str(log), "--player", "calling", "--out", str(tmp_path / "e.png")],
        ["explain", str(log), "--who", "1", "--player", "calling", "--hands", "1"],
        ["explain", str(log), "--who", HOSTILE, "--player", "calling", "--hands", "1"],
        ["explain", str(log), "--who", "nobody\x1b[31m", "--player", "calling"],  # an error line naming the players
    ):
        r = subprocess.run(LOKI + args, capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
        assert r.returncode in (0, 2) and "Traceback" not in r.stderr, r.stderr[-2000:]
        out = r.stdout + r.stderr
        assert not _raw_controls(out), (args, sorted(_raw_controls(out)))
        assert "\\x1b]0;PWNED\\x07\\x1b[2Jevil" in out, (args, out[-3000:])


@settings(FUZZ, max_examples=25)
@given(st.text(st.characters(blacklist_characters=":|\n\r", blacklist_categories=("Cs",)), min_size=1, max_size=80))
def test_any_name_in_a_log_is_printed_without_a_raw_control_character(tmp_path, name):
    """Rendered by the code that prints replay reports and explanations (rich, no colours of its own)."""
    from rich.console import Console

    from loki.explain.render import render_explanation
    from loki.explain.sources import explain_log
    from loki.tournament.replay import render_report, replay_hands

    if name.strip() != name or not name.strip() or name == "p2":
        return
    log = _log(tmp_path / "f.log", [(name, "p2")] * 2)
    recs = read_acpc_log(log, strict=False).hands
    if not recs:
        return
    buf = io.StringIO()
    console = Console(file=buf, color_system=None, width=160, force_terminal=False)
    render_report(replay_hands(recs, "calling", skip_bad=True), console, title=name)
    exps, _ = explain_log(recs, name, "calling")
    for x in exps:
        console.print(render_explanation(x))
    out = buf.getvalue()
    assert not _raw_controls(out), sorted(_raw_controls(out))
    assert shown(name) in out


# ------------------------------------------------------------------ names given to use: labels, league, web


@pytest.mark.parametrize(
    "label, needle",
    [
        ("evil\x1b[2J", "not printable text"),
        ("nul\x00byte", "not printable text"),
        ("x" * 5000, "longer than 100 characters (5,000)"),
        ("bidi\u202eevil", "not printable text"),
    ],
)
def test_tournament_labels_and_names_must_be_printable_and_bounded(tmp_path, label, needle):
    """Tournament labels accepted ESC (printed raw), NUL (written into deals.csv) and 5,000 characters."""
    from loki.tournament import config_from_dict

    table = {"name": "t", "deals": 2, "players": [{"type": "calling", "count": 2, "label": label}]}
    with pytest.raises(TournamentConfigError, match="players\\[0\\]: 'label'") as e:
        config_from_dict(table)
    assert needle in str(e.value) and str(e.value).isprintable()
    table = {"name": "t", "deals": 2, "players": [{"type": "calling", "count": 2}],
             "compare": [{"name": label, "enhanced": "calling", "control": "calling"}]}  # fmt: skip
    with pytest.raises(TournamentConfigError, match="compare\\[0\\]: 'name'"):
        config_from_dict(table)
    with pytest.raises(TournamentConfigError, match="'name' must be printable text"):
        config_from_dict({"name": label, "players": [{"type": "calling", "count": 2}]})
    cfg = tmp_path / "t.toml"
    cfg.write_text(f'name = "t"\ndeals = 2\n[[players]]\ntype = "calling"\ncount = 2\nlabel = {json.dumps(label)}\n')
    r = CliRunner().invoke(app, ["tournament", "--config", str(cfg), "--out", str(tmp_path / "o"), "-q"])
    assert r.exit_code == 2 and not _raw_controls(r.output) and not (tmp_path / "o").exists(), r.output


@FUZZ
@given(st.text(max_size=120))
def test_fuzz_tournament_labels_are_refused_or_printable(label):
    from loki.tournament import config_from_dict

    try:
        cfg = config_from_dict({"name": "t", "players": [{"type": "calling", "count": 2, "label": label}]})
    except TournamentConfigError as e:
        assert str(e).isprintable()
        return
    (lab,) = cfg.labels
    assert lab.isprintable() and 0 < len(lab) <= MAX_NAME_CHARS


def test_a_league_pair_takes_any_two_labels_a_league_accepts():
    """A label that is a player file's path (the default label of `--player results/tune-b/best.toml`) or of the
    longest length makes a pair's tournament, whose name has a '/' rule and a length of its own."""
    from loki.tournament.league import pair_config

    c = pair_config("calling", "random", ("results/tune-b/best.toml", "y" * MAX_NAME_CHARS), 4, 0)
    assert c.name.startswith("results-tune-b-best.toml vs yyy") and c.labels == ("results/tune-b/best.toml", "y" * 100)


def test_league_labels_are_checked_before_any_pair(tmp_path):
    r = CliRunner().invoke(
        app,
        ["league", "--player", "calling", "--player", "random", "--label", "a\x1b[2J", "--label", "b",
         "--out", str(tmp_path / "l")],
    )  # fmt: skip
    assert r.exit_code == 2 and "--label" in r.stderr and "not printable text" in r.stderr, r.output
    assert not _raw_controls(r.output) and not (tmp_path / "l").exists()


# ------------------------------------------------------------------ bounded replays


def test_a_replay_models_a_bounded_number_of_player_names(tmp_path, monkeypatch):
    """A 4.3 MB log of 100,000 one-line hands with new names each reached 1.35 GB and ran past 15 minutes: every name
    got a bot.  Past the cap the replay is refused before any bot is made, naming the cap."""
    import loki.players.registry as registry
    from loki.tournament.replay import replay_hands

    n = MAX_REPLAY_PLAYERS // 2 + 1  # two new names per hand
    log = _log(tmp_path / "many.log", [(f"a{i}", f"b{i}") for i in range(n)])
    recs = read_acpc_log(log, strict=False).hands
    made = []
    real = registry.make_player
    monkeypatch.setattr(registry, "make_player", lambda *a, **k: made.append(1) or real(*a, **k))
    tracemalloc.start()
    try:
        with pytest.raises(HandHistoryError, match=f"{2 * n:,} player names, more than the {MAX_REPLAY_PLAYERS:,}"):
            replay_hands(recs, "loki1", skip_bad=True)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert made == [] and peak < 16 << 20, peak
    r = CliRunner().invoke(app, ["replay", str(log), "--player", "calling", "--out", str(tmp_path / "m.png")])
    assert r.exit_code == 2 and "player names, more than the 1,000" in r.stderr and "--hands" in r.stderr
    r = CliRunner().invoke(app, ["explain", str(log), "--who", "a3", "--player", "calling", "--hands", "1000"])
    assert r.exit_code == 2 and "player names, more than the 1,000" in r.stderr
    # within the cap, the same log replays
    r = CliRunner().invoke(app, ["replay", str(log), "--hands", "400", "--player", "calling", "--out",
                                 str(tmp_path / "m.png")])  # fmt: skip
    assert r.exit_code == 0, r.output


def test_a_repeated_hand_number_is_counted_once(tmp_path):
    from loki.tournament.replay import replay_hands

    log = tmp_path / "dup.log"
    log.write_text(LINE.format(0, "p1", "p2") + LINE.format(1, "p2", "p1") + LINE.format(1, "p2", "p1"))
    recs = read_acpc_log(log, strict=False).hands
    report = replay_hands(recs, "calling", skip_bad=True)
    assert report.hands == 2 and sum(st.hands for st in report.stats.values()) == 4
    ((hid, msg),) = report.skipped
    assert hid == 1 and "hand number 1 was met before" in msg
    with pytest.raises(HandHistoryError, match="met before"):
        replay_hands(recs, "calling")


def test_explain_who_empty_names_nobody(tmp_path):
    """`loki explain LOG --who ''` explained seat 1."""
    log = _log(tmp_path / "w.log", [("p1", "p2")])
    r = CliRunner().invoke(app, ["explain", str(log), "--who", "", "--player", "calling"])
    assert r.exit_code == 2 and "--who ''" in r.stderr, r.output
    r = CliRunner().invoke(app, ["explain", str(log), "--who", "   ", "--player", "calling"])
    assert r.exit_code == 2 and "expected a player name" in r.stderr, r.output


# ------------------------------------------------------------------ names and paths printed through rich markup

#: Labels and names rich would take for markup: a closing tag (a MarkupError after the run), a style tag (swallowed).
MARKUP_LABELS = ("x[/]", "[x] = 'y'")


def _printed(renderable) -> str:
    from rich.console import Console

    buf = io.StringIO()
    Console(file=buf, color_system=None, width=200).print(renderable)
    return buf.getvalue()


def test_shown_markup_prints_text_as_written():
    from loki.io.names import shown_markup

    for text in ("x[/]", "[x] = 'y'", "[bold]b[/bold]", "a\\[b]", "out/r[/].png", HOSTILE):
        assert _printed(shown_markup(text, None)).rstrip("\n") == shown(text, None)


def test_labels_in_the_result_tables_are_printed_as_written():
    """A config label "x[/]" ended `loki tournament` with a MarkupError after the run; "[x] = 'y'" was shown as
    " = 'y'"; so were the league's labels in its cross table."""
    from loki.cli.league import league_table
    from loki.tournament.results import results_table

    types = [
        {"type": lab, "players": 1, "sb_per_hand": 0.5, "ci": 0.1, "vpip": 0.2, "pfr": 0.1, "af": 1.0, "wtsd": 0.3,
         "wsd": 0.5} for lab in MARKUP_LABELS
    ]  # fmt: skip
    comparison = {"name": "[bold]c[/]", "sb_per_hand": 1.0, "ci": 0.5, "enhanced": ["x[/]"], "control": ["[x] = 'y'"]}
    summary = {"name": "t[x]", "deals": 2, "n_players": 2, "hands": 4, "seed": 0, "types": types,
               "comparisons": [comparison]}  # fmt: skip
    out = "".join(_printed(t) for t in results_table(summary))
    assert "t[x]: 2 deals" in out and "[bold]c[/]" in out
    out = _printed(league_table("league", list(MARKUP_LABELS), [[None, 0.5], [-0.5, None]], [[None, 0.1], [0.1, None]]))
    for lab in MARKUP_LABELS:
        assert out.count(lab) == 2, out  # a column and a row


def _replay_log(folder: Path) -> Path:
    return _log(folder / "evil\x1b]0;PWNED\x07.log", [("p1", "p2")] * 3)


@pytest.mark.parametrize(
    "command, printed",
    [
        (
            lambda out, tmp: ["tournament", "-c", str(tmp / "t.toml"), "-w", "0", "-q", "--no-plots", "-o", str(out)],
            "results in ",
        ),
        (
            lambda out, tmp: ["lbr", "random", "--deals", "2", "--block-deals", "1", "-w", "0", "-q", "-o", str(out)],
            "results in ",
        ),
        (
            lambda out, tmp: [
                "league",
                "--player",
                "calling",
                "--player",
                "random",
                "--label",
                MARKUP_LABELS[0],
                "--label",
                MARKUP_LABELS[1],
                "--deals",
                "2",
                "-w",
                "0",
                "-q",
                "--no-plots",
                "-o",
                str(out),
            ],
            "pairs and league.json in ",
        ),
        (
            lambda out, tmp: ["replay", str(_replay_log(tmp)), "--player", "random", "-o", f"{out}.png"],
            "histogram written to ",
        ),
        (
            lambda out, tmp: ["play", "--opponents", "1", "--hands", "1", "--player", "random", "-o", f"{out}.phh"],
            "hand history written to ",
        ),
    ],
    ids=["tournament", "lbr", "league", "replay", "play"],
)
def test_output_paths_and_labels_are_printed_as_written(tmp_path, monkeypatch, command, printed):
    """`loki tournament -o 'x[/]'` wrote its results, then ended with a MarkupError (exit 1), as did lbr, league and
    replay; `-o $'res\\e[2J'` cleared the screen in the "results in ..." line."""
    (tmp_path / "t.toml").write_text(
        'name = "t"\ndeals = 2\n[[players]]\ntype = "calling"\nlabel = "x[/]"\n'
        '[[players]]\ntype = "random"\nlabel = "[x] = \'y\'"\n'
    )
    (tmp_path / "o[").mkdir()
    monkeypatch.setenv("COLUMNS", "1000")  # each line whole
    out = tmp_path / "o[" / "]\x1b[2J[bold]"
    args = command(out, tmp_path)
    r = CliRunner().invoke(app, args, input="c\n" * 20)
    assert r.exit_code == 0 and r.exception is None, (r.exception, r.output[-2000:])
    text = r.stdout + r.stderr
    assert not _raw_controls(text), sorted(_raw_controls(text))
    target = shown(args[-1], None)
    assert f"{printed}{target}" in text, text[-2000:]
    if args[0] in ("tournament", "league"):
        for lab in MARKUP_LABELS:
            assert f" {lab} " in text, text


def test_tune_prints_its_folder_as_written(tmp_path, monkeypatch):
    """`loki tune ... -o 'tu2[/]'` played its study, then ended with a MarkupError in its last line."""
    import loki.cli.tune as tune_cli

    target = tmp_path / "t.toml"
    target.write_text(
        'name = "t"\ndeals = 2\nblock_deals = 1\nhistories = false\n[[players]]\ntype = "loki2:B"\nlabel = "B"\n'
        '[[players]]\ntype = "loki1"\nlabel = "L1"\n[[compare]]\nenhanced = ["B"]\ncontrol = ["L1"]\n'
    )
    record = {"best": {"trial": 0, "params": {"a[/]": 1.0}, "search_value": 0.1, "search_ci": None},
              "files": ["tune.json"]}  # fmt: skip
    monkeypatch.setattr(tune_cli, "_run", lambda *a, **k: record)  # the study itself is not what is tested
    monkeypatch.setenv("COLUMNS", "1000")
    (tmp_path / "o[").mkdir()
    out = tmp_path / "o[" / "]\x1b[2J"
    r = CliRunner().invoke(app, ["tune", str(target), "-q", "--trials", "1", "--validate-deals", "0", "-o", str(out)])
    assert r.exit_code == 0 and r.exception is None, (r.exception, r.output[-2000:])
    assert not _raw_controls(r.stdout) and f"study and outputs in {shown(out, None)}: tune.json" in r.stdout
    assert '{"a[/]": 1.0}' in r.stdout
