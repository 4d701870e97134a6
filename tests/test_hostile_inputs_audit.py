"""Hostile inputs found by the audit of 2026-11-27 (file and command-line inputs), each fixed and guarded here: the
failure it guards is in each test's name or docstring.  The network half is in ``tests/test_acpc_hostile.py`` and
``tests/test_web.py``; ``loki tune``'s in ``tests/test_tune_inputs.py``."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from typer.testing import CliRunner

from loki.cli import app
from loki.errors import ConfigError, HandHistoryError, PlayerSpecError, TournamentConfigError
from loki.io.acpc_log import read_acpc_log
from loki.players.registry import make_player

HAND = "STATE:{h}:cc/cc/cc/cc:5d5c|9hQd/8dAs8s/4h/6d:{a}|{b}:p1|p2"


def _log(tmp_path: Path, lines: list[str], name: str = "m.log") -> Path:
    p = tmp_path / name
    p.write_text("\n".join(lines) + "\n")
    return p


def _two_player_log(tmp_path: Path, n: int = 6, first: str | None = None) -> Path:
    lines = [first] if first else []
    lines += [HAND.format(h=h, a=10 if h % 2 else -10, b=-10 if h % 2 else 10) for h in range(n)]
    return _log(tmp_path, lines)


def _error(result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    return result.stderr


# ------------------------------------------------------------------ players


def test_player_file_with_a_long_dotted_key_is_refused_in_bounded_memory(tmp_path):
    """A 64 KiB dotted key made tomllib use ~3 GB (MemoryError); the shape check refuses it first."""
    f = tmp_path / "p.toml"
    f.write_text('[player]\nkind = "loki1"\n' + "a." * 32_000 + "a = 1\n")
    tracemalloc.start()
    try:
        with pytest.raises(PlayerSpecError, match="dotted key of 32001 parts"):
            make_player(str(f))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 50 << 20, peak


def test_deeply_nested_spec_json_is_one_error():
    """``loki2{"a": [[[...]]]}`` gave a RecursionError traceback."""
    with pytest.raises(PlayerSpecError, match="nested too deep"):
        make_player('loki2{"a":' + "[" * 50_000 + "]" * 50_000 + "}")
    with pytest.raises(PlayerSpecError, match="1e999"):
        make_player('loki2{"sim":{"trials":1e999}}')


def test_non_ascii_digits_are_not_numbers():
    """``²`` passes ``str.isdigit()`` but not ``int()``: options, PHH players, seats and COLUMNS crashed on it."""
    with pytest.raises(PlayerSpecError, match="positive integer"):
        make_player("loki2:BRS:trials=²")
    r = subprocess.run(
        [sys.executable, "-c", "from loki.cli import main; main()", "tournament", "--list"],
        env={**__import__("os").environ, "COLUMNS": "²", "LINES": "x"},
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0 and "Traceback" not in r.stderr and "fig3-BRS" in r.stdout, r.stderr


# ------------------------------------------------------------------ hand histories


def test_explain_reads_a_phh_file_once_within_the_reader_limits(tmp_path):
    """``loki explain`` parsed the whole ``.phhs`` a second time through pokerkit, unguarded (a 32 KB dotted key:
    1.7 GB); the seats now come with read_phh's records, and a bad hand is skipped."""
    from loki.engine import GameConfig
    from loki.explain.sources import phh_seat_numbers
    from loki.io.phh import write_phh
    from loki.players.table import play_hand

    cfg = GameConfig(n_players=3)
    bots = [make_player("calling", name=f"b{i}") for i in range(3)]
    st = play_hand(cfg, bots, 1, __import__("numpy").random.default_rng(1))
    good = tmp_path / "g.phhs"
    write_phh(good, [(st, ["ann", "bob", "cid"], 1)])
    path = tmp_path / "h.phhs"
    path.write_text(good.read_text() + "\n[2]\n" + "a." * 16_000 + "a = 1\n")
    tracemalloc.start()
    try:
        seats = phh_seat_numbers(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert seats == {1: (3, 1, 2)} and peak < 100 << 20, (seats, peak)
    r = CliRunner().invoke(app, ["explain", str(path), "--who", "bob", "--json"])
    assert r.exit_code == 0 and "dotted key of 16001 parts" in r.stderr


def test_a_stray_line_of_another_table_does_not_make_a_log_unreadable(tmp_path):
    """The first STATE line fixed the player count, so one 3-seat line at the top made every 2-seat hand skip."""
    stray = "STATE:99:cc/crc/cc/cc:5d5c|9hQd|AhAc/8dAs8s/4h/6d:20|-20|0:p1|p2|p3"
    p = _two_player_log(tmp_path, 6, first=stray)
    lg = read_acpc_log(p, strict=False)
    assert len(lg.hands) == 6 and lg.game.n_players == 2
    assert lg.skipped == [(f"{p}:1", "3 players in a STATE line but most of the log's hands have 2")]
    with pytest.raises(HandHistoryError, match="2 players in a STATE line but the game has 3"):
        read_acpc_log(p)  # strict: the first line's count, as before


def test_a_state_line_with_an_empty_name_is_skipped(tmp_path):
    """A cut-off ``...:p1|`` gave a seat's chips to a player named ''."""
    p = _log(tmp_path, [HAND.format(h=0, a=10, b=-10), "STATE:1:cc/cc/cc/cc:5d5c|9hQd/8dAs8s/4h/6d:20|-20:p1|"])
    lg = read_acpc_log(p, strict=False)
    assert len(lg.hands) == 1 and "empty player name" in lg.skipped[0][1]


def test_replay_and_explain_fail_when_no_hand_replays(tmp_path):
    """A file whose every hand is refused reported an empty table and exit code 0."""
    f = tmp_path / "nl.phh"
    f.write_text(
        "variant = 'NT'\nante_trimming_status = false\nantes = [0, 0]\nblinds_or_straddles = [5, 10]\n"
        "min_bet = 10\nstarting_stacks = [1000, 1000]\nactions = ['d dh p1 AsKd', 'd dh p2 7h2c', 'p2 f']\n"
    )
    err = _error(CliRunner().invoke(app, ["replay", str(f), "--player", "random", "-o", str(tmp_path / "h.png")]))
    assert "no hand could be replayed" in err and "'FT'" in err


def test_replay_json_is_printed_when_the_histogram_cannot_be_written(tmp_path, monkeypatch):
    """With --json a failing histogram threw the whole report away."""
    import loki.tournament.replay as replay

    def broken(report, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(replay, "plot_percentiles", broken)
    p = _two_player_log(tmp_path)
    r = CliRunner().invoke(app, ["replay", str(p), "--json", "-o", str(tmp_path / "h.png")])
    assert r.exit_code == 2 and "cannot write the histogram" in r.stderr
    out = json.loads(r.stdout)
    assert out["hands"] == 6 and out["histogram"] is None


# ------------------------------------------------------------------ tournaments and tables


@pytest.mark.parametrize("name", ["a\x00b", "a\nb", "..", "."])
def test_a_tournament_name_must_be_printable_and_not_only_dots(name):
    """A NUL in ``name`` crashed the results folder's mkdir; a line break or '..' made odd folders."""
    from loki.tournament import config_from_dict

    with pytest.raises(TournamentConfigError, match="'name' must be printable"):
        config_from_dict({"name": name, "players": [{"type": "random", "count": 2}]})


def test_hand_histories_of_a_game_phh_cannot_hold_are_refused_before_the_folder(tmp_path):
    """The max_bets check came after the results folder was made, and did not name the config."""
    cfg = tmp_path / "big.toml"
    cfg.write_text('name = "big"\ndeals = 2\n[game]\nmax_bets = 100\n[[players]]\ntype = "random"\ncount = 2\n')
    out = tmp_path / "out"
    err = _error(CliRunner().invoke(app, ["tournament", "-c", str(cfg), "-o", str(out), "-w", "0", "-q"]))
    assert f"{cfg}: hand histories" in err and "max_bets = 4" in err
    assert not out.exists()


def test_ir_tables_samples_are_capped_before_any_roll_out(tmp_path):
    """``--samples 10**30`` gave a numba traceback, and 10**15 ran for years."""
    from loki.assessment.income_rate import MAX_SAMPLES, rollout_tables

    err = _error(CliRunner().invoke(app, ["ir-tables", "--samples", str(10**30), "-o", str(tmp_path / "x.csv")]))
    assert "--samples" in err and "at most 100,000,000" in err
    with pytest.raises(ConfigError, match="expected 2..100,000,000"):
        rollout_tables(MAX_SAMPLES + 1, 0)


# ------------------------------------------------------------------ loki play


def test_play_reads_piped_input_in_bounded_lines(monkeypatch):
    """A 60 MB input line was read whole (650 MB) and echoed back; bytes that are not UTF-8 crashed a strict stdin."""
    from loki.cli.play import MAX_INPUT_LINE, _read_line

    stdin = io.StringIO("x" * 5_000_000 + "\nc\n")
    monkeypatch.setattr(sys, "stdin", stdin)
    out = io.StringIO()
    first = _read_line("> ", out)
    assert first == "x" * MAX_INPUT_LINE and _read_line("> ", out) == "c" and out.getvalue() == "> > "
    with pytest.raises(EOFError):
        _read_line("> ", out)


def test_play_answers_bad_input_without_a_traceback():
    """``e ²`` (a seat in digits int() refuses), rich markup and a long line at the prompts of a scripted session."""
    from rich.console import Console

    from loki.cli.human import play_human_session

    answers = iter(["e ²", "[red]" + "y" * 100, "e 99", "q"])
    console = Console(file=io.StringIO(), width=200, record=True)
    play_human_session(1, 1, 0, "calling", input_fn=lambda prompt: next(answers), console=console, phh_path=None)
    text = console.export_text()
    assert "'e ²': type e, or e and a seat" in text
    assert "'[red]" + "y" * 35 + "...' is not an action" in text
    assert "'e 99': type e" in text


@pytest.mark.parametrize(
    "args",
    [
        ["tournament", "--preset", "fig3-B", "-n", "2"],
        ["league", "--player", "random", "--player", "calling", "-n", "2"],
        ["ir-tables", "--samples", "100"],
        ["replay", "x.log"],
    ],
    ids=["tournament", "league", "ir-tables", "replay"],
)
def test_an_empty_out_is_refused_not_taken_for_the_current_folder(args, tmp_path, monkeypatch):
    """``-o ""`` became Path("."), so a tournament wrote its results into the folder it was run from."""
    monkeypatch.chdir(tmp_path)
    err = _error(CliRunner().invoke(app, [*args, "-o", ""]))
    assert "expected a path, got an empty string" in err
    assert list(tmp_path.iterdir()) == []
