"""Clean operations of tournaments: SIGTERM/SIGHUP stop a run like Ctrl-C, workers exit when
their parent dies, results are written atomically, a full disk is one error line, a lock keeps a second
run out of a results folder."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from loki.cli import app
from loki.io.files import LOCK_NAME, atomic_write_text, folder_lock
from loki.tournament.runner import read_journal

LONG = (
    'name = "long"\ndeals = 40000\nblock_deals = {block_deals}\nseed = 3\nhistories = false\n'
    '[[players]]\ntype = "random"\ncount = 3\n[[players]]\ntype = "calling"\ncount = 3\n'
)


def _tournament(tmp_path: Path, workers: int = 2, block_deals: int = 5) -> tuple[subprocess.Popen, Path]:
    cfg = tmp_path / "long.toml"
    cfg.write_text(LONG.format(block_deals=block_deals))
    out = tmp_path / "run"
    cmd = [sys.executable, "-c", "from loki.cli import app; app()", "tournament", "--config", str(cfg)]
    cmd += ["--out", str(out), "--workers", str(workers), "--quiet", "--no-plots"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return proc, out


def _wait_for_blocks(proc: subprocess.Popen, journal: Path, n: int) -> None:
    deadline = time.time() + 120
    while time.time() < deadline:
        try:
            if journal.exists() and len(read_journal(journal)[1]) >= n and len(_descendants(proc.pid)) >= 3:
                return
        except Exception:  # noqa: BLE001 - a torn line while it is being written
            pass
        if proc.poll() is not None:
            pytest.fail(f"the run ended early: {proc.stderr.read()}")
        time.sleep(0.05)
    pytest.fail("no block finished in time")


def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            kids.setdefault(ppid, []).append(int(d.name))
    return kids


def _descendants(pid: int) -> list[int]:
    kids, out, todo = _children(), [], [pid]
    while todo:
        for c in kids.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _all_gone(pids: list[int], within: float) -> list[int]:
    deadline = time.time() + within
    while time.time() < deadline:
        left = [p for p in pids if _alive(p)]
        if not left:
            return []
        time.sleep(0.1)
    return [p for p in pids if _alive(p)]


needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc to follow processes")


@needs_proc
@pytest.mark.parametrize(
    "sig, code, block_deals, finished",
    [
        (signal.SIGTERM, 143, 10000, 0),  # blocks of ~30 s: the workers must be stopped, not awaited
        (signal.SIGHUP, 129, 5, 2),  # short blocks: finished ones are in the journal
    ],
)
def test_sigterm_and_sighup_stop_a_tournament_like_ctrl_c(tmp_path, sig, code, block_deals, finished):
    proc, out = _tournament(tmp_path, block_deals=block_deals)
    journal = out / "journal.jsonl"
    _wait_for_blocks(proc, journal, finished)
    time.sleep(1.0 if finished == 0 else 0.0)  # the workers are inside their first blocks
    workers = _descendants(proc.pid)
    assert len(workers) >= 3, workers  # the forkserver and its 2 workers
    t0 = time.time()
    proc.send_signal(sig)
    rc = proc.wait(30)
    err = proc.stderr.read()
    assert rc == code, err
    assert time.time() - t0 < 10
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"error: interrupted ({signal.Signals(sig).name}): finished blocks are kept in ")
    assert "--resume" in last and "Traceback" not in err
    assert _all_gone(workers, 10) == []
    header, blocks = read_journal(journal)  # intact: every line whole and signed
    assert header is not None and len(blocks) >= finished
    assert not list(out.glob(".*.tmp*"))


@needs_proc
def test_ctrl_c_while_the_pools_server_starts_is_one_error_line(tmp_path):
    # Ctrl-C reaches the terminal's whole process group: here while the pool's forkserver imports the workers'
    # start-up, before any worker exists.  Only the tournament's error line may follow, never a traceback from the
    # server or from a worker forked after the tournament ended (its queues gone with it)
    cfg = tmp_path / "long.toml"
    cfg.write_text(LONG.format(block_deals=5))
    cmd = [sys.executable, "-c", "from loki.cli import app; app()", "tournament", "--config", str(cfg)]
    cmd += ["--out", str(tmp_path / "run"), "--workers", "2", "--quiet", "--no-plots"]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as a terminal's (a background run ignores it)
    )  # fmt: skip
    deadline = time.time() + 120
    server = []
    while not server and time.time() < deadline and proc.poll() is None:
        server = [p for p in _descendants(proc.pid) if "forkserver" in _cmdline(p)]
        time.sleep(0.01)
    assert server, "no forkserver started"
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)  # the server holds the same stderr: it is read to the server's end
    assert proc.returncode == 130, err
    assert "Traceback" not in err, err
    assert err.strip().splitlines()[-1].startswith("error: interrupted (SIGINT): finished blocks are kept in "), err
    assert _all_gone(server, 10) == []


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


@needs_proc
def test_workers_exit_when_their_parent_dies(tmp_path):
    proc, out = _tournament(tmp_path, block_deals=10000)
    _wait_for_blocks(proc, out / "journal.jsonl", 0)
    time.sleep(1.0)
    workers = _descendants(proc.pid)
    assert len(workers) >= 3, workers
    proc.send_signal(signal.SIGKILL)
    proc.wait(30)
    assert _all_gone(workers, 10) == []  # none orphaned


def test_atomic_write_keeps_the_old_file_on_a_full_disk(tmp_path, monkeypatch):
    f = tmp_path / "summary.json"
    atomic_write_text(f, "old\n")

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError, match="No space left"):
        atomic_write_text(f, "new\n")
    assert f.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["summary.json"]


def _tiny(tmp_path: Path) -> Path:
    cfg = tmp_path / "t.toml"
    cfg.write_text(
        'name = "t"\ndeals = 4\nblock_deals = 2\nhistories = false\n[[players]]\ntype = "calling"\ncount = 2\n'
    )
    return cfg


def test_full_disk_is_one_error_line(tmp_path, monkeypatch):
    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    out = tmp_path / "o"
    r = CliRunner().invoke(
        app, ["tournament", "--config", str(_tiny(tmp_path)), "--out", str(out), "--workers", "1", "--quiet"]
    )
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith("error: ") and "No space left on device" in r.stderr and str(out) in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.output


def test_results_are_whole_files_and_no_temporary_is_left(tmp_path):
    out = tmp_path / "o"
    r = CliRunner().invoke(
        app, ["tournament", "--config", str(_tiny(tmp_path)), "--out", str(out), "--workers", "1", "--quiet"]
    )
    assert r.exit_code == 0, r.output
    names = sorted(p.name for p in out.iterdir())
    # no lock file is left behind by a finished run
    assert names == sorted(
        ["cumulative.png", "deals.csv", "journal.jsonl", "run.json", "sb_per_hand.png", "summary.json"]
    )
    assert LOCK_NAME not in names
    assert json.loads((out / "summary.json").read_text())["hands"] == 8
    assert (out / "sb_per_hand.png").read_bytes()[:4] == b"\x89PNG"


def test_a_second_run_into_the_same_folder_is_refused(tmp_path):
    out = tmp_path / "o"
    with folder_lock(out):
        r = CliRunner().invoke(
            app, ["tournament", "--config", str(_tiny(tmp_path)), "--out", str(out), "--workers", "1", "--quiet"]
        )
        assert r.exit_code == 2, r.output
        assert f"another loki run (pid {os.getpid()}) is writing into this folder" in r.stderr
        assert not (out / "journal.jsonl").exists()
    # released with the process's hold: the next run goes ahead
    r = CliRunner().invoke(
        app, ["tournament", "--config", str(_tiny(tmp_path)), "--out", str(out), "--workers", "1", "--quiet"]
    )
    assert r.exit_code == 0, r.output


@needs_proc
def test_a_killed_writers_temporary_is_removed_by_the_next_run(tmp_path):
    """A run killed inside an atomic write leaves ``.<stem>.<pid>.<hex>.tmp<suffix>``; the next run that takes the
    folder's lock removes it (a resumed run's ``hands/`` holds exactly its blocks), a live writer's is kept."""
    out = tmp_path / "o"
    (out / "hands").mkdir(parents=True)
    code = (
        "from loki.io.files import atomic_target\nimport time\n"
        f"with atomic_target({str(out / 'hands' / 'block-00001.phhs')!r}) as t:\n"
        "    t.write_text('half'); print('writing', flush=True); time.sleep(60)\n"
    )
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "writing"
        left = [q.name for q in (out / "hands").iterdir()]
        assert len(left) == 1 and left[0].startswith(f".block-00001.{p.pid}.") and left[0].endswith(".tmp.phhs")
        with folder_lock(out):  # the writer is alive: its temporary stays
            pass
        assert [q.name for q in (out / "hands").iterdir()] == left
    finally:
        p.kill()
        p.wait()
    (out / "hands" / "block-00000.phhs").write_text("kept")
    (out / ".notes.123.tmp.txt").write_text("not a loki temporary")
    with folder_lock(out):
        pass
    assert sorted(q.name for q in (out / "hands").iterdir()) == ["block-00000.phhs"]
    assert (out / ".notes.123.tmp.txt").exists()


@needs_proc
def test_the_lock_dies_with_its_process(tmp_path):
    """A killed run leaves no stale lock: the kernel releases it."""
    out = tmp_path / "o"
    code = f"from loki.io.files import folder_lock\nimport time\nwith folder_lock({str(out)!r}):\n    print('held', flush=True)\n    time.sleep(60)\n"
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "held"
        with pytest.raises(OSError, match=f"pid {p.pid}"):
            with folder_lock(out):
                pass
    finally:
        p.kill()
        p.wait()
    with folder_lock(out):
        pass
