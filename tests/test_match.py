"""``loki match`` over loopback: loki seats and an external ACPC bot (``tests/bots/call_bot.py``), and
matches that end early."""

from __future__ import annotations

import json
import os
import shlex
import signal
import sys
from pathlib import Path

import pytest
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


def test_one_seat_plays_the_default_bot(tmp_path):
    """With one ``--player`` the other seat is the default bot, the adaptive Loki (as in ``loki acpc``)."""
    from loki.cli.acpc import acpc
    from loki.cli.match import DEFAULT_OPPONENT

    log = tmp_path / "one.log"
    r = _run("match", "--player", f"cmd:{PY} {shlex.quote(str(BOT))}", "--hands", "6", "--out", str(log), "--json")
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout.strip().splitlines()[-1])
    assert res["complete"] and [p["name"] for p in res["players"]] == ["call_bot", "loki2-BRS-adaptive"]
    assert f"seat 2: the default bot, {DEFAULT_OPPONENT}" in r.stderr and len(read_acpc_log(log).hands) == 6
    import inspect

    assert inspect.signature(acpc).parameters["player"].default.default == DEFAULT_OPPONENT  # the same bot
    ten = Path(__file__).resolve().parents[1] / "src" / "loki" / "data" / "holdem.limit.10p.game"
    r = _run("match", "--player", "calling", "--game", str(ten), "--out", str(tmp_path / "ten.log"))
    assert (
        r.exit_code == 2 and "--player given once (seat 2 is then the default bot) for the 10-player game" in r.stderr
    )


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
    r = _run("match")
    assert r.exit_code == 2 and "error: --player: give the seats" in r.stderr
    r = _run("match", "--player", "loki1", "--player", "bogus")
    assert r.exit_code == 2 and "unknown player type 'bogus'" in r.stderr
    r = _run("match", "--player", "loki1", "--player", "calling", "--seed", str(2**32))
    assert r.exit_code == 2 and "4294967295" in r.stderr  # the option's own range, as its help shows it
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


# ------------------------------------------------------------------ process groups, early exits, signals


def _alive(pid: int) -> bool:
    """A process that exists and is not a zombie (a zombie waits for init to reap it and holds nothing open)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2] not in "ZX"


def _spawning_bot(tmp_path: Path, plays: bool) -> tuple[Path, Path]:
    """A ``cmd:`` bot that first starts a child of its own (sleeping, holding the inherited stderr) and writes the
    child's pid to a file; then it plays as ``call_bot.py`` (``plays``) or connects, never answers and exits when the
    dealer hangs up (so it ends by itself, and only its child would be left behind)."""
    bot, pidfile = tmp_path / "spawner.py", tmp_path / "child.pid"
    body = (
        f"import runpy, subprocess, sys, time, socket\n"
        f"child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(300)'])\n"
        f"open({str(pidfile)!r}, 'w').write(str(child.pid))\n"
    )
    if plays:
        body += f"sys.argv = [{str(BOT)!r}] + sys.argv[1:]\nrunpy.run_path({str(BOT)!r}, run_name='__main__')\n"
    else:
        body += (
            "s = socket.create_connection((sys.argv[1], int(sys.argv[2]))); s.sendall(b'VERSION:2.0.0\\r\\n')\n"
            "while s.recv(4096):\n    pass\n"  # never answers; exits as soon as the dealer hangs up
        )
    bot.write_text(body)
    return bot, pidfile


def _match_process(tmp_path: Path, bot: Path, hands: int = 3):
    import subprocess

    cmd = [sys.executable, "-c", "from loki.cli import app; app()", "match", "--player", "calling"]
    cmd += ["--player", f"cmd:{PY} {shlex.quote(str(bot))}", "--hands", str(hands), "--t-response", "60"]
    cmd += ["--out", str(tmp_path / "m.log")]
    # stdout and stderr are pipes, as in `loki match ... 2>&1 | cat`: a surviving child of the bot would keep
    # stderr open and communicate() would never see its end
    # SIGINT at its default disposition: a test run started in the background of a non-interactive shell inherits
    # SIGINT ignored (POSIX shells ignore it for `&` jobs), and the Ctrl-C test would then wait out t_response
    return subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def test_a_child_of_a_bot_does_not_outlive_a_finished_match(tmp_path):
    import subprocess

    bot, pidfile = _spawning_bot(tmp_path, plays=True)
    p = _match_process(tmp_path, bot)
    try:
        out, err = p.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        raise AssertionError("loki match's output pipe stayed open: a child of the bot survived") from None
    finally:
        if pidfile.exists():
            child = int(pidfile.read_text())
            survived = _alive(child)
            if survived:
                os.kill(child, signal.SIGKILL)
    assert p.returncode == 0, err
    assert out.startswith("SCORE:") and not survived


#: A bot's child that leaves the bot's process group: a setsid child (the bot still alive), and a daemon (a double
#: fork, its own session, stdio closed and an empty environment: found only as an orphan loki adopted).
_ESCAPES = {
    "setsid child": (
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(3600)'], start_new_session=True)\n"
        "pid = child.pid\n"
    ),
    "daemon": (
        "r, w = os.pipe()\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        "        os.write(w, str(os.getpid()).encode()); os.close(w)\n"
        "        fd = os.open(os.devnull, os.O_RDWR)\n"
        "        for k in (0, 1, 2):\n"
        "            os.dup2(fd, k)\n"
        "        os.execve(sys.executable, [sys.executable, '-c', 'import time; time.sleep(3600)'], {})\n"
        "    os._exit(0)\n"
        "os.close(w); pid = int(os.read(r, 32)); os.wait()\n"
    ),
}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a child subreaper and /proc are Linux's")
@pytest.mark.parametrize("escape", sorted(_ESCAPES))
def test_a_process_that_leaves_the_bots_group_does_not_outlive_the_match(tmp_path, escape):
    """A `cmd:` bot that started a `setsid()` child left it running after `loki match` ended (README promises that no
    child outlives the match)."""
    import subprocess

    bot, pidfile = tmp_path / "escaper.py", tmp_path / "escaped.pid"
    bot.write_text(
        "import os, runpy, subprocess, sys\n"
        + _ESCAPES[escape]
        + f"open({str(pidfile)!r}, 'w').write(str(pid))\n"
        + f"sys.argv = [{str(BOT)!r}] + sys.argv[1:]\nrunpy.run_path({str(BOT)!r}, run_name='__main__')\n"
    )
    p = _match_process(tmp_path, bot)
    escaped, survived, hung, out, err = None, False, False, "", ""
    try:
        out, err = p.communicate(timeout=120)
    except subprocess.TimeoutExpired:  # a survivor holding loki's output pipe open
        hung = True
    finally:
        if pidfile.exists() and pidfile.read_text():
            escaped = int(pidfile.read_text())
            survived = _alive(escaped)
            if survived:
                os.kill(escaped, signal.SIGKILL)
        if hung:
            p.kill()
            out, err = p.communicate()
    assert not hung and p.returncode == 0, err
    assert escaped is not None and out.startswith("SCORE:") and not survived, f"{escape} {escaped} survived"


@pytest.mark.parametrize(("sig", "code"), [("SIGTERM", 143), ("SIGHUP", 129), ("SIGINT", 130)])
def test_signals_stop_the_match_and_every_process_of_each_bot(tmp_path, sig, code):
    """SIGTERM, SIGHUP and Ctrl-C's SIGINT: one error line, exit code 128 + signal, and the bot's whole process group
    (its own child included) stopped."""
    import time

    bot, pidfile = _spawning_bot(tmp_path, plays=False)
    p = _match_process(tmp_path, bot)
    child = None
    try:
        t0 = time.time()
        while child is None:
            assert time.time() - t0 < 120 and p.poll() is None, "the bot did not start"
            child = int(pidfile.read_text()) if pidfile.exists() and pidfile.read_text() else None
            time.sleep(0.1)
        time.sleep(1.0)  # the bot connects; the dealer waits for its first answer
        p.send_signal(getattr(signal, sig))
        _, err = p.communicate(timeout=60)
        survived = _alive(child)
    finally:
        p.kill()
        if child is not None and _alive(child):
            os.kill(child, signal.SIGKILL)
    assert p.returncode == code, err
    lines = [ln for ln in err.splitlines() if ln.startswith("error:")]
    assert lines == [f"error: interrupted ({sig}): the match was stopped"], err
    assert "Traceback" not in err and not survived


def test_a_bot_that_exits_before_connecting_ends_the_match_with_its_exit_code(tmp_path):
    """Not a wait of --t-connect seconds: the match ends as soon as the bot's process is gone."""
    r = _run(
        "match", "--player", "calling", "--player", f"cmd:{PY} -c {shlex.quote('import sys; sys.exit(3)')}",
        "--hands", "5", "--t-connect", "600", "--out", str(tmp_path / "m.log"), "--json",
    )  # fmt: skip
    assert r.exit_code == 2, r.output
    res = json.loads(r.stdout.strip().splitlines()[-1])
    assert res["abort"]["reason"] == "exited" and res["abort"]["seat"] == 2 and res["abort"]["hand"] is None
    assert "exited with code 3 before the match began" in res["abort"]["message"]
    assert res["players"][1]["exit_code"] == 3
    assert r.stderr.strip().splitlines()[-1].startswith("error: match ended after 0 of 5 hands: seat 2")


def test_huge_timeouts_are_refused_with_their_cap(tmp_path):
    from loki.errors import ConfigError
    from loki.io.acpc_match import run_match
    from loki.io.gamedef import bundled_gamedef

    for opt in ("--t-connect", "--t-response", "--t-hand", "--t-per-hand"):
        r = _run("match", "--player", "calling", "--player", "calling", opt, "1e10", "--out", str(tmp_path / "x.log"))
        assert r.exit_code == 2 and "604800" in r.stderr and opt in r.stderr, r.output
        assert "Traceback" not in r.output
    seats = [parse_seat("calling"), parse_seat("calling")]
    with pytest.raises(ConfigError, match=r"t_connect = 1e\+10: .*at most 604800"):
        run_match(bundled_gamedef(2), seats, 1, t_connect=1e10, players=[None, None])
