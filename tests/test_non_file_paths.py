"""Paths that are not regular files: an output path never replaces or writes through a device, FIFO, socket or
symbolic link (one rule, :mod:`loki.io.outpath`, and the atomic writer of :mod:`loki.io.files`); a results folder is a
real folder, never a link, and a folder of other files needs ``--overwrite``; an input is opened only if it is a
regular file (``O_NONBLOCK`` + ``fstat``, :func:`loki.io.limits.open_regular`), so a FIFO or a device is refused at
once instead of hanging or being read without end.

Commands run in subprocesses with a timeout: before the rule, some of them blocked forever on a FIFO."""

from __future__ import annotations

import os
import re
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from loki.errors import HandHistoryError, OutputPathError
from loki.io.files import atomic_target, atomic_write_text, folder_lock
from loki.io.limits import open_input
from loki.io.outpath import check_output_folder, check_output_path, make_folder, not_a_file, open_output

LOKI = [sys.executable, "-c", "from loki.cli import app; app()"]
LOG_LINE = "STATE:{}:cc/crc/cc/cc:5d5c|9hQd/8dAs8s/4h/6d:20|-20:p1|p2\n"
SENTINEL = "the file a link points to, untouched\n"


def _loki(args: list[str], cwd: Path, timeout: float = 120, stdin: str = "") -> subprocess.CompletedProcess:
    env = dict(os.environ, COLUMNS="200")
    return subprocess.run(LOKI + args, cwd=cwd, input=stdin, capture_output=True, text=True, timeout=timeout, env=env)


def _one_error(r: subprocess.CompletedProcess) -> str:
    assert r.returncode == 2, (r.returncode, r.stdout[-1000:], r.stderr[-2000:])
    lines = r.stderr.strip().splitlines()
    assert "Traceback" not in r.stderr and lines and lines[-1].startswith("error: "), r.stderr[-2000:]
    return lines[-1]


def _make(kind: str, path: Path) -> str | None:
    """Put ``kind`` at ``path``; returns what :func:`not_a_file` calls it (None: cannot make it here: skip)."""
    if kind == "fifo":
        os.mkfifo(path)
        return "a FIFO (named pipe)"
    if kind == "symlink":
        target = path.parent / f"target-of-{path.name}"
        target.write_text(SENTINEL)
        path.symlink_to(target)
        return "a symbolic link"
    if kind == "dangling symlink":
        path.symlink_to(path.parent / "nowhere" / "x")
        return "a symbolic link"
    if kind == "device":
        try:
            os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 7))  # a private /dev/full
        except (PermissionError, AttributeError):
            return None
        return "a character device"
    if kind == "socket":
        s = socket.socket(socket.AF_UNIX)
        try:
            s.bind(str(path))
        except OSError:  # a path too long for a socket address
            return None
        finally:
            s.close()
        return "a socket"
    raise AssertionError(kind)


def _unchanged(path: Path, kind: str) -> None:
    """What ``_make`` put at ``path`` is still there, as it was."""
    mode = os.lstat(path).st_mode
    expected = {
        "fifo": stat.S_ISFIFO,
        "symlink": stat.S_ISLNK,
        "dangling symlink": stat.S_ISLNK,
        "device": stat.S_ISCHR,
        "socket": stat.S_ISSOCK,
    }
    assert expected[kind](mode), (path, oct(mode))
    if kind == "symlink":
        assert (path.parent / f"target-of-{path.name}").read_text() == SENTINEL


KINDS = ["fifo", "symlink", "dangling symlink", "device", "socket"]

# every command that writes one file to --out: its arguments (OUT stands for the path)
FILE_COMMANDS = {
    "ir-tables": ["ir-tables", "--samples", "100", "--out", "OUT.csv"],
    "replay": ["replay", "hands.log", "--player", "calling", "--out", "OUT.png"],
    "dealer": ["dealer", "--hands", "1", "--t-connect", "1", "--out", "OUT.log"],
    "match": ["match", "--player", "calling", "--player", "calling", "--hands", "1", "--no-warmup", "--out", "OUT.log"],
    "play": ["play", "--player", "calling", "--opponents", "1", "--hands", "1", "--out", "OUT.phhs"],
}


# ------------------------------------------------------------------ output files


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", sorted(FILE_COMMANDS))
def test_no_command_writes_over_or_through_a_non_file_at_its_out(tmp_path, command, kind):
    """`loki ir-tables --out /dev/full` left a regular file where the device was, and said "wrote"; a `.csv` link to
    /proc/self/fd/1 was replaced; the dealer and `loki play` opened a FIFO and blocked."""
    (tmp_path / "hands.log").write_text("".join(LOG_LINE.format(i) for i in range(3)))
    args = list(FILE_COMMANDS[command])
    suffix = Path(args[-1]).suffix
    out = tmp_path / f"out{suffix}"
    name = _make(kind, out)
    if name is None:
        pytest.skip(f"cannot make {kind} here")
    args[-1] = str(out)
    r = _loki(args, tmp_path, timeout=90, stdin="c\n" * 40)
    line = _one_error(r)
    assert str(out) in line and f"{name} is there" in line and "never over a device" in line, line
    _unchanged(out, kind)
    assert not [p for p in tmp_path.iterdir() if ".tmp" in p.name]  # no temporary file left behind


@pytest.mark.parametrize("kind", KINDS)
def test_the_atomic_writer_never_replaces_a_non_file(tmp_path, kind):
    p = tmp_path / "summary.json"
    name = _make(kind, p)
    if name is None:
        pytest.skip(f"cannot make {kind} here")
    assert not_a_file(p) == name
    with pytest.raises(OutputPathError, match=re.escape(f"{name} is there")):
        atomic_write_text(p, "{}\n")
    with pytest.raises(OutputPathError, match=re.escape(f"{name} is there")), atomic_target(p) as tmp:
        tmp.write_text("x")
    _unchanged(p, kind)
    with pytest.raises(OutputPathError, match=re.escape(f"{name} is there")):
        check_output_path(p, "--out")
    with pytest.raises(OutputPathError, match=re.escape(f"{name} is there")):
        open_output(p, "--out").close()
    _unchanged(p, kind)
    assert sorted(x.name for x in tmp_path.iterdir() if ".tmp" in x.name) == []


def test_a_target_swapped_for_a_link_during_the_write_is_not_replaced(tmp_path):
    """The rule is checked again just before the rename (the work between may take hours)."""
    p = tmp_path / "deals.csv"
    p.write_text("old\n")
    with pytest.raises(OutputPathError, match="a symbolic link is there"), atomic_target(p) as tmp:
        tmp.write_text("new\n")
        p.unlink()
        p.symlink_to(tmp_path / "elsewhere")
    assert p.is_symlink() and not (tmp_path / "elsewhere").exists()
    atomic_write_text(tmp_path / "fine.csv", "a\n")  # a regular file (new, or replaced) is written as before
    atomic_write_text(tmp_path / "fine.csv", "b\n")
    assert (tmp_path / "fine.csv").read_text() == "b\n"


def test_a_planted_temporary_name_is_never_written_through(tmp_path, monkeypatch):
    """The temporary file is created exclusively (never an existing file, never through a link): a link planted at
    the name a writer would use is skipped."""
    import secrets

    p = tmp_path / "run.json"
    victim = tmp_path / "victim"
    victim.write_text(SENTINEL)
    names = iter(["aaaaaaaa", "bbbbbbbb"])
    monkeypatch.setattr(secrets, "token_hex", lambda n: next(names))
    (tmp_path / f".run.{os.getpid()}.aaaaaaaa.tmp.json").symlink_to(victim)
    (tmp_path / f".run.{os.getpid()}.tmp.json").symlink_to(victim)  # a name of the pid alone, planted too
    atomic_write_text(p, "{}\n")
    assert p.read_text() == "{}\n" and victim.read_text() == SENTINEL


# ------------------------------------------------------------------ results folders

FOLDER_COMMANDS = {
    "tournament": ["tournament", "--deals", "2", "--quiet", "--no-plots", "--workers", "0", "--out", "OUT"],
    "league": ["league", "--player", "calling", "--player", "random", "--deals", "2", "--no-plots", "-w", "0",
               "--quiet", "--out", "OUT"],
    "lbr": ["lbr", "calling", "--deals", "2", "-w", "0", "--quiet", "--out", "OUT"],
    "tune": ["tune", "fig3-B", "--trials", "1", "--deals", "1", "--validate-deals", "0", "-w", "0", "--quiet",
             "--out", "OUT"],
}  # fmt: skip


@pytest.mark.parametrize("command", sorted(FOLDER_COMMANDS))
def test_results_folders_are_never_symbolic_links_nor_other_files_folders(tmp_path, command):
    """`tournament --out` wrote into any existing folder, following a symbolic link (to /etc in a probe)."""
    elsewhere = tmp_path / "etc"
    elsewhere.mkdir()
    (elsewhere / "passwd").write_text(SENTINEL)
    link = tmp_path / "results-link"
    link.symlink_to(elsewhere)
    args = list(FOLDER_COMMANDS[command])
    args[-1] = str(link)
    line = _one_error(_loki(args, tmp_path))
    assert f"--out {link}: a symbolic link is there" in line, line
    args[-1] = str(elsewhere)  # a folder of other files
    line = _one_error(_loki(args, tmp_path))
    assert f"--out {elsewhere}: a folder of other files (passwd)" in line and "--overwrite" in line, line
    assert sorted(p.name for p in elsewhere.iterdir()) == ["passwd"] and link.is_symlink()
    (tmp_path / "afile").write_text(SENTINEL)
    args[-1] = str(tmp_path / "afile")
    assert "a file is there: expected a results folder" in _one_error(_loki(args, tmp_path))
    assert (tmp_path / "afile").read_text() == SENTINEL


def test_a_tournament_writes_into_its_own_folder_or_with_overwrite(tmp_path):
    args = list(FOLDER_COMMANDS["tournament"])
    mine = tmp_path / "mine"
    args[-1] = str(mine)
    r = _loki(args, tmp_path)
    assert r.returncode == 0, r.stderr
    r = _loki(args, tmp_path)  # its own results: a finished run, reported again
    assert r.returncode == 0, r.stderr
    # another run into it is refused with one error line and nothing on stdout (not even the line a progress bar
    # never started printed when it was stopped)
    loud = [a for a in args if a != "--quiet"]
    loud[loud.index("2")] = "3"
    r = _loki(loud, tmp_path)
    assert "already holds a run" in _one_error(r) and r.stdout == "", repr(r.stdout)
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text(SENTINEL)
    args[-1] = str(other)
    assert _loki(args, tmp_path).returncode == 2
    r = _loki([*args, "--overwrite"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert (other / "notes.txt").read_text() == SENTINEL and (other / "summary.json").is_file()


def test_folder_rule_and_lock_refuse_links(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    for call in (
        lambda: check_output_folder(link),
        lambda: make_folder(link),
        lambda: folder_lock(link).__enter__(),
    ):
        with pytest.raises(OutputPathError):
            call()
    assert list(real.iterdir()) == []
    assert check_output_folder(tmp_path / "new") == tmp_path / "new" and not (tmp_path / "new").exists()
    (real / ".loki.lock").write_text("")  # what a killed run leaves: its own folder
    assert check_output_folder(real, marks=()) == real


def test_a_hands_folder_that_is_a_link_is_refused(tmp_path):
    """Inside a results folder too: a `hands` link would have taken the hand histories elsewhere."""
    from loki.errors import TournamentConfigError
    from loki.tournament import config_from_dict, run_tournament

    cfg = config_from_dict({"name": "t", "deals": 2, "block_deals": 1, "players": [{"type": "calling", "count": 2}]})
    (tmp_path / "elsewhere").mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "hands").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(TournamentConfigError, match="hands: a symbolic link is there"):
        run_tournament(cfg, workers=0, out=out)
    assert list((tmp_path / "elsewhere").iterdir()) == []


# ------------------------------------------------------------------ inputs


@pytest.mark.parametrize(
    "args, what",
    [
        (["tournament", "--config", "IN"], "a tournament config file"),
        (["replay", "IN", "--player", "calling"], "an ACPC log"),
        (["explain", "IN", "--player", "calling"], "an ACPC log"),
        (["replay", "IN.phhs", "--player", "calling"], "a PHH file"),
        (["dealer", "--game", "IN", "--hands", "1"], "a game definition"),
        (["tournament", "--preset", "quick", "--deals", "2", "--resume", "--out", "OUTDIR"], "journal"),
        (["explain", "--hole", "AhKh", "--players", "2", "--player", "IN.toml"], "player file"),
    ],
)
def test_an_input_that_is_a_fifo_is_refused_at_once(tmp_path, args, what):
    """`mkfifo f.toml; loki tournament --config f.toml` blocked forever; so did `--resume` with a FIFO journal."""
    args = list(args)
    for i, a in enumerate(args):
        if a.startswith("IN"):
            fifo = tmp_path / ("f" + a[2:])
            os.mkfifo(fifo)
            args[i] = str(fifo)
        elif a == "OUTDIR":
            out = tmp_path / "out"
            out.mkdir()
            fifo = out / "journal.jsonl"
            os.mkfifo(fifo)
            (out / "run.json").write_text('{"journal_key": "00"}\n')
            args[i] = str(out)
    line = _one_error(_loki(args, tmp_path, timeout=60))
    assert what in line and "FIFO (named pipe), not a regular file" in line and str(fifo) in line, line


@pytest.mark.parametrize("kind", ["fifo", "device", "socket"])
def test_open_input_refuses_what_is_not_a_regular_file_without_reading(tmp_path, kind):
    p = tmp_path / "x.log"
    name = _make(kind, p)
    if name is None:
        pytest.skip(f"cannot make {kind} here")
    with pytest.raises(HandHistoryError, match=re.escape(f"cannot read an ACPC log: it is {name}, not a regular file")):
        open_input(p, "an ACPC log", HandHistoryError)
    with pytest.raises(HandHistoryError, match="it is a folder, not a regular file"):
        open_input(tmp_path, "an ACPC log", HandHistoryError)
    p2 = tmp_path / "real.log"
    p2.write_text("x\n")
    link = tmp_path / "link.log"
    link.symlink_to(p2)
    with open_input(link, "an ACPC log", HandHistoryError) as f:  # a link to a regular file is read
        assert f.read() == b"x\n"
