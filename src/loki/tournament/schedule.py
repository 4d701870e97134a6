"""The duplicate schedule: the cards of every deal and the seating of every replay.

A deal fixes, in advance, the two hole cards of every *seat* and the five board cards
(:func:`deal_cards`, a pure function of ``(seed, deal)``).  The deal is then played once per
seating (``n`` replays at ``n`` players) with the button always on seat 0, so a set of hole cards
always comes with the same position relative to the button.  The seatings form a Latin square
(:func:`seatings`): over the ``n`` replays every player sits in every seat once, hence holds every
set of hole cards once and plays from every position once.  For an even ``n`` the square is a
Williams design (row-complete): every ordered pair of players sits side by side (one acting right
after the other) in exactly one replay, so each player meets every opponent in a different relative
position.  An odd ``n`` has no row-complete square of order ``n`` for the small orders used here and
falls back to the cyclic rotation.

>>> seatings(4)
((0, 1, 3, 2), (1, 2, 0, 3), (2, 3, 1, 0), (3, 0, 2, 1))
>>> holes, board = deal_cards(seed=0, deal=0, n_players=3)
>>> len(holes), len(board), len(set(c for h in holes for c in h) | set(board))
(3, 5, 11)
"""

from __future__ import annotations

from functools import cache

import numpy as np

from loki.errors import ConfigError

__all__ = ["seatings", "deal_cards", "block_deals", "player_seed", "BUTTON"]

#: The button seat of every replay.
BUTTON = 0


@cache
def seatings(n: int) -> tuple[tuple[int, ...], ...]:
    """``seatings(n)[r][s]`` is the player (index in the tournament) sitting at seat ``s`` in replay ``r``.

    A Latin square of order ``n``: a Williams design for even ``n`` (first row 0, 1, n-1, 2, n-2, ...,
    the others shifted by ``r`` mod ``n``), the cyclic rotation ``(s + r) % n`` for odd ``n``.

    Raises:
        ConfigError: ``n`` < 1.
    """
    if n < 1:
        raise ConfigError(f"seatings: n={n}: expected at least one player")
    if n % 2 == 0:
        first, lo, hi = [0], 1, n - 1
        while len(first) < n:
            first.append(lo)
            lo += 1
            if len(first) < n:
                first.append(hi)
                hi -= 1
    else:
        first = list(range(n))
    return tuple(tuple((x + r) % n for x in first) for r in range(n))


def deal_cards(seed: int, deal: int, n_players: int) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
    """The cards of deal ``deal``: a pure function of ``(seed, deal)`` (and the number of seats).

    Args:
        seed: the tournament seed (any int; part of a ``numpy.random.SeedSequence``, so >= 0).
        deal: the deal index (>= 0).
        n_players: seats, 1..10 (at most 23 fit a deck with a board).

    Returns:
        ``(holes, board)``: ``holes`` a tuple of ``n_players`` pairs ``(card, card)`` per seat and
        ``board`` a tuple of 5 cards, all Python ``int`` card ids in 0..51 (:mod:`loki.cards`),
        distinct; drawn from one uniform permutation of the deck (DEFAULT: numpy's PCG64).

    Raises:
        ConfigError: a negative ``seed`` or ``deal`` (numpy's SeedSequence rejects them).
    """
    if int(seed) < 0 or int(deal) < 0:
        raise ConfigError(f"deal_cards: seed={seed}, deal={deal}: expected both >= 0")
    rng = np.random.default_rng(np.random.SeedSequence([int(seed), int(deal), 0xDEA1]))
    deck = rng.permutation(52)
    holes = tuple((int(deck[2 * s]), int(deck[2 * s + 1])) for s in range(n_players))
    board = tuple(int(c) for c in deck[2 * n_players : 2 * n_players + 5])
    return holes, board


def block_deals(block: int, deals: int, per_block: int) -> range:
    """The deals of block ``block`` (blocks of ``per_block`` deals, the last one possibly shorter)."""
    return range(block * per_block, min(deals, (block + 1) * per_block))


def player_seed(seed: int, block: int, player: int) -> int:
    """Seed of player ``player``'s own generator in block ``block``."""
    return int(np.random.SeedSequence([int(seed), int(block), int(player), 0x9EA7]).generate_state(1)[0])
