"""``loki match`` over loopback: loki seats and an external ACPC bot (``tests/bots/call_bot.py``), and
matches that end early (issue 14)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from typer.testing import CliRunner

from loki.cli import app
from loki.io.acpc_deal import AcpcDeals
from loki.io.acpc_log import read_acpc_log
from loki.io.acpc_match import parse_seat

BOT = Path(__file__).resolve().parent / "bots" / "call_bot.py"
PY = shlex.quote(sys.executable)


def _run(*args: str):
    return CliRunner().invoke(app, list(args))


def test_match_with_loki_seats_and_an_external_bot(tmp_path):
    log = tmp_path / "m.log"
    r = _run(
        "match",
        "--player", "loki1",
        "--player", f"cmd:{PY} {shlex.quote(str(BOT))}",
        "--player", "calling",
        "--hands", "24", "--seed", "3", "--out", str(log), "--json", "--t-response", "5",
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout.strip().splitlines()[-1])
    assert res["complete"] and res["hands_played"] == 24 and res["abort"] is None
    assert [p["name"] for p in res["players"]] == ["loki1", "call_bot", "calling"]
    assert [p["external"] for p in res["players"]] == [False, True, False]
    assert res["players"][1]["exit_code"] == 0 and all(p["client_errors"] == [] for p in res["players"])
    assert sum(p["chips"] for p in res["players"]) == 0 and res["warning_count"] == 0
    assert all(p["ci"] is not None and p["sb_per_hand"] is not None for p in res["players"])
    assert res["score_line"].startswith("SCORE:") and res["log"] == str(log)
    lg = read_acpc_log(log)
    assert len(lg.hands) == 24 and lg.score == {p["name"]: p["chips"] for p in res["players"]}
    deals = AcpcDeals(3, 3)  # the ACPC dealer's cards of seed 3
    for rec in lg.hands:
        holes, board = deals.hand()
        assert tuple(holes) == tuple(rec.hole_cards) and board.startswith(rec.board)
    assert "warming up loki1" in r.stderr


def test_match_prints_score_and_intervals(tmp_path):
    r = _run("match", "--player", "random", "--player", "calling", "--hands", "10", "--out", str(tmp_path / "a.log"))
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0].startswith("SCORE:") and lines[0].endswith(":random|calling")
    assert "sb/hand" in lines[1] and "± 95%" in lines[1]
    assert lines[2].split()[:2] == ["1", "random"] and lines[3].split()[:2] == ["2", "calling"]
    assert "10 hands" in lines[-1]


def test_match_with_a_silent_external_seat_ends_with_a_clear_report(tmp_path):
    silent = (
        "import socket, sys, time; s = socket.create_connection((sys.argv[1], int(sys.argv[2]))); "
        "s.sendall(b'VERSION:2.0.0\\r\\n'); time.sleep(30)"
    )
    log = tmp_path / "m.log"
    r = _run(
        "match", "--player", "calling", "--player", f"cmd:{PY} -c {shlex.quote(silent)}",
        "--hands", "5", "--t-response", "0.5", "--out", str(log), "--json",
    )  # fmt: skip
    assert r.exit_code == 2, r.output
    res = json.loads(r.stdout.strip().splitlines()[-1])
    assert not res["complete"] and res["abort"]["seat"] == 2 and res["abort"]["hand"] == 0
    assert res["abort"]["reason"] == "timeout" and res["players"][1]["exit_code"] is None  # stopped by us
    last = r.stderr.strip().splitlines()[-1]
    name = res["players"][1]["name"]
    assert name == Path(sys.executable).name
    assert last.startswith(
        f"error: match ended after 0 of 5 hands: seat 2 ({name}) in hand 0: did not answer within 0.5 s"
    )
    assert log.read_text().splitlines()[-1].startswith("# match ended: seat 2")


def test_match_refuses_bad_seats_before_starting(tmp_path):
    r = _run("match", "--player", "loki1", "--player", "cmd:no-such-program-xyz", "--out", str(tmp_path / "x.log"))
    assert (
        r.exit_code == 2
        and "error: --player: 'cmd:no-such-program-xyz': program 'no-such-program-xyz' not found" in r.stderr
    )
    r = _run("match", "--player", "loki1")
    assert r.exit_code == 2 and "at least two seats" in r.stderr
    r = _run("match", "--player", "loki1", "--player", "bogus")
    assert r.exit_code == 2 and "unknown player type 'bogus'" in r.stderr
    r = _run("match", "--player", "loki1", "--player", "calling", "--seed", str(2**32))
    assert r.exit_code == 2 and "0..4294967295" in r.stderr
    assert not (tmp_path / "x.log").exists()


def test_parse_seat_names_and_placeholders():
    s = parse_seat("cmd:python3 bots/my_bot.py {host} {port} --x")
    assert s.name == "my_bot" and s.command[-3:] == ("{host}", "{port}", "--x")
    assert parse_seat("loki2:BRS:LA").name == "loki2-BRS-LA" and not parse_seat("loki1").external


def test_sigterm_stops_the_match_and_its_external_bots(tmp_path):
    """SIGTERM to ``loki match`` ends it like Ctrl-C: the external bots (in their own sessions) are stopped."""
    import contextlib
    import os
    import signal
    import subprocess
    import time

    bot, pidfile = tmp_path / "sleeper.py", tmp_path / "bot.pid"
    bot.write_text(
        "import os, socket, sys, time\n"
        "s = socket.create_connection((sys.argv[1], int(sys.argv[2]))); s.sendall(b'VERSION:2.0.0\\r\\n')\n"
        f"open({str(pidfile)!r}, 'w').write(str(os.getpid()))\n"
        "time.sleep(120)\n"
    )
    cmd = [sys.executable, "-c", "from loki.cli import app; app()", "match", "--player", "calling"]
    cmd += ["--player", f"cmd:{PY} {shlex.quote(str(bot))}", "--t-response", "60", "--out", str(tmp_path / "m.log")]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    bot_pid = None
    try:
        t0 = time.time()
        while bot_pid is None:
            assert time.time() - t0 < 120 and p.poll() is None, "the bot did not connect"
            bot_pid = int(pidfile.read_text()) if pidfile.exists() and pidfile.read_text() else None
            time.sleep(0.1)
        time.sleep(0.5)  # the dealer now waits for the bot's answer
        p.send_signal(signal.SIGTERM)
        rc = p.wait(30)
        alive = True
        for _ in range(50):  # the bot is stopped before loki exits; allow its reaping by init
            try:
                os.kill(bot_pid, 0)
            except ProcessLookupError:
                alive = False
                break
            time.sleep(0.1)
        assert not alive, "the external bot outlived loki match"
    finally:
        p.kill()
        if bot_pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(bot_pid, signal.SIGKILL)
    err = p.stderr.read()
    assert rc == 143, err
    assert err.strip().splitlines()[-1] == "error: interrupted (SIGTERM): the match was stopped"
