"""Replay a tournament's Simulator decisions: CPU per decision by street, and a digest of their results.

``capture`` plays ``--deals`` deals of a preset (one block, as the runner does) and pickles every Simulator decision
(the :class:`~loki.simulator.SimSpot`, its :class:`~loki.simulator.SimConfig` and seed) in the order it was made;
``replay`` re-simulates them once, in that order (so the board cache sees what it sees in the tournament), after one
untimed warm-up decision, and prints process CPU per decision and per trial for flop, turn and river decisions and a
digest of every result (EVs bit for bit, trials, action).  Run ``replay`` with ``PYTHONPATH=<tree>/src`` on two
trees, alternating, to compare them on the same decisions::

    PYTHONPATH=<base>/src python benchmarks/sim_replay.py capture --preset fig3-BRS --deals 40 --out brs40.pkl
    for r in 1 2 3; do for t in <base> .; do PYTHONPATH=$t/src python benchmarks/sim_replay.py replay brs40.pkl; done; done
"""

from __future__ import annotations

import argparse
import hashlib
import os
import pickle
import time

# one OpenBLAS thread, as every ``loki`` command has (loki.cli), set before numpy is imported: the decisions replay as
# the command line plays them
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def capture(preset: str, deals: int, out: str) -> None:
    import loki.simulator.policy as pol
    from loki.tournament import load_preset, play_block

    cfg = load_preset(preset).with_overrides(deals=deals, histories=False, block_deals=deals)
    rec = []
    orig = pol.simulate

    def wrapped(spot, config, seed=0, return_samples=False):
        rec.append((spot, config, seed))
        return orig(spot, config, seed=seed, return_samples=return_samples)

    pol.simulate = wrapped  # type: ignore[assignment]
    play_block(cfg, 0)
    with open(out, "wb") as f:
        pickle.dump(rec, f)
    print(
        len(rec), "decisions; flop, turn, river:", [sum(1 for s, _, _ in rec if len(s.board) == k) for k in (3, 4, 5)]
    )


def timed_replay(path: str, boards_first: bool = False):
    """Re-simulate the decisions of capture ``path`` once, in order, after one untimed warm-up decision (and, with
    ``boards_first``, every board's uniform values computed untimed first, as a tournament's re-weighting has them).

    Returns:
        ``(cpu, decisions, trials, results)``: process CPU seconds, decisions and trials played by board size (3, 4,
        5 cards), and every decision's :class:`~loki.simulator.SimResult` in order.
    """
    import loki.simulator.driver as drv
    from loki.triples.generator import board_values

    with open(path, "rb") as f:
        rec = pickle.load(f)
    if boards_first:
        for board in {tuple(s.board) for s, _, _ in rec}:
            board_values(board)
    s, c, sd = rec[-1]
    drv.simulate(s, c.model_copy(update={"trials": 25}), seed=sd)  # warm-up: kernels loaded
    acc = {3: 0.0, 4: 0.0, 5: 0.0}
    cnt = {3: 0, 4: 0, 5: 0}
    trials = {3: 0, 4: 0, 5: 0}
    res = []
    for s, c, sd in rec:
        t = time.process_time()
        r = drv.simulate(s, c, seed=sd)
        k = len(s.board)
        acc[k] += time.process_time() - t
        cnt[k] += 1
        trials[k] += r.trials
        res.append(r)
    return acc, cnt, trials, res


def replay(path: str) -> None:
    """Print CPU per decision and per trial by street, and a digest of every result, of one replay of ``path``."""
    acc, cnt, trials, res = timed_replay(path)
    dig = hashlib.sha1(
        repr([(r.ev_call.hex(), r.ev_raise.hex(), r.trials, str(r.action)) for r in res]).encode()
    ).hexdigest()[:12]
    streets = {3: "flop", 4: "turn", 5: "river"}
    print(
        " ".join(
            f"{streets[k]} {1e3 * acc[k] / max(cnt[k], 1):.2f} ms/decision {1e6 * acc[k] / max(trials[k], 1):.2f} us/trial"
            for k in acc
        ),
        f"total {sum(acc.values()):.2f} s CPU, digest {dig}",
    )


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("capture")
    c.add_argument("--preset", default="fig3-BRS")
    c.add_argument("--deals", type=int, default=40)
    c.add_argument("--out", required=True)
    r = sub.add_parser("replay")
    r.add_argument("path")
    a = ap.parse_args(argv)
    if a.cmd == "capture":
        capture(a.preset, a.deals, a.out)
    else:
        replay(a.path)


if __name__ == "__main__":
    main()
