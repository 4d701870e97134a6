"""Hostile files and values where input comes in: bounded reads, capped
counts, nesting limits, no tracebacks from parsers, a keyed journal, strict JSON results, and the small items
(lock file, one spelling of ``error:``, plurals, where ``loki replay`` writes).  Each test names the
failure it guards; the property-based counterpart is ``tests/test_fuzz_inputs.py``."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import resource
import shutil
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from typer.testing import CliRunner

from loki.cli import app
from loki.errors import ConfigError, HandHistoryError, InputError, JournalError, LokiError, TournamentConfigError
from loki.io import limits
from loki.io.acpc_log import read_acpc_log
from loki.io.gamedef import GAMEDEF_2P, load_gamedef, parse_gamedef
from loki.io.phh import read_phh
from loki.tournament import config_from_dict, load_config, run_tournament
from loki.tournament.journal import journal_key, read_journal, signed_line
from loki.tournament.results import TournamentSummary, write_results

ROOT = Path(__file__).resolve().parent.parent
TINY = {
    "name": "tiny",
    "deals": 6,
    "block_deals": 2,
    "histories": False,
    "players": [{"type": "calling", "count": 2}, {"type": "random", "count": 1}],
}
PHH_HAND = """variant = 'FT'
antes = [0, 0]
blinds_or_straddles = [5, 10]
small_bet = 10
big_bet = 20
starting_stacks = [1000000, 1000000]
actions = ['d dh p1 5d5c', 'd dh p2 9hQd', 'p2 cbr 20', 'p1 cc', 'd db 8s4h6d', 'p1 cc', 'p2 cbr 10', 'p1 f']
"""
TOML_PLAYERS = '[[players]]\ntype = "random"\ncount = 2\n'


def _one_error_line(r) -> str:
    """The single ``error: ...`` line of a failed command (exit code 2, no traceback)."""
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in r.output, r.output
    return lines[0]


# ------------------------------------------------------------------ 1. resource limits


@pytest.mark.parametrize(
    "text, needle",
    [
        ("deals = 9223372036854775807\n", "'deals' = 9223372036854775807 must be <= 1000000 (loki's cap)"),
        ("block_deals = 100000\n", "'block_deals' = 100000 must be <= 10000 (loki's cap)"),
        ("seed = 18446744073709551616\n", "'seed' = 18446744073709551616 must be <= 18446744073709551615"),
        ("[game]\nmax_bets = 1000000\n", "[game]: 'max_bets' = 1000000 must be <= 100 (loki's cap)"),
        ("[game]\nbig_bet = 10000000000000\n", "[game]: 'big_bet' = 10000000000000 must be <= 1000000000"),
    ],
)
def test_counts_in_a_config_are_capped_naming_the_key_and_the_cap(tmp_path, text, needle):
    """`deals = 9223372036854775807` grew the process to 24 GB: now refused at once, naming the key and the cap."""
    f = tmp_path / "big.toml"
    f.write_text(text.replace("[game]", TOML_PLAYERS + "[game]") if "[game]" in text else text + TOML_PLAYERS)
    with pytest.raises(TournamentConfigError) as e:
        load_config(f)
    assert str(e.value).startswith(str(f)) and needle in str(e.value)
    line = _one_error_line(CliRunner().invoke(app, ["tournament", "--config", str(f), "--out", str(tmp_path / "o")]))
    assert needle in line and not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    "args, needle",
    [
        (["tournament", "--deals", "9223372036854775807"], "'deals' = 9223372036854775807 must be <= 1000000"),
        (["tournament", "--block-deals", "20000"], "'block_deals' = 20000 must be <= 10000"),
        (["tournament", "--workers", "100000"], "less than or equal to 256"),
        (["tournament", "--seed", str(2**64)], "less than or equal to 18446744073709551615"),
        (["replay", "--hands", str(10**12), "x.log"], "less than or equal to 10000000"),
        (["demo", "--hands", str(10**12)], "less than or equal to 10000000"),
    ],
)
def test_counts_on_the_command_line_are_capped(tmp_path, monkeypatch, args, needle):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.log").write_text("")
    assert needle in _one_error_line(CliRunner().invoke(app, args))


def test_the_runner_never_lists_every_block(monkeypatch):
    """The runner listed every block index up front (a list of 2 million ints for 2 million blocks)."""
    import loki.tournament.runner as runner
    from loki.tournament.config import TournamentConfig

    base = config_from_dict(TINY)
    huge = TournamentConfig.model_construct(**{**dict(base), "deals": 2_000_000, "block_deals": 1})
    played = []

    class Enough(Exception):
        pass

    def fake_block(config, block, hist=None):
        played.append(block)
        if len(played) == 3:
            raise Enough
        return {"block": block, "deals": [block, block + 1], "chips": [[0, 0, 0]], "counters": [], "hands": 3}

    monkeypatch.setattr(runner, "play_block", fake_block)
    tracemalloc.start()
    try:
        with pytest.raises(Enough):
            runner.run_tournament(huge, workers=1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert played == [0, 1, 2] and peak < 8 << 20, peak  # a list of 2,000,000 block indices is about 70 MiB


def _limited(args: list[str]) -> subprocess.CompletedProcess:
    """``loki ARGS`` in a process limited to 4 GiB of address space (reading /dev/zero whole hits it in seconds)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))

    cmd = [sys.executable, "-c", "from loki.cli import app; app()", *args]
    return subprocess.run(cmd, capture_output=True, text=True, preexec_fn=limit, timeout=120)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize(
    "args, needle",
    [
        (
            ["tournament", "--config", "/dev/zero"],
            "/dev/zero: cannot read a tournament config file: it is a character device, not a regular file",
        ),
        (
            ["replay", "--player", "random", "/dev/zero"],
            "/dev/zero: cannot read an ACPC log: it is a character device, not a regular file",
        ),
        (
            ["explain", "--player", "random", "/dev/zero"],
            "/dev/zero: cannot read an ACPC log: it is a character device, not a regular file",
        ),
    ],
)
def test_dev_zero_is_refused_without_reading_it_whole(args, needle):
    """`--config /dev/zero`, `loki replay /dev/zero`, `loki explain /dev/zero` read the whole (endless) file; now a
    device is refused before any read (the size caps of regular files are tested below)."""
    r = _limited(args)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr[-2000:]
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith("error: ") and needle in line


def test_a_preset_is_one_of_the_shipped_names_read_under_the_cap(tmp_path, monkeypatch):
    """`loki tournament --preset ../../some/file` read a tournament file outside the presets folder, whole and
    without a size cap; a preset is now one of the shipped names, and a shipped file is read with the cap of a
    tournament file."""
    import os

    import loki.tournament.config as config

    outside = tmp_path / "outside.toml"
    outside.write_text('name = "outside"\n' + TOML_PLAYERS)
    presets = Path(str(config._preset_dir()))
    escape = os.path.relpath(outside.with_suffix(""), presets)  # ../../.../outside
    with pytest.raises(TournamentConfigError, match=r"unknown preset '.*outside': expected one of \[.*'quick'\]"):
        config.load_preset(escape)
    r = CliRunner().invoke(app, ["tournament", "--preset", escape, "-q", "-w", "0", "-o", str(tmp_path / "o")])
    assert "unknown preset" in _one_error_line(r) and not (tmp_path / "o").exists()
    assert config.load_preset("quick").name == "quick"
    monkeypatch.setattr(config, "MAX_CONFIG_BYTES", 16)
    with pytest.raises(TournamentConfigError, match="quick.toml: larger than 16 bytes, the limit for preset 'quick'"):
        config.load_preset("quick")


def test_logs_and_phh_files_are_streamed_under_a_size_cap(tmp_path, monkeypatch):
    """ACPC logs and PHH files are read a line (a hand) at a time and stop at the size cap, naming it."""
    import loki.io.acpc_log
    import loki.io.phh

    monkeypatch.setattr(loki.io.acpc_log, "MAX_LOG_BYTES", 1 << 20)
    monkeypatch.setattr(loki.io.phh, "MAX_LOG_BYTES", 1 << 20)
    log = tmp_path / "big.log"
    log.write_text("# a comment line of the log\n" * 50_000)  # 1.4 MB
    tracemalloc.start()
    try:
        with pytest.raises(HandHistoryError, match=re.escape(f"{log}: larger than 1 MiB, the limit for an ACPC log")):
            read_acpc_log(log)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20, peak  # (the whole text would be 1.4 MB, its lines 5 MB)
    hands = tmp_path / "big.phhs"
    comments = "# a comment line in a hand\n" * 24_000  # 648 KB
    hands.write_text(f"[1]\n{PHH_HAND}{comments}\n[2]\n{PHH_HAND}{comments}")
    with pytest.raises(HandHistoryError, match=re.escape(f"{hands}: larger than 1 MiB, the limit for a PHH file")):
        read_phh(hands)
    ten = tmp_path / "ten.phhs"
    ten.write_text("".join(f"[{i}]\n{PHH_HAND}\n" for i in range(1, 11)))
    assert len(read_phh(ten, max_hands=5)) == 5  # and a reader stops where it is told
    monkeypatch.setattr(loki.io.phh, "MAX_LOG_BYTES", 64 << 20)
    one = tmp_path / "long.phhs"
    one.write_text("[1]\n" + "_x = 1\n" * 200_000)
    with pytest.raises(HandHistoryError, match=re.escape(f"{one}:1: a hand larger than 1 MiB (the limit)")):
        read_phh(one)


def test_hands_and_notes_read_from_a_log_are_capped(tmp_path, monkeypatch):
    """64 MiB of short STATE lines would be millions of records (about 1 KiB each): the count is capped too."""
    import loki.io.acpc_log

    monkeypatch.setattr(loki.io.acpc_log, "MAX_LOG_HANDS", 50)
    monkeypatch.setattr(loki.io.acpc_log, "MAX_NOTES", 5)
    log = _acpc_log(tmp_path / "many.log", 60)
    with pytest.raises(HandHistoryError, match=re.escape(f"{log}:51: more than 50 hands, the limit for one log")):
        read_acpc_log(log)
    assert len(read_acpc_log(log, max_hands=50).hands) == 50
    bad = tmp_path / "bad.log"
    bad.write_text("STATE:x\n" * 20 + "junk\n" * 20 + log.read_text().splitlines()[0] + "\n")
    lg = read_acpc_log(bad, strict=False)
    assert len(lg.skipped) == 6 and lg.skipped[-1] == (str(bad), "15 more malformed STATE lines, not listed")
    assert len(lg.warnings) == 6 and lg.warnings[-1] == f"{bad}: 15 more ignored lines, not listed"


@pytest.mark.parametrize(
    "text, needle",
    [
        ("x = " + "[" * 100_000 + "]" * 100_000, "arrays or tables nested 100000 deep: the limit is 32"),
        ("x = " + "{a = " * 5000 + "1" + "}" * 5000, "arrays or tables nested 5000 deep: the limit is 32"),
        ("a" + ".a" * 5000 + " = 1", "a dotted key of 5001 parts: the limit is 32"),
        ("[" + ".".join(["t"] * 5000) + "]\nx = 1", "a dotted key of 5000 parts: the limit is 32"),
        ("a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q = [[[1]]]", None),  # within both limits
        ("a" + ".a" * 20 + " = " + "{b" + ".b" * 20 + " = 1}", "nested more than 32 deep (the limit)"),
    ],
)
def test_toml_nesting_is_limited_before_tomllib_recurses(tmp_path, text, needle):
    """Deeply nested arrays made tomllib raise RecursionError; a long dotted key makes its memory grow as its square."""
    f = tmp_path / "deep.toml"
    f.write_text(text + "\n" + TOML_PLAYERS)
    if needle is None:
        with pytest.raises(TournamentConfigError, match="unknown key 'a'"):
            load_config(f)
        return
    with pytest.raises(TournamentConfigError, match=re.escape(needle)) as e:
        load_config(f)
    assert str(f) in str(e.value)
    p = tmp_path / "deep.phh"
    p.write_text(PHH_HAND + text.replace("x =", "_x =").replace("a", "_a", 1).replace("[t", "[_t", 1) + "\n")
    with pytest.raises(HandHistoryError, match=re.escape(needle)):
        read_phh(p)


def test_json_nesting_and_non_finite_numbers_are_refused():
    for raw, needle in [
        (b"[" * 100_000 + b"]" * 100_000, "nested too deep"),
        (b"[" * 40 + b"]" * 40, "nested more than 32 deep"),
        (b'{"a": NaN}', "NaN is not a JSON number"),
        (b'{"a": -Infinity}', "-Infinity is not a JSON number"),
        (b'{"a": 1e999}', "1e999 is out of the range of a float"),
        (b'{"a": ' + b"1" * 5000 + b"}", "not strict JSON"),
    ]:
        with pytest.raises(JournalError, match=re.escape(needle)):
            limits.loads_json(raw, "x.json", JournalError)


def test_game_definitions_are_read_with_a_cap_and_bounded_numbers(tmp_path):
    big = tmp_path / "big.game"
    big.write_text(GAMEDEF_2P + "#" * (100 << 10))
    with pytest.raises(ConfigError, match=re.escape(f"{big}: larger than 64 KiB, the limit for a game definition")):
        load_gamedef(big)
    for old, new, needle in [
        ("raiseSize = 10 10 20 20", "raiseSize = 10 10 20 " + "9" * 30, "'raiseSize': values must be at most"),
        ("maxRaises = 3 4 4 4", "maxRaises = 999 1000 1000 1000", "at most 62 bets per round at 2 players"),
        ("numPlayers = 2", "numPlayers = " + "9" * 5000, "'numPlayers': expected integers"),
    ]:
        with pytest.raises(ConfigError, match=re.escape(needle)):
            parse_gamedef(GAMEDEF_2P.replace(old, new), "g.game")


# ------------------------------------------------------------------ 2. no tracebacks from parsers


@pytest.mark.parametrize(
    "old, new, needle",
    [
        ("actions = [", "actions = 5\n_rest = [", "'actions' must be a list of strings, got 5"),
        ("[1000000, 1000000]", "[inf, 1000000]", "'starting_stacks' must hold whole numbers of chips"),
        ("[1000000, 1000000]", "[1e999999999, 1]", "'starting_stacks' must hold whole numbers of chips"),
        ("[1000000, 1000000]", "[nan, 1]", "got Decimal('NaN')"),
        ("[1000000, 1000000]", "[true, 1]", "got True"),
        ("[1000000, 1000000]", "5", "'starting_stacks' must be a list of numbers, got 5"),
        ("[5, 10]", "[5, 'x']", "'blinds_or_straddles' must hold whole numbers of chips, got 'x'"),
        ("small_bet = 10", "small_bet = [10]", "'small_bet' must hold whole numbers of chips, got [10]"),
        (
            "big_bet = 20",
            "big_bet = 20\nfinishing_stacks = [1, 2, 3]",
            "'finishing_stacks' must be a list of 2 numbers",
        ),
        ("big_bet = 20", "big_bet = 20\nplayers = 'ab'", "'players' must be a list of strings, got 'ab'"),
        ("big_bet = 20", "big_bet = 20\nhand = [1]", "'hand' must be an integer or a string"),
        ("variant = 'FT'", "variant = ['FT']", "PHH variant ['FT']: only fixed-limit"),
        ("big_bet = 20", "big_bet = " + "9" * 5000, "malformed TOML"),
        ("'p2 cbr 20'", "'p2 cbr 1e999'", "fixed-limit bet/raise to 20 expected, not 1e999"),
    ],
)
def test_phh_fields_of_the_wrong_type_are_hand_history_errors(tmp_path, monkeypatch, old, new, needle):
    """PHH `actions = 5` was a TypeError and `starting_stacks = [inf]` an OverflowError."""
    monkeypatch.chdir(tmp_path)
    f = tmp_path / "h.phh"
    assert old in PHH_HAND
    f.write_text(PHH_HAND.replace(old, new, 1))
    with pytest.raises(HandHistoryError, match=re.escape(needle)) as e:
        read_phh(f)
    assert str(f) in str(e.value) and "\n" not in str(e.value)
    skipped: list = []
    assert read_phh(f, skipped) == [] and len(skipped) == 1  # skippable, not fatal, when asked
    assert "Traceback" not in CliRunner().invoke(app, ["replay", "--player", "random", str(f)]).output


@pytest.mark.parametrize(
    "line, needle",
    [
        ("STATE:0:cc/cc/cc/cc:5d5c|9hQd/8dAs8s/4h/6d:nan|-20:p1|p2", "payoffs must be finite numbers"),
        ("STATE:0:cc/cc/cc/cc:5d5c|9hQd/8dAs8s/4h/6d:inf|-inf:p1|p2", "payoffs must be finite numbers"),
        ("STATE:" + "9" * 5000 + ":cc/cc/cc/cc:5d5c|9hQd/8dAs8s/4h/6d:0|0:p1|p2", "malformed STATE line"),
        ("SCORE:nan|1:p1|p2", "malformed SCORE line"),
        ("SCORE:1|2|3:p1|p2", "malformed SCORE line"),
    ],
)
def test_acpc_log_numbers_must_be_finite(tmp_path, line, needle):
    f = tmp_path / "m.log"
    f.write_text("STATE:1:cc/cc/cc/cc:5d5c|9hQd/8dAs8s/4h/6d:0|0:p1|p2\n" + line + "\n")
    with pytest.raises(HandHistoryError, match=re.escape(needle)) as e:
        read_acpc_log(f)
    assert f"{f}:2" in str(e.value)


def test_toml_parse_failures_are_config_errors(tmp_path):
    """An integer of 5000 digits made tomllib raise ValueError, not TOMLDecodeError: a traceback."""
    for text, needle in [
        ("deals = " + "1" * 5000, "malformed TOML: Exceeds the limit"),
        ("deals = [", "malformed TOML"),
    ]:
        f = tmp_path / "c.toml"
        f.write_text(text + "\n" + TOML_PLAYERS)
        with pytest.raises(TournamentConfigError, match=needle):
            load_config(f)
        assert needle in _one_error_line(CliRunner().invoke(app, ["tournament", "--config", str(f)]))
    d = tmp_path / "folder.toml"
    d.mkdir()
    assert "it is a folder" in _one_error_line(CliRunner().invoke(app, ["tournament", "--config", str(d)]))


@pytest.mark.parametrize(
    "args, needle",
    [
        (
            ["--hole", "Ah" * 5000],
            "--hole 'AhAhAhAhAhAhAhAhAhAhAhAhAhAhAhAhAhAhAhAh'... (10000 characters): longer than 16",
        ),
        (["--hole", "AhKh", "--board", "\x00"], "--board '\\x00': invalid cards"),
        (["--hole", "AhKh", "--betting", "c" * 100_000], "(100000 characters): longer than 1000 characters"),
        (["--hole", "AhKh", "--button", str(10**30)], f"--button {10**30}: expected a seat 1..2"),
    ],
)
def test_explain_spots_refuse_hostile_values_in_one_short_line(args, needle):
    line = _one_error_line(CliRunner().invoke(app, ["explain", "--player", "random", *args]))
    assert needle in line and len(line) < 300


# ------------------------------------------------------------------ 3. the journal


def _journal(tmp_path):
    cfg = config_from_dict(TINY)
    out = tmp_path / "run"
    full = run_tournament(cfg, workers=1, out=out)
    return cfg, out, out / "journal.jsonl", full


def test_a_forged_journal_line_is_refused(tmp_path):
    """A line forged with a recomputed (unkeyed SHA-256) checksum was accepted, and summary.json then held NaN."""
    cfg, out, j, _ = _journal(tmp_path)
    key = journal_key(out)
    assert key is not None and re.fullmatch("[0-9a-f]{64}", key)
    assert json.loads((out / "run.json").read_text())["journal_key"] == key
    lines = j.read_text().splitlines()
    rec = json.loads(lines[2])
    rec.pop("sum")
    rec["chips"][0][0] += 1000
    body = json.dumps(rec, separators=(",", ":"))
    for forged in (
        '{"sum":"' + hashlib.sha256(body.encode()).hexdigest()[:16] + '",' + body[1:],  # the old, public checksum
        '{"sum":"' + hashlib.sha256(body.encode()).hexdigest()[:32] + '",' + body[1:],
        signed_line(rec, "ab" * 32),  # a checksum under another key
    ):
        j.write_text("\n".join([*lines[:2], forged, *lines[3:]]) + "\n")
        with pytest.raises(
            JournalError, match=r"line 3: (no checksum|checksum mismatch: the line was edited, damaged or forged)"
        ):
            read_journal(j)
        with pytest.raises(JournalError):
            run_tournament(cfg, workers=1, out=out, resume=True)
    # the same record signed with the run's key is taken (the key is what makes a line the run's own)
    j.write_text("\n".join([*lines[:2], signed_line(rec, key), *lines[3:]]) + "\n")
    assert read_journal(j)[1][1]["chips"][0][0] == rec["chips"][0][0]


def test_a_journal_without_its_key_is_refused(tmp_path):
    cfg, out, j, _ = _journal(tmp_path)
    (out / "run.json").unlink()
    with pytest.raises(JournalError, match="no key to check the journal with"):
        read_journal(j)
    r = CliRunner().invoke(app, ["tournament", "--out", str(out), "--resume", "--quiet", "--no-plots"])
    assert "no key to check the journal with" in _one_error_line(r)
    (out / "run.json").write_text('{"journal_key": "not hex"}')
    with pytest.raises(JournalError, match="'journal_key' must be 64 hex digits"):
        read_journal(j)
    assert run_tournament(cfg, workers=1, out=out, overwrite=True).played_blocks == cfg.n_blocks


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_non_finite_numbers_in_a_journal_are_refused_even_when_signed(tmp_path, value):
    cfg, out, j, _ = _journal(tmp_path)
    key = journal_key(out)
    lines = j.read_text().splitlines()
    rec = json.loads(lines[1])
    rec.pop("sum")
    body = json.dumps(rec, separators=(",", ":")).replace('"chips":[[', f'"chips":[[{value},', 1)
    mac = hmac.new(bytes.fromhex(key), body.encode(), hashlib.sha256).hexdigest()[:32]
    j.write_text("\n".join([lines[0], '{"sum":"' + mac + '",' + body[1:], *lines[2:]]) + "\n")  # the key is right
    with pytest.raises(JournalError, match=r"line 2: not strict JSON"):
        read_journal(j)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # numpy on an infinite chip count, made up below
def test_summary_json_is_always_strict_json(tmp_path):
    cfg, out, j, full = _journal(tmp_path)
    record = write_results(full, tmp_path / "res", plots=False)
    d = record.to_dict()
    text = (tmp_path / "res" / "summary.json").read_text()
    assert text == record.to_json() == json.dumps(d, indent=2) + "\n"
    json.loads(text, parse_constant=lambda c: pytest.fail(f"bare {c} in summary.json"))
    d["players"][1]["sb_per_hand"] = float("nan")
    bad = TournamentSummary.model_validate({**d, "config": cfg})
    with pytest.raises(InputError, match=r"summary.json: players\[1\].sb_per_hand = nan is not a finite number"):
        bad.to_json()
    full.blocks[0]["chips"][0][0] = float("inf")
    with pytest.raises(LokiError, match="is not a finite number"):
        write_results(full, tmp_path / "res2", plots=False)


# ------------------------------------------------------------------ 5. code shape


def test_the_parsers_are_split_below_complexity_20():
    """parse_gamedef (34), phh_to_record (30), hand_text (21) and replay_hands (39) were over ruff's C901 limit 20."""
    files = ["io/gamedef.py", "io/phh.py", "io/phh_write.py", "tournament/replay.py", "tournament/journal.py"]
    cmd = [
        "ruff",
        "check",
        "--select",
        "C901",
        "--config",
        "lint.mccabe.max-complexity=20",
        "--output-format",
        "concise",
    ]
    found = Path(sys.executable).with_name("ruff")
    ruff = found if found.exists() else shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed")
    r = subprocess.run(
        [str(ruff), *cmd[1:], *(str(ROOT / "src" / "loki" / f) for f in files)], capture_output=True, text=True
    )
    assert r.returncode == 0, r.stdout


# ------------------------------------------------------------------ 6. small items


def test_a_finished_run_leaves_no_lock_file(tmp_path):
    from loki.io.files import LOCK_NAME, folder_lock

    f = tmp_path / "t.toml"
    f.write_text('deals = 2\nblock_deals = 1\nhistories = false\n[[players]]\ntype = "calling"\ncount = 2\n')
    out = tmp_path / "o"
    r = CliRunner().invoke(
        app, ["tournament", "--config", str(f), "--out", str(out), "--workers", "1", "--quiet", "--no-plots"]
    )
    assert r.exit_code == 0, r.output
    assert not (out / LOCK_NAME).exists() and (out / "summary.json").exists()
    # a run that fails still removes it; the lock still keeps a second run out while it is held
    with folder_lock(out):
        assert (out / LOCK_NAME).exists()
        with pytest.raises(OSError, match="another loki run"), folder_lock(out):
            pass
    assert not (out / LOCK_NAME).exists()
    (out / LOCK_NAME).write_text("12345\n")  # left by a killed run: harmless, taken and removed
    with folder_lock(out):
        pass
    assert not (out / LOCK_NAME).exists()


@pytest.mark.parametrize(
    "args",
    [
        ["tournament", "--config", "/nonexistent.toml"],
        ["tournament", "--deals", "x"],
        ["replay", "/nonexistent.log"],
        ["explain", "--hole", "XX", "--player", "random"],
        ["explain", "/nonexistent.log", "--player", "random"],
        ["nosuchcommand"],
    ],
)
def test_errors_are_spelled_error_in_lower_case(args):
    """ "Error:" and "error:" were both used: every error line starts with "error: "."""
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 2 and "Error:" not in r.output and r.stderr.startswith("error: "), r.output


def test_source_prints_no_capitalised_error_prefix():
    pattern = re.compile(r"""["'](\[[a-z]+\])?Error: """)
    hits = [
        f"{p.relative_to(ROOT)}:{i}"
        for p in sorted((ROOT / "src" / "loki").rglob("*.py"))
        for i, line in enumerate(p.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert hits == []


def _acpc_log(path: Path, n_hands: int) -> Path:
    line = "STATE:{}:cc/cc/cc/cc:5d5c|9hQd/8dAs8s/4h/6d:{}:p1|p2"
    path.write_text("".join(line.format(i, "0|0" if i % 2 else "-20|20") + "\n" for i in range(n_hands)))
    return path


def test_one_hand_is_one_hand_not_1_hands(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(app, ["demo", "--hands", "1", "--players", "2"])
    assert r.exit_code == 0, r.output
    assert "1 hand, 2 players" in r.output and "1 hands" not in r.output
    log = _acpc_log(tmp_path / "one.log", 1)
    r = CliRunner().invoke(app, ["replay", str(log), "--player", "random"])
    assert r.exit_code == 0, r.output
    assert "one.log: 1 hand, decisions by random" in " ".join(r.output.split()) and "1 hands" not in r.output


def test_replay_writes_its_histogram_in_the_current_folder(tmp_path, monkeypatch):
    """`loki replay LOG` wrote LOG.percentiles.png next to the log (into a shared folder): now in the current folder."""
    logs = tmp_path / "shared"
    logs.mkdir()
    log = _acpc_log(logs / "m.log", 4)
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    r = CliRunner().invoke(app, ["replay", str(log), "--player", "random", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["histogram"] == "m.log.percentiles.png"
    assert [p.name for p in here.iterdir()] == ["m.log.percentiles.png"] and [p.name for p in logs.iterdir()] == [
        "m.log"
    ]


# ------------------------------------------------------------------ 7. the README states the limits


def test_the_readme_states_the_limits():
    from loki.cli._common import MAX_HANDS, MAX_SEED
    from loki.cli.tournament import MAX_WORKERS
    from loki.tournament import config as tc
    from loki.tournament.league import MAX_LEAGUE_PLAYERS
    from loki.tournament.runner import MAX_WORKERS as RUNNER_WORKERS

    assert MAX_WORKERS == RUNNER_WORKERS and MAX_SEED == tc.MAX_SEED
    readme = (ROOT / "README.md").read_text()
    ops = readme[readme.index("## Operations") :]
    for fact in (
        f"{tc.MAX_DEALS:,}",
        f"{tc.MAX_BLOCK_DEALS:,}",
        f"{MAX_HANDS:,}",
        f"{MAX_WORKERS}",
        f"2 to {MAX_LEAGUE_PLAYERS} players",
        f"{tc.MAX_CHIPS:,}",
        f"{tc.MAX_BETS}",
        limits.size_text(limits.MAX_CONFIG_BYTES),
        limits.size_text(limits.MAX_GAMEDEF_BYTES),
        limits.size_text(limits.MAX_LOG_BYTES),
        limits.size_text(limits.MAX_LINE_BYTES),
        f"nested at most {limits.MAX_NESTING} deep",
        f"at most {limits.MAX_LOG_HANDS:,} hands",
        f"the first {limits.MAX_NOTES:,} warnings",
        "journal_key",
    ):
        assert fact in ops, fact
