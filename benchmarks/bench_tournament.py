"""Benchmark: games (hands) per second of the ``fig3-BR`` duplicate tournament (8 x Loki-1, 2 x Loki-2 B+R).

Usage (2 cores)::

    NUMBA_CACHE_DIR=.numba_cache /work/venv/bin/python benchmarks/bench_tournament.py [--deals 60] [--workers 1 2] [--write]

For every worker count, plays ``--deals`` deals of ``fig3-BR`` (each replayed 10 times) with the
preset's blocks (histories off, so the rate is the players' and the engine's), after a warm-up
block in this process (numba kernels compiled and cached).  Prints wall seconds, games/s and the
projected time of the paper's 2,500 deals; ``--write`` replaces the section
``### Tournaments`` of BENCHMARKS.md (nothing else).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import subprocess
import time
from pathlib import Path

from loki.tournament import load_preset, play_block, run_tournament

ROOT = Path(__file__).resolve().parents[1]
SECTION = "### Tournaments"


def cpu_model() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                return line.split(":", 1)[1].strip()
    except (OSError, subprocess.CalledProcessError):
        pass
    return platform.processor() or "unknown CPU"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="fig3-BR")
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--block-deals", type=int, default=10)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--write", action="store_true", help="record the figures in BENCHMARKS.md")
    a = ap.parse_args()

    cfg = load_preset(a.preset).with_overrides(deals=a.deals, histories=False, block_deals=a.block_deals)
    t = time.perf_counter()
    play_block(cfg.with_overrides(deals=1, block_deals=1), 0)  # warm-up: compile/cache kernels, load tables
    warm = time.perf_counter() - t
    rows = []
    for w in a.workers:
        t = time.perf_counter()
        run = run_tournament(cfg, workers=w)
        sec = time.perf_counter() - t
        games = cfg.hands
        rate = games / sec
        rows.append((w, sec, games, rate, 25_000 / rate))
        print(
            f"{a.preset}: {w} worker(s): {games} games in {sec:.1f} s = {rate:.1f} games/s "
            f"(2,500 deals would take {25_000 / rate / 3600:.2f} h); block CPU {sum(b['seconds'] for b in run.blocks):.1f} s"
        )
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    if a.write:
        lines = [
            SECTION,
            "",
            f"Date 2026-11-21 (measured {datetime.date.today().isoformat()}), {cpu_model()}, {os.cpu_count()} cores "
            f"(shared with other engineers; 1-min load average at the end {load:.1f}).",
            f"`benchmarks/bench_tournament.py --deals {a.deals}`: the `{a.preset}` preset, {a.deals} deals x 10 seatings, "
            f"blocks of {a.block_deals} deals, hand histories off; warm-up block {warm:.1f} s excluded.",
            "",
            "| workers | games | seconds | games/s | 2,500 deals (25,000 games) |",
            "|---:|---:|---:|---:|---:|",
        ]
        for w, sec, games, rate, proj in rows:
            lines.append(f"| {w} | {games} | {sec:.1f} | {rate:.1f} | {proj / 3600:.2f} h |")
        lines.append("")
        path = ROOT / "BENCHMARKS.md"
        text = path.read_text() if path.exists() else "# Benchmarks\n"
        block = "\n".join(lines) + "\n"
        pat = re.compile(rf"^{re.escape(SECTION)}\n.*?(?=^##+ |\Z)", re.S | re.M)
        text = pat.sub(block, text) if pat.search(text) else text.rstrip("\n") + "\n\n" + block
        path.write_text(text)
        print(f"wrote {SECTION} in {path}")


if __name__ == "__main__":
    main()
