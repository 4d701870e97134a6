"""Exploration: common random numbers for the players' coins across the seatings of a duplicate deal.

Each Loki player's post-flop random stream (the Bettor's check-raise coin, the Action Selector's per-hand ``u``) is
reseeded at every hand from ``(seed, its hole cards, its seat relative to the button)``, so every player that holds the
same cards in the same place of a deal draws the same numbers, in every seating.  The question: does the duplicate
comparison then cancel more of what the players' own randomness adds (``experiments/aivat-variance/scripts/aivat_floor.py --split players``)?
It plays the preset with and without (``crn`` / ``plain``) and writes the two runs' results; compare their AIVAT
per-deal sd and variance ratio (``summary.json``, ``aivat.comparisons``).  An exploration that changes play through a
patch of ``LokiPlayer.begin_hand``; not an option of the players.

    python experiments/aivat-variance/scripts/aivat_crn.py fig3-BR 2301 1000 crn OUT    # and ... plain OUT

Use seeds >= 2000.
"""

import hashlib
import sys

import numpy as np

from loki.cli import app
from loki.players.loki import LokiPlayer


def common_random_numbers(seed: int) -> None:
    """Patch :meth:`LokiPlayer.begin_hand`: after it, the post-flop policy's generator is reseeded from ``(seed, the
    hole cards, the seat relative to the button)`` (the Action Selector draws its ``u`` from it at once)."""
    orig = LokiPlayer.begin_hand

    def begin_hand(self, seat, config, hole_cards, button):
        orig(self, seat, config, hole_cards, button)
        key = (seed, sorted(int(c) for c in hole_cards), (seat - button) % config.n_players)
        g = np.random.default_rng(int.from_bytes(hashlib.blake2b(repr(key).encode(), digest_size=8).digest(), "little"))
        post = self.postflop
        if hasattr(post, "rng"):  # the Bettor's check-raise coin
            post.rng = g
        sel = getattr(post, "selector", None)
        if sel is not None:  # the Action Selector's per-hand u
            sel.rng = g
            sel.u = float(g.random())

    LokiPlayer.begin_hand = begin_hand  # type: ignore[method-assign]


def main(argv: list[str]) -> None:
    preset, seed, deals, mode, out = argv[0], int(argv[1]), int(argv[2]), argv[3], argv[4]
    if mode not in ("crn", "plain"):
        raise SystemExit(f"mode {mode!r}: expected crn or plain")
    if mode == "crn":
        common_random_numbers(seed)
    args = ["tournament", "--preset", preset, "--seed", str(seed), "--deals", str(deals), "--estimator", "aivat"]
    args += ["--workers", "1", "--no-plots", "--no-histories", "--quiet", "--out", f"{out}/{preset}-{seed}-{mode}"]
    app([*args, "--overwrite"])


if __name__ == "__main__":
    main(sys.argv[1:])
