"""What a part of a table costs, measured by making it free: the ceiling of any speed-up of that part.

A block of a tournament is played once as it is (``full``) with a recording of what two parts returned: the actions
of the seats whose player spec starts with ``--kind`` (default ``loki1``) and the results of every Simulator decision
(:func:`loki.simulator.driver.simulate` as :mod:`loki.simulator.policy` calls it).  The same block is then played
again with those parts replayed from the recording:

- ``free-seats``: those seats act by the recording and do nothing else (no observing, no models, no deciding);
- ``free-simulator``: every Simulator decision returns its recorded result (no kernel, no set-up around it; the
  policy still builds its spot);
- ``both``.

A mode with nothing to free at the table (no seat of ``--kind``, no Simulator decision) is left out.

Every run must play the same games as the recording (the chips and counters of every deal; the script stops
otherwise), so the difference in CPU is what the part costs at that table, all of it: an upper bound for any
rewrite of it that keeps the play.  Each round runs every mode once, each in a fresh process (``PYTHONPATH=<tree>/src``)
timing one block with ``time.process_time`` after a 2-deal warm-up in the same process (start-up is not in the
figures; a whole process adds it)::

    NUMBA_CACHE_DIR=... python benchmarks/ceilings.py --tree . --config benchmarks/tables/fig3-BRS-BRS3.toml \\
        --deals 200 --rounds 4

Prints, per mode, the block's CPU seconds (min / median of the rounds), what the freed part cost (the full block's
median less the mode's) and ``full ÷ mode`` by median: how much faster the block would run with the part at no cost.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from _trees import child_json

from loki.players.base import Player

MODES = ("full", "free-seats", "free-simulator", "both")

#: The child: this script's :func:`child` with the tree's loki on the path, and one OpenBLAS thread as every ``loki``
#: command has (:mod:`loki.cli`; set before numpy is imported), so the block runs as the command line runs it.
_CHILD = (
    "import os, sys\nos.environ.setdefault('OPENBLAS_NUM_THREADS', '1')\nsys.path.insert(0, {dir!r})\n"
    "import ceilings\nceilings.child(*sys.argv[1:])\n"
)


class _Recorded:
    """A seat's player whose actions are recorded in ``log``."""

    def __init__(self, player, log: list):
        self._player, self._log = player, log

    def __getattr__(self, name: str):
        return getattr(self._player, name)

    def act(self, view, legal):
        a = self._player.act(view, legal)
        self._log.append(a)
        return a


class _Replayed(Player):
    """A seat that plays the actions of ``log`` in order and does nothing else (the base player's hooks)."""

    def __init__(self, log: list, name: str):
        self.log, self.next, self.name = log, 0, name

    def act(self, view, legal):
        if self.next >= len(self.log):
            raise SystemExit(f"{self.name}: the replay ran out of recorded actions (not the same games)")
        a = self.log[self.next]
        self.next += 1
        return a


def _record(kind: str, seats: dict[str, list], sims: list) -> None:
    """Record the actions of the seats of ``kind`` into ``seats`` (by name) and every Simulator result into ``sims``."""
    import loki.players.registry as registry
    import loki.simulator.policy as policy

    make, simulate = registry.make_player, policy.simulate

    def make_recorded(spec, seed, name, oracles=False):
        p = make(spec, seed=seed, name=name, oracles=oracles)
        if not str(spec).startswith(kind):
            return p
        seats[name] = []
        return _Recorded(p, seats[name])

    def simulate_recorded(spot, sim_config, seed=0, return_samples=False):
        r = simulate(spot, sim_config, seed=seed, return_samples=return_samples)
        sims.append(r)
        return r

    registry.make_player, policy.simulate = make_recorded, simulate_recorded  # type: ignore[assignment]


def _replay(mode: str, kind: str, seats: dict[str, list], sims: list) -> list[_Replayed]:
    """Replay what ``mode`` makes free from the recording; returns the replayed seats (made as the block starts)."""
    import loki.players.registry as registry
    import loki.simulator.policy as policy

    make = registry.make_player
    replayed: list[_Replayed] = []

    def make_replayed(spec, seed, name, oracles=False):
        if not str(spec).startswith(kind):
            return make(spec, seed=seed, name=name, oracles=oracles)
        replayed.append(_Replayed(seats[name], name))
        return replayed[-1]

    results = iter(sims)

    def simulate_replayed(spot, sim_config, seed=0, return_samples=False):
        r = next(results, None)
        if r is None:
            raise SystemExit("the Simulator's replay ran out of recorded results (not the same games)")
        return r

    if mode in ("free-seats", "both"):
        registry.make_player = make_replayed  # type: ignore[assignment]
    if mode in ("free-simulator", "both"):
        policy.simulate = simulate_replayed  # type: ignore[assignment]
    return replayed


def child(mode: str, recording: str, config: str, deals: str, kind: str) -> None:
    """One block of ``config`` (a tournament TOML file) played in ``mode`` (:data:`MODES`, or ``record``: the full
    block, writing ``recording``); prints ``{"mode", "cpu", "digest", "seats", "simulations"}`` as JSON.

    Raises:
        SystemExit: a replay ran out of its recording, or left some of it unplayed (not the same games).
    """
    import hashlib
    import json
    import pickle
    import time

    from loki.tournament import play_block
    from loki.tournament.config import load_config

    n = int(deals)
    cfg = load_config(config).with_overrides(deals=n, block_deals=n, histories=False)
    play_block(cfg.with_overrides(deals=2, block_deals=2), 0)  # warm-up: imports, kernels, tables
    seats: dict[str, list] = {}
    sims: list = []
    replayed: list[_Replayed] = []
    if mode == "record":
        _record(kind, seats, sims)
    else:
        with open(recording, "rb") as f:  # written by this script's own record run, in its temporary folder
            seats, sims = pickle.load(f)
        replayed = _replay(mode, kind, seats, sims)
    c = time.process_time()
    out = play_block(cfg, 0)
    cpu = time.process_time() - c
    for r in replayed:
        if r.next != len(r.log):
            raise SystemExit(f"{r.name}: {len(r.log) - r.next} recorded actions left unplayed (not the same games)")
    digest = hashlib.sha256(json.dumps([out["chips"], out["counters"]]).encode()).hexdigest()[:16]
    if mode == "record":
        with open(recording, "wb") as f:
            pickle.dump((seats, sims), f)
    print(json.dumps({"mode": mode, "cpu": cpu, "digest": digest, "seats": len(seats), "simulations": len(sims)}))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tree", type=Path, default=Path("."), help="the source tree (its src/ goes on PYTHONPATH)")
    ap.add_argument("--config", required=True, help="a tournament TOML file (benchmarks/tables/...)")
    ap.add_argument("--deals", type=int, default=200, help="deals of the timed block (one block)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of every mode, alternating")
    ap.add_argument("--kind", default="loki1", help="the seats made free: those whose player spec starts with this")
    a = ap.parse_args(argv)
    if a.deals < 1 or a.rounds < 1:
        ap.error("--deals and --rounds must be at least 1")
    tree = a.tree.resolve()
    config = str(Path(a.config).resolve())
    code = _CHILD.format(dir=str(Path(__file__).resolve().parent))
    with tempfile.TemporaryDirectory() as tmp:
        recording = str(Path(tmp) / "recording.pickle")
        rec = child_json(tree, code, "record", recording, config, a.deals, a.kind)
        print(f"recorded: {rec['seats']} seats of kind {a.kind!r}, {rec['simulations']} Simulator decisions")
        seats, sims = rec["seats"] > 0, rec["simulations"] > 0
        if not (seats or sims):
            raise SystemExit(
                f"nothing to free: no seat's player spec starts with {a.kind!r}, and no Simulator decision"
            )
        modes = [m for m, ok in zip(MODES, (True, seats, sims, seats and sims)) if ok]
        cpu: dict[str, list[float]] = {m: [] for m in modes}
        for r in range(a.rounds):
            for m in modes:
                res = child_json(tree, code, m, recording, config, a.deals, a.kind)
                if res["digest"] != rec["digest"]:
                    raise SystemExit(f"round {r + 1}, {m}: other games than the recording's (digest {res['digest']})")
                cpu[m].append(res["cpu"])
            print(f"round {r + 1}: " + ", ".join(f"{m} {cpu[m][-1]:.2f} s" for m in modes), flush=True)
    full = statistics.median(cpu["full"])
    print("\n| mode | block CPU s, min / median | the freed part's cost (s, % of full) | full ÷ mode |")
    print("|---|---:|---:|---:|")
    for m in modes:
        med = statistics.median(cpu[m])
        cost = full - med
        print(f"| {m} | {min(cpu[m]):.2f} / {med:.2f} | {cost:.2f} ({100 * cost / full:.0f} %) | {full / med:.2f}× |")


if __name__ == "__main__":
    main()
