"""The cheap outs-count potential PPOT_c (reference §4.4 DEFAULT; PAPP98 papp/node40 discusses the crude PPot).

Counting outs from the visible cards alone is much cheaper than enumerating the next card against
every opponent holding (:mod:`loki.assessment.potential`).  The Simulator's play-out
(:mod:`loki.playout`) uses it for the streets after the decision, where the exact potential of
every sampled hand at every new card would be too slow (see :mod:`loki.simulator`).

>>> import numpy as np
>>> from loki.cards import parse_cards
>>> from loki.evaluator import kernel_tables
>>> board = np.zeros(5, dtype=np.int64)
>>> board[:3] = parse_cards("2h7h9c")
>>> c0, c1 = parse_cards("AhKh")
>>> round(ppot_outs(c0, c1, board, 3, kernel_tables()) * 47, 6)  # flush draw 9 + two overcards 3
12.0
>>> board[:3] = parse_cards("7h7s2c")  # a paired board: our cards make a pair, no overcards count
>>> c0, c1 = parse_cards("AcKd")
>>> float(ppot_outs(c0, c1, board, 3, kernel_tables()))
0.0
"""

from __future__ import annotations

import numpy as np

from loki._jit import njit
from loki.evaluator.kernels import hand_category, rank_from_key

__all__ = ["ppot_outs"]


#: The ten five-rank windows of a straight as rank bit masks: the wheel (A-2-3-4-5) and 2-6 ... T-A.
_WINDOWS = np.array([0b1000000001111] + [0b11111 << lo for lo in range(9)], dtype=np.int64)


@njit(cache=True)
def ppot_outs(c0, c1, board, nb, tables):  # noqa: C901 - one pass over the outs of a numba kernel; split, it would be read in pieces
    """DEFAULT cheap potential PPOT_c (reference §4.4): weighted outs / unseen cards, one card to come.

    Outs: flush draw 9 (with one suited hole card and 3 suited board cards: 9 × (0.5 + 0.5·rank/12) of
    the suited hole card); open-ended straight draw 8, gutshot 4 (4 per missing rank that completes
    a straight using a hole card); overcards 1.5 each (6 × 0.5 for two) when our cards with the board
    make no pair (high card); 2 when they make one pair with a hole card in it (a pocket pair, or a hole
    card paired on the board: set/trips up); 4 for two pair made with both hole cards (full house).
    The last three go by the made hand of all the cards, board pairs included (DEFAULT: the sources do
    not give the feature list): on a paired board, overcards count nothing (A♣K♦ on 7♥7♠2♣ makes a
    pair: 0 outs, where its exact PPot1 against a uniform range is 0.084), nor does a hole card paired
    there (K♦2♣ on K♥7♠7♣ makes two pair with one hole card: 0, exact 0.132).
    Capped at 20 outs; 0 on the river (``nb`` = 5).

    Args:
        c0, c1: our hole cards (card ints 0..51).
        board: ``(≥ nb,) int64`` board cards; only ``board[:nb]`` is read.
        nb: cards on the board now, 3..5.
        tables: the evaluator tables (:func:`loki.evaluator.kernel_tables`).

    Returns:
        PPOT_c, weighted outs over the ``50 - nb`` unseen cards (float64, 0 to 20/46).
        Inputs are not checked (distinct cards, 3 ≤ ``nb`` ≤ 5).
    """
    if nb >= 5:
        return 0.0
    card_key, card_bit = tables[0], tables[1]
    key = card_key[c0] + card_key[c1]
    bits = card_bit[c0] | card_bit[c1]
    board_ranks = 0  # bit r: rank r is on the board
    suits = 0  # 4 bits per suit: cards of that suit among hole and board
    bmax = -1
    for i in range(nb):
        c = board[i]
        key += card_key[c]
        bits |= card_bit[c]
        board_ranks |= 1 << (c >> 2)
        suits += 1 << (4 * (c & 3))
        if (c >> 2) > bmax:
            bmax = c >> 2
    r0 = c0 >> 2
    r1 = c1 >> 2
    present = board_ranks | (1 << r0) | (1 << r1)
    suits += (1 << (4 * (c0 & 3))) + (1 << (4 * (c1 & 3)))
    cat = hand_category(rank_from_key(key, bits, tables))
    outs = 0.0
    # flush draws
    if cat < 5:
        for s in range(4):
            if (suits >> (4 * s)) & 15 == 4:
                hs0 = (c0 & 3) == s
                hs1 = (c1 & 3) == s
                if hs0 and hs1:
                    outs += 9.0
                elif hs0 or hs1:
                    hr = r0 if hs0 else r1
                    outs += 9.0 * (0.5 + 0.5 * hr / 12.0)
    # straight draws: ranks x that would complete a five-rank window (wheel A-2-3-4-5 included) using a hole
    # card's rank that is not also on the board, or x itself equal to a hole card's rank
    if cat < 4:
        n_ranks = 0
        for x in range(13):
            if (present >> x) & 1:
                continue
            m = present | (1 << x)
            for w in range(10):
                win = _WINDOWS[w]
                if (m & win) == win and (
                    ((win >> r0) & 1 and not (board_ranks >> r0) & 1)
                    or ((win >> r1) & 1 and not (board_ranks >> r1) & 1)
                    or x == r0
                    or x == r1
                ):
                    n_ranks += 1
                    break
        outs += 4.0 * min(n_ranks, 2)
    # overcards / pair improvement
    if cat == 0:
        if r0 > bmax:
            outs += 1.5
        if r1 > bmax:
            outs += 1.5
    elif cat == 1:
        if r0 == r1 or (board_ranks >> r0) & 1 or (board_ranks >> r1) & 1:
            outs += 2.0
    elif cat == 2:
        if r0 != r1 and (board_ranks >> r0) & 1 and (board_ranks >> r1) & 1:
            outs += 4.0
    if outs > 20.0:
        outs = 20.0
    return outs / (52.0 - 2.0 - nb)
