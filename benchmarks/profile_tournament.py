"""Profile of a preset's tournament block: the top functions by self time (cProfile), for BENCHMARKS.md.

Plays one warm-up deal (kernels loaded, tables built), then ``--deals`` deals of the preset as one block under
:mod:`cProfile`, and prints the ``--top`` functions by self time (``tottime``) with their share of the block's
profiled time; numba kernels appear as single functions (their time is self time).  Run it on two source trees
with ``PYTHONPATH=<tree>/src`` to compare before and after::

    NUMBA_CACHE_DIR=.numba_cache PYTHONPATH=src python benchmarks/profile_tournament.py --preset fig3-BR --deals 60

cProfile adds a cost per Python call, so Python-heavy code looks heavier than it is; compare shares, and CPU
figures from ``ab_tournament.py``.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import re

from loki.tournament import load_preset, play_block


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="fig3-BR")
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--histories", action="store_true")
    a = ap.parse_args(argv)
    cfg = load_preset(a.preset).with_overrides(deals=a.deals, histories=a.histories, block_deals=a.deals)
    play_block(cfg.with_overrides(deals=1, block_deals=1), 0)
    prof = cProfile.Profile()
    prof.enable()
    play_block(cfg, 0)
    prof.disable()
    st = pstats.Stats(prof)
    total = st.total_tt  # type: ignore[attr-defined]
    rows = sorted(st.stats.items(), key=lambda kv: -kv[1][2])[: a.top]  # type: ignore[attr-defined]
    print(f"{a.preset}, {a.deals} deals: {total:.2f} s profiled")
    print("| self % | calls | function |")
    print("|---:|---:|---|")
    for (path, line, name), (_cc, ncalls, tt, _ct, _callers) in rows:
        short = re.sub(r".*/(loki|numpy)/", r"\1/", path)
        print(f"| {100 * tt / total:.1f} | {ncalls} | `{short}:{line}({name})` |")


if __name__ == "__main__":
    main()
