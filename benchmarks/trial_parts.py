"""What the parts of a Simulator trial cost: captured decisions replayed by kernels with one part made constant.

:mod:`benchmarks.ceilings` frees whole players and keeps the games; inside the Simulator's kernel a part cannot be
removed without changing the play-outs, so this benchmark estimates instead: it copies the tree's ``src`` once per
variant (into ``$NUMBA_CACHE_DIR/trial_parts/<variant>``, where the variant's numba cache is kept too), rewrites the
play-out kernel (:mod:`loki.simulator.playout`) so that one part does nothing or returns a constant, and replays the decisions of a :mod:`benchmarks.sim_replay` capture with each
variant, in alternating rounds (each variant in its own process and numba cache, one OpenBLAS thread).  The
variants (every one but ``full`` plays other games, so their differences are estimates of a part's cost, not
ceilings of a rewrite):

- ``full``: the kernel as it is;
- ``no-trials``: no trial is dealt (what a decision costs outside its trials: the driver, the kernel's set-up and
  cut-off; the every-holding uniform values of each board are computed before the timing, as the tournament's
  re-weighting computes them anyway);
- ``no-branches``: every trial dealt (holdings, board, uniform numbers, ranks, the decision street's values), neither
  branch played out;
- ``flat-river``, ``flat-turn``: the play-out's later-street values of the uniform play-out (HS_1, PPot read from or
  computed into the board cache) replaced by constants on the river, resp. the turn.

Printed per variant and street: the median over rounds of CPU per decision (ms) and per trial (µs), and the
differences that estimate each part.  A rewrite of the kernel that no longer contains a patched line makes the
benchmark stop with the patch's name (update the patch with the kernel)::

    PYTHONPATH=src python benchmarks/sim_replay.py capture --preset fig3-BRS-BRS3 --deals 60 --out brs3-60.pkl
    NUMBA_CACHE_DIR=... python benchmarks/trial_parts.py brs3-60.pkl --rounds 5
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

KERNEL = Path("loki/simulator/playout.py")

_UNIFORM_VALUES = "                        elif not ready[p, s]:\n"


def _flat(street: int, ppot: float) -> tuple[str, str]:
    # the patch that gives the uniform play-out's players constant values on ``street`` (2 turn, 3 river): HS_1 and
    # the percentile 0.5, PPot ``ppot``, NPot 0, set where the kernel would read or compute them
    pad = " " * 28
    values = "".join(f"{pad}{v}\n" for v in ("ready[p, s] = True", "hs1[p, s] = 0.5", "q[p, s] = 0.5",
                                              f"pp[p, s] = {ppot}", "nn[p, s] = 0.0"))  # fmt: skip
    return (
        _UNIFORM_VALUES,
        f"                        elif not ready[p, s] and s == {street}:\n{values}{_UNIFORM_VALUES}",
    )


#: Per variant, the (old, new) text replacements of the kernel's source; each ``old`` must occur exactly once.
PATCHES: dict[str, list[tuple[str, str]]] = {
    "full": [],
    "no-trials": [("    for k_trial in range(n_loop):\n", "    for k_trial in range(0):\n")],
    "no-branches": [("        for br in range(n_branch):\n", "        for br in range(0):\n")],
    "flat-river": [_flat(3, 0.0)],
    "flat-turn": [_flat(2, 0.1)],
}

STREETS = {3: "flop", 4: "turn", 5: "river"}


def make_variant(src: Path, name: str, root: Path) -> Path:
    """``root/name/src``: a copy of ``src`` (a tree's ``src`` folder) with the variant's patches applied; its path.
    A file already there with the same text is left as it is, so the variant's numba cache (keyed by the sources'
    paths and times) serves the next run.

    Raises:
        SystemExit: a patch's text is not found exactly once in the kernel (the kernel was rewritten), or a path of
            the copy is there as something other than a regular file (a symlink, a device, a FIFO, a folder).
    """
    dst = root / name / "src"
    texts = {
        f.relative_to(src): f.read_bytes()
        for f in (src / "loki").rglob("*")
        if f.is_file() and "__pycache__" not in f.parts
    }
    text = texts[KERNEL].decode()
    for old, new in PATCHES[name]:
        if text.count(old) != 1:
            raise SystemExit(f"trial_parts: patch {name!r} expects {old.strip()!r} once in {KERNEL}; update the patch")
        text = text.replace(old, new)
    texts[KERNEL] = text.encode()
    for rel, data in texts.items():
        out = dst / rel
        if out.is_symlink() or (out.exists() and not out.is_file()):
            raise SystemExit(f"trial_parts: {out} is not a regular file; remove it or choose another NUMBA_CACHE_DIR")
        if not out.is_file() or out.read_bytes() != data:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(data)
    return dst


def replay(path: str) -> None:
    """Replay a capture in this process (the variant's ``loki`` first on ``sys.path``; every board's uniform values
    computed before the timing) and print one line per street: ``street decisions trials cpu_seconds``."""
    from sim_replay import timed_replay

    acc, cnt, trials, _ = timed_replay(path, boards_first=True)
    for k in acc:
        print(k, cnt[k], trials[k], acc[k])


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("capture", help="a benchmarks/sim_replay.py capture")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--tree", default=".", help="the source tree whose kernel is measured")
    ap.add_argument("--variants", default=",".join(PATCHES))
    ap.add_argument("--_replay", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a._replay:
        replay(a.capture)
        return
    names = a.variants.split(",")
    unknown = [n for n in names if n not in PATCHES]
    if unknown:
        ap.error(f"--variants takes names among {', '.join(PATCHES)}; unknown: {', '.join(unknown)}")
    if not Path(a.capture).is_file():
        ap.error(f"capture {a.capture!r} is not a file (make one with benchmarks/sim_replay.py capture)")
    if a.rounds < 1:
        ap.error(f"--rounds must be at least 1, got {a.rounds}")
    root = Path(os.environ.get("NUMBA_CACHE_DIR", tempfile.gettempdir())) / "trial_parts"
    trees = {n: make_variant(Path(a.tree).resolve() / "src", n, root) for n in names}
    runs: dict[str, list[dict[int, tuple[int, int, float]]]] = {n: [] for n in names}

    def run(n: str) -> dict[int, tuple[int, int, float]]:
        env = dict(os.environ, PYTHONPATH=str(trees[n]), NUMBA_CACHE_DIR=str(root / n / "numba"))
        out = subprocess.run(
            [sys.executable, __file__, a.capture, "--_replay"], env=env, check=True, capture_output=True, text=True
        ).stdout
        rows = [re.split(r"\s+", line.strip()) for line in out.strip().splitlines()[-3:]]
        return {int(r[0]): (int(r[1]), int(r[2]), float(r[3])) for r in rows}

    for n in names:  # compile or load each variant's kernels once
        run(n)
    for _ in range(a.rounds):
        for n in names:
            runs[n].append(run(n))
    print(f"{a.capture}: median of {a.rounds} rounds, CPU per decision (ms) / per trial played (us)")
    med = {}
    for n in names:
        cells = []
        for k, street in STREETS.items():
            dec, tri = runs[n][0][k][:2]
            sec = statistics.median(r[k][2] for r in runs[n])
            med[n, k] = (sec, dec, tri)
            cells.append(f"{street} {1e3 * sec / max(dec, 1):.2f} / {1e6 * sec / max(tri, 1):.2f}")
        total = statistics.median(sum(r[k][2] for k in STREETS) for r in runs[n])
        print(f"{n:12s} " + "  ".join(cells) + f"  total {total:.2f} s")
    if "full" in names:
        print("full minus variant, per trial of the full kernel (us):")
        for n in names:
            if n == "full":
                continue
            cells = [
                f"{street} {1e6 * (med['full', k][0] - med[n, k][0]) / max(med['full', k][2], 1):.2f}"
                for k, street in STREETS.items()
            ]
            print(f"{n:12s} " + "  ".join(cells))


if __name__ == "__main__":
    main()
