"""A hostile campaign against the ``loki`` command line: scripted probes of what a hostile input or a confused user
can hand it, each run as a separate ``loki`` process and judged by the same five checks.

    python scripts/hostile_campaign.py OUT            # every probe; OUT/campaign.json holds each probe's record
    python scripts/hostile_campaign.py OUT --only names,hosts

The kinds of probe (``--only``):

- ``outputs``: every command that writes one file, its ``--out`` a FIFO, a symbolic link to a file, a link to
  ``/proc/self/fd/1``, a dangling link, a character device (a private ``/dev/full`` or ``/dev/null``, made with
  ``mknod`` where allowed), a socket, a folder;
- ``folders``: the results folders of ``tournament``, ``league``, ``tune`` and ``lbr`` as a link to a folder, a folder
  of other files, a file;
- ``inputs``: every file a command reads (a config, an ACPC log, a PHH file, a game definition, a player file, a
  journal under ``--resume``, a tuning target) as a FIFO, a device (``/dev/zero``'s), a socket, a folder;
- ``names``: player names that are not text in a log (an OSC window title, a clear-screen, colours, a bell,
  bidirectional overrides, C1 controls, rich markup, 5,000 characters) through ``replay`` and ``explain``; labels
  and names of tournaments and leagues; names through the web API;
- ``bounds``: logs of many player names (100,000 one-line hands with new names each), repeated hand numbers;
- ``hosts``: host names a lookup cannot encode, for ``acpc`` and ``web``;
- ``strict``: tuning targets that cannot score a trial, game definitions with non-ASCII digits, no ``END GAMEDEF``,
  a big bet below the small bet;
- ``web``: a live ``loki web``: huge seeds, player files as specs or named inside one, foreign Origin and Host headers,
  no token, oversized and deep JSON;
- ``bots``: ``cmd:`` bots that start a ``setsid`` child, a double-forked daemon without environment, many children,
  a child then exit; a SIGTERM mid-match;
- ``runs``: SIGKILL and ``--resume`` of a tournament (the same summary as an uninterrupted run), a forged journal
  line, a full disk (a file size limit), a re-run into a finished folder.

Each probe is judged on: a **traceback** (``Traceback`` in its output, or an exit code it should not have), an
**unbounded** run (its timeout hit, or a peak RSS over 1.5 GiB; every process runs under a 4 GiB address-space
limit), a **replaced non-file** (what was at an output path is gone, changed kind, or the file a link points to
changed), a **raw control character** in its output (a name reaching the terminal raw), a **survivor** (a process a
bot started, alive after loki ended).  The figures are printed and kept in ``OUT/campaign.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import re
import resource
import shutil
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

LOKI = [sys.executable, "-c", "from loki.cli import app; app()"]
#: Peak RSS above which a probe counts as unbounded (bytes).
RSS_CAP = 3 << 29
#: Address space of every probe's process (bytes).
AS_LIMIT = 4 << 30
SENTINEL = "a file a link points to: it must stay as it is\n"
LOG_LINE = "STATE:{}:cc/crc/cc/cc:5d5c|9hQd/8dAs8s/4h/6d:20|-20:{}|{}\n"
#: Characters a terminal acts on: C0 controls but the line break, DEL, C1 controls, bidirectional overrides.
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@dataclass
class Result:
    """One probe: what ran and what the checks found."""

    kind: str
    name: str
    args: list[str]
    rc: int | None
    seconds: float
    rss_mb: float
    traceback: bool = False
    unbounded: bool = False
    replaced: bool = False
    raw: bool = False
    survivors: int = 0
    note: str = ""
    tail: str = ""

    @property
    def failed(self) -> bool:
        return self.traceback or self.unbounded or self.replaced or self.raw or self.survivors > 0


@dataclass
class Run:
    rc: int | None
    out: str
    err: str
    seconds: float
    rss_mb: float
    timed_out: bool


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (AS_LIMIT, AS_LIMIT))
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run(
    args: list[str],
    cwd: Path,
    timeout: float = 120,
    stdin: str = "",
    env: dict[str, str] | None = None,
    on_start: Callable[[subprocess.Popen], None] | None = None,
    fsize: int | None = None,
) -> Run:
    """``loki ARGS`` in ``cwd``: its exit code, output, wall time and peak RSS (``wait4``), killed after ``timeout``."""

    def pre() -> None:
        _limit()
        if fsize is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    e = dict(os.environ, COLUMNS="160", **(env or {}))
    t0 = time.monotonic()
    p = subprocess.Popen(LOKI + args, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=e, preexec_fn=pre, start_new_session=True)  # fmt: skip
    chunks: dict[str, list[bytes]] = {"out": [], "err": []}

    def pump(f: Any, key: str) -> None:
        for b in iter(lambda: f.read(65536), b""):
            if sum(map(len, chunks[key])) < 4 << 20:
                chunks[key].append(b)

    readers = [
        threading.Thread(target=pump, args=(p.stdout, "out")),
        threading.Thread(target=pump, args=(p.stderr, "err")),
    ]
    for t in readers:
        t.start()
    if on_start is not None:
        on_start(p)
    assert p.stdin is not None
    with contextlib.suppress(OSError):
        p.stdin.write(stdin.encode())
        p.stdin.close()
    timed_out = False
    timer = threading.Timer(timeout, lambda: _kill_group(p.pid))
    timer.start()
    try:
        _, status, usage = os.wait4(p.pid, 0)
    finally:
        timed_out = not timer.is_alive() and time.monotonic() - t0 >= timeout
        timer.cancel()
    p.returncode = os.waitstatus_to_exitcode(status)
    _kill_group(p.pid)  # what the probe left in its group (a bot's child is checked apart)
    for t in readers:
        t.join(10)
    return Run(p.returncode, b"".join(chunks["out"]).decode("utf-8", "replace"),
               b"".join(chunks["err"]).decode("utf-8", "replace"), time.monotonic() - t0, usage.ru_maxrss / 1024,
               timed_out)  # fmt: skip


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def judge(kind: str, name: str, args: list[str], r: Run, ok: set[int], **checks: Any) -> Result:
    """A probe's record: a traceback, an unbounded run; the caller's own checks (``replaced``, ``survivors``...)."""
    text = r.out + r.err
    res = Result(kind, name, [a[:200] for a in args], r.rc, round(r.seconds, 2), round(r.rss_mb, 1))
    res.traceback = "Traceback" in text or (not r.timed_out and r.rc not in ok)
    res.unbounded = r.timed_out or r.rss_mb * 1024 * 1024 > RSS_CAP
    res.raw = bool(RAW.search(text))
    for k, v in checks.items():
        setattr(res, k, v)
    if res.failed or res.traceback:
        res.tail = text[-1500:]
    return res


# ------------------------------------------------------------------ what is put at a path


def make(kind: str, path: Path) -> bool:
    """Put ``kind`` at ``path`` (False: not possible here, e.g. ``mknod`` without the right)."""
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "symlink":
        target = path.with_name(path.name + ".target")
        target.write_text(SENTINEL)
        path.symlink_to(target)
    elif kind == "stdout link":
        path.symlink_to("/proc/self/fd/1")
    elif kind == "dangling symlink":
        path.symlink_to(path.with_name("nowhere") / "x")
    elif kind in ("full device", "null device", "zero device"):
        minor = {"full device": 7, "null device": 3, "zero device": 5}[kind]
        try:
            os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
        except (PermissionError, OSError):
            return False
    elif kind == "socket":
        s = socket.socket(socket.AF_UNIX)
        try:
            s.bind(str(path))
        except OSError:
            return False
        finally:
            s.close()
    elif kind == "folder":
        path.mkdir()
        (path / "inside.txt").write_text(SENTINEL)
    else:
        raise ValueError(kind)
    return True


def snapshot(path: Path) -> tuple:
    """What is at ``path``, to tell whether it was replaced: mode, inode, device, link target and what a link to a
    file points to, a folder's listing."""
    st = os.lstat(path)
    link = os.readlink(path) if stat.S_ISLNK(st.st_mode) else None
    target = path.with_name(path.name + ".target")
    content = target.read_text() if target.exists() else None
    listing = sorted(os.listdir(path)) if stat.S_ISDIR(st.st_mode) else None
    return (st.st_mode, st.st_ino, st.st_dev, st.st_rdev, link, content, listing)


# ------------------------------------------------------------------ the probes


def outputs(work: Path) -> Iterator[Result]:
    log = work / "hands.log"
    log.write_text("".join(LOG_LINE.format(i, "p1", "p2") for i in range(3)))
    commands = {
        "ir-tables": (["ir-tables", "--samples", "100", "--out", "OUT"], ".csv"),
        "replay": (["replay", str(log), "--player", "calling", "--out", "OUT"], ".png"),
        "dealer": (["dealer", "--hands", "1", "--t-connect", "1", "--out", "OUT"], ".log"),
        "match": (
            ["match", "--player", "calling", "--player", "calling", "--hands", "1", "--no-warmup", "--out", "OUT"],
            ".log",
        ),  # fmt: skip
        "play": (["play", "--player", "calling", "--opponents", "1", "--hands", "1", "--out", "OUT"], ".phhs"),
    }
    kinds = ["fifo", "symlink", "stdout link", "dangling symlink", "full device", "null device", "socket", "folder"]
    for cmd, (args, suffix) in commands.items():
        for kind in kinds:
            d = work / f"out-{cmd}-{kind.replace(' ', '-')}"
            d.mkdir()
            path = d / f"o{suffix}"
            if not make(kind, path):
                continue
            before = snapshot(path)
            a = [str(path) if x == "OUT" else x for x in args]
            r = run(a, d, timeout=120, stdin="c\n" * 40)
            after = snapshot(path) if os.path.lexists(path) else None
            leftovers = [p.name for p in d.iterdir() if ".tmp" in p.name]
            yield judge("outputs", f"{cmd} --out <{kind}>", a, r, {2}, replaced=after != before,
                        note=f"temporary files left: {leftovers}" if leftovers else "")  # fmt: skip


def folders(work: Path) -> Iterator[Result]:
    commands = {
        "tournament": ["tournament", "--deals", "2", "--quiet", "--no-plots", "-w", "0", "--out", "OUT"],
        "league": [
            "league",
            "--player",
            "calling",
            "--player",
            "random",
            "--deals",
            "2",
            "--no-plots",
            "-w",
            "0",
            "--quiet",
            "--out",
            "OUT",
        ],  # fmt: skip
        "tune": [
            "tune",
            "fig3-B",
            "--trials",
            "1",
            "--deals",
            "1",
            "--validate-deals",
            "0",
            "-w",
            "0",
            "--quiet",
            "--out",
            "OUT",
        ],  # fmt: skip
        "lbr": ["lbr", "calling", "--deals", "2", "-w", "0", "--quiet", "--out", "OUT"],
    }
    for cmd, args in commands.items():
        for kind in ("link to a folder", "folder of other files", "file", "link to a file"):
            d = work / f"folder-{cmd}-{kind.replace(' ', '-')}"
            d.mkdir()
            etc = d / "etc"
            etc.mkdir()
            (etc / "passwd").write_text(SENTINEL)
            path = d / "results"
            if kind == "link to a folder":
                path.symlink_to(etc)
            elif kind == "folder of other files":
                path = etc
            elif kind == "file":
                path.write_text(SENTINEL)
            else:
                path.symlink_to(etc / "passwd")
            before = (snapshot(path), sorted(os.listdir(etc)), (etc / "passwd").read_text())
            a = [str(path) if x == "OUT" else x for x in args]
            r = run(a, d, timeout=300)
            after = (snapshot(path), sorted(os.listdir(etc)), (etc / "passwd").read_text())
            yield judge("folders", f"{cmd} --out <{kind}>", a, r, {2}, replaced=after != before)


def inputs(work: Path) -> Iterator[Result]:
    cases: dict[str, tuple[list[str], str]] = {
        "tournament --config": (["tournament", "--config", "IN"], ".toml"),
        "replay LOG": (["replay", "IN", "--player", "calling"], ".log"),
        "explain LOG": (["explain", "IN", "--player", "calling"], ".log"),
        "replay PHH": (["replay", "IN", "--player", "calling"], ".phhs"),
        "dealer --game": (["dealer", "--game", "IN", "--hands", "1"], ".game"),
        "player file": (["explain", "--hole", "AhKh", "--players", "2", "--player", "IN"], ".toml"),
        "tune TARGET": (["tune", "IN", "--trials", "1", "--deals", "1"], ".toml"),
        "journal (--resume)": (["tournament", "--deals", "2", "--resume", "-w", "0", "-q", "--out", "OUTDIR"], ""),
        "run.json (--resume)": (["tournament", "--deals", "2", "--resume", "-w", "0", "-q", "--out", "OUTDIR"], ""),
    }
    for name, (args, suffix) in cases.items():
        for kind in ("fifo", "zero device", "socket", "folder"):
            d = work / f"in-{name.split()[0]}-{name.split()[-1].strip('()-')}-{kind.replace(' ', '-')}"
            d.mkdir()
            a = list(args)
            if "OUTDIR" in a:
                out = d / "out"
                out.mkdir()
                which = "journal.jsonl" if name.startswith("journal") else "run.json"
                if which == "journal.jsonl":
                    (out / "run.json").write_text('{"journal_key": "00"}\n')
                else:
                    (out / "journal.jsonl").write_text('{"kind": "header"}\n')
                if not make(kind, out / which):
                    continue
                a[a.index("OUTDIR")] = str(out)
            else:
                p = d / f"f{suffix}"
                if not make(kind, p):
                    continue
                a[a.index("IN")] = str(p)
            r = run(a, d, timeout=60)
            yield judge("inputs", f"{name} <{kind}>", a, r, {2})


HOSTILE_NAMES = {
    "OSC title, clear screen": "\x1b]0;PWNED\x07\x1b[2Jevil",
    "colours": "\x1b[31mred\x1b[0m",
    "bell and backspaces": "a\x07\x08\x08\x08b",
    "bidi override": "evil\u202egnp.exe",
    "C1 controls": "x\x9b31mC1",
    "rich markup": "[bold red]x[/][link=http://evil.example]y[/link]",
    "5,000 characters": "n" * 5000,
    "tab and DEL": "a\tb\x7f",
}


def names(work: Path) -> Iterator[Result]:
    for label, nm in HOSTILE_NAMES.items():
        d = work / f"names-{abs(hash(label)) % 10**8}"
        d.mkdir()
        log = d / "e.log"
        log.write_bytes("".join(LOG_LINE.format(i, nm, "p2") for i in range(3)).encode("utf-8", "surrogatepass"))
        for args in (
            ["replay", str(log), "--player", "calling", "--out", str(d / "e.png")],
            ["replay", str(log), "--player", "calling", "--out", str(d / "e.png"), "--json"],
            ["explain", str(log), "--who", "1", "--player", "calling", "--hands", "1"],
            ["explain", str(log), "--who", nm, "--player", "calling", "--hands", "1"],
            ["explain", str(log), "--who", "nobody" + nm, "--player", "calling"],
        ):
            r = run(args, d, timeout=300)
            yield judge("names", f"{args[0]} {' '.join(args[3:5]) if args[0] == 'explain' else ''} of a log name: "
                        f"{label}", args, r, {0, 2})  # fmt: skip
    bad_labels = {"ESC": "evil\x1b[2J", "NUL": "nul\x00byte", "5,000 characters": "x" * 5000, "bidi": "a\u202eb",
                  "line break": "a\nb"}  # fmt: skip
    for label, lab in bad_labels.items():
        d = work / f"label-{abs(hash(label)) % 10**8}"
        d.mkdir()
        cfg = d / "t.toml"
        cfg.write_text(f'name = "t"\ndeals = 2\n[[players]]\ntype = "calling"\ncount = 2\nlabel = {json.dumps(lab)}\n')
        a = ["tournament", "--config", str(cfg), "--out", str(d / "o"), "-q", "-w", "0"]
        r = run(a, d)
        yield judge("names", f"tournament label: {label}", a, r, {2}, note="" if not (d / "o").exists() else "made o/")
        cfg.write_text(f'name = {json.dumps(lab)}\ndeals = 2\n[[players]]\ntype = "calling"\ncount = 2\n')
        a = ["tournament", "--config", str(cfg), "--out", str(d / "o2"), "-q", "-w", "0"]
        yield judge("names", f"tournament name: {label}", a, run(a, d), {2})
        if "\x00" not in lab:  # (an argument cannot hold a NUL)
            a = ["league", "--player", "calling", "--player", "random", "--label", lab, "--label", "b", "--deals", "2",
                 "--out", str(d / "l"), "-q", "-w", "0"]  # fmt: skip
            yield judge("names", f"league label: {label}", a, run(a, d), {2})


def bounds(work: Path) -> Iterator[Result]:
    d = work / "bounds"
    d.mkdir()
    many = d / "many.log"
    with many.open("w") as f:
        for i in range(100_000):
            f.write(LOG_LINE.format(i, f"a{i}", f"b{i}"))
    for args, ok in (
        (["replay", str(many), "--player", "calling", "--out", str(d / "m.png")], {2}),
        (["replay", str(many), "--out", str(d / "m.png")], {2}),
        (["explain", str(many), "--who", "a7", "--player", "calling", "--hands", "100000"], {2}),
        (["explain", str(many), "--who", "1", "--hands", "100000"], {2}),
        (["explain", str(many), "--who", "1"], {0}),  # its first hands only, by default
    ):
        yield judge("bounds", f"{' '.join(args[:1] + args[2:])} of 100,000 hands with new names each "
                    f"({many.stat().st_size:,} bytes)", args, run(args, d, timeout=300), ok)  # fmt: skip
    some = d / "some.log"
    some.write_text("".join(LOG_LINE.format(i, f"a{i}", f"b{i}") for i in range(400)))
    a = ["replay", str(some), "--player", "calling", "--out", str(d / "s.png"), "--json"]
    yield judge("bounds", "replay of 800 names (within the cap)", a, run(a, d, timeout=300), {0})
    dup = d / "dup.log"
    dup.write_text(LOG_LINE.format(0, "p1", "p2") + LOG_LINE.format(1, "p2", "p1") * 3)
    a = ["replay", str(dup), "--player", "calling", "--out", str(d / "d.png"), "--json"]
    r = run(a, d)
    counted = None
    with contextlib.suppress(ValueError, IndexError, KeyError):
        counted = json.loads(r.out.splitlines()[-1])["hands"]
    yield judge("bounds", "replay of a repeated hand number", a, r, {0},
                note=f"hands counted: {counted} (2 expected)", traceback="Traceback" in r.err or counted != 2)  # fmt: skip


def hosts(work: Path) -> Iterator[Result]:
    for h in ("a..b", "x" * 64 + ".example", ".", "é..x", "", "x" * 300, "a b", "[::1", "-", "\u202e.example"):
        a = ["acpc", h, "1", "--no-warmup", "--timeout", "5"]
        yield judge("hosts", f"acpc {h[:20]!r}", a, run(a, work, timeout=60), {2})
        a = ["web", "--host", h, "--port", "0"]
        yield judge("hosts", f"web --host {h[:20]!r}", a, run(a, work, timeout=60), {2})


GAMEDEF = """GAMEDEF
limit
numPlayers = 2
numRounds = 4
blind = 10 5
raiseSize = 10 10 20 20
firstPlayer = 2 1 1 1
maxRaises = 3 4 4 4
numSuits = 4
numRanks = 13
numHoleCards = 2
numBoardCards = 0 3 1 1
END GAMEDEF
"""


def strict(work: Path) -> Iterator[Result]:
    d = work / "strict"
    d.mkdir()
    target = (
        'name = "t"\ndeals = 4\n[[players]]\ntype = "loki2:B"\nlabel = "L"\n[[players]]\ntype = "loki1"\nlabel = "o"\n'
    )
    for label, extra in (("no [[compare]]", ""),
                         ("the tuned type as control", '[[compare]]\nenhanced = ["o"]\ncontrol = ["L"]\n')):  # fmt: skip
        t = d / f"t{len(extra)}.toml"
        t.write_text(target + extra)
        out = d / f"study{len(extra)}"
        a = ["tune", str(t), "--label", "L", "--trials", "1", "--deals", "1", "--out", str(out), "-w", "0", "-q"]
        r = run(a, d, timeout=300)
        yield judge("strict", f"tune target with {label}", a, r, {2},
                    note="a study folder was made" if out.exists() else "")  # fmt: skip
    for label, (old, new) in {
        "numPlayers = U+0662": ("numPlayers = 2", "numPlayers = \u0662"),
        "numPlayers = 2_0": ("numPlayers = 2", "numPlayers = 2_0"),
        "no END GAMEDEF": ("END GAMEDEF\n", ""),
        "big bet below the small bet": ("raiseSize = 10 10 20 20", "raiseSize = 10 10 5 5"),
        "a 5,000-digit number": ("numPlayers = 2", "numPlayers = " + "9" * 5000),
    }.items():
        g = d / f"g{abs(hash(label)) % 10**6}.game"
        g.write_text(GAMEDEF.replace(old, new))
        a = ["dealer", "--game", str(g), "--hands", "1", "--t-connect", "1"]
        yield judge("strict", f"game definition: {label}", a, run(a, d), {2})
    cfg = d / "bets.toml"
    cfg.write_text('[game]\nsmall_bet = 20\nbig_bet = 10\n[[players]]\ntype = "calling"\ncount = 2\n')
    a = ["tournament", "--config", str(cfg), "--out", str(d / "o"), "-q"]
    yield judge("strict", "tournament [game] big_bet below small_bet", a, run(a, d), {2})


def _web_server(work: Path) -> tuple[subprocess.Popen, int, str]:
    p = subprocess.Popen(LOKI + ["web", "--port", "0", "--out", str(work / "web-out")], cwd=work,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, preexec_fn=_limit,
                         start_new_session=True)  # fmt: skip
    port = None
    assert p.stdout is not None
    for line in p.stdout:  # the warm-up's messages, then "serving http://127.0.0.1:PORT/"
        m = re.search(r"serving http://127\.0\.0\.1:(\d+)", line)
        if m:
            port = int(m.group(1))
            break
    if port is None:
        raise RuntimeError("loki web did not say its port")
    threading.Thread(target=lambda: p.stdout and p.stdout.read(), daemon=True).start()
    for _ in range(100):
        try:
            page = _http(port, "GET", "/")[1]
            break
        except OSError:
            time.sleep(0.1)
    token = re.search(r'name="loki-token" content="([^"]+)"', page)
    return p, port, token.group(1) if token else ""


def _http(port: int, method: str, path: str, body: bytes | None = None, headers: dict | None = None) -> tuple[int, str]:
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        c.request(method, path, body=body, headers=headers or {})
        r = c.getresponse()
        return r.status, r.read().decode("utf-8", "replace")
    finally:
        c.close()


def web(work: Path) -> Iterator[Result]:
    p, port, token = _web_server(work)
    good = {"Host": f"127.0.0.1:{port}", "Origin": f"http://127.0.0.1:{port}", "X-Loki-Token": token,
            "Content-Type": "application/json"}  # fmt: skip
    (work / "real.toml").write_text('[player]\nkind = "calling"\n')

    def nested(kind: str, field: str, name: str) -> bytes:  # a spec whose table names a player file
        return json.dumps({"players": [kind + json.dumps({field: str(work / name)})]}).encode()

    probes: list[tuple[str, dict, bytes, set[int]]] = [
        ("seed 10**4000", good, json.dumps({"players": ["calling"], "seed": 10**4000}).encode(), {400}),
        ("seed 2**64", good, json.dumps({"players": ["calling"], "seed": 2**64}).encode(), {400}),
        ("seed -1", good, json.dumps({"players": ["calling"], "seed": -1}).encode(), {400}),
        ("seed as 5,000 digits", good, b'{"players": ["calling"], "seed": "' + b"9" * 5000 + b'"}', {400}),
        ("seed of 5,000 digits", good, b'{"players": ["calling"], "seed": ' + b"9" * 5000 + b"}", {400}),
        ("a player file that exists", good, json.dumps({"players": [str(work / "real.toml")]}).encode(), {400}),
        ("a player file that does not", good, json.dumps({"players": [str(work / "no.toml")]}).encode(), {400}),
        ("a FIFO as a player file", good, json.dumps({"players": [str(work / "fifo.toml")]}).encode(), {400}),
        ("a player file inside a frozen spec, that exists", good, nested("frozen", "player", "real.toml"), {400}),
        ("a player file inside an LBR spec, that does not", good, nested("lbr", "opponent", "no.toml"), {400}),
        ("a name with ESC", good, json.dumps({"players": ["calling"], "name": "a\x1b[2J"}).encode(), {400}),
        ("a name of 5,000 characters", good, json.dumps({"players": ["calling"], "name": "n" * 5000}).encode(), {400}),
        ("a foreign Origin", {**good, "Origin": "http://evil.example"}, b'{"players": ["calling"]}', {403}),
        ("a DNS-rebound Host", {**good, "Host": f"evil.example:{port}"}, b'{"players": ["calling"]}', {403}),
        ("no token", {k: v for k, v in good.items() if k != "X-Loki-Token"}, b'{"players": ["calling"]}', {403}),
        ("JSON nested 30,000 deep", good, b"[" * 30_000 + b"]" * 30_000, {400}),
        ("a body of 1 MiB", good, b'{"players": ["' + b"x" * (1 << 20) + b'"]}', {413}),
        ("a good session", good, b'{"players": ["calling"], "seed": 18446744073709551615}', {201}),
    ]
    os.mkfifo(work / "fifo.toml")
    try:
        for label, headers, body, ok in probes:
            t0 = time.monotonic()
            try:
                status, text = _http(port, "POST", "/api/sessions", body, headers)
            except OSError as e:
                status, text = -1, str(e)
            r = Run(status, text, "", time.monotonic() - t0, 0.0, False)
            res = judge("web", f"POST /api/sessions: {label}", ["POST", "/api/sessions", label], r, ok)
            res.traceback = res.traceback or "Traceback" in text or status == 500
            yield res
    finally:
        _kill_group(p.pid)
        p.wait(10)


def _bot(d: Path, escape: str) -> tuple[Path, Path]:
    call_bot = Path(__file__).resolve().parents[1] / "tests" / "bots" / "call_bot.py"
    pids = d / "pids"
    body = {
        "setsid child": "c = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(3600)'], "
        "start_new_session=True)\nopen(PIDS, 'a').write(f'{c.pid}\\n')\n",
        "daemon without environment": "r, w = os.pipe()\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
        "        os.write(w, str(os.getpid()).encode()); os.close(w)\n        fd = os.open(os.devnull, os.O_RDWR)\n"
        "        [os.dup2(fd, k) for k in (0, 1, 2)]\n        os.execve(sys.executable, [sys.executable, '-c', "
        "'import time; time.sleep(3600)'], {})\n    os._exit(0)\nos.close(w); open(PIDS, 'a').write(os.read(r, 32)."
        "decode() + '\\n'); os.wait()\n",
        "twenty children": "for _ in range(20):\n    c = subprocess.Popen([sys.executable, '-c', 'import time; "
        "time.sleep(3600)'])\n    open(PIDS, 'a').write(f'{c.pid}\\n')\n",
        "setsid grandchild of a child": "c = subprocess.Popen([sys.executable, '-c', 'import subprocess, sys; c = "
        'subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"], start_new_session=True); '
        'open(sys.argv[1], "a").write(f"{c.pid}\\\\n"); import time; time.sleep(3600)\', PIDS])\n'
        "open(PIDS, 'a').write(f'{c.pid}\\n')\nimport time; time.sleep(1)\n",
    }[escape]
    bot = d / "bot.py"
    bot.write_text(f"import os, runpy, subprocess, sys\nPIDS = {str(pids)!r}\n{body}"
                   f"sys.argv = [{str(call_bot)!r}] + sys.argv[1:]\nrunpy.run_path({str(call_bot)!r}, run_name='__main__')\n")  # fmt: skip
    return bot, pids


def _alive(pid: int) -> bool:
    try:
        st = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return st[st.rfind(")") + 2] not in "ZX"


def bots(work: Path) -> Iterator[Result]:
    escapes = ["setsid child", "daemon without environment", "twenty children", "setsid grandchild of a child"]
    for escape in escapes:
        for how in ("finished", "SIGTERM"):
            d = work / f"bot-{escape.replace(' ', '-')}-{how}"
            d.mkdir()
            bot, pids = _bot(d, escape)
            a = ["match", "--player", "calling", "--player", f"cmd:{sys.executable} {bot}", "--hands", "3" if how ==
                 "finished" else "100000", "--t-response", "60", "--out", str(d / "m.log")]  # fmt: skip

            def stop_later(p: subprocess.Popen, pids: Path = pids) -> None:
                def go() -> None:
                    deadline = time.monotonic() + 60
                    while time.monotonic() < deadline and not (pids.exists() and pids.read_text().strip()):
                        time.sleep(0.1)
                    time.sleep(2)
                    with contextlib.suppress(ProcessLookupError):
                        p.send_signal(signal.SIGTERM)

                threading.Thread(target=go, daemon=True).start()

            r = run(a, d, timeout=180, on_start=stop_later if how == "SIGTERM" else None)
            time.sleep(0.5)
            started = [int(x) for x in pids.read_text().split()] if pids.exists() else []
            alive = [pid for pid in started if _alive(pid)]
            for pid in alive:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            yield judge("bots", f"cmd: bot with a {escape}, match {how}", a, r, {0} if how == "finished" else {143},
                        survivors=len(alive), note=f"{len(started)} processes started by the bot")  # fmt: skip


def runs(work: Path) -> Iterator[Result]:
    d = work / "runs"
    d.mkdir()
    base = ["tournament", "--deals", "40", "--block-deals", "2", "--seed", "5", "-q", "--no-plots", "-w", "2"]
    ref = run(base + ["--out", str(d / "ref")], d, timeout=600)
    yield judge("runs", "a tournament, uninterrupted", base, ref, {0})

    def kill_later(p: subprocess.Popen) -> None:
        def go() -> None:
            j = d / "killed" / "journal.jsonl"
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline:
                if j.exists() and j.read_text().count("\n") >= 4:
                    break
                time.sleep(0.05)
            _kill_group(p.pid)

        threading.Thread(target=go, daemon=True).start()

    killed = run(base + ["--out", str(d / "killed")], d, timeout=600, on_start=kill_later)
    yield judge("runs", "the same, SIGKILLed mid-run", base, killed, {0, -9})
    resumed = run(base + ["--out", str(d / "killed"), "--resume"], d, timeout=600)
    same = (d / "ref" / "summary.json").exists() and (d / "killed" / "summary.json").exists()
    if same:
        a, b = (json.loads((d / x / "summary.json").read_text()) for x in ("ref", "killed"))
        same = json.dumps(a.get("types"), sort_keys=True) == json.dumps(b.get("types"), sort_keys=True)
        same = same and (d / "ref" / "deals.csv").read_bytes() == (d / "killed" / "deals.csv").read_bytes()
    res = judge("runs", "--resume after SIGKILL: the same deals.csv and summary as uninterrupted", base, resumed, {0})
    res.traceback = res.traceback or not same
    res.note = "identical" if same else "DIFFERENT from the uninterrupted run"
    yield res
    again = run(base + ["--out", str(d / "ref")], d, timeout=600)
    res = judge("runs", "a re-run into the finished folder", base, again, {0})
    res.note = "says so" if "holds this run, finished" in " ".join(again.out.split()) else "SILENT"
    res.traceback = res.traceback or res.note == "SILENT"
    yield res
    j = d / "ref" / "journal.jsonl"
    lines = j.read_text().splitlines()
    rec = json.loads(lines[1])
    rec["chips"] = [[x + 1 for x in row] for row in rec.get("chips", [])]
    lines[1] = json.dumps(rec, separators=(",", ":"))
    j.write_text("\n".join(lines) + "\n")
    forged = run(base + ["--out", str(d / "ref"), "--resume"], d, timeout=120)
    yield judge("runs", "a forged journal line", base, forged, {2},
                note="refused with its line" if "line 2" in forged.err else "NOT REFUSED")  # fmt: skip
    full = run(["tournament", "--deals", "4", "-q", "-w", "0", "--out", str(d / "full")], d, timeout=300, fsize=2000)
    yield judge("runs", "a full disk (files capped at 2,000 bytes)", ["tournament", "--deals", "4"], full, {2})


KINDS: dict[str, Callable[[Path], Iterator[Result]]] = {
    "outputs": outputs,
    "folders": folders,
    "inputs": inputs,
    "names": names,
    "bounds": bounds,
    "hosts": hosts,
    "strict": strict,
    "web": web,
    "bots": bots,
    "runs": runs,
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path, help="a new or empty folder for the probes' files and campaign.json")
    ap.add_argument("--only", default=",".join(KINDS), help="kinds of probe, comma-separated: " + ", ".join(KINDS))
    ns = ap.parse_args(argv)
    kinds = [k.strip() for k in ns.only.split(",") if k.strip()]
    unknown = sorted(set(kinds) - set(KINDS))
    if unknown:
        ap.error(f"unknown kinds {unknown}")
    ns.out.mkdir(parents=True, exist_ok=True)
    results: list[Result] = []
    t0 = time.monotonic()
    for k in kinds:
        work = ns.out / k
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir()
        n0 = len(results)
        for res in KINDS[k](work):
            results.append(res)
            flag = "FAIL" if res.failed else "ok  "
            shown = repr(res.name)[1:-1][:90]  # the probe's name escaped: it may hold what it probes
            print(f"{flag} {res.kind:8} {shown:90} rc={res.rc} {res.seconds:6.1f}s {res.rss_mb:7.1f}MB "
                  f"{res.note}", flush=True)  # fmt: skip
        print(f"-- {k}: {len(results) - n0} probes", flush=True)
    figures = {
        "probes": len(results),
        "tracebacks": sum(r.traceback for r in results),
        "unbounded": sum(r.unbounded for r in results),
        "replaced_non_files": sum(r.replaced for r in results),
        "raw_control_characters": sum(r.raw for r in results),
        "survivors": sum(r.survivors for r in results),
        "max_seconds": max((r.seconds for r in results), default=0.0),
        "max_rss_mb": max((r.rss_mb for r in results), default=0.0),
        "wall_seconds": round(time.monotonic() - t0, 1),
    }
    (ns.out / "campaign.json").write_text(json.dumps({"figures": figures, "probes": [asdict(r) for r in results]},
                                                     indent=1) + "\n")  # fmt: skip
    print(json.dumps(figures, indent=1))
    return 1 if any(r.failed for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
