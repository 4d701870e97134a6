"""Playing a duplicate tournament: blocks of deals, workers, the journal, resuming.

**Determinism.**  The deals are cut into fixed blocks of ``block_deals`` deals.  A block is played
by freshly built players seeded from ``(seed, block, player)`` (:func:`play_block`, a pure function
of the configuration and the block index); the cards of a deal depend on ``(seed, deal)`` only.
Workers take whole blocks, and the results are merged in block order, so the same seed and
configuration give the same result whatever the number of workers, the executor (local processes,
a Dask cluster, or in-process) or the interruptions.

**Sessions.**  Within a block the same player objects play every hand in sequence, as in a real
session: opponent models (action frequencies) carry over from hand to hand and from replay to
replay.  Between replays the players change seats (:func:`loki.tournament.schedule.seatings`);
every player is told who went where by ``player.reseat({old_seat: new_seat})``
(:meth:`loki.players.base.Player.reseat`), so that a model of an opponent kept by seat follows
that opponent.  Nothing else is reset between replays (per-hand state is reset by ``begin_hand``
anyway).  No player can see that a deal repeats: it knows only its own cards and what was shown,
and keeps no record of past cards beyond its model.
At a block boundary the players are rebuilt from scratch, which is what makes blocks independent
(and parallel); a longer ``block_deals`` gives longer sessions.

**Hand histories.**  With ``histories`` on, every hand is written in PHH by
:func:`loki.io.phh.hand_text` (pokerkit's text, built from the engine's records) with the fields ``hand`` (``deal * n + replay + 1``),
``event`` (the tournament's name), ``players``, ``seats`` and the user-defined ``_deal`` and
``_replay``; a block's hands go to ``hands/block-NNNNN.phhs``.  PHH needs ``max_bets = 4``.

**Journal** (:mod:`loki.tournament.journal`).  Every finished block is appended to ``journal.jsonl`` in the results folder as one
JSON line, flushed and fsynced (its hand histories are written first, atomically).  Each line
carries a keyed checksum of the rest of the line (``{"sum":"<32 hex digits of HMAC-SHA-256>",...}``,
:func:`signed_line`, the key drawn for the run and kept in the folder's ``run.json``): a line edited by hand,
damaged or forged with a recomputed checksum is refused on resume with its line number.  On resume the
journal is read back (a torn last line is dropped), finished blocks are skipped, and the rest are
played; the final result is computed from the journal in block order, so a run killed at any moment
and resumed gives exactly the result of an uninterrupted run.

**Limits.**  The configuration's counts are capped (:mod:`loki.tournament.config`), the blocks to play are
walked lazily (never listed), at most ``2 x workers`` blocks are in flight, and ``workers`` is at most
:data:`MAX_WORKERS`.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from loki.errors import JournalError, OutputPathError, TournamentConfigError
from loki.io.files import atomic_write_text
from loki.io.outpath import make_folder, not_a_file
from loki.io.phh import hand_text, phhs_text
from loki.tournament.config import TournamentConfig, config_from_dict
from loki.tournament.handstats import COUNTERS, HandCounts, hand_counts
from loki.tournament.journal import (
    JOURNAL,
    KEY_FIELD,
    RESULT_FILES,
    RUN_INFO,
    JournalWriter,
    journal_key,
    new_journal_key,
    read_journal,
    signed_line,
    write_journal_key,
)
from loki.tournament.schedule import BUTTON, Seating, block_deals, deal_cards, player_seed, seatings

__all__ = [
    "COUNTERS",
    "play_block",
    "run_tournament",
    "read_journal",
    "signed_line",
    "local_executor",
    "cut_lifeline",
    "owned_pool",
    "TournamentRun",
    "ResumeError",
    "JournalError",
    "MAX_WORKERS",
]

#: Local worker processes at most (``--workers``); a pool never has more workers than blocks to play.
MAX_WORKERS = 256
#: The module a local pool's forkserver imports before forking its workers (:mod:`loki.tournament.worker_start`).
WORKER_START = "loki.tournament.worker_start"
#: The environment variable in which this process gives the server of its pool its ``sys.path`` and the variables to
#: put back there (JSON; :func:`_start_server`, read by :mod:`loki.tournament.worker_start`).
POOL_SYS_PATH = "LOKI_POOL_SYS_PATH"
#: A block's hand histories in the results folder's ``hands`` folder (``HISTORY.format(block)``), and the names it
#: gives (what ``--overwrite`` discards of an earlier run).
HISTORY = "block-{:05d}.phhs"
_HISTORY_NAME = re.compile(r"block-\d{5}\.phhs")


class ResumeError(TournamentConfigError):
    """The results folder holds another run (or a run that needs ``--resume``)."""


def check_histories(cfg: TournamentConfig, histories: bool | None = None) -> None:
    """Refuse hand histories for a game PHH cannot hold (pokerkit's fixed-limit rules cap a round at 4 bets).

    Args:
        histories: whether histories are written (None: ``cfg.histories``).

    Raises:
        TournamentConfigError: histories on and ``max_bets`` other than 4.
    """
    if not (cfg.histories if histories is None else histories):
        return
    mb = cfg.game_config().max_bets
    if mb != 4:
        raise TournamentConfigError(
            f"hand histories (PHH, pokerkit's fixed-limit rules) need max_bets = 4, "
            f"this game has {mb}: turn them off (histories = false, --no-histories)"
        )


def play_block(config: dict | TournamentConfig, block: int, with_histories: bool | None = None) -> dict:
    """Play block ``block`` of a tournament with fresh players; a pure function of its arguments.

    Returns a JSON-able dict: ``block``, ``deals`` (first, end), ``chips`` (per deal, per player:
    net chips over the deal's replays), ``counters`` (per player, :data:`COUNTERS`), ``hands``,
    ``seconds``, if histories are on ``phh`` (the block's hands as a ``.phhs`` text) and, with the
    ``aivat`` estimator, ``aivat``: ``{"chance": ..., "action": ..., "seconds": ..., "block_cpu": ...}``,
    the AIVAT corrections (:mod:`loki.aivat`) per deal per player like ``chips`` (float chips, summed over
    the deal's replays), the CPU seconds spent computing them and the CPU seconds of the whole block
    (``time.process_time``: the estimator's overhead measured in the same run).
    """
    import time

    from loki.players.registry import make_player
    from loki.players.table import play_hand, share_opponent_models

    t0 = time.perf_counter()
    cpu0 = time.process_time()
    cfg = config if isinstance(config, TournamentConfig) else config_from_dict(config, check_players=False)
    hist = cfg.histories if with_histories is None else with_histories
    check_histories(cfg, hist)
    game = cfg.game_config()
    n = cfg.n_players
    seats_info = cfg.seats
    players = [
        make_player(si.player, seed=player_seed(cfg.seed, block, si.index), name=si.name, oracles=True)
        for si in seats_info
    ]
    share_opponent_models(players)  # the same play: models equal by construction are kept once
    square = seatings(n)
    counters = [HandCounts() for _ in range(n)]
    chips = []
    phh = []
    seating = Seating(players)
    deals = block_deals(block, cfg.deals, cfg.block_deals)
    est = None
    if cfg.estimator != "plain":
        from loki.aivat import named_estimator

        est = named_estimator(cfg.estimator)
        corr_chance: list[list[float]] = []
        corr_action: list[list[float]] = []
        est_cpu = 0.0
    for d in deals:
        holes, board = deal_cards(cfg.seed, d, n)
        deal_chips = [0] * n
        deal_chance = [0.0] * n
        deal_action = [0.0] * n
        for r, row in enumerate(square):
            table = seating.seat(row)
            if est is None:
                st = play_hand(game, table, BUTTON, None, hole_cards=holes, board=board, oracles=True)
            else:
                st = play_hand(
                    game, table, BUTTON, None, hole_cards=holes, board=board, on_action=est.start_hand(), oracles=True
                )
                c0 = time.process_time()
                corr = est.corrections(st)
                est_cpu += time.process_time() - c0
                for s, p in enumerate(row):
                    deal_chance[p] += float(corr.chance[s])
                    deal_action[p] += float(corr.action[s])
            pay = st.payoffs
            for s, p in enumerate(row):
                deal_chips[p] += pay[s]
            counts = hand_counts(st)
            for s, p in enumerate(row):
                counters[p] += counts[s]
            if hist:
                phh.append(
                    hand_text(
                        st,
                        [seats_info[p].name for p in row],
                        d * n + r + 1,
                        {"event": cfg.name, "_deal": d, "_replay": r},
                    )
                )
        chips.append(deal_chips)
        if est is not None:
            corr_chance.append(deal_chance)
            corr_action.append(deal_action)
    out = {
        "block": block,
        "deals": [deals.start, deals.stop],
        "chips": chips,
        "counters": [c.as_dict() for c in counters],
        "hands": len(deals) * n,
        "seconds": round(time.perf_counter() - t0, 3),
    }
    quality = [_player_quality(pl) for pl in players]
    if any(q is not None for q in quality):
        out["quality"] = quality
    if est is not None:
        out["aivat"] = {
            "chance": corr_chance,
            "action": corr_action,
            "seconds": round(est_cpu, 3),
            "block_cpu": round(time.process_time() - cpu0, 3),
        }
    if hist:
        out["phh"] = phhs_text(phh)
    return out


def _player_quality(player) -> dict | None:
    """The block's model-quality tally of a player that keeps opponent models (its ``models`` store's
    :class:`~loki.modeler.ModelQuality`), or None."""
    from loki.modeler.quality import ModelQuality, QualityTally

    store = getattr(player, "models", None)
    q = getattr(store, "quality", None)
    if not isinstance(q, ModelQuality):
        return None
    tally = QualityTally.from_quality(q)
    weights_of = getattr(getattr(player, "modeler", None), "weights_of", None)
    if (
        weights_of is not None and store is not None
    ):  # an adaptive modeler: its candidates' weights for every opponent, at the block's end
        for model in store.values():
            for k, v in weights_of(model).items():
                tally.model_weights[k] = tally.model_weights.get(k, 0.0) + v
            tally.weighed += 1
    return tally.as_dict()


# ------------------------------------------------------------------------------------------ runner


@dataclass
class TournamentRun:
    """A finished tournament: the configuration and the block records in block order."""

    config: TournamentConfig
    blocks: list[dict]
    out: Path | None = None
    played_blocks: int = 0
    seconds: float = 0.0
    extra: dict = field(default_factory=dict)

    @property
    def chips(self) -> list[list]:
        """Net chips per deal (in deal order) per player."""
        return [row for b in self.blocks for row in b["chips"]]

    @property
    def corrections(self) -> tuple[list[list[float]], list[list[float]]] | None:
        """The AIVAT corrections ``(chance, action)``, each per deal (in deal order) per player like
        :attr:`chips` (chips), or None when the run used the plain estimator."""
        if self.config.estimator == "plain":
            return None
        chance = [row for b in self.blocks for row in b["aivat"]["chance"]]
        action = [row for b in self.blocks for row in b["aivat"]["action"]]
        return chance, action

    @property
    def quality(self) -> list[dict | None]:
        """Per player, the model-quality tally summed over the blocks (:class:`loki.modeler.QualityTally` dicts),
        None for players without opponent models (or journals written before the tallies existed)."""
        from loki.modeler.quality import QualityTally

        n = self.config.n_players
        tot: list[QualityTally | None] = [None] * n
        for b in self.blocks:
            qs = b.get("quality")
            if qs is None:
                continue
            for p in range(n):
                if qs[p] is not None:
                    t = QualityTally.from_dict(qs[p])
                    cur = tot[p]
                    tot[p] = t if cur is None else cur + t
        return [None if t is None else t.as_dict() for t in tot]

    @property
    def counters(self) -> list[dict]:
        n = self.config.n_players
        tot = [HandCounts() for _ in range(n)]
        for b in self.blocks:
            for p in range(n):
                tot[p] += HandCounts.from_dict(b["counters"][p])
        return [c.as_dict() for c in tot]


def _exit_with_parent(lifeline) -> None:
    """Worker initializer: end this worker as soon as the tournament process is gone (or cuts the
    lifeline): a daemon thread waits for the end of the pipe whose only writer is the parent.  First it lets
    Ctrl-C's SIGINT in, in case the pool's server still holds it back (one whose start-up module could not be
    imported, :func:`_start_server`)."""
    import signal
    import threading

    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})

    def watch() -> None:
        try:
            while True:
                lifeline.recv_bytes()
        except (EOFError, OSError):
            pass
        os._exit(1)

    threading.Thread(target=watch, name="loki-lifeline", daemon=True).start()


def _start_server(ctx) -> bool:
    """Start this process's forkserver (``ctx``'s), if it does not run yet, importing the workers' start-up
    (:mod:`loki.tournament.worker_start`), and wait until it serves; False if it cannot start or holds another copy of
    loki (the pool then spawns its workers).

    The server starts with this process's ``sys.path`` (Python 3.11's forkserver does not apply the one it is given:
    ``PYTHONPATH``, ``PYTHONSAFEPATH`` and :data:`POOL_SYS_PATH`, put back in the server) and with SIGINT blocked,
    which it lets in again once it has imported: a Ctrl-C sent to the terminal's process group meanwhile (about a
    second) leaves no traceback from it beside the tournament's one error line (this thread's mask is put back at
    once: the tournament gets the signal).  Then a process that only checks the server's ``loki``
    (:func:`same_loki_check`) is forked from it and awaited (a few milliseconds): the pool's workers are asked for only
    once the server answers at once.  A worker asked for while it still imports would wait in its queue and, were the
    tournament stopped meanwhile, be forked after its end and fail on the pool's queues, gone with it (a traceback);
    the checking process has no queue and ends quietly whenever it is forked.  A preload list other code of this
    process set is kept (this module added to it); a server it started before is used as it is."""
    import json
    import signal
    from multiprocessing import forkserver, resource_tracker

    # added to what the server imports already (by default the main module, which a worker imports too)
    preload = list(getattr(forkserver._forkserver, "_preload_modules", ["__main__"]))
    ctx.set_forkserver_preload([*preload, WORKER_START] if WORKER_START not in preload else preload)
    # the server's start starts the resource tracker first if it does not run, which unblocks SIGINT in this thread
    # after its own spawn: it is started before
    resource_tracker.ensure_running()
    # the server's environment: this sys.path first and no working folder of its own, and the values to put back
    # there (the workers inherit its environment)
    before = {k: os.environ.get(k) for k in ("PYTHONPATH", "PYTHONSAFEPATH", POOL_SYS_PATH)}
    restore = {k: before[k] for k in ("PYTHONPATH", "PYTHONSAFEPATH")}
    os.environ.update(
        {
            "PYTHONPATH": os.pathsep.join(sys.path),
            "PYTHONSAFEPATH": "1",
            POOL_SYS_PATH: json.dumps({"sys_path": sys.path, "restore": restore}),
        }
    )
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        forkserver.ensure_running()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
        for k, v in before.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    ready = ctx.Process(target=eval, args=(same_loki_check(),), name="loki-pool-ready", daemon=True)
    try:
        ready.start()
        ready.join()
    except (EOFError, OSError):  # the server died while importing
        return False
    return ready.exitcode == 0


def same_loki_check() -> str:
    """A Python expression that ends its process with exit code 0 when the ``loki`` package it holds, if any, is this
    process's, 1 otherwise: evaluated in a process forked from the pool's server, it says whether the workers would
    run this process's loki (:func:`_start_server`)."""
    import loki

    here = os.path.realpath(os.path.dirname(os.path.abspath(loki.__file__)))
    held = "__import__('sys').modules['loki'].__file__"
    return (
        "__import__('sys').exit(int('loki' in __import__('sys').modules and "
        f"__import__('os').path.realpath(__import__('os').path.dirname({held})) != {here!r}))"
    )


def local_executor(workers: int | None) -> Executor | None:
    """A process pool of ``workers`` (None or <= 1: play in this process).  Its workers hold the read
    end of a pipe whose write end only this process holds (``pool._loki_lifeline``): when this process
    dies (SIGKILL included) or :func:`cut_lifeline` closes it, they exit at once.  They are forked from this
    process's forkserver, which on Linux imports their start-up once (:mod:`loki.tournament.worker_start`) and
    serves when this returns (:func:`_start_server`)."""
    workers = workers if workers is not None else (os.cpu_count() or 1)
    if workers <= 1:
        return None
    import multiprocessing as mp

    ctx: mp.context.BaseContext
    try:
        ctx = mp.get_context("forkserver")
    except ValueError:  # pragma: no cover
        ctx = mp.get_context("spawn")
    else:  # on Linux the workers are forked from a server that imported their start-up once (elsewhere, as they come)
        if sys.platform.startswith("linux") and not _start_server(ctx):
            ctx = mp.get_context("spawn")
    r, w = ctx.Pipe(duplex=False)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_exit_with_parent, initargs=(r,))
    pool._loki_lifeline = (r, w)  # type: ignore[attr-defined]
    return pool


def cut_lifeline(pool: Executor) -> None:
    """Close the pool's lifeline: its workers end now (used on interruption, and after shutdown)."""
    for end in getattr(pool, "_loki_lifeline", ()):
        end.close()


@contextmanager
def owned_pool(pool: Executor | None) -> Iterator[Executor | None]:
    """The lifetime of a pool the caller made with :func:`local_executor` (None: nothing to manage): on an
    exception (Ctrl-C, SIGTERM, an error) its workers end at once instead of after their current tasks; at the
    end it is shut down (pending tasks cancelled) and its lifeline cut."""
    try:
        yield pool
    except BaseException:
        if pool is not None:
            cut_lifeline(pool)
        raise
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
            cut_lifeline(pool)


def _dispatch(
    ex: Executor, cfg_dict: dict, todo: Iterator[int], hist: bool, limit: int, finish: Callable[[dict], None]
) -> None:
    """Play the blocks ``todo`` on ``ex`` with at most ``limit`` in flight, handing each record to ``finish`` as
    it comes (results stream into the journal; the blocks are taken from ``todo`` only as slots free up)."""
    pending = set()
    for b in todo:
        pending.add(ex.submit(play_block, cfg_dict, b, hist))
        if len(pending) >= limit:
            break
    while pending:
        fin, pending = wait(pending, return_when=FIRST_COMPLETED)
        for f in fin:
            finish(f.result())
        for b in todo:
            pending.add(ex.submit(play_block, cfg_dict, b, hist))
            if len(pending) >= limit:
                break


def _discard_run(out: Path) -> None:
    """Remove an earlier run's outputs from ``out`` (:data:`~loki.tournament.journal.RESULT_FILES` and its hand
    histories, :data:`HISTORY`; regular files only, none of the folder's other files; the journal and ``run.json``
    are rewritten by the new run), so that nothing of it is read as the new run's.

    Raises:
        TournamentConfigError: a file cannot be removed.
    """
    hands = out / "hands"
    doomed = [out / name for name in RESULT_FILES]
    if not_a_file(hands) == "a folder":
        doomed += [p for p in hands.iterdir() if _HISTORY_NAME.fullmatch(p.name)]
    for p in doomed:
        try:
            if stat.S_ISREG(p.lstat().st_mode):  # never through a link, never a device
                p.unlink()
        except FileNotFoundError:
            pass
        except OSError as e:
            raise TournamentConfigError(f"--overwrite: cannot remove {str(p)!r}: {e.strerror or e}") from None


def _open_results(config: TournamentConfig, out: Path, resume: bool, overwrite: bool) -> tuple[str, dict[int, dict]]:
    """Check the results folder ``out`` and start (or take up) its journal: ``(key, finished blocks)``.

    A new run draws a journal key and writes it to ``run.json`` first; a resumed (or reused) run keeps its own.
    The journal is then rewritten with its header and the finished blocks (without a torn tail), atomically.

    Raises:
        ResumeError, JournalError, TournamentConfigError: as :func:`run_tournament`.
    """
    fp = config.fingerprint()
    kind = not_a_file(out)
    if kind != "a folder" and (kind is not None or out.exists()):  # a file, a symbolic link, a device...
        raise TournamentConfigError(
            f"results folder {str(out)!r} is {kind or 'an existing file'}: expected a folder (pass another --out)"
        )
    try:
        make_folder(out, "results folder")
    except OutputPathError as e:
        raise TournamentConfigError(str(e)) from None
    jpath = out / JOURNAL
    if overwrite and (jpath.exists() or (out / RUN_INFO).exists()):
        _discard_run(out)
    # a corrupt journal raises JournalError here, before anything is written
    header, blocks = (None, {}) if overwrite else read_journal(jpath)
    if jpath.exists() and not overwrite:
        complete = (
            header is not None and header.get("fingerprint") == fp and all(b in blocks for b in range(config.n_blocks))
        )
        if not resume and not complete:
            raise ResumeError(
                f"{str(out)!r} already holds a run: pass --resume to continue it or --overwrite to start again"
            )
        if header is not None and header.get("fingerprint") != fp:
            raise ResumeError(
                f"{str(out)!r} holds a different tournament (config {header.get('fingerprint')} != {fp}): "
                "use the same preset/options, another --out, or --overwrite"
            )
    key = None if header is None else journal_key(out)
    if overwrite or not jpath.exists() or header is None or key is None:
        header, blocks, key = None, {}, new_journal_key()
    done = {b: r for b, r in blocks.items() if b < config.n_blocks}
    # rewrite the journal without a possibly torn tail, atomically
    lines = [signed_line({"kind": "header", "fingerprint": fp, "config": config.to_dict()}, key)]
    lines += [signed_line(done[b], key) for b in sorted(done)]
    try:
        if header is None:
            write_journal_key(out, key)  # before the journal: no journal line without its key
        atomic_write_text(jpath, "\n".join(lines) + "\n")
    except OSError as e:
        raise TournamentConfigError(f"cannot write the results folder {str(out)!r}: {e.strerror or e}") from None
    return key, done


def _journal_writer(config: TournamentConfig, out: Path, key: str) -> JournalWriter:
    """The journal of ``out`` opened for appending (and its ``hands`` folder made when histories are on).

    Raises:
        TournamentConfigError: the folder cannot be written.
    """
    journal = None
    try:
        journal = JournalWriter(out / JOURNAL, key)
        if config.histories:
            make_folder(out / "hands", "results folder")  # a real folder: never a link to write through
    except OSError as e:
        if journal is not None:
            journal.close()
        raise TournamentConfigError(f"cannot write the results folder {str(out)!r}: {e.strerror or e}") from None
    return journal


def run_tournament(
    config: TournamentConfig,
    *,
    workers: int | None = None,
    executor: Executor | None = None,
    out: str | Path | None = None,
    resume: bool = False,
    overwrite: bool = False,
    progress: Callable[[int, int], None] | None = None,
    prepare: Callable[[], None] | None = None,
) -> TournamentRun:
    """Play (or finish) a tournament.

    Args:
        config: the tournament.
        workers: local worker processes (default: all cores); 0 or 1 plays in this process.
        executor: a ``concurrent.futures.Executor`` to use instead (e.g. a Dask
            ``Client.get_executor()``); the caller owns it.
        out: results folder for the journal and hand histories (None: nothing is written).
        resume: continue the run journaled in ``out`` (it must be the same configuration).  A
            finished run of the same configuration is reused without ``resume``.
        overwrite: discard a previous run in ``out``.
        progress: called as ``progress(hands_done, hands_total)`` after each block.
        prepare: called once, after ``out`` is checked and before the first block is dispatched (not when
            every block is done already): ``loki tournament`` compiles the players' numba kernels there
            (:func:`loki.cli.warmup.ensure_warm`), so that no block's time includes compiling.  Its wall time
            is left out of the run's ``seconds`` and kept in ``extra["prepare_seconds"]``.

    Raises:
        ResumeError: ``out`` holds another run, or a run and neither ``resume`` nor ``overwrite``.
        JournalError: ``out``'s journal is corrupt, forged or has no key (see :func:`read_journal`); it is
            left untouched.
        TournamentConfigError: ``out`` is a file, or cannot be created or written (checked before
            any block is played); ``workers`` over :data:`MAX_WORKERS`.
    """
    import time

    t0 = time.perf_counter()
    if workers is not None and not 0 <= workers <= MAX_WORKERS:
        raise TournamentConfigError(f"workers = {workers}: expected 0 to {MAX_WORKERS} (loki's cap)")
    if out is not None:
        check_histories(config)
    cfg_dict = config.to_dict()
    done: dict[int, dict] = {}
    journal: JournalWriter | None = None
    key: str | None = None
    if out is not None:
        out = Path(out)
        key, done = _open_results(config, out, resume, overwrite)
        journal = _journal_writer(config, out, key)

    total = config.hands
    hands_done = sum(r["hands"] for r in done.values())
    prep = 0.0
    if prepare is not None and len(done) < config.n_blocks:
        p0 = time.perf_counter()
        prepare()
        prep = time.perf_counter() - p0
    if progress:
        progress(hands_done, total)
    n_todo = config.n_blocks - len(done)
    todo = (b for b in range(config.n_blocks) if b not in done)  # lazily: never a list of every block
    played = 0

    def finish(rec: dict) -> None:
        nonlocal hands_done, played
        phh = rec.pop("phh", None)
        if journal is not None:
            if phh is not None and out is not None:
                atomic_write_text(out / "hands" / HISTORY.format(rec["block"]), phh)
            rec["kind"] = "block"
            journal.append(rec)
        done[rec["block"]] = rec
        hands_done += rec["hands"]
        played += 1
        if progress:
            progress(hands_done, total)

    hist = config.histories and out is not None
    try:
        own = None
        if executor is None and n_todo:
            own = local_executor(min(workers if workers is not None else (os.cpu_count() or 1), n_todo))
        ex = executor if executor is not None else own
        with owned_pool(own):  # Ctrl-C, SIGTERM, an error: its workers end now, not after their blocks
            if ex is None:
                for b in todo:
                    finish(play_block(config, b, hist))
            else:
                _dispatch(ex, cfg_dict, todo, hist, max(2, 2 * (workers or os.cpu_count() or 2)), finish)
    finally:
        if journal is not None:
            journal.close()
    ordered = [done[b] for b in range(config.n_blocks)]
    run = TournamentRun(config, ordered, out, played, time.perf_counter() - t0 - prep)
    if key is not None:
        run.extra[KEY_FIELD] = key  # run.json keeps the journal's key (write_results rewrites it)
    if prepare is not None:
        run.extra["prepare_seconds"] = round(prep, 3)  # run.json: outside "seconds" and "hands_per_second"
    return run
