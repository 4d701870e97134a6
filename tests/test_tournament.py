"""Tests of duplicate tournaments: schedule, determinism, statistics, resume, configs, PHH, Dask."""

from __future__ import annotations

import contextlib
import json
import math
import os
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

from loki.cli import app
from loki.tournament import (
    TournamentConfigError,
    config_from_dict,
    deal_cards,
    list_presets,
    load_config,
    load_preset,
    play_block,
    run_tournament,
    seatings,
    summarize,
)
from loki.tournament.journal import journal_key
from loki.tournament.results import write_results
from loki.tournament.runner import JournalError, read_journal, signed_line

SMALL = {
    "name": "small",
    "deals": 12,
    "block_deals": 4,
    "players": [{"type": "random", "count": 3}, {"type": "calling", "count": 2, "label": "caller"}],
    "compare": [{"name": "random minus caller", "enhanced": ["random"], "control": ["caller"]}],
}


def small(**kw):
    d = dict(SMALL)
    d.update(kw)
    return config_from_dict(d)


# ------------------------------------------------------------------------------------ schedule


@pytest.mark.parametrize("n", range(2, 11))
def test_seatings_latin(n):
    sq = seatings(n)
    assert len(sq) == n
    for row in sq:  # every replay seats every player once
        assert sorted(row) == list(range(n))
    for s in range(n):  # every player sits in every seat once (holds every hole-card set once)
        assert sorted(sq[r][s] for r in range(n)) == list(range(n))
    # the balance of relative positions: tests/test_schedule.py


def test_deal_cards_depend_on_seed_and_deal_only():
    h1, b1 = deal_cards(5, 17, 10)
    h2, b2 = deal_cards(5, 17, 10)
    assert (h1, b1) == (h2, b2)
    assert deal_cards(5, 18, 10) != (h1, b1) and deal_cards(6, 17, 10) != (h1, b1)
    cards = [c for h in h1 for c in h] + list(b1)
    assert len(cards) == len(set(cards)) == 25 and all(0 <= c < 52 for c in cards)


@pytest.mark.parametrize("n", [3, 4, 10])
def test_every_player_holds_every_hole_card_set_once_with_identical_cards(monkeypatch, n):
    import loki.players.table

    calls = []
    real = loki.players.table.play_hand

    def spy(config, players, button=0, rng=None, *, hole_cards=None, board=None, stacks=None, oracles=False):
        st = real(config, players, button, rng, hole_cards=hole_cards, board=board, stacks=stacks, oracles=oracles)
        calls.append(([p.name for p in players], [st.hole_cards(s) for s in range(n)], st.full_board, button))
        return st

    monkeypatch.setattr(loki.players.table, "play_hand", spy)
    cfg = config_from_dict(
        {
            "name": "x",
            "deals": 3,
            "block_deals": 2,
            "histories": False,
            "players": [{"type": "random", "count": n - 1}, {"type": "calling"}],
        }
    )
    names = [s.name for s in cfg.seats]
    run_tournament(cfg, workers=1)
    assert len(calls) == 3 * n
    for d in range(3):
        hands = calls[d * n : (d + 1) * n]
        holes, board = deal_cards(cfg.seed, d, n)
        for table, hole, full, button in hands:
            assert full == board and tuple(hole) == holes and button == 0  # identical cards every replay
        for name in names:
            held = sorted(tuple(hole[table.index(name)]) for table, hole, _, _ in hands)
            assert held == sorted(holes)  # every set of hole cards once
            seats = sorted(table.index(name) for table, _, _, _ in hands)
            assert seats == list(range(n))  # every position once


# ------------------------------------------------------------------------------------ determinism


def test_same_result_whatever_the_number_of_workers():
    cfg = small(deals=10, block_deals=3)
    r1 = run_tournament(cfg, workers=1)
    r2 = run_tournament(cfg, workers=2)
    assert r1.chips == r2.chips and r1.counters == r2.counters
    assert len(r1.chips) == 10
    assert all(sum(row) == 0 for row in r1.chips)
    assert run_tournament(small(deals=10, block_deals=3, seed=1), workers=1).chips != r1.chips


WORKER_PROBE = r"""
import json, multiprocessing, os
from loki.tournament.runner import cut_lifeline, local_executor

os.environ.pop("PYTHONSAFEPATH", None)
ex = local_executor(2)
probe = (
    "[m in __import__('sys').modules for m in ('loki.tournament.runner', 'loki.players.kinds', 'loki.evaluator.build',"
    " 'scipy.linalg')] + [getattr(__import__('sys').modules.get('loki.tournament.worker_start'), 'FAILED', 'absent')]"
    " + [k in __import__('os').environ for k in ('LOKI_POOL_SYS_PATH', 'PYTHONSAFEPATH')]"
    " + [__import__('os').environ.get('PYTHONPATH')]"
)
# a process of other code forked from the same server: exit code 1 if SIGINT is blocked in it, 2 if Python's handler
# is not SIGINT's, 3 both
other = multiprocessing.get_context("forkserver").Process(target=eval, args=(
    "__import__('sys').exit(int(__import__('signal').SIGINT in __import__('signal').pthread_sigmask(0, []))"
    " + 2 * int(__import__('signal').getsignal(2) is not __import__('signal').default_int_handler))",
))
other.start()
other.join()
print(json.dumps(ex.submit(eval, probe).result() + [os.environ.get("PYTHONPATH"), other.exitcode]))
ex.shutdown()
cut_lifeline(ex)
"""


def test_a_pools_workers_are_forked_with_their_start_up_done():
    # before its first task a worker already holds the tournament's modules and the built-in kinds', numba's target
    # context (scipy's linear algebra, which its BLAS check imports) and the evaluator's tables: done once, in the
    # forkserver (loki.tournament.worker_start), which puts back the environment the workers inherit and lets
    # Ctrl-C's SIGINT in again for whatever it forks.  A fresh interpreter: a forkserver an earlier test of this
    # process started would keep its own preload
    res = subprocess.run([sys.executable, "-c", WORKER_PROBE], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    *got, pythonpath, parents, other = json.loads(res.stdout.strip().splitlines()[-1])
    assert got == [True, True, True, True, None, False, False] and pythonpath == parents and other == 0


def test_a_pools_server_that_finds_another_loki_does_nothing_and_says_so(tmp_path):
    # the server's own sys.path finds this tree's loki (PYTHONPATH), the pool's process puts another copy first: the
    # server's start-up stops before importing anything more, and the check the pool runs in a process forked from the
    # server (exit code 1: another loki) makes the pool spawn its workers instead
    from loki.tournament.runner import same_loki_check

    decoy = tmp_path / "decoy" / "loki"
    decoy.mkdir(parents=True)
    (decoy / "__init__.py").write_text("")
    src = str(Path(__file__).resolve().parent.parent / "src")
    env = dict(os.environ, PYTHONPATH=src)
    env["LOKI_POOL_SYS_PATH"] = json.dumps({"sys_path": [str(decoy.parent), src, *sys.path], "restore": {}})
    code = (
        "import importlib, json, sys\nw = importlib.import_module('loki.tournament.worker_start')\n"
        "print(json.dumps([w.FAILED, 'loki.players.kinds' in sys.modules]))"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 0, res.stderr[-2000:]
    failed, imported = json.loads(res.stdout.strip().splitlines()[-1])
    assert str(decoy) in failed and not imported
    check = same_loki_check()
    for path, code in [(str(decoy.parent), 1), (src, 0)]:  # the process holds the decoy, then this tree's loki
        held = subprocess.run(
            [sys.executable, "-c", f"import loki\neval({check!r})"], env=dict(os.environ, PYTHONPATH=path)
        )
        assert held.returncode == code, path
    assert subprocess.run([sys.executable, "-c", f"eval({check!r})"]).returncode == 0  # no loki held


def test_loki1_blocks_are_reproducible():
    cfg = config_from_dict(
        {
            "name": "l1",
            "deals": 2,
            "block_deals": 1,
            "histories": False,
            "players": [{"type": "loki1", "count": 2}, {"type": "loki1:LA"}],
        }
    )
    a = play_block(cfg, 1)
    b = play_block(cfg.to_dict(), 1)
    assert a["chips"] == b["chips"] and a["counters"] == b["counters"]
    r2 = run_tournament(cfg, workers=2)
    assert r2.chips == run_tournament(cfg, workers=1).chips


def test_block_size_is_part_of_the_fingerprint():
    assert small().fingerprint() != small(block_deals=5).fingerprint()
    assert small().fingerprint() == small(histories=False).fingerprint()


# ------------------------------------------------------------------------------------ statistics


def test_confidence_intervals_against_brute_force():
    from scipy.stats import t as student

    cfg = small(deals=25, block_deals=5)
    run = run_tournament(cfg, workers=1)
    s = summarize(cfg, run.chips, run.counters)
    n, sb, D = cfg.n_players, 10, 25

    def brute(values):
        m = sum(values) / len(values)
        var = sum((v - m) ** 2 for v in values) / (len(values) - 1)
        return m, student.ppf(0.975, len(values) - 1) * math.sqrt(var / len(values))

    for p in range(n):
        m, h = brute([run.chips[d][p] / (n * sb) for d in range(D)])
        assert s["players"][p]["sb_per_hand"] == pytest.approx(m, abs=1e-12)
        assert s["players"][p]["ci"] == pytest.approx(h, rel=1e-9)
    rnd = [sum(run.chips[d][p] for p in range(3)) / 3 / (n * sb) for d in range(D)]
    cal = [sum(run.chips[d][p] for p in range(3, 5)) / 2 / (n * sb) for d in range(D)]
    m, h = brute(rnd)
    assert s["types"][0]["type"] == "random" and s["types"][0]["sb_per_hand"] == pytest.approx(m)
    assert s["types"][0]["ci"] == pytest.approx(h)
    m, h = brute([a - b for a, b in zip(rnd, cal)])
    assert s["comparisons"][0]["sb_per_hand"] == pytest.approx(m) and s["comparisons"][0]["ci"] == pytest.approx(h)
    # style statistics of a calling station
    cal_t = s["types"][1]
    assert cal_t["pfr"] == 0 and cal_t["af"] == 0 and cal_t["wtsd"] == 1.0
    assert cal_t["hands"] == 2 * D * n
    # overall zero sum
    assert sum(p["sb_per_hand"] for p in s["players"]) == pytest.approx(0, abs=1e-12)


# ------------------------------------------------------------------------------------ presets and configs


def test_presets_ship_and_parse():
    names = list_presets()
    for p in ["quick", "fig3-B", "fig3-R", "fig3-BR", "fig3-S", "fig3-BRS", "fig4"]:
        assert p in names
        cfg = load_preset(p, check_players=False)
        assert cfg.n_players == 10
    q = load_preset("quick", check_players=False)
    assert {s.spec for s in q.seats} == {"loki1", "loki2:BR"}
    f4 = load_preset("fig4", check_players=False)
    assert [s.label for s in f4.seats].count("Loki-1 TC") == 2 and len(f4.labels) == 8
    assert load_preset("fig3-BR", check_players=False).deals == 2500


@pytest.mark.parametrize(
    "text, needle",
    [
        ('deals = 5\n[[players]]\ntype = "nosuchbot"\ncount = 3\n', "nosuchbot"),
        ('deals = 5\n[[players]]\ntype = "random"\ncount = 11\n', "11 players"),
        ('deals = -4\n[[players]]\ntype = "random"\ncount = 3\n', "deals"),
        ('deals = 5\n[[players]\ntype = "random"\n', "malformed TOML"),
        ("deals = 5\nplayers = 3\n", "no players"),
        ('deals = 5\nspeed = 3\n[[players]]\ntype = "random"\ncount = 3\n', "speed"),
        ('[[players]]\ntype = "random"\ncount = 3\n[[compare]]\nenhanced = ["x"]\ncontrol = ["random"]\n', "'x'"),
    ],
)
def test_bad_configs_give_a_one_line_error(tmp_path, text, needle):
    f = tmp_path / "bad.toml"
    f.write_text(text)
    with pytest.raises(TournamentConfigError, match=None) as e:
        load_config(f)
    assert needle in str(e.value) and "\n" not in str(e.value)
    res = CliRunner().invoke(app, ["tournament", "--config", str(f), "--out", str(tmp_path / "o")])
    assert res.exit_code != 0
    assert needle in res.output and "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)


def test_cli_bad_preset_and_negative_deals(tmp_path):
    r = CliRunner().invoke(app, ["tournament", "--preset", "fig9"])
    assert r.exit_code != 0 and "unknown preset 'fig9'" in r.output
    f = tmp_path / "ok.toml"
    f.write_text('[[players]]\ntype = "random"\ncount = 3\n')
    r = CliRunner().invoke(app, ["tournament", "--config", str(f), "--deals", "-3"])
    assert r.exit_code != 0 and "deals" in r.output and "Traceback" not in r.output


# ------------------------------------------------------------------------------------ outputs


def test_cli_writes_the_results_folder_and_pokerkit_reads_the_histories(tmp_path):
    pk = pytest.importorskip("pokerkit")
    f = tmp_path / "t.toml"
    f.write_text(
        'name = "t"\ndeals = 6\nblock_deals = 4\n[[players]]\ntype = "random"\ncount = 3\n'
        '[[players]]\ntype = "calling"\nlabel = "caller"\n[[compare]]\nenhanced = ["random"]\ncontrol = ["caller"]\n'
    )
    out = tmp_path / "res"
    r = CliRunner().invoke(app, ["tournament", "--config", str(f), "--out", str(out), "--workers", "1", "--quiet"])
    assert r.exit_code == 0, r.output
    assert "sb/hand" in r.output
    for name in ["summary.json", "run.json", "deals.csv", "sb_per_hand.png", "cumulative.png", "journal.jsonl"]:
        assert (out / name).stat().st_size > 0, name
    summary = json.loads((out / "summary.json").read_text())
    assert summary["deals"] == 6 and summary["hands"] == 24
    rows = (out / "deals.csv").read_text().splitlines()
    assert len(rows) == 7 and rows[0].startswith("deal,random #1")
    chips = [[int(x) for x in row.split(",")[1:]] for row in rows[1:]]
    # the hand histories replay in pokerkit to the same results
    files = sorted((out / "hands").glob("*.phhs"))
    assert len(files) == 2
    totals = {}
    n_hands = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for path in files:
            with open(path, "rb") as fp:
                for hh in pk.HandHistory.load_all(fp):
                    for state in hh:
                        pass
                    n_hands += 1
                    # the fields of the hand; p1 sits left of the button (our seat 0): seats 2, 3, 4, 1 (1-based)
                    d, r = hh.user_defined_fields["_deal"], hh.user_defined_fields["_replay"]
                    assert hh.hand == d * 4 + r + 1 and hh.event == "t"
                    assert hh.seats == [2, 3, 4, 1] and hh.seat_count == 4
                    for name, start, end in zip(hh.players, hh.starting_stacks, state.stacks):
                        assert end == hh.finishing_stacks[hh.players.index(name)]
                        totals[name] = totals.get(name, 0) + end - start
        # one hand as a single .phh file, through HandHistory.load
        text = (out / "hands" / "block-00000.phhs").read_text().split("\n[2]\n")[0].split("\n", 1)[1]
        single = tmp_path / "one.phh"
        single.write_text(text)
        with open(single, "rb") as fp:
            hh = pk.HandHistory.load(fp)
        assert hh.variant == "FT" and len(hh.players) == 4
    assert n_hands == 24
    hands = sorted(hh.hand for path in files for hh in pk.HandHistory.loads_all(path.read_text()))
    assert hands == list(range(1, 25))
    names = rows[0].split(",")[1:]
    for i, name in enumerate(names):
        assert totals[name] == sum(c[i] for c in chips)


# ------------------------------------------------------------------------------------ fault tolerance


def _loki_cmd(*args):
    return [sys.executable, "-c", "from loki.cli import app; app()", "tournament", *args]


def test_resume_after_sigkill_gives_the_uninterrupted_result(tmp_path):
    f = tmp_path / "long.toml"
    f.write_text(
        'name = "long"\ndeals = 600\nblock_deals = 10\nseed = 3\n'
        '[[players]]\ntype = "random"\ncount = 6\n[[players]]\ntype = "calling"\ncount = 4\nlabel = "caller"\n'
        '[[compare]]\nenhanced = ["random"]\ncontrol = ["caller"]\n'
    )
    out = tmp_path / "run"
    env = dict(os.environ, NUMBA_CACHE_DIR=os.environ.get("NUMBA_CACHE_DIR", str(Path.cwd() / ".numba_cache")))
    args = ["--config", str(f), "--out", str(out), "--workers", "1", "--quiet", "--no-plots"]
    proc = subprocess.Popen(_loki_cmd(*args), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    journal = out / "journal.jsonl"
    deadline = time.time() + 120
    while time.time() < deadline:
        if journal.exists() and len(read_journal(journal)[1]) >= 3:
            break
        if proc.poll() is not None:
            pytest.fail(f"the run finished before it could be killed: {proc.stderr.read().decode()}")
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    _, blocks = read_journal(journal)
    assert 3 <= len(blocks) < 60, len(blocks)
    # a plain restart refuses to clobber the run
    r = subprocess.run(_loki_cmd(*args), env=env, capture_output=True, text=True)
    assert r.returncode != 0 and "--resume" in r.stderr and "Traceback" not in r.stderr
    r = subprocess.run(_loki_cmd(*args, "--resume"), env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    resumed = json.loads((out / "summary.json").read_text())
    header, blocks = read_journal(journal)
    assert sorted(blocks) == list(range(60))
    assert len(journal.read_text().splitlines()) == 61  # header + every block exactly once
    cfg = load_config(f)
    run = run_tournament(cfg, workers=1)
    fresh = write_results(run, tmp_path / "fresh", plots=False)
    assert json.loads(fresh.to_json()) == resumed
    assert len(list((out / "hands").glob("*.phhs"))) == 60


def test_torn_journal_line_is_dropped_on_resume(tmp_path):
    cfg = small(deals=8, block_deals=2)
    out = tmp_path / "r"
    full = run_tournament(cfg, workers=1, out=out)
    j = out / "journal.jsonl"
    lines = j.read_text().splitlines(keepends=True)
    j.write_text("".join(lines[:3]) + lines[3][: len(lines[3]) // 2])  # 2 blocks and a torn third
    again = run_tournament(cfg, workers=1, out=out, resume=True)
    assert again.played_blocks == 2 and again.chips == full.chips
    # a finished run of the same configuration is simply reported again
    same = run_tournament(cfg, workers=1, out=out)
    assert same.played_blocks == 0 and same.chips == full.chips
    with pytest.raises(TournamentConfigError, match="already holds a run"):
        run_tournament(small(deals=8, block_deals=2, seed=9), workers=1, out=out)
    with pytest.raises(TournamentConfigError, match="different tournament"):
        run_tournament(small(deals=8, block_deals=2, seed=9), workers=1, out=out, resume=True)


# ------------------------------------------------------------------------------------ Dask


@pytest.mark.parametrize("processes", [False, True])
def test_dask_local_cluster_gives_the_same_result(processes):
    distributed = pytest.importorskip("distributed")
    cfg = small(deals=9, block_deals=2)
    ref = run_tournament(cfg, workers=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with (
            distributed.LocalCluster(
                n_workers=1, threads_per_worker=1, processes=processes, dashboard_address=None
            ) as cluster,
            distributed.Client(cluster) as client,
        ):
            run = run_tournament(cfg, executor=client.get_executor())
    assert run.chips == ref.chips and run.counters == ref.counters


def _start(cmd, env, log):
    return subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


@pytest.mark.slow
def test_cli_scheduler_runs_on_a_separate_cluster_with_a_cold_cache(tmp_path):
    """``loki tournament --scheduler`` against a Dask scheduler and worker in their own processes, the worker with
    its own, empty numba cache (as on a remote machine): the command warms the worker up (``client.run``; the
    worker then holds the spec's warm marker in its cache) and gives the same results as a local run."""
    pytest.importorskip("distributed")
    dask_cli = Path(sys.executable).with_name("dask")
    if not dask_cli.exists():
        pytest.skip(f"no dask command next to {sys.executable}")
    f = tmp_path / "t.toml"
    f.write_text(
        'name = "t"\ndeals = 4\nblock_deals = 2\nseed = 5\n[[players]]\ntype = "loki1"\ncount = 2\n'
        '[[players]]\ntype = "calling"\nlabel = "caller"\n[[compare]]\nenhanced = ["loki1"]\ncontrol = ["caller"]\n'
    )
    worker_cache = tmp_path / "worker-cache"
    worker_cache.mkdir()
    sched_file = tmp_path / "scheduler.json"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(worker_cache), PYTHONWARNINGS="ignore")
    log = open(tmp_path / "cluster.log", "w")  # noqa: SIM115 - closed in finally
    procs = []
    try:
        opts = "--host 127.0.0.1 --port 0 --no-dashboard --scheduler-file".split()
        procs.append(_start([str(dask_cli), "scheduler", *opts, str(sched_file)], env, log))
        for _ in range(300):
            if sched_file.exists() and sched_file.stat().st_size > 0:
                break
            time.sleep(0.1)
        else:
            pytest.fail("the Dask scheduler did not start: " + (tmp_path / "cluster.log").read_text()[-2000:])
        address = json.loads(sched_file.read_text())["address"]
        opts = "--nthreads 1 --nworkers 1 --no-dashboard --host 127.0.0.1 --scheduler-file".split()
        procs.append(_start([str(dask_cli), "worker", *opts, str(sched_file)], env, log))
        from distributed import Client

        with Client(address, timeout="30s") as c:
            c.wait_for_workers(1, timeout=60)
        out = tmp_path / "cluster-run"
        r = CliRunner().invoke(
            app, ["tournament", "--config", str(f), "--out", str(out), "--scheduler", address, "--quiet", "--no-plots"]
        )
        assert r.exit_code == 0, r.output
    finally:
        for p in procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
        log.close()
    ref = tmp_path / "local-run"
    r = CliRunner().invoke(app, ["tournament", "--config", str(f), "--out", str(ref), "--workers", "1", "--quiet",
                                 "--no-plots"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert (out / "deals.csv").read_text() == (ref / "deals.csv").read_text()
    run = json.loads((out / "run.json").read_text())
    assert run["scheduler"] == address and run["prepare_seconds"] >= 0
    # the worker compiled the spec into its own cache and marked it warm there
    markers = [p for p in worker_cache.rglob("*.json") if p.parent.name == "warm"]
    assert markers, sorted(str(p.relative_to(worker_cache)) for p in worker_cache.rglob("*"))[:20]


def test_seat_keyed_opponent_models_follow_their_opponent(monkeypatch):
    """Loki-1's ``models`` (keyed by seat) follow their opponent when the seating changes (``reseat``)."""
    import loki.players.table
    from loki.players import registry
    from loki.players.loki import LokiPlayer, build_loki1

    current = {}
    seen = []

    class Tracker(LokiPlayer):
        def __init__(self, seed, name):
            p = build_loki1(seed=seed)
            super().__init__(p.preflop, p.postflop, p.modeler, name=name)
            self.about = {}  # id(model) -> the opponent it was made for

        def begin_hand(self, seat, config, hole_cards, button):
            super().begin_hand(seat, config, hole_cards, button)
            # the first time a model is met, remember who sat there; later it must be the same player
            seen.append(
                all(
                    self.about.setdefault(id(m), current["table"][s]) == current["table"][s]
                    for s, m in self.models.items()
                )
            )
            assert seat not in self.models and len(self.models) == config.n_players - 1

    kind = registry.PlayerKind("tracker", lambda cfg, seed, name: Tracker(seed, name))
    registry.player_kinds()  # discover the installed kinds first
    monkeypatch.setitem(registry._KINDS, "tracker", kind)
    real = loki.players.table.play_hand

    def spy(config, players, *a, **k):
        current["table"] = [p.name for p in players]
        return real(config, players, *a, **k)

    monkeypatch.setattr(loki.players.table, "play_hand", spy)
    cfg = config_from_dict(
        {
            "name": "m",
            "deals": 3,
            "block_deals": 3,
            "histories": False,
            "players": [{"type": "tracker", "count": 4}, {"type": "calling"}, {"type": "random"}],
        }
    )
    run_tournament(cfg, workers=1)
    assert len(seen) == 4 * 3 * 6 and all(seen)


def test_reseat_is_called_with_the_seat_mapping(monkeypatch):
    """Every player gets ``reseat({old: new})`` between replays, for every seat."""
    from loki.players import registry
    from loki.players.simple import RandomPlayer

    log = []

    class Mover(RandomPlayer):
        def begin_hand(self, seat, config, hole_cards, button):
            log.append(("hand", self.name, seat))

        def reseat(self, mapping):
            log.append(("reseat", self.name, mapping))

    kind = registry.PlayerKind("mover", lambda cfg, seed, name: Mover(seed, name))
    registry.player_kinds()
    monkeypatch.setitem(registry._KINDS, "mover", kind)
    cfg = config_from_dict(
        {"name": "m", "deals": 2, "block_deals": 2, "histories": False, "players": [{"type": "mover", "count": 3}]}
    )
    run_tournament(cfg, workers=1)
    seat, expected = {}, {}
    moves = 0
    for kind, name, x in log:
        if kind == "hand":
            assert expected.pop(name, x) == x  # a reseat told this player where it would sit
            seat[name] = x
        else:
            assert sorted(x) == sorted(x.values()) == [0, 1, 2]
            expected[name] = x[seat[name]]
            moves += 1
    assert moves == 3 * (2 * 3 - 1)  # every player, at each of the 5 changes of seating in 6 hands


def test_histories_need_four_bets_a_round(tmp_path):
    cfg = config_from_dict(
        {
            "name": "b",
            "deals": 2,
            "block_deals": 1,
            "game": {"max_bets": 3},
            "players": [{"type": "random", "count": 3}],
        }
    )
    with pytest.raises(TournamentConfigError, match="max_bets = 4"):
        run_tournament(cfg, workers=1, out=tmp_path / "o")
    assert run_tournament(cfg.with_overrides(histories=False), workers=1, out=tmp_path / "p").played_blocks == 2


# ------------------------------------------------------------------------------------ corrupt journals and bad folders


def _journal_run(tmp_path):
    cfg = small(deals=8, block_deals=2, histories=False)
    out = tmp_path / "r"
    full = run_tournament(cfg, workers=1, out=out)
    return cfg, out, out / "journal.jsonl", full


def _lines(j):
    return j.read_text().splitlines(keepends=True)


def _resign(line: bytes, key: str) -> bytes:
    """A journal line with a valid checksum under ``key`` again (JSON objects only; anything else unchanged)."""
    try:
        rec = json.loads(line)
    except ValueError:
        return line
    if not isinstance(rec, dict):
        return line
    rec.pop("sum", None)
    return (signed_line(rec, key) + "\n").encode()


@pytest.mark.parametrize(
    "edit, needle",
    [
        (lambda ln: ln.replace(b'"hands":10', b'"hands":11'), "line 3: checksum mismatch: the line was edited"),
        (lambda ln: ln.replace(b"[[", b"[[ ", 1), "line 3: checksum mismatch"),
        (lambda ln: b"{" + ln[ln.index(b'",') + 2 :], "line 3: no checksum"),
    ],
)
def test_edited_journal_line_is_refused_with_its_line_number(tmp_path, edit, needle):
    cfg, out, j, _ = _journal_run(tmp_path)
    ls = j.read_bytes().splitlines(keepends=True)
    assert all(x.startswith(b'{"sum":"') for x in ls)
    ls[2] = edit(ls[2])
    j.write_bytes(b"".join(ls))
    with pytest.raises(JournalError, match=needle):
        read_journal(j)
    r = CliRunner().invoke(app, ["tournament", "--out", str(out), "--resume", "--quiet", "--no-plots"])
    assert r.exit_code == 2 and r.stderr.startswith("error: ") and needle in r.stderr


@pytest.mark.parametrize(
    "mutate, needle",
    [
        (lambda ls: [b"\x89PNG\r\n\x1a\n\x00\xff\xfe binary\n"], "line 1: not a JSON line"),
        (lambda ls: [b"\xff\xfe\x00garbage without newline"], "line 1: not a complete JSON line"),
        (lambda ls: ls[:1] + [b"\xff\xfe\x00\n"] + ls[1:], "line 2: not a JSON line"),
        (lambda ls: ls[:2] + [b"[1,2]\n"] + ls[2:], "line 3: expected a JSON object, got list"),
        (lambda ls: ls[:1] + [b'{"kind":"block"}\n'] + ls[1:], "line 2: block record without 'block'"),
        (lambda ls: ls[:1] + [ls[1].replace(b'"hands"', b'"hans"')] + ls[2:], "line 2: block record without 'hands'"),
        (
            lambda ls: ls[:1] + [ls[1].replace(b'"block":0', b'"block":"0"')] + ls[2:],
            "line 2: 'block' must be an integer",
        ),
        (
            lambda ls: ls[:1] + [ls[1].replace(b'"block":0', b'"block":7')] + ls[2:],
            "line 2: 'block' = 7 must be in [0, 3]",
        ),
        (lambda ls: ls[:2] + [ls[1]] + ls[2:], "line 3: block 0 appears twice"),
        (lambda ls: ls[:2] + [b"this is not json\n"] + ls[2:], "line 3: not a JSON line"),
        (lambda ls: ls[1:], "line 1: expected the header"),
        (
            lambda ls: ls[:1] + [ls[1].replace(b'"chips":[[', b'"chips":[[1,')] + ls[2:],
            "line 2: 'chips' must be 2 deals x 5 players",
        ),
        (lambda ls: ls + [ls[0]], "line 6: expected a block record"),
    ],
)
def test_corrupt_journal_is_a_one_line_error_and_left_untouched(tmp_path, mutate, needle):
    cfg, out, j, _ = _journal_run(tmp_path)
    # the structural checks behind the checksums: mutated JSON objects are signed again
    key = journal_key(out)
    bad = b"".join(_resign(x, key) for x in mutate(j.read_bytes().splitlines(keepends=True)))
    j.write_bytes(bad)
    with pytest.raises(TournamentConfigError, match="journal") as ei:
        read_journal(j)
    msg = str(ei.value)
    assert needle in msg and str(j) in msg and "\n" not in msg
    with pytest.raises(TournamentConfigError, match=needle.replace("[", r"\[").replace("]", r"\]")):
        run_tournament(cfg, workers=1, out=out, resume=True)
    assert j.read_bytes() == bad  # never rewritten
    r = CliRunner().invoke(app, ["tournament", "--out", str(out), "--resume", "--quiet", "--no-plots"])
    assert r.exit_code == 2 and "error:" in r.output and "line" in r.output and "Traceback" not in r.output
    assert j.read_bytes() == bad
    # --overwrite discards it
    assert run_tournament(cfg, workers=1, out=out, overwrite=True).played_blocks == cfg.n_blocks


def test_only_the_last_line_may_be_torn(tmp_path):
    cfg, out, j, full = _journal_run(tmp_path)
    ls = _lines(j)
    # a torn last line ending in a newline byte (zero-filled tail) is dropped too
    j.write_text("".join(ls[:3]) + "\x00\x00\x00\n")
    header, blocks = read_journal(j)
    assert header["kind"] == "header" and sorted(blocks) == [0, 1]
    again = run_tournament(cfg, workers=1, out=out, resume=True)
    assert again.played_blocks == 2 and again.chips == full.chips
    # the same garbage in the middle is an error
    ls = _lines(j)
    j.write_text("".join(ls[:3]) + "\x00\x00\x00\n" + "".join(ls[3:]))
    with pytest.raises(TournamentConfigError, match="line 4"):
        read_journal(j)
    # an empty journal is no run
    j.write_text("")
    assert read_journal(j) == (None, {})


def test_results_folder_that_is_a_file_or_cannot_be_made(tmp_path):
    cfg = small(deals=4, block_deals=2)
    f = tmp_path / "afile"
    f.write_text("x")
    with pytest.raises(TournamentConfigError, match="existing file"):
        run_tournament(cfg, workers=1, out=f)
    assert f.read_text() == "x"
    for target, needle in [
        (f, "a file is there: expected a results folder"),
        (f / "sub", "cannot create the folder"),
        (Path("/proc/loki-x"), "cannot create the folder"),
    ]:
        r = CliRunner().invoke(app, ["tournament", "--deals", "2", "--out", str(target), "--quiet", "--no-plots"])
        assert r.exit_code == 2, r.output
        assert needle in r.output and str(target) in r.output and "Traceback" not in r.output


def test_statistics_reject_bad_input_with_clear_errors():
    from loki.stats import mean_ci, t_quantile
    from loki.tournament.stats import per_deal_sb

    assert per_deal_sb([], 3, 10).shape == (0, 3)
    for args, needle in [
        (([[1, 2]], 3, 10), "rows of 3"),
        (([[1, 2], [3]], 2, 10), "rows of 2"),
        (([[1, 2]], 2, 0), "small_bet > 0"),
    ]:
        with pytest.raises(ValueError, match=needle):
            per_deal_sb(*args)
    with pytest.raises(ValueError, match="level"):
        mean_ci([1.0, 2.0], level=95)
    with pytest.raises(ValueError, match="df"):
        t_quantile(0.975, 0)
    with pytest.raises(ValueError, match="p="):
        t_quantile(1.5, 3)


def test_t_quantile_is_scipy_stats_float_for_float_without_importing_scipy_stats():
    """t_quantile gives scipy.stats.t.ppf's (and norm.ppf's) floats exactly, and playing a tournament's statistics
    does not import scipy.stats (its import alone adds ~50 MB to a process's peak memory)."""
    import subprocess
    import sys

    from scipy.stats import norm, t

    from loki.stats import t_quantile

    for df in (1, 2, 3, 9, 29, 99, 2499, 24_999, 10**6, 10**6 + 1, 10**8):
        for p in (0.975, 0.95, 0.995, 0.6, 0.025):
            want = float(norm.ppf(p)) if df > 10**6 else float(t.ppf(p, df))
            assert t_quantile(p, df) == want, (p, df)
    code = "import sys\nfrom loki.stats import mean_ci\nmean_ci([1.0, 2.0, 4.0])\nprint('scipy.stats' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_overwrite_discards_the_earlier_runs_outputs_and_nothing_else(tmp_path):
    """``--overwrite`` over a run of AIVAT, plots and histories, with a run of none of them: nothing of the first is
    left to be read as the second's (it left deals-aivat.csv, both plots and the first run's hand histories), and a
    file of the folder that no run writes stays."""
    out = tmp_path / "run"
    first = small(deals=4, block_deals=2, histories=True, estimator="aivat")
    write_results(run_tournament(first, workers=1, out=out), out)
    assert {"deals-aivat.csv", "sb_per_hand.png", "cumulative.png"} <= {p.name for p in out.iterdir()}
    assert sorted(p.name for p in (out / "hands").iterdir()) == ["block-00000.phhs", "block-00001.phhs"]
    (out / "notes.txt").write_text("mine")
    (out / "hands" / "mine.phhs").write_text("mine")
    second = small(deals=2, block_deals=2, histories=False)
    write_results(run_tournament(second, workers=1, out=out, overwrite=True), out, plots=False)
    left = {p.name for p in out.iterdir()}
    assert not left & {"deals-aivat.csv", "sb_per_hand.png", "cumulative.png"}, left
    assert {"summary.json", "deals.csv", "run.json", "journal.jsonl", "notes.txt"} <= left
    assert [p.name for p in (out / "hands").iterdir()] == ["mine.phhs"]
    assert json.loads((out / "summary.json").read_text())["deals"] == 2
