"""Hand strength against a weighted range (PAPP98 papp/node62; PENA99 pena/node23).

Hand strength (HS) is the weighted share of the opponent holdings we beat **on the current
board**, ties counted half::

    HS   = (ahead + tied/2) / (ahead + tied + behind)
    HS_n = HS ** n                                        (n active opponents, PAPP98 Eq. 5.3)

``ahead``/``tied``/``behind`` are sums of the opponent's weights ``w[h]`` over every holding
``h`` that shares no card with our hole cards or the board (1,081 holdings on the flop,
1,035 on the turn, 990 on the river).  The weights need no normalisation: only ratios
matter (papp/node62).  On the flop and the turn the comparison is between 5- or 6-card
hands on the board as it is now, as Papp defines HS; the future cards belong to the
potentials (:mod:`loki.assessment.potential`).

Two kinds of computation are provided, each as an ``@njit(cache=True)`` kernel (array in,
array out; kernels that rank hands take the evaluator tables as their last argument
``tables``, :func:`loki.evaluator.kernel_tables`) with a validating Python wrapper:

* one holding against a range: :func:`hs_counts_kernel` / :func:`hand_strength_counts`,
  :func:`hand_strength`;
* **every holding at once** against a range (what the opponent modeller's re-weighting
  needs, loki-algorithms.md §4.4): :func:`hs_all_counts_kernel` /
  :func:`hand_strength_all_counts`, :func:`hand_strength_all`.  Every live holding is ranked
  once, the holdings are radix-sorted by rank, and one sweep with running weight sums gives
  each holding's ahead/tied/behind totals.  Card removal (an opponent cannot hold a card of
  the evaluated holding) is handled exactly with per-card running sums and
  inclusion-exclusion: ``ahead(h=(a,b)) = L - L_a - L_b`` where ``L`` is the weight of all
  lower-ranked holdings and ``L_a`` that of the lower-ranked holdings containing card ``a``.
  Exact integer counts of the positive-weight holdings in each state are kept alongside,
  so a state with no opponent weight is exactly 0 (not a rounding residue of the
  subtraction) and HS is undefined (``fill``) exactly when no opponent weight is left.

Conventions: card ints and the ``(1326,)`` holding order are those of :mod:`loki.cards`;
hand ranks come from :mod:`loki.evaluator` (1..7462, higher is stronger, equal is a tie).

>>> from loki.cards import parse_cards
>>> a, t, b = hand_strength_counts(parse_cards("Ah8h"), parse_cards("9h8c2c"), np.ones(1326))
>>> int(a), int(t), int(b)                        # PENA99 pena/node23 worked example
(903, 6, 172)
>>> round(hand_strength(parse_cards("Ah8h"), parse_cards("9h8c2c"), np.ones(1326)), 2)
0.84
>>> round(hand_strength("Ah8h", "9h8c2c", np.ones(1326), n_opponents=3), 2)
0.59
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from loki._jit import njit
from loki.assessment.weights import validate_weights
from loki.cards import HOLDING_CARDS, HOLDING_INDEX, N_HOLDINGS, format_card, parse_cards
from loki.errors import CardError, ConfigError, RangeError
from loki.evaluator import kernel_tables
from loki.evaluator.kernels import rank_from_key

__all__ = [
    "AHEAD",
    "TIED",
    "BEHIND",
    "check_cards",
    "check_n_opponents",
    "hs_counts_kernel",
    "rank_holdings_kernel",
    "hs_all_counts_kernel",
    "hand_strength_counts",
    "hand_strength",
    "rank_holdings",
    "hand_strength_all_counts",
    "hand_strength_all",
]

#: Index of the three outcome states in count triples and in the 3×3 HP matrix.
AHEAD, TIED, BEHIND = 0, 1, 2


# ---------------------------------------------------------------------------------------
# input checking (shared with potential.py and assess())
# ---------------------------------------------------------------------------------------
def _parse(cards, name: str, count) -> list[int]:
    try:
        return parse_cards(cards, count=count)
    except ValueError as e:
        raise CardError(f"{name}: {e}") from None
    except TypeError:
        raise CardError(f"{name}: expected card text or card ints, got {cards!r}") from None


def check_cards(hole, board, board_sizes=(3, 4, 5), dead: Iterable = ()) -> tuple[list[int], list[int], list[int]]:
    """Parse and check hole cards, board and extra dead cards.

    Args:
        hole: two cards as text (``"AhKs"``) or card ints, or ``None`` to skip.
        board: 3, 4 or 5 cards (``board_sizes``) as text or ints.
        dead: extra known cards (text or ints), default none.

    Returns:
        ``(hole, board, dead)`` as lists of card ints (``hole`` is ``[]`` when ``None``).

    Raises:
        CardError: a malformed card, a wrong count, or a card appearing twice; the message
            names the input (``hole``, ``board``, ``dead``).
    """
    h = [] if hole is None else _parse(hole, "hole", 2)
    b = _parse(board, "board", tuple(board_sizes))
    d = _parse(dead, "dead", None)
    seen: dict[int, str] = {}
    for name, cs in (("hole", h), ("board", b), ("dead", d)):
        for c in cs:
            if c in seen:
                raise CardError(f"overlapping cards: {format_card(c)} is in both {seen[c]} and {name}")
            seen[c] = name
    return h, b, d


def check_n_opponents(n) -> int:
    """``n`` as an int ≥ 1.

    Raises:
        ConfigError: not an integer ≥ 1 (message names ``n_opponents``).
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ConfigError(f"n_opponents: expected an integer >= 1, got {n!r}")
    return int(n)


def dead_array(cards) -> np.ndarray:
    d = np.zeros(52, dtype=np.bool_)
    for c in cards:
        d[int(c)] = True
    return d


# ---------------------------------------------------------------------------------------
# kernels
# ---------------------------------------------------------------------------------------
@njit(cache=True)
def live_cards(dead):
    """``(live (52,) int64, n)``: the cards not in ``dead (52,) bool`` are ``live[:n]``, ascending."""
    live = np.empty(52, dtype=np.int64)
    n = 0
    for c in range(52):
        if not dead[c]:
            live[n] = c
            n += 1
    return live, n


@njit(cache=True)
def board_key(board, tables):
    """Key and suit bits (int64 each) of the cards in ``board``; ``tables`` the evaluator tables."""
    card_key, card_bit = tables[0], tables[1]
    key = 0
    bits = 0
    for c in board:
        key += card_key[c]
        bits |= card_bit[c]
    return key, bits


@njit(cache=True)
def hs_counts_kernel(c0, c1, board, weights, tables):
    """Weighted (ahead, tied, behind) sums of holding ``(c0, c1)`` on ``board`` (PAPP98 papp/node62).

    Args:
        c0, c1: our hole cards (int).
        board: ``(3..5,) int64`` board cards, disjoint from the hole cards (not checked).
        weights: ``(1326,) float64`` opponent weights (clashing holdings are skipped here).
        tables: the evaluator tables (:func:`loki.evaluator.kernel_tables`).

    Returns:
        ``(ahead, tied, behind)`` floats: opponent weight we beat, tie, lose to on the current board.
    """
    dead = np.zeros(52, dtype=np.bool_)
    for c in board:
        dead[c] = True
    dead[c0] = True
    dead[c1] = True
    live = np.empty(52, dtype=np.int64)
    n = 0
    for c in range(52):
        if not dead[c]:
            live[n] = c
            n += 1
    card_key, card_bit = tables[0], tables[1]
    bk, bb = board_key(board, tables)
    ours = rank_from_key(bk + card_key[c0] + card_key[c1], bb | card_bit[c0] | card_bit[c1], tables)
    ahead = 0.0
    tied = 0.0
    behind = 0.0
    for i in range(n):
        a = live[i]
        ka = bk + card_key[a]
        ba = bb | card_bit[a]
        for j in range(i + 1, n):
            b = live[j]
            w = weights[HOLDING_INDEX[a, b]]
            if w == 0.0:
                continue
            r = rank_from_key(ka + card_key[b], ba | card_bit[b], tables)
            if ours > r:
                ahead += w
            elif ours == r:
                tied += w
            else:
                behind += w
    return ahead, tied, behind


@njit(cache=True)
def rank_holdings_kernel(board, dead, tables):
    """Rank of every holding on ``board`` (5..7-card hands).

    Args:
        board: ``(3..5,) int64`` board cards.
        dead: ``(52,) bool`` cards that no holding may contain (must include the board).
        tables: the evaluator tables (:func:`loki.evaluator.kernel_tables`).

    Returns:
        ``(1326,) int64`` ranks 1..7462 (higher stronger); 0 for holdings containing a dead card.
    """
    ranks = np.zeros(N_HOLDINGS, dtype=np.int64)
    live = np.empty(52, dtype=np.int64)
    n = 0
    for c in range(52):
        if not dead[c]:
            live[n] = c
            n += 1
    card_key, card_bit = tables[0], tables[1]
    bk, bb = board_key(board, tables)
    for i in range(n):
        a = live[i]
        ka = bk + card_key[a]
        ba = bb | card_bit[a]
        for j in range(i + 1, n):
            b = live[j]
            ranks[HOLDING_INDEX[a, b]] = rank_from_key(ka + card_key[b], ba | card_bit[b], tables)
    return ranks


@njit(cache=True)
def radix_sort_by_rank(items, n, keys, tmp, out, cnt):
    """Stable LSD radix sort (7 + 6 bits) of ``items[:n]`` by ``keys[item]`` (ranks < 8192) into ``out[:n]``.

    ``tmp`` is scratch of length ≥ n, ``cnt`` scratch of length ≥ 129 (int64).
    """
    for i in range(129):
        cnt[i] = 0
    for i in range(n):
        cnt[(keys[items[i]] & 127) + 1] += 1
    for i in range(128):
        cnt[i + 1] += cnt[i]
    for i in range(n):
        it = items[i]
        d = keys[it] & 127
        tmp[cnt[d]] = it
        cnt[d] += 1
    for i in range(129):
        cnt[i] = 0
    for i in range(n):
        cnt[(keys[tmp[i]] >> 7) + 1] += 1
    for i in range(64):
        cnt[i + 1] += cnt[i]
    for i in range(n):
        it = tmp[i]
        d = keys[it] >> 7
        out[cnt[d]] = it
        cnt[d] += 1


@njit(cache=True)
def _sweep_counts(order, n, ranks, weights, out, nstate):
    # One ascending sweep over holdings sorted by rank; see the module docstring.  Float
    # weight sums go to ``out (3, 1326)``; exact integer counts of the positive-weight
    # holdings in each state go to ``nstate (3, 1326)``.  A state with count 0 gets weight
    # exactly 0 (inclusion-exclusion leaves rounding residues of ~1e-16 x total otherwise).
    tot = 0.0
    tot_c = np.zeros(52)
    pos = 0
    pos_c = np.zeros(52, dtype=np.int64)
    for i in range(n):
        h = order[i]
        w = weights[h]
        a = HOLDING_CARDS[h, 0]
        b = HOLDING_CARDS[h, 1]
        tot += w
        tot_c[a] += w
        tot_c[b] += w
        if w > 0.0:
            pos += 1
            pos_c[a] += 1
            pos_c[b] += 1
    lt = 0.0
    lt_c = np.zeros(52)
    eq_c = np.zeros(52)
    plt = 0
    plt_c = np.zeros(52, dtype=np.int64)
    peq_c = np.zeros(52, dtype=np.int64)
    i = 0
    while i < n:
        r = ranks[order[i]]
        j = i
        eq = 0.0
        peq = 0
        while j < n and ranks[order[j]] == r:
            h = order[j]
            w = weights[h]
            a = HOLDING_CARDS[h, 0]
            b = HOLDING_CARDS[h, 1]
            eq += w
            eq_c[a] += w
            eq_c[b] += w
            if w > 0.0:
                peq += 1
                peq_c[a] += 1
                peq_c[b] += 1
            j += 1
        for k in range(i, j):
            h = order[k]
            w = weights[h]
            a = HOLDING_CARDS[h, 0]
            b = HOLDING_CARDS[h, 1]
            wpos = 1 if w > 0.0 else 0
            n_ahead = plt - plt_c[a] - plt_c[b]
            n_tied = peq - peq_c[a] - peq_c[b] + wpos
            n_behind = pos - pos_c[a] - pos_c[b] + wpos - n_ahead - n_tied
            nstate[0, h] = n_ahead
            nstate[1, h] = n_tied
            nstate[2, h] = n_behind
            ahead = lt - lt_c[a] - lt_c[b]
            tied = eq - eq_c[a] - eq_c[b] + w
            behind = (tot - tot_c[a] - tot_c[b] + w) - ahead - tied
            out[0, h] = ahead if (n_ahead > 0 and ahead > 0.0) else 0.0
            out[1, h] = tied if (n_tied > 0 and tied > 0.0) else 0.0
            out[2, h] = behind if (n_behind > 0 and behind > 0.0) else 0.0
        for k in range(i, j):
            h = order[k]
            w = weights[h]
            a = HOLDING_CARDS[h, 0]
            b = HOLDING_CARDS[h, 1]
            lt_c[a] += w
            lt_c[b] += w
            eq_c[a] = 0.0
            eq_c[b] = 0.0
            if w > 0.0:
                plt_c[a] += 1
                plt_c[b] += 1
            peq_c[a] = 0
            peq_c[b] = 0
        lt += eq
        plt += peq
        i = j


@njit(cache=True)
def hs_all_state_counts(ranks, weights):
    """Like :func:`hs_all_counts_from_ranks`, with exact per-state counts instead of ``npos``.

    Returns:
        ``counts (3, 1326) float64`` and ``nstate (3, 1326) int64``: the number of
        positive-weight opponent holdings we are ahead of / tied with / behind (-1 for dead
        holdings).
    """
    order, n = _by_rank(ranks)
    counts = np.zeros((3, N_HOLDINGS))
    nstate = np.full((3, N_HOLDINGS), -1, dtype=np.int64)
    _sweep_counts(order, n, ranks, weights, counts, nstate)
    return counts, nstate


@njit(cache=True)
def _by_rank(ranks):
    # (order, n): the n live holdings (rank > 0) sorted by rank, stably (radix_sort_by_rank), in order[:n]
    items = np.empty(N_HOLDINGS, dtype=np.int64)
    n = 0
    for h in range(N_HOLDINGS):
        if ranks[h] > 0:
            items[n] = h
            n += 1
    order = np.empty(N_HOLDINGS, dtype=np.int64)
    tmp = np.empty(N_HOLDINGS, dtype=np.int64)
    cnt = np.empty(129, dtype=np.int64)
    radix_sort_by_rank(items, n, ranks, tmp, order, cnt)
    return order, n


@njit(cache=True)
def _npos_into(nstate, npos):
    # the positive-weight opponent holdings of each holding (-1 for a dead one) from the per-state counts
    for h in range(N_HOLDINGS):
        npos[h] = -1 if nstate[0, h] < 0 else nstate[0, h] + nstate[1, h] + nstate[2, h]


@njit(cache=True)
def hs_all_counts_from_ranks(ranks, weights):
    """Every holding's weighted (ahead, tied, behind) sums from precomputed ranks.

    Args:
        ranks: ``(1326,) int64`` ranks on the current board, 0 for dead holdings
            (as from :func:`rank_holdings_kernel`).
        weights: ``(1326,) float64`` opponent weights; dead holdings are ignored.

    Returns:
        ``counts (3, 1326) float64`` (rows ahead, tied, behind; 0 for dead holdings) and
        ``npos (1326,) int64``: the number of positive-weight opponent holdings that share no
        card with each holding (0 means its HS is undefined; -1 for dead holdings).
    """
    counts, nstate = hs_all_state_counts(ranks, weights)
    npos = np.empty(N_HOLDINGS, dtype=np.int64)
    _npos_into(nstate, npos)
    return counts, npos


@njit(cache=True)
def hs_all_rows_into(ranks, weights, rows, fill, out):
    """HS_1 of every holding against each of several ranges on one board, the holdings sorted by rank once: for each
    ``r`` in ``rows``, ``out[r]`` gets the floats of ``hs_from_counts(*hs_all_counts_from_ranks(ranks, weights[r]),
    fill)`` (the same sweep per range; HS as PAPP98 papp/node62 defines it, the module docstring).  Unchecked, as
    the other kernels: its caller (the Simulator's believed play-out) has checked the board and the ranges.

    Args:
        ranks: ``(1326,) int64`` ranks on the board, 0 for dead holdings (:func:`rank_holdings_kernel`).
        weights: ``(k, 1326) float64`` the ranges; rows: ``(j,) int64`` the ones to value.
        fill: HS where it is undefined (a dead holding, or no opponent weight left).
        out: ``(k, 1326) float64``, rows ``rows`` written.
    """
    order, n = _by_rank(ranks)
    counts = np.empty((3, N_HOLDINGS))
    nstate = np.empty((3, N_HOLDINGS), dtype=np.int64)
    npos = np.empty(N_HOLDINGS, dtype=np.int64)
    for j in range(rows.shape[0]):
        r = rows[j]
        counts[:] = 0.0
        nstate[:] = -1
        _sweep_counts(order, n, ranks, weights[r], counts, nstate)
        _npos_into(nstate, npos)
        out[r] = hs_from_counts(counts, npos, fill)


@njit(cache=True)
def hs_all_counts_kernel(board, dead, weights, tables):
    """:func:`rank_holdings_kernel` then :func:`hs_all_counts_from_ranks` (see both)."""
    return hs_all_counts_from_ranks(rank_holdings_kernel(board, dead, tables), weights)


@njit(cache=True)
def hs_from_counts(counts, npos, fill):
    """``(1326,) float64`` HS_1 = (ahead + tied/2)/total per holding; ``fill`` where undefined (npos ≤ 0)."""
    out = np.empty(N_HOLDINGS)
    for h in range(N_HOLDINGS):
        if npos[h] <= 0:
            out[h] = fill
        else:
            a = counts[0, h]
            t = counts[1, h]
            tot = a + t + counts[2, h]
            out[h] = (a + 0.5 * t) / tot if tot > 0.0 else fill
    return out


# ---------------------------------------------------------------------------------------
# Python API
# ---------------------------------------------------------------------------------------
def hand_strength_counts(hole, board, weights) -> tuple[float, float, float]:
    """Weighted ``(ahead, tied, behind)`` sums of our holding on the current board (PAPP98 papp/node62).

    Args:
        hole: our two hole cards (text like ``"AhKs"`` or card ints).
        board: 3, 4 or 5 board cards.
        weights: the opponent's ``(1326,)`` weights or a :class:`~loki.assessment.weights.WeightTable`;
            holdings clashing with our cards or the board are ignored.

    Returns:
        three floats in weight units; with uniform weights 1.0 they are holding counts.

    Raises:
        CardError: bad or overlapping cards, wrong board size.
        RangeError: invalid weights.
    """
    h, b, _ = check_cards(hole, board)
    w = validate_weights(weights, "weights")
    return hs_counts_kernel(h[0], h[1], np.asarray(b, dtype=np.int64), w, kernel_tables())


def hand_strength(hole, board, weights, n_opponents: int = 1) -> float:
    """HS_n = ((ahead + tied/2)/total) ** n on the current board (PAPP98 papp/node62, Eq. 5.3).

    Args:
        hole, board, weights: as :func:`hand_strength_counts`.
        n_opponents: ``n`` in HS_n (active opponents), default 1.

    Returns:
        a probability in [0, 1].

    Raises:
        CardError, RangeError: as :func:`hand_strength_counts`; RangeError also when no live
            opponent holding has positive weight (HS undefined).
        ConfigError: a bad ``n_opponents``.
    """
    n = check_n_opponents(n_opponents)
    a, t, b = hand_strength_counts(hole, board, weights)
    tot = a + t + b
    if not tot > 0:
        raise RangeError("weights: all live opponent holdings have weight 0 (HS undefined)")
    return ((a + 0.5 * t) / tot) ** n


def rank_holdings(board, dead: Iterable = ()) -> np.ndarray:
    """Rank (1..7462, higher stronger) of every holding on ``board``; 0 where a holding clashes.

    Args:
        board: 3, 4 or 5 cards.
        dead: extra cards no holding may contain.

    Returns:
        ``(1326,) int64``.

    Raises:
        CardError: bad or overlapping cards.
    """
    _, b, d = check_cards(None, board, dead=dead)
    return rank_holdings_kernel(np.asarray(b, dtype=np.int64), dead_array(b + d), kernel_tables())


def hand_strength_all_counts(board, weights, dead: Iterable = ()) -> tuple[np.ndarray, np.ndarray]:
    """Weighted (ahead, tied, behind) sums of **every** holding against one range, in one pass.

    For each holding ``h`` sharing no card with ``board`` or ``dead``: the weight of the
    opponent holdings (sharing no card with ``board``, ``dead`` or ``h``) that ``h`` beats,
    ties and loses to on the current board.  Same numbers as :func:`hand_strength_counts`
    for each ``h`` separately (1,326 enumerations), at the cost of one.

    Args:
        board: 3, 4 or 5 cards.
        weights: ``(1326,)`` opponent weights or a WeightTable.
        dead: extra known cards (e.g. our own hole cards when ranking opponent holdings).

    Returns:
        ``counts (3, 1326) float64`` (rows ahead, tied, behind; 0 for dead holdings) and
        ``npos (1326,) int64``, the number of positive-weight opponent holdings each holding
        faces (-1 for dead holdings).

    Raises:
        CardError: bad or overlapping cards.
        RangeError: invalid weights.
    """
    _, b, d = check_cards(None, board, dead=dead)
    w = validate_weights(weights, "weights")
    return hs_all_counts_kernel(np.asarray(b, dtype=np.int64), dead_array(b + d), w, kernel_tables())


def hand_strength_all(board, weights, dead: Iterable = (), n_opponents: int = 1, fill: float = np.nan) -> np.ndarray:
    """HS_n of every holding against one range, on the current board (input to re-weighting, §4.4).

    Args:
        board, weights, dead: as :func:`hand_strength_all_counts`.
        n_opponents: exponent ``n`` of HS_n (re-weighting uses HS_1, papp/node60).
        fill: value for holdings that clash with ``board``/``dead`` or face no positive
            opponent weight (HS undefined); NaN by default.

    Returns:
        ``(1326,) float64``.

    Raises:
        CardError, RangeError, ConfigError: bad or overlapping cards, invalid weights, bad ``n_opponents``.

    >>> hs = hand_strength_all("9h8c2c", np.ones(1326))
    >>> from loki.cards import parse_holding
    >>> round(float(hs[parse_holding("Ah8h")]), 4), int(np.isnan(hs).sum())
    (0.8381, 150)
    """
    n = check_n_opponents(n_opponents)
    counts, npos = hand_strength_all_counts(board, weights, dead)
    hs = hs_from_counts(counts, npos, float(fill))
    return hs**n if n != 1 else hs
