"""The Simulator's numba kernels: sampling, play-out and a batch of trials (AAAI99 §5; reference §6).

:func:`sim_decision` runs every trial of one decision for :func:`loki.simulator.simulate` in one call (batches of
``check_every`` trials, each seeded as before, and the obvious-move cut-off between them, with numpy's floats:
:func:`_cutoff`); :func:`sim_batch` runs one batch (the driver's rules, approximations and cut-off are in
:mod:`loki.simulator.driver`; read its docstring first).  A batch samples the
opponents' holdings by their weights (:func:`_sample_holding`), deals the rest of the board,
computes the hand values the play-out needs on later streets (in the uniform play-out from a process-wide
:class:`BoardCache` of ranks, HS_1 and PPot per 4- and 5-card board, shared by trials, decisions and the seatings of
a duplicate deal; in the believed play-out the cache's ranks and PPot with :func:`_values_on_board`: HS_1 of each
player's holding against a weighted field — the other players' weight tables — and its percentile within its own
range; :func:`_street_values`) and plays each trial out twice (:func:`playout`, our first
action forced to check/call, then to bet/raise).  The betting of a
play-out (acting order, cap, legal actions, pot, payoff) is the :mod:`loki.betting` core, the same
code as the rules engine's.

Every kernel that ranks hands takes the evaluator tables as its last argument ``tables``
(:func:`loki.evaluator.kernel_tables`).  The holding tables of :mod:`loki.cards`
(``HOLDING_CARDS``, ``HOLDING_INDEX``, ``HOLDING_MASKS``) are read as globals: they are the fixed
canonical holding order, and :mod:`loki._jit` keys the disk cache by ``cards.py`` too.
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

import numpy as np

from loki._jit import njit, prefetch
from loki.assessment.outs import ppot_outs
from loki.betting import AWARD_WORK, apply_action, award_into, can_raise, legalise
from loki.betting.layout import (
    ACTED,
    BET,
    BETS,
    CALL_A,
    CUR,
    FOLD_A,
    FOLDED,
    MAX_BET,
    N_ACTIONS,
    N_IN,
    NMAX,
    POT,
    RAISE_A,
    RAISED_LAST,
    ROUND,
    SIZE,
    TOTAL,
    VOLUNTARY,
    N,
)
from loki.cards import HOLDING_CARDS, HOLDING_INDEX, HOLDING_MASKS, N_HOLDINGS
from loki.evaluator.kernels import rank7, rank_from_key
from loki.evaluator.keys import RANK_KEYS, RANK_SHIFT
from loki.modeler.kernels import freq_triple, np_sum
from loki.triples.rule_chain import TripleParams, bets_to_call_bucket, pt_kernel, semi_bluff_gate

__all__ = [
    "PlayoutSpot",
    "PlayoutRanges",
    "PlayoutPolicies",
    "PlayoutScratch",
    "BoardCache",
    "sim_batch",
    "sim_decision",
    "board_cache",
    "sampling_wheel",
    "playout",
    "new_scratch",
    "KU",
]

#: Uniform numbers drawn per player per trial in the believed play-out (one per decision; more decisions reuse
#: the last).  The uniform play-out uses the first only (one per player per trial, the Action Selector's rule).
KU = 12


class PlayoutSpot(NamedTuple):
    """The decision a batch of trials plays out, the same for every trial (:func:`loki.simulator.driver.simulate`).

    Attributes:
        me: our index in post-flop acting order (the players of a play-out are seats ``0..m-1`` in that order).
        st0: ``(SIZE,) int64``: the :mod:`loki.betting` state vector at the decision
            (:func:`loki.simulator.driver.spot_state`).
        bet_sizes: ``(4,) float64``: chips per bet and raise by round (pre-flop, flop, turn, river).
        hole: ``(2,) int64``: our hole cards.
        board: ``(nb,) int64``: the visible board, 3 to 5 cards.
        always_call: the fast variant (pena/node46): after our first action everybody checks or calls.
    """

    me: int
    st0: np.ndarray
    bet_sizes: np.ndarray
    hole: np.ndarray
    board: np.ndarray
    always_call: bool


class PlayoutRanges(NamedTuple):
    """What each simulated player is believed to hold, and the values of every holding on the decision's street.

    Attributes:
        weights: ``(m, 1326) float64``: each player's weight table (the opponents' holdings are drawn from it; our row
            and folded rows are unused).
        cum, totals: ``(m, 1326) float64`` cumulative weights and ``(m,) float64`` their totals (the sampler's wheel).
        field: ``(m, 1326) float64``: each player's field, the weights its hand is rated against on later streets
            (all ones: the uniform range of the paper's play-out, counted exactly).
        hs_now: ``(m, 1326) float64``: HS_1 of every holding against the player's field on the decision's board.
        q_now: ``(m, 1326) float64``: every holding's percentile in the player's own range (read by the frequency
            expert only).
        pp_now, nn_now: ``(1326,) float64``: PPot1 and NPot1 of every holding against a uniform range.
        rank: ``(m, 1326) float64``: the range each player's frequency expert ranks its holding in on later streets
            (its weight table, or all ones: :attr:`loki.modeler.PlayoutPolicy.ranking`; ``weights`` itself when
            every player ranks in its own range).
    """

    weights: np.ndarray
    cum: np.ndarray
    totals: np.ndarray
    field: np.ndarray
    hs_now: np.ndarray
    q_now: np.ndarray
    pp_now: np.ndarray
    nn_now: np.ndarray
    rank: np.ndarray


class PlayoutPolicies(NamedTuple):
    """How each simulated player acts after our first action (the opponent models as play-out policies).

    Every player's triple is a mixture of three experts, ``mix[p] · (rules, frequency expert, card-blind)``: the
    rule chain with its own parameters (:func:`loki.triples.rule_chain.pt_kernel`), the frequency expert on its
    percentile in its own range (:func:`loki.modeler.kernels.freq_triple`) and its context frequencies as they are.
    A row ``(1, 0, 0)`` is the rules alone (the paper's play-out: everybody on one Triple Generator); an opponent model
    supplies its row through ``playout_policy`` (:class:`loki.modeler.PlayoutPolicy`).

    Attributes:
        believed: the believed play-out's rules: one uniform number per decision, the check-raise condition
            from the public state, semi-bluffs continued; False: the paper's play-out (one number per player per trial,
            no check-raise, no semi-bluff continuation, rules only).
        params: ``(m, 11) float64``: each player's rule-chain parameters (:class:`loki.triples.TripleParams` as a row).
        mix: ``(m, 3) float64``: the mixture weights (read in the believed play-out only).
        freqs: ``(m, 4, 3, 3) float64``: context frequencies [round][bets to call 0/1/2+][fold, call, raise].
        rho: ``(m,) float64``: check-raise propensities of the frequency expert.
        softness: ``(m,) float64``: the frequency expert's ramp half-width (percentile).
        semi0: ``(m,) bool``: semi-bluffs in progress at the decision.
    """

    believed: bool
    params: np.ndarray
    mix: np.ndarray
    freqs: np.ndarray
    rho: np.ndarray
    softness: np.ndarray
    semi0: np.ndarray


class PlayoutScratch(NamedTuple):
    """Work arrays of one play-out (:func:`new_scratch`); afterwards ``st`` holds the final state and ``win`` the chips
    each player won.

    Attributes:
        st: ``(SIZE,) int64``; pots: ``(NMAX, 3) int64``; shares: ``(NMAX, m) float64``; win: ``(m,) float64``;
        semi: ``(m,) bool`` (semi-bluffs in progress); work: ``(AWARD_WORK, NMAX) int64`` (the pot award's,
        :func:`loki.betting.award_into`).
    """

    st: np.ndarray
    pots: np.ndarray
    shares: np.ndarray
    win: np.ndarray
    semi: np.ndarray
    work: np.ndarray


class BoardCache(NamedTuple):
    """Holding ranks, uniform-range HS_1 and outs potentials on 4- and 5-card boards, kept across decisions
    (:func:`board_cache`).

    The later-street boards of a decision's trials recur: in the trials of one decision (a turn decision has at most
    48 river cards), in the decisions of one hand and, in a duplicate tournament, in every seating of a deal (the
    same flop and turn), and so do the holdings rated on them (ours, in every trial).  A holding's rank and its HS_1
    against a uniform range on a board depend on the board's cards only, so one row per board serves all of them.
    An open-addressing hash table keyed by the board's card mask: ``keys`` ``(K,) uint64`` (0: an empty slot; a
    board is never the empty mask), ``r`` ``(K, 1326) int16`` every holding's rank on the board (holding order;
    undefined for holdings that share a card with it), ``lr`` ``(K, 1326) int16`` the ranks of the ``n`` ``(K,) int64``
    holdings disjoint from the board, packed in holding order, ``lh`` ``(K, 1326) int16`` those holdings, filled when
    the believed play-out first reads them (``packed`` ``(K,) bool``; the uniform play-out does not), ``hs`` ``(K,
    1326) uint16`` HS_1 by holding as the whole number ``1 + 2 · ahead + tied`` of its count (0: not asked yet;
    :func:`_hs_of` makes the float, :func:`_uniform_code` the number), ``tp`` ``(K,) int64`` a 4-card board's row of
    ``pp`` ``(P, 1326) float64``, the outs potential by holding (:func:`loki.assessment.outs.ppot_outs`; -1: not asked
    yet; ``tp`` -1: the board has no row, its potentials are computed when asked), ``used`` ``(2,) int64`` the filled
    slots and the ``pp`` rows given since the table was last emptied (given in turn: once all are given, a new 4-card
    board takes the row of the oldest, whose slot in ``pp_slot`` ``(P,) int64`` then loses it).  Rows of two bytes a
    holding (10.6 kB a board) keep the table small and its reads in cache; only the 4-card boards have a row of
    floats.  It is bounded: when ``3K/4`` slots are filled the table
    is emptied (the boards of past deals do not recur).  Every entry is a pure function of its board, so whether it is
    found or recomputed never changes play.  The believed play-out reads the ranks and the outs potentials too (its
    HS_1 is against weighted fields, computed per trial: :func:`_values_on_board`).

    ``cls`` ``(K,) int16``: 0, or ``1 + nf`` for a river board ranked by rank class (the uniform play-out's new river
    boards but five suited cards, :func:`_board_slot_uniform`): its ``lr`` row holds at ``x (x + 1) / 2 + y`` the
    rank of the holdings of card ranks ``(x >= y)`` that make no flush (:func:`_rank_by_class`), the ``nf`` holdings
    that make a flush have their ranks in ``r`` and, packed, in ``lr`` from 91 on, the holdings themselves in ``lh``
    (the rest of ``r`` and ``lh`` not filled), and ``n`` is the number of holdings disjoint from the board; HS_1 is
    counted by class (:func:`_class_code`, the same integers as :func:`_uniform_code`).  :func:`_board_slot` ranks such
    a slot by holding when another reader asks for the board (and sets ``cls`` 0).

    ``classes`` ``(6188, 91) int16``: :func:`class_rank_table`, the class ranks of every multiset of five card ranks
    (the same array in every cache of a process; read, never written)."""

    keys: np.ndarray
    r: np.ndarray
    lh: np.ndarray
    packed: np.ndarray
    lr: np.ndarray
    n: np.ndarray
    hs: np.ndarray
    tp: np.ndarray
    pp: np.ndarray
    used: np.ndarray
    cls: np.ndarray
    classes: np.ndarray
    pp_slot: np.ndarray


#: Slots of a :func:`board_cache` (a power of two; 10.6 kB a board, 16 MB when 3/4 full).  More slots keep more
#: boards but cost more memory and more cache misses; fewer re-rank more boards.
BOARD_CACHE_SLOTS = 2048
#: Rows of outs potentials per slot of a :func:`board_cache` (a row per 4-card board, the oldest board's taken when all
#: are given: the 47 turn boards of a flop decision keep theirs).
PP_ROWS_PER_SLOT = 8


class StreetValues(NamedTuple):
    """Hand values of one trial, per player and round: ``hs1``, ``pp``, ``nn``, ``q`` ``(m, 4) float64`` (HS_1, PPot,
    NPot, percentile in its own range)."""

    hs1: np.ndarray
    pp: np.ndarray
    nn: np.ndarray
    q: np.ndarray


class _Memo(NamedTuple):
    """A decision's values of a holding on a later-street board against the ranges (:func:`_values_on_board`): an
    open-addressing hash table keyed by player, holding and the board's card mask: ``key`` ``(K,) int64``
    (``p · 1326 + h + 1``; 0: an empty slot), ``board`` ``(K,) uint64``, ``hs`` and ``q`` ``(K,) float64``, ``used``
    ``(1,) int64``.  A player's field and range are fixed for the decision, so its HS_1 and percentile are
    functions of its holding and the board: a trial whose holding and board an earlier trial of the decision had
    (ours on the next street is one of at most 49 boards) reads the floats the earlier one computed.  Not filled
    beyond 3/4 (later values are computed, not kept)."""

    key: np.ndarray
    board: np.ndarray
    hs: np.ndarray
    q: np.ndarray
    used: np.ndarray


def _memo(slots: int) -> _Memo:
    return _Memo(
        np.zeros(slots, dtype=np.int64), np.zeros(slots, dtype=np.uint64), np.zeros(slots), np.zeros(slots),
        np.zeros(1, dtype=np.int64),
    )  # fmt: skip


_memo_jit = njit(cache=True)(_memo)

#: Slots of a decision's :class:`_Memo` in the believed play-out (a power of two).
MEMO_SLOTS = 8192


class _Trial(NamedTuple):
    # what computing a later street's values needs: the trial's cards, the ranges and scratch (see _street_values)
    board: np.ndarray
    nb0: int
    hole: np.ndarray
    active: np.ndarray
    field: np.ndarray
    rank: np.ndarray
    want_q: np.ndarray
    unit: np.ndarray
    rank_unit: np.ndarray
    hs_tmp: np.ndarray
    q_tmp: np.ndarray
    todo: np.ndarray
    uniform: bool
    boards: BoardCache
    memo: _Memo


def new_scratch(m: int) -> PlayoutScratch:
    """Fresh :class:`PlayoutScratch` for ``m`` players."""
    return PlayoutScratch(
        np.zeros(SIZE, dtype=np.int64),
        np.zeros((NMAX, 3), dtype=np.int64),
        np.zeros((NMAX, m)),
        np.zeros(m),
        np.zeros(m, dtype=np.bool_),
        np.zeros((AWARD_WORK, NMAX), dtype=np.int64),
    )


_HC = np.ascontiguousarray(HOLDING_CARDS.astype(np.int64))
_HM = np.ascontiguousarray(HOLDING_MASKS.astype(np.uint64))


@njit(cache=True, nrt=False)
def _sample_holding(weights, cum_w, p, total, used):
    """Roulette-wheel draw from row ``p`` of the weights ``weights`` (cumulative ``cum_w``, their running sum in
    holding order, total ``total``) among holdings disjoint from mask ``used``; −1 if none.  (The rows are read in
    place: a row view per call costs a reference count.)"""
    if total > 0.0:
        for _ in range(64):
            x = np.random.random() * total
            lo = 0
            hi = N_HOLDINGS - 1
            while lo < hi:
                mid = (lo + hi) >> 1
                if cum_w[p, mid] > x:
                    hi = mid
                else:
                    lo = mid + 1
            # lo is the first holding whose cumulative weight exceeds x, so its own weight is positive (cum_w is the
            # running sum of the non-negative weights: a zero weight would repeat the sum before it): only the cards
            # need checking (reading weights[p, lo] cost a cache miss per draw)
            if (_HM[lo] & used) == 0:
                return lo
        # fallback: exact linear roulette over the live holdings
        s = 0.0
        for h in range(N_HOLDINGS):
            if (_HM[h] & used) == 0:
                s += weights[p, h]
        if s > 0.0:
            x = np.random.random() * s
            acc = 0.0
            last = -1
            for h in range(N_HOLDINGS):
                if (_HM[h] & used) == 0 and weights[p, h] > 0.0:
                    acc += weights[p, h]
                    last = h
                    if acc > x:
                        return h
            return last
    # no live weight: uniform over live holdings
    n = 0
    for h in range(N_HOLDINGS):
        if (_HM[h] & used) == 0:
            n += 1
    if n == 0:
        return -1
    k = int(np.random.random() * n)
    for h in range(N_HOLDINGS):
        if (_HM[h] & used) == 0:
            if k == 0:
                return h
            k -= 1
    return -1


@njit(cache=True, nrt=False)
def sampling_wheel(weights, drawn, cum, totals):
    """The sampler's wheel of a decision (:func:`_sample_holding`): for each player ``p`` with ``drawn[p]``, ``cum[p]``
    the running sum of its weights in holding order (``np.cumsum``'s floats: the same sequential sums) and
    ``totals[p]`` their total; the other rows and totals 0.  One pass, no allocation.

    Args:
        weights: ``(m, 1326) float64`` weight tables.
        drawn: ``(m,) bool`` the players whose holdings are drawn (live opponents).
        cum: ``(m, 1326) float64`` output; totals: ``(m,) float64`` output.

    Returns:
        True when every weight (every row, drawn or not) is finite and non-negative; False otherwise (then the caller
        raises: :func:`loki.simulator.simulate`).
    """
    m = weights.shape[0]
    ok = True
    for p in range(m):
        for h in range(N_HOLDINGS):
            x = weights[p, h]
            ok &= (x >= 0.0) & (x != np.inf)  # False for NaN, negatives and +inf
    for p in range(m):
        if drawn[p]:
            acc = weights[p, 0]
            cum[p, 0] = acc
            for h in range(1, N_HOLDINGS):
                acc += weights[p, h]
                cum[p, h] = acc
            totals[p] = acc
        else:
            for h in range(N_HOLDINGS):
                cum[p, h] = 0.0
            totals[p] = 0.0
    return ok


def board_cache(slots: int = BOARD_CACHE_SLOTS) -> BoardCache:
    """A fresh, empty :class:`BoardCache` of ``slots`` slots (a power of two, ≥ 4) and ``slots / 8`` rows of outs
    potentials (at least 1)."""
    if slots < 4 or slots & (slots - 1):
        raise ValueError(f"board_cache: slots must be a power of two >= 4, got {slots}")
    return BoardCache(
        np.zeros(slots, dtype=np.uint64),
        np.empty((slots, N_HOLDINGS), dtype=np.int16),
        np.empty((slots, N_HOLDINGS), dtype=np.int16),
        np.zeros(slots, dtype=np.bool_),
        np.empty((slots, N_HOLDINGS), dtype=np.int16),
        np.zeros(slots, dtype=np.int64),
        np.empty((slots, N_HOLDINGS), dtype=np.uint16),
        np.zeros(slots, dtype=np.int64),
        np.empty((max(1, slots // PP_ROWS_PER_SLOT), N_HOLDINGS)),
        np.zeros(2, dtype=np.int64),
        np.zeros(slots, dtype=np.int16),
        class_rank_table(),
        np.zeros(max(1, slots // PP_ROWS_PER_SLOT), dtype=np.int64),
    )


@njit(cache=True, inline="always")
def _board_home(bmask, k_slots):
    # the first slot probed for a board of card mask bmask in a table of k_slots slots (a power of two)
    return np.int64((bmask * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(40)) & (k_slots - 1)


@njit(cache=True, nrt=False)
def _new_slot(cache, bmask):
    """The empty slot of :class:`BoardCache` ``cache`` where the board of card mask ``bmask`` (not in it) goes, keyed;
    when ``3K/4`` slots are filled the table is emptied first (the boards of past deals do not recur)."""
    keys = cache.keys
    k_slots = keys.shape[0]
    if 4 * (cache.used[0] + 1) > 3 * k_slots:  # bounded: forget every board (those of past deals do not recur)
        keys[:] = 0
        cache.used[0] = 0
        cache.used[1] = 0
    i = _board_home(bmask, k_slots)
    while keys[i] != 0:
        i = (i + 1) & (k_slots - 1)
    keys[i] = bmask
    cache.used[0] += 1
    return i


@njit(cache=True, inline="always")
def _board_key(board, nb, card_key, card_bit):
    """The evaluator's key sum and suit bits of the cards ``board[:nb]`` (a holding's two cards are added to them to
    rank the seven: ``rank_from_key``)."""
    bk = 0
    bb = 0
    for j in range(nb):
        bk += card_key[board[j]]
        bb |= card_bit[board[j]]
    return bk, bb


@njit(cache=True, nrt=False)
def _rank_holdings(cache, i, board, nb, bmask, tables):
    """Rank every holding disjoint from ``board[:nb]`` (card mask ``bmask``) into slot ``i``'s ``r`` and ``lr`` rows
    and set its ``n``; the slot is then not ranked by class (``cls`` 0) and its live holdings not packed."""
    card_key, card_bit = tables[0], tables[1]
    bk, bb = _board_key(board, nb, card_key, card_bit)
    rk = cache.r[i]
    lr = cache.lr[i]
    n = 0
    for h in range(N_HOLDINGS):
        if (_HM[h] & bmask) == 0:
            a = _HC[h, 0]
            b = _HC[h, 1]
            r = rank_from_key(bk + card_key[a] + card_key[b], bb | card_bit[a] | card_bit[b], tables)
            rk[h] = r
            lr[n] = r
            n += 1
    cache.n[i] = n
    cache.packed[i] = False
    cache.cls[i] = 0


@njit(cache=True, inline="always")
def _clear_values(cache, i, nb):
    # no HS_1 asked yet on the new board of slot i; a 4-card board gets a row of outs potentials, none asked yet: the
    # rows are given in turn, and once all are given the oldest board's row is taken (that board's potentials are
    # then computed when asked)
    for h in range(N_HOLDINGS):
        cache.hs[i, h] = 0
    cache.tp[i] = -1
    if nb == 4:
        n_rows = cache.pp.shape[0]
        row = cache.used[1] % n_rows
        if cache.used[1] >= n_rows and cache.tp[cache.pp_slot[row]] == row:
            cache.tp[cache.pp_slot[row]] = -1
        cache.used[1] += 1
        cache.pp_slot[row] = i
        cache.tp[i] = row
        for h in range(N_HOLDINGS):
            cache.pp[row, h] = -1.0


@njit(cache=True, nrt=False)
def _board_slot(cache, board, nb, tables):
    """``(slot, mask)``: the slot of :class:`BoardCache` ``cache`` that holds ``board[:nb]`` (ranked on a miss:
    every holding disjoint from the board, HS_1 unknown; a slot ranked by class only is ranked by holding now, its
    HS_1 kept) and the board's card mask."""
    keys = cache.keys
    k_slots = keys.shape[0]
    bmask = np.uint64(0)
    for i in range(nb):
        bmask |= np.uint64(1) << np.uint64(board[i])
    i = _board_home(bmask, k_slots)
    while keys[i] != 0:
        if keys[i] == bmask:
            if cache.cls[i] != 0:
                _rank_holdings(cache, i, board, nb, bmask, tables)
            return i, bmask
        i = (i + 1) & (k_slots - 1)
    i = _new_slot(cache, bmask)
    _rank_holdings(cache, i, board, nb, bmask, tables)
    _clear_values(cache, i, nb)
    return i, bmask


#: By the 4 bits of the suits of one rank (bit ``s`` for suit ``s``): the suits not set (cards of that rank left).
_LEFT = np.array([4 - bin(k).count("1") for k in range(16)], dtype=np.int64)
#: The 78 classes of two ranks ``x > y``.
_CLASS_X = np.array([x for x in range(13) for y in range(x)], dtype=np.int64)
_CLASS_Y = np.array([y for x in range(13) for y in range(x)], dtype=np.int64)
#: The cards of suit ``s`` as a 52-bit mask (card = 4 * rank + suit).
_SUIT_MASK = np.array([sum(1 << (4 * x + s) for x in range(13)) for s in range(4)], dtype=np.uint64)


@njit(cache=True, inline="always")
def _flush_suit(bmask):
    """``(suit, count)``: the suit that shows three or more times among the cards of ``bmask`` (at most one does on a
    board of five) and how often, or ``(-1, 0)``: then no holding makes a flush with the board."""
    for su in range(4):
        w = bmask & _SUIT_MASK[su]
        k = 0
        while w:
            w &= w - np.uint64(1)
            k += 1
        if k >= 3:
            return su, k
    return -1, 0


#: ``C(n, k)`` for ``n < 18``, ``k < 6``: the combinatorial number system of :func:`_rank_multiset`.
_BINOM = np.array([[math.comb(n, k) for k in range(6)] for n in range(18)], dtype=np.int64)
#: The multisets of five card ranks, ``C(17, 5)`` (five of a rank included: their rows are never read).
N_RANK_MULTISETS = math.comb(17, 5)
#: The holdings that can make a flush with a river board (:func:`_rank_by_class`): at most 378 (one card of the suit
#: with four on the board), packed after the 91 class ranks of a row.
_MAX_FLUSH_HOLDINGS = 378
#: The classes of two card ranks ``x >= y``: column ``x (x + 1) / 2 + y`` of :func:`class_rank_table` and of a river
#: board's row ranked by class (:func:`_class_column`).
N_CLASS_COLUMNS = 91
#: The holdings disjoint from a river board.
_RIVER_LIVE = (52 - 5) * (51 - 5) // 2


@njit(cache=True, nrt=False, inline="always")
def _rank_multiset(bmask):
    """The index ``0 .. 6187`` of the multiset of card ranks of the five cards of mask ``bmask``: with the ranks
    sorted, ``r_0 <= ... <= r_4``, the five distinct numbers ``r_i + i`` of ``0 .. 16`` in the combinatorial number
    system, ``sum_i C(r_i + i, i + 1)``."""
    idx = 0
    i = 0
    for x in range(13):
        k = 4 - _LEFT[(bmask >> np.uint64(4 * x)) & np.uint64(15)]  # the cards of rank x
        for _ in range(k):
            idx += _BINOM[x + i, i + 1]
            i += 1
    return idx


@njit(cache=True, inline="always")
def _class_column(x, y):
    """The column ``x (x + 1) / 2 + y`` (0 .. 90) of the class of two card ranks ``x >= y`` (0 = two .. 12 = ace) in
    :func:`class_rank_table` and in a river board's row ranked by class (:func:`_rank_by_class`).

    >>> _class_column(0, 0), _class_column(12, 11), _class_column(12, 12)
    (0, 89, 90)
    """
    return x * (x + 1) // 2 + y


@njit(cache=True)
def _class_rank_rows(tables):
    # class_rank_table's rows: for every multiset of five ranks (at most four of each), at _class_column(x, y)
    # (x >= y) the rank of the seven cards with two more of ranks x and y and no flush (the evaluator's rank of the
    # rank-key sum, its suit counters left at zero), -1 where the seven would hold five of a rank
    out = np.full((N_RANK_MULTISETS, N_CLASS_COLUMNS), -1, dtype=np.int16)
    cnt = np.zeros(13, dtype=np.int64)
    for r0 in range(13):
        for r1 in range(r0, 13):
            for r2 in range(r1, 13):
                for r3 in range(r2, 13):
                    for r4 in range(r3, 13):
                        cnt[:] = 0
                        cnt[r0] += 1
                        cnt[r1] += 1
                        cnt[r2] += 1
                        cnt[r3] += 1
                        cnt[r4] += 1
                        if cnt.max() > 4:
                            continue
                        mask = np.uint64(0)  # five cards of these ranks (the lowest suits free)
                        for r in (r0, r1, r2, r3, r4):
                            k = 0
                            while (mask >> np.uint64(4 * r + k)) & np.uint64(1):
                                k += 1
                            mask |= np.uint64(1) << np.uint64(4 * r + k)
                        idx = _rank_multiset(mask)
                        bk = RANK_KEYS[r0] + RANK_KEYS[r1] + RANK_KEYS[r2] + RANK_KEYS[r3] + RANK_KEYS[r4]
                        for x in range(13):
                            for y in range(x + 1):
                                if cnt[x] + 1 + (x == y) > 4 or cnt[y] + 1 > 4:
                                    continue
                                key = (bk + RANK_KEYS[x] + RANK_KEYS[y]) << RANK_SHIFT
                                out[idx, _class_column(x, y)] = rank_from_key(key, 0, tables)
    return out


@functools.cache
def class_rank_table() -> np.ndarray:
    """The rank of every class of two card ranks on every multiset of five card ranks, without a flush: ``(6188, 91)
    int16``, row :func:`_rank_multiset` of a board's card mask, column ``x (x + 1) / 2 + y`` (``x >= y``, card ranks
    0 = two .. 12 = ace) the evaluator's rank (1..7462) of the board with two cards of ranks ``x`` and ``y`` when the
    seven make no flush (-1 where they would hold five cards of a rank).  Without a flush a hand's rank depends on its
    card ranks only, so a river board's 91 class ranks are read here instead of ranked (:func:`_rank_by_class`).  Made
    once per process (~5 ms; 1.1 MB) and shared, read-only, by every :class:`BoardCache`.  Source: the evaluator's
    rank scale (:mod:`loki.evaluator`)."""
    from loki.evaluator import kernel_tables

    out = _class_rank_rows(kernel_tables())
    out.flags.writeable = False
    return out


@njit(cache=True, nrt=False)
def _rank_by_class(board, nb, bmask, fs, fc, classes, row, rk, lh, tables):
    """Rank the river board ``board[:nb]`` (card mask ``bmask``; ``(fs, fc)`` its :func:`_flush_suit`, ``fc < 5``) by
    rank class: ``row[x (x + 1) / 2 + y]`` (:func:`_class_column`) the rank of the holdings of card ranks ``x >= y``
    that make no flush (from the table ``classes``, :func:`class_rank_table`; where none is left, the rank they would
    have: a class without holdings is counted zero times), then the holdings that make a flush one by one (none
    without three cards of a suit, the 45 holding two of the suit with three, the 378 holding one with four), their
    ranks (the evaluator's flush table: with seven cards a flush excludes a full house) at ``row[91 + j]`` and at their
    holding in ``rk``, the holdings in ``lh``.  ``row`` ``(>= 91 + 378,)``, ``rk`` ``(1326,)``, ``lh`` ``(>= 378,)``
    int16 (:data:`_MAX_FLUSH_HOLDINGS`).  Returns the number of
    flush holdings ``nf`` (:func:`_class_code` reads the result)."""
    src = classes[_rank_multiset(bmask)]
    for j in range(N_CLASS_COLUMNS):
        row[j] = src[j]
    nf = 0
    if fc >= 3:
        card_bit, flush_table = tables[1], tables[3]
        bb = 0
        for j in range(nb):
            bb |= card_bit[board[j]]
        shift = np.uint64(13 * fs)
        for x in range(13):  # a card of the flush suit off the board, with a later one (three) or any other (four)
            a = 4 * x + fs
            if (bmask >> np.uint64(a)) & np.uint64(1):
                continue
            b0, step = (a + 4, 4) if fc == 3 else (0, 1)
            for b in range(b0, 52, step):
                if b == a or (bmask >> np.uint64(b)) & np.uint64(1):
                    continue
                if (b & 3) == fs and b < a:  # two of the suit: listed once, from the lower
                    continue
                h = HOLDING_INDEX[a, b]
                r = flush_table[(np.uint64(bb | card_bit[a] | card_bit[b]) >> shift) & np.uint64(0x1FFF)]
                rk[h] = r
                row[N_CLASS_COLUMNS + nf] = r  # packed after the classes, with the holding, for _class_code
                lh[nf] = h
                nf += 1
    return nf


@njit(cache=True, nrt=False)
def _board_slot_uniform(cache, board, nb, tables):
    """:func:`_board_slot` for the uniform play-out's new boards (the caller found ``board[:nb]`` missing): a river
    board with at most four cards of a suit is ranked by rank class (``cls``, :class:`BoardCache`).  A holding that
    makes no flush there has the rank of its class of two card ranks (:func:`rank_from_key` reads the suits only for
    a flush), so 91 class ranks (at ``x (x + 1) / 2 + y`` of the slot's ``lr`` row) serve the 1,081 holdings but those
    that make a flush, which are ranked one by one (:func:`_rank_by_class`).  A board of five suited cards is ranked by
    holding.  Returns the slot."""
    bmask = np.uint64(0)
    for i in range(nb):
        bmask |= np.uint64(1) << np.uint64(board[i])
    fs, fc = _flush_suit(bmask)
    if nb != 5 or fc == 5:
        return _board_slot(cache, board, nb, tables)[0]
    i = _new_slot(cache, bmask)
    nf = _rank_by_class(board, nb, bmask, fs, fc, cache.classes, cache.lr[i], cache.r[i], cache.lh[i], tables)
    cache.n[i] = _RIVER_LIVE
    cache.packed[i] = False
    cache.cls[i] = 1 + nf
    _clear_values(cache, i, nb)
    return i


@njit(cache=True, nrt=False)
def _class_code(lr_all, r_all, lh_all, nf, slot, h, bmask):
    """:func:`_uniform_code` of holding ``h`` on a river board ranked by class (slot ``slot`` of a :class:`BoardCache`
    with ``cls`` ``1 + nf``; its ``lr``, ``r``, ``lh`` arrays ``lr_all``, ``r_all``, ``lh_all``): the holdings
    disjoint from ``h`` and the board that make no flush counted class by class, those that do one by one (the ``nf``
    packed in ``lr`` and ``lh``).  With ``L_x`` the cards of rank ``x`` on neither and ``A_x`` whether the
    one of the flush suit is among them, class ``(x > y)`` counts ``L_x L_y`` (no flush suit), ``L_x L_y - A_x A_y`` (three of
    it on the board) or ``(L_x - A_x)(L_y - A_y)`` (four), the pair ``(x, x)`` ``L(L - 1) / 2`` with ``L = L_x``
    (``L_x - A_x`` with four): the integers :func:`_uniform_code` counts."""
    row = lr_all[slot]
    a = _HC[h, 0]
    b = _HC[h, 1]
    fs, fc = _flush_suit(bmask)
    hm = _HM[h]
    own = 0
    if fc >= 3 and hm & _SUIT_MASK[fs]:
        own = 2 if (hm & _SUIT_MASK[fs]) & ((hm & _SUIT_MASK[fs]) - np.uint64(1)) else 1
    if fc >= 3 and own >= 5 - fc:  # h makes a flush: its own rank
        rp = r_all[slot, h]
    else:
        xa = a >> 2
        xb = b >> 2
        rp = row[_class_column(xa, xb)] if xa >= xb else row[_class_column(xb, xa)]
    used = bmask | hm
    lw = np.uint64(0)  # L_x in the nibble of rank x (L_x - A_x with four of the flush suit)
    am = np.uint64(0)  # A_x in bit x (none with four of the flush suit: its cards are counted out of L)
    for x in range(13):
        lx = np.uint64(_LEFT[(used >> np.uint64(4 * x)) & np.uint64(15)])  # cards of rank x on neither
        ax = np.uint64(0)
        if fs >= 0:
            ax = np.uint64(1) - ((used >> np.uint64(4 * x + fs)) & np.uint64(1))
        if fc == 4:
            lx -= ax
            ax = np.uint64(0)
        lw |= lx << np.uint64(4 * x)
        am |= ax << np.uint64(x)
    na = 0
    nt = 0
    for x in range(13):  # the pairs
        lx = np.int64((lw >> np.uint64(4 * x)) & np.uint64(15))
        k = lx * (lx - 1) // 2
        r = row[_class_column(x, x)]
        na += k * (r < rp)
        nt += k * (r == rp)
    for j in range(78):  # the classes of two ranks x > y
        x = _CLASS_X[j]
        y = _CLASS_Y[j]
        k = np.int64((lw >> np.uint64(4 * x)) & np.uint64(15)) * np.int64((lw >> np.uint64(4 * y)) & np.uint64(15))
        k -= np.int64((am >> np.uint64(x)) & (am >> np.uint64(y)) & np.uint64(1))
        r = row[_class_column(x, y)]
        na += k * (r < rp)
        nt += k * (r == rp)
    lh = lh_all[slot]
    for j in range(nf):  # the holdings that make a flush (their ranks and holdings packed), but those sharing a card
        k = np.int64((_HM[lh[j]] & hm) == 0)  # with h
        r = row[N_CLASS_COLUMNS + j]
        na += k * (r < rp)
        nt += k * (r == rp)
    return 1 + 2 * na + nt


@njit(cache=True, inline="always")
def _uniform_total(n, nb):
    """The holdings (a float) a holding on a board of ``nb`` cards is counted against by :func:`_uniform_code`: the
    board's ``n`` live holdings less the ``2 (51 - nb)`` that hold one of its two cards, itself counted once."""
    return float(n - 2 * (51 - nb) + 1)


@njit(cache=True, inline="always")
def _hs_of(code, n, nb):
    """HS_1 ``(ahead + tied / 2) / total`` from its count's whole number ``code = 1 + 2 · ahead + tied``
    (:func:`_uniform_code`) on a board of ``nb`` cards with ``n`` holdings disjoint from it (``total`` the holdings
    disjoint from the board and the holding, :func:`_uniform_total`); 0.0 when there are none.  ``(code - 1) / 2`` is
    ``ahead + tied / 2`` exactly, so the float is the one the counts give."""
    tot = _uniform_total(n, nb)
    return (0.5 * float(code - 1)) / tot if tot > 0 else 0.0


@njit(cache=True, nrt=False)
def _uniform_code(r_all, lr_all, n, slot, h, bmask):
    """The count behind HS_1 of holding ``h`` against a uniform range on the board of slot ``slot`` of a
    :class:`BoardCache` (its ``r`` and ``lr`` arrays ``r_all``, ``lr_all``, its ``n[slot]`` ``n``; card mask
    ``bmask``), with card removal: ``1 + 2 · ahead + tied`` over the holdings disjoint from ``h`` and the board,
    ``h`` itself counted as a tie (:func:`_hs_of` makes HS_1 of it: the same floats as :func:`_values_on_board` with
    an all-ones field).  The counts over all live holdings (one pass over the packed ranks) less those of the holdings
    that hold one of ``h``'s cards ``a``, ``b`` (``h`` itself, in both, is added back once)."""
    rk = r_all[slot]
    lr = lr_all[slot]
    rp = rk[h]
    na32 = np.int32(0)  # int32 counts (at most 1,326): twice the lanes of int64 in the vectorised loop
    nt32 = np.int32(0)
    for j in range(n):
        r = lr[j]
        na32 = np.int32(na32 + np.int32(r < rp))
        nt32 = np.int32(nt32 + np.int32(r == rp))
    a = _HC[h, 0]
    b = _HC[h, 1]
    # less the holdings that hold a or b (branch-free: x on the board or x == a adds 0; HOLDING_INDEX[a, a] is -1, a
    # valid read of the row's last entry that is then not counted)
    for x in range(52):
        off = np.int32(1) - np.int32((bmask >> np.uint64(x)) & np.uint64(1))
        ka = off * np.int32(x != a)
        kb = off * np.int32(x != b)
        ra = rk[HOLDING_INDEX[a, x]]
        rb = rk[HOLDING_INDEX[b, x]]
        na32 = np.int32(na32 - ka * np.int32(ra < rp) - kb * np.int32(rb < rp))
        nt32 = np.int32(nt32 - ka * np.int32(ra == rp) - kb * np.int32(rb == rp))
    na = np.int64(na32)
    nt = np.int64(nt32)
    nt += 1
    return 1 + 2 * na + nt


@njit(cache=True, inline="always")
def _memo_find(memo, key, bmask):
    """The slot of :class:`_Memo` ``memo`` holding ``(key, bmask)``, or the empty slot where it would go."""
    k_slots = memo.key.shape[0]
    x = (bmask ^ (np.uint64(key) * np.uint64(0xC2B2AE3D27D4EB4F))) * np.uint64(0x9E3779B97F4A7C15)
    i = np.int64(x >> np.uint64(40)) & (k_slots - 1)
    while memo.key[i] != 0:
        if memo.key[i] == key and memo.board[i] == bmask:
            return i
        i = (i + 1) & (k_slots - 1)
    return i


@njit(cache=True, nrt=False)
def _values_on_board(cache, slot, t, nb):
    """For every player ``p`` of the trial ``t`` (:class:`_Trial`) with ``t.todo[p]``: HS_1 of its holding on the board of slot
    ``slot`` of the :class:`BoardCache` ``cache`` against its field ``t.field[p]``
    (card removal of its own cards and the board; all-ones rows give the uniform-range HS_1 exactly) into
    ``t.hs_tmp[p]`` and, if ``t.want_q[p]``, its percentile within the range it is ranked in ``t.rank[p]`` (the weight it beats
    plus half the weight it ties, over the total) into ``t.q_tmp[p]`` (left alone otherwise).

    The board's holding ranks are the cache's (computed once per board for every player, decision and seating:
    :func:`_board_slot`): the ``n`` live holdings ``lh`` in holding order (packed on the first request of the board)
    and their ranks ``lr``, each player's own rank read from the full row ``r``.  The per-player sums are branch-free and add the weights in holding order, so
    they are the same floats as a plain loop's.  A player whose field is all ones (``unit[p]``) gets its HS_1 from the
    board's row of uniform HS_1 (its count's whole number, computed on its first request by :func:`_uniform_code` and
    kept, the floats of the counts: a sum of ones is exact), and its percentile too when it is ranked among all the
    holdings (``rank_unit[p]``: the percentile is then the same count); ``nb`` is the board's number of cards.  A
    player's values of a holding on a board are kept for the decision's later trials in ``t.memo`` (:class:`_Memo`) and
    read from there.
    """
    m = t.hole.shape[0]
    n = cache.n[slot]
    live_h = cache.lh[slot]
    bmask = cache.keys[slot]
    if not cache.packed[slot]:  # the live holdings, in holding order (the order of lr)
        k = 0
        for h in range(N_HOLDINGS):
            if (_HM[h] & bmask) == 0:
                live_h[k] = h
                k += 1
        cache.packed[slot] = True
    live_r = cache.lr[slot]
    rk = cache.r[slot]
    memo = t.memo
    for p in range(m):
        if not t.todo[p]:
            continue
        a = t.hole[p, 0]
        b = t.hole[p, 1]
        hp = HOLDING_INDEX[a, b]
        key = p * N_HOLDINGS + hp + 1
        i_memo = _memo_find(memo, key, bmask)
        if memo.key[i_memo] != 0:
            t.hs_tmp[p] = memo.hs[i_memo]
            if t.want_q[p]:
                t.q_tmp[p] = memo.q[i_memo]
            continue
        pm = (np.uint64(1) << np.uint64(a)) | (np.uint64(1) << np.uint64(b))
        rp = rk[hp]
        fw = t.field[p]
        ow = t.rank[p]
        ahead = 0.0
        tied = 0.0
        tot = 0.0
        if t.unit[p]:
            code = np.int64(cache.hs[slot, hp])
            if code == 0:  # not asked yet on this board
                code = _uniform_code(cache.r, cache.lr, n, slot, hp, bmask)
                cache.hs[slot, hp] = code
            tot = _uniform_total(n, nb)
            ahead = 0.5 * float(code - 1)  # ahead + tied / 2, exactly (tied stays 0: HS_1 is ahead / tot)
            if t.want_q[p] and t.rank_unit[p]:
                t.q_tmp[p] = ahead / tot if tot > 0 else 0.5
            elif t.want_q[p]:
                qa = 0.0
                qt = 0.0
                qtot = 0.0
                for j in range(n):
                    h = live_h[j]
                    ok = (_HM[live_h[j]] & pm) == 0
                    r = live_r[j]
                    v = ow[h] if ok else 0.0
                    qtot += v
                    qa += v if r < rp else 0.0
                    qt += v if r == rp else 0.0
                t.q_tmp[p] = (qa + 0.5 * qt) / qtot if qtot > 0 else 0.5
        elif t.want_q[p]:
            qa = 0.0
            qt = 0.0
            qtot = 0.0
            for j in range(n):
                h = live_h[j]
                ok = (_HM[live_h[j]] & pm) == 0
                r = live_r[j]
                w = fw[h] if ok else 0.0
                v = ow[h] if ok else 0.0
                lt = r < rp
                eq = r == rp
                tot += w
                ahead += w if lt else 0.0
                tied += w if eq else 0.0
                qtot += v
                qa += v if lt else 0.0
                qt += v if eq else 0.0
            t.q_tmp[p] = (qa + 0.5 * qt) / qtot if qtot > 0 else 0.5
        else:
            for j in range(n):
                h = live_h[j]
                ok = (_HM[live_h[j]] & pm) == 0
                r = live_r[j]
                w = fw[h] if ok else 0.0
                tot += w
                ahead += w if r < rp else 0.0
                tied += w if r == rp else 0.0
        t.hs_tmp[p] = (ahead + 0.5 * tied) / tot if tot > 0 else 0.0
        if 4 * (memo.used[0] + 1) <= 3 * memo.key.shape[0]:
            memo.key[i_memo] = key
            memo.board[i_memo] = bmask
            memo.hs[i_memo] = t.hs_tmp[p]
            memo.q[i_memo] = t.q_tmp[p]
            memo.used[0] += 1


@njit(cache=True, nrt=False)
def _cached_ppot(pp, row, h, board, nb, tables):
    # PPot of holding h on board[:nb]: 0 on the river (where ppot_outs is 0); on a 4-card board from row `row` of the
    # cache's outs potentials `pp` (computed on the first request, -1 before; symmetric in the two hole cards, so one
    # entry per holding), or computed each time when the board has no row (row -1)
    if nb != 4:
        return 0.0
    if row >= 0:
        y = pp[row, h]
        if y >= 0.0:
            return y
    y = ppot_outs(_HC[h, 0], _HC[h, 1], board, nb, tables)
    if row >= 0:
        pp[row, h] = y
    return y


@njit(cache=True, nrt=False)
def _street_values(s, t, v, tables, st, ready):
    """Fill the hand values of street ``s`` (1..3, a later street than the decision's) for the players of the trial
    ``t`` (:class:`_Trial`) whose values are not ``ready[p, s]`` yet into ``v`` (:class:`StreetValues`):
    ``hs1[p, s]``, ``q[p, s]``, ``pp[p, s]`` (:func:`loki.assessment.outs.ppot_outs`), ``nn[p, s] = 0``; sets their
    ``ready[p, s]``.  The weighted fields' case (not ``t.uniform``; the uniform play-out's values are read from the
    :class:`BoardCache` by :func:`_play` itself, with the same floats).

    The board's row of the :class:`BoardCache` ``t.boards`` (shared by decisions, hands and seatings) gives the
    holding ranks and PPot on a 4-card board, computed on the first request of the holding on that board (its value
    does not depend on the order of the hole cards; :func:`ppot_outs` is 0 on the river).  HS_1 is computed against
    each player's field from the row's ranks (:func:`_values_on_board`) for the players still in the play-out (not
    folded in the betting state ``st``): a player's values depend on its holding and the board only, so one who folded
    before the street costs nothing and the floats are those of computing everybody's."""
    board, hole, active, todo = t.board, t.hole, t.active, t.todo
    m = hole.shape[0]
    nb = s + 2
    slot, bmask = _board_slot(t.boards, board, nb, tables)
    pp_all = t.boards.pp
    pp_row = t.boards.tp[slot]
    for p in range(m):
        todo[p] = active[p] and st[FOLDED + p] == 0 and not ready[p, s]
        if todo[p]:
            ready[p, s] = True
    _values_on_board(t.boards, slot, t, nb)
    for p in range(m):
        if todo[p]:
            h = HOLDING_INDEX[hole[p, 0], hole[p, 1]]
            v.hs1[p, s] = t.hs_tmp[p]
            v.q[p, s] = t.q_tmp[p]
            v.pp[p, s] = _cached_ppot(pp_all, pp_row, h, board, nb, tables)
            v.nn[p, s] = 0.0


@njit(cache=True, nrt=False)
def _row_params(pa, p):
    # row p of a (m, 11) parameter array as TripleParams, column i = field i (the writer is
    # loki.triples.rule_chain.params_row; tests/test_config_cannot_lie.py ties the two field by field)
    return TripleParams(
        pa[p, 0], pa[p, 1], pa[p, 2], pa[p, 3], pa[p, 4] > 0.5, pa[p, 5], pa[p, 6], pa[p, 7], pa[p, 8], pa[p, 9], pa[p, 10]
    )  # fmt: skip


@njit(cache=True, nrt=False)
def _check_raise_condition(st, p, m):
    """Public check-raise condition of ``p`` to act: first to act this round, with a live player behind it who
    raised in the previous round and has not acted yet (loki-algorithms.md §3 rule 6)."""
    if st[N_ACTIONS] != 0:
        return False
    for q in range(m):
        if q != p and st[RAISED_LAST + q] != 0 and st[FOLDED + q] == 0 and st[ACTED + q] == 0:
            return True
    return False


@njit(cache=True, nrt=False)
def _mixed(mix, p):
    # a player whose triple is not the rules alone (the frequency expert or the card-blind expert has weight)
    return mix[p, 0] != 1.0 or mix[p, 1] != 0.0 or mix[p, 2] != 0.0


@njit(cache=True)
def playout(forced, spot, values, u, ranks, policies, scratch, trace):
    """Play one trial from the decision point; returns our chips won minus chips put in from now on.

    The betting is the :mod:`loki.betting` core on a copy of the state vector ``spot.st0`` (the spot: players in
    post-flop acting order, ``spot.me`` to act, unlimited stacks, the ``"split"`` pot rule, chips already in the pot
    as ``DEAD``).  Our first action is ``forced`` (1 check/call, 2 bet/raise); afterwards each player samples its
    PT, or checks/calls in the ``always_call`` variant; a wanted action that is not legal becomes the nearest legal
    one (:func:`loki.betting.legalise`).  The pot goes to the best ``ranks`` (:func:`loki.betting.award_into`).

    A player's PT is its rule chain (:func:`loki.triples.rule_chain.pt_kernel` with its own parameters
    ``policies.params[p]`` and its hand values), in the believed play-out mixed with the frequency expert and its
    card-blind frequencies by ``policies.mix[p]`` (:class:`PlayoutPolicies`).  The paper's play-out
    (``policies.believed`` False) gives every player one uniform number ``u[p, 0]`` for all its decisions of the
    trial, no check-raise and no semi-bluff continuation; the believed play-out draws one number per decision
    (``u[p, k]``), gives the rules their check-raise condition from the public state and keeps each player's
    semi-bluff (:func:`loki.triples.rule_chain.semi_bluff_gate`; ``policies.semi0`` at the start).

    Args:
        forced: our first action (``CALL_A`` or ``RAISE_A``).
        spot: :class:`PlayoutSpot`.
        values: :class:`StreetValues` of every player and round the play-out reaches (all computed beforehand).
        u: ``(m, k) float64`` uniform numbers per player (``k = 1`` in the paper's play-out).
        ranks: ``(m,) int64`` each player's 7-card rank on the full board.
        policies: :class:`PlayoutPolicies`.
        scratch: :class:`PlayoutScratch` (:func:`new_scratch`).
        trace: ``(k, SIZE + 1) int64``: if ``k > 0``, row ``i`` receives the state vector before the ``i``-th action
            of the play-out and, in its last column, the action taken (tests compare the play-out with the engine);
            ``k = 0`` in play.

    Returns:
        float64 chips: ``win[me] - invest`` if we win (a share of) the pot, else ``-invest``, where ``invest`` is
        what we put in from the decision on.
    """
    return _play(forced, spot, values, u, ranks, policies, scratch, trace, None)


@njit(cache=True, inline="always")
def _play(forced, spot, values, u, ranks, policies, scratch, trace, lazy):  # noqa: C901 - the trial loop of a numba kernel, kept whole: an inlined call reference-counts its array arguments per trial
    """:func:`playout`, or (``lazy`` not None) a run of a decision's trials, each dealt and played out twice.

    ``lazy`` is None (one play-out of ``forced``; every street's values are given) or the trials' work
    ``(trial, ready, tables, ranges, base_used, deck, i0, n_trials, out_call, out_raise, out_holes, street_slot,
    river)``
    (:func:`_run_trials`): trials ``i0 .. i0 + n_trials - 1`` are dealt (opponents by :func:`_sample_holding`), given their values on
    the decision's street from ``ranges`` (:class:`PlayoutRanges`) and played out with our first action forced to
    check/call, then to bet/raise (``forced`` unused), their outcomes written to ``out_call``, ``out_raise``.
    ``ready[p, s]`` tells whether ``values`` hold street ``s`` of player ``p``; if not, its first decision on street
    ``s`` computes them (the believed play-out: for every player still in, :func:`_street_values` for the
    :class:`_Trial` ``trial``; the uniform play-out: its own, from the board's slot of the :class:`BoardCache`, kept
    for the street in ``street_slot``, or in a flop decision from the trial's river board ranked by class into the
    rows of ``river``, :func:`_rank_by_class`) into the same arrays and sets ``ready[p, s]``, so the other branch of the
    trial reuses them and a street the play-out never reaches, or a player who folded before it, costs nothing.  The values do not depend on the
    play-out (no random numbers are drawn), so the result is the same as computing them all first.

    The trial loop is inside this function (not around its calls) so that the arrays of its arguments are bound
    (reference-counted) once per run of trials, not twice per trial.

    Returns:
        the outcome of the play-out (``lazy`` None), else 0.0.
    """
    st0 = spot.st0
    me = spot.me
    bet_sizes = spot.bet_sizes
    always_call = spot.always_call
    hs1 = values.hs1
    pp = values.pp
    nn = values.nn
    q = values.q
    believed = policies.believed
    params = policies.params
    mix = policies.mix
    freqs = policies.freqs
    rho = policies.rho
    softness = policies.softness
    semi0 = policies.semi0
    st = scratch.st
    pots = scratch.pots
    shares = scratch.shares
    win = scratch.win
    semi = scratch.semi
    work = scratch.work
    m = st0[N]
    ku = u.shape[1]
    k_used = np.zeros(m, dtype=np.int64)
    n_loop = 1
    n_branch = 1
    if lazy is not None:
        n_loop = lazy[7]
        n_branch = 2
    if lazy is not None:  # the run's arrays, bound once
        n_loop = lazy[7]
        n_branch = 2
        trial, ready, tables, ranges, base_used, deck, i0 = (
            lazy[0],
            lazy[1],
            lazy[2],
            lazy[3],
            lazy[4],
            lazy[5],
            lazy[6],
        )
        out_call, out_raise, out_holes, street_slot = lazy[8], lazy[9], lazy[10], lazy[11]
        rrow, rrk, rlh, rmeta = lazy[12]
        hole, board, active0, nb0, uniform, q_tmp, want_q = (
            trial.hole,
            trial.board,
            trial.active,
            trial.nb0,
            trial.uniform,
            trial.q_tmp,
            trial.want_q,
        )
        boards = trial.boards
        bkeys, bhs, bpp, btp = boards.keys, boards.hs, boards.pp, boards.tp
        br_all, blr_all, blh_all, bn, bcls = boards.r, boards.lr, boards.lh, boards.n, boards.cls
        bclasses = boards.classes
        weights, cum, totals = ranges.weights, ranges.cum, ranges.totals
        # a flop decision's trials rank their river boards themselves: of the 1,081 turn and river cards a trial draws
        # two, so a river board seldom recurs and a row of the board cache (written in memory no other trial reads)
        # would cost more than it serves; a turn decision's 48 river boards recur and stay in the cache
        local_river = uniform and nb0 == 3
        hs_now, q_now, pp_now, nn_now = ranges.hs_now, ranges.q_now, ranges.pp_now, ranges.nn_now
    result = 0.0
    for k_trial in range(n_loop):
        i_trial = 0
        if lazy is not None:
            i_trial = i0 + k_trial
            # the trial's cards and numbers, in the order the random numbers are drawn: each live opponent's holding
            # from its weights (_sample_holding), the rest of the board, each player's uniform numbers and 7-card rank
            used = base_used
            for p in range(m):
                if p == me or not active0[p]:
                    continue
                h = _sample_holding(weights, cum, p, totals[p], used)
                hole[p, 0] = _HC[h, 0]
                hole[p, 1] = _HC[h, 1]
                used |= _HM[h]
                out_holes[i_trial, p] = h
            nd = 0
            for c in range(52):
                if (used >> np.uint64(c)) & np.uint64(1) == 0:
                    deck[nd] = c
                    nd += 1
            for ib in range(nb0, 5):
                j = ib - nb0 + int(np.random.random() * (nd - (ib - nb0)))
                tmp = deck[ib - nb0]
                deck[ib - nb0] = deck[j]
                deck[j] = tmp
                board[ib] = deck[ib - nb0]
            for p in range(m):
                u[p, 0] = np.random.random()
                if active0[p]:
                    ranks[p] = rank7(hole[p, 0], hole[p, 1], board[0], board[1], board[2], board[3], board[4], tables)
            if ku > 1:  # the believed play-out: one number per decision
                for p in range(m):
                    for k in range(1, ku):
                        u[p, k] = np.random.random()
            if not always_call:
                street = nb0 - 2
                for p in range(m):
                    if active0[p]:
                        h = HOLDING_INDEX[hole[p, 0], hole[p, 1]]
                        hs1[p, street] = hs_now[p, h]
                        q[p, street] = q_now[p, h]
                        pp[p, street] = pp_now[h]
                        nn[p, street] = nn_now[h]
                for s in range(street + 1, 4):
                    street_slot[0, s] = -1
                    for p in range(m):
                        ready[p, s] = False
                rmeta[0] = 0  # the trial's river board not ranked yet
                if uniform:  # the later boards' rows in the board cache, fetched ahead for every player's holding
                    bm = np.uint64(0)
                    for ib in range(nb0):
                        bm |= np.uint64(1) << np.uint64(board[ib])
                    for s in range(street + 1, 4):
                        bm |= np.uint64(1) << np.uint64(board[s + 1])
                        if s == 3 and local_river:
                            break
                        slot = _board_home(bm, bkeys.shape[0])
                        while bkeys[slot] != 0 and bkeys[slot] != bm:
                            slot = (slot + 1) & (bkeys.shape[0] - 1)
                        if bkeys[slot] == bm:
                            street_slot[0, s] = slot
                            street_slot[1, s] = np.int64(bm)
                            pp_row = btp[slot]  # a 4-card board's row of outs potentials (-1: none)
                            for p in range(m):
                                if active0[p]:
                                    hh = HOLDING_INDEX[hole[p, 0], hole[p, 1]]
                                    prefetch(bhs, slot, hh)
                                    if pp_row >= 0:
                                        prefetch(bpp, pp_row, hh)
        for br in range(n_branch):
            fa = forced
            if lazy is not None:
                fa = CALL_A if br == 0 else RAISE_A
            for k in range(SIZE):  # st[:] = st0 as a plain loop (the slice assignment checked every index)
                st[k] = st0[k]
            for p in range(m):
                semi[p] = semi0[p]
                k_used[p] = 0
            first = True
            i = 0
            while st[CUR] >= 0:
                p = st[CUR]
                s = st[ROUND]
                if first:
                    a = fa
                    first = False
                elif always_call:
                    a = CALL_A
                else:
                    if lazy is not None:
                        if not ready[p, s] and not uniform:
                            _street_values(s, trial, values, tables, st, ready)
                        elif not ready[p, s]:
                            # the uniform values (every active player's field all ones, every percentile wanted one
                            # among all the holdings, :func:`_context`): HS_1, the percentile and PPot of the player
                            # to act read from the BoardCache row of the board (computed on
                            # their first request: _uniform_code, ppot_outs, 0 on the river); a player who never acts
                            # on the street costs nothing.  The board's slot is found once per street and trial, and
                            # again if a later board emptied the table.  A flop decision's river board is ranked by
                            # class once per trial into the trial's own rows (local_river), each player counted there.
                            ready[p, s] = True
                            hh = HOLDING_INDEX[hole[p, 0], hole[p, 1]]
                            if s == 3 and local_river and rmeta[0] == 0:  # the trial's river board, for both branches
                                bm = np.uint64(0)
                                for ib in range(5):
                                    bm |= np.uint64(1) << np.uint64(board[ib])
                                fs, fc = _flush_suit(bm)
                                rmeta[0] = -1  # five cards of a suit: ranked by holding in the board cache
                                rmeta[2] = np.int64(bm)
                                if fc < 5:
                                    row, rk_h, lh_f = rrow[0], rrk[0], rlh[0]
                                    rmeta[1] = _rank_by_class(board, 5, bm, fs, fc, bclasses, row, rk_h, lh_f, tables)
                                    rmeta[0] = 1
                            if s == 3 and local_river and rmeta[0] > 0:
                                code = _class_code(rrow, rrk, rlh, rmeta[1], 0, hh, np.uint64(rmeta[2]))
                                hs1[p, s] = _hs_of(code, _RIVER_LIVE, 5)
                                pp[p, s] = 0.0  # none on the river (ppot_outs)
                            else:
                                nbs = s + 2
                                slot = street_slot[0, s]
                                bmask = np.uint64(street_slot[1, s])
                                if slot < 0 or bkeys[slot] != bmask:
                                    bmask = np.uint64(0)
                                    for ib in range(nbs):
                                        bmask |= np.uint64(1) << np.uint64(board[ib])
                                    slot = _board_home(bmask, bkeys.shape[0])
                                    while bkeys[slot] != 0 and bkeys[slot] != bmask:
                                        slot = (slot + 1) & (bkeys.shape[0] - 1)
                                    if bkeys[slot] == 0:  # a new board: ranked and stored (_board_slot_uniform)
                                        slot = _board_slot_uniform(boards, board, nbs, tables)
                                    street_slot[0, s] = slot
                                    street_slot[1, s] = np.int64(bmask)
                                code = np.int64(bhs[slot, hh])
                                if code == 0:  # not asked yet
                                    if bcls[slot] != 0:
                                        code = _class_code(blr_all, br_all, blh_all, bcls[slot] - 1, slot, hh, bmask)
                                    else:
                                        code = _uniform_code(br_all, blr_all, bn[slot], slot, hh, bmask)
                                    bhs[slot, hh] = code
                                hs1[p, s] = _hs_of(code, bn[slot], nbs)
                                pp[p, s] = _cached_ppot(bpp, btp[slot], hh, board, nbs, tables)
                            # a percentile among all the holdings (a rank row of ones) is the uniform HS_1 itself
                            q[p, s] = hs1[p, s] if want_q[p] else q_tmp[p]
                            nn[p, s] = 0.0
                    n_opp = st[N_IN] - 1
                    h1 = hs1[p, s]
                    hs_n = h1**n_opp if n_opp > 0 else 1.0
                    ppp = pp[p, s]
                    e = hs_n + (1.0 - hs_n) * ppp
                    eh = hs_n * (1.0 - nn[p, s]) + (1.0 - hs_n) * ppp
                    nb = bet_sizes[s + 1] if s < 3 else 0.0
                    to_call = float(st[MAX_BET] - st[BET + p])
                    bs = bet_sizes[s]
                    prm = _row_params(params, p)
                    crf = False
                    sb = False
                    if believed:
                        crf = _check_raise_condition(st, p, m)
                        sb = semi[p]
                    f, c, r = pt_kernel(
                        e,
                        eh,
                        hs_n,
                        ppp,
                        s,
                        float(st[POT]),
                        to_call,
                        bs,
                        st[BETS],
                        st[VOLUNTARY + p] != 0,
                        can_raise(st, p),
                        nb,
                        prm,
                        crf,
                        sb,
                    )
                    x = u[p, 0]
                    if believed:
                        x = u[p, k_used[p] if k_used[p] < ku else ku - 1]
                        k_used[p] += 1
                        if _mixed(mix, p):
                            facing = to_call > 1e-9
                            bucket = bets_to_call_bucket(to_call / bs)
                            ff, fc, fr = freqs[p, s, bucket, 0], freqs[p, s, bucket, 1], freqs[p, s, bucket, 2]
                            mf, mc, mr = freq_triple(q[p, s], ff, fr, facing, softness[p], rho[p])
                            f = mix[p, 0] * f + mix[p, 1] * mf + mix[p, 2] * ff
                            c = mix[p, 0] * c + mix[p, 1] * mc + mix[p, 2] * fc
                            r = mix[p, 0] * r + mix[p, 1] * mr + mix[p, 2] * fr
                    if x < f:
                        a = FOLD_A
                    elif x < f + c:
                        a = CALL_A
                    else:
                        a = RAISE_A
                    if (
                        believed
                        and a == RAISE_A
                        and to_call <= 1e-9
                        and semi_bluff_gate(e, ppp, float(st[POT]), bs, prm)
                    ):
                        semi[p] = True  # a bet inside the semi-bluff gate (as the Action Selector's players track it)
                a = legalise(st, a)
                if i < trace.shape[0]:
                    trace[i, :SIZE] = st
                    trace[i, SIZE] = a
                    i += 1
                apply_action(st, a)
            k = award_into(st, ranks, pots, shares, win, work)
            invest = float(st[TOTAL + me] - st0[TOTAL + me])
            res = -invest
            for j in range(k):
                if (pots[j, 2] >> me) & 1:
                    res = win[me] - invest
                    break
            if lazy is None:
                result = res
            elif br == 0:
                out_call[i_trial] = res
            else:
                out_raise[i_trial] = res
    return result


@njit(cache=True)
def _context(spot, ranges, policies, boards):
    """The work arrays of a decision's trials, set up once for all its batches (:func:`_run_trials`): every array a
    trial overwrites before reading it, so a batch that reuses them plays as one with fresh arrays."""
    st0, me, hole_me, board0 = spot.st0, spot.me, spot.hole, spot.board
    believed, mix = policies.believed, policies.mix
    rank_w, field_w = ranges.rank, ranges.field
    nb0 = board0.shape[0]
    m = st0[N]
    active0 = np.zeros(m, dtype=np.bool_)
    for p in range(m):
        active0[p] = st0[FOLDED + p] == 0
    hole = np.zeros((m, 2), dtype=np.int64)
    hole[me, 0] = hole_me[0]
    hole[me, 1] = hole_me[1]
    board = np.zeros(5, dtype=np.int64)
    for i in range(nb0):
        board[i] = board0[i]
    values = StreetValues(np.zeros((m, 4)), np.zeros((m, 4)), np.zeros((m, 4)), np.zeros((m, 4)))
    u = np.zeros((m, KU if believed else 1))
    ranks = np.zeros(m, dtype=np.int64)
    deck = np.zeros(52, dtype=np.int64)
    scratch = PlayoutScratch(
        np.zeros(SIZE, dtype=np.int64), np.zeros((NMAX, 3), dtype=np.int64), np.zeros((NMAX, m)), np.zeros(m),
        np.zeros(m, dtype=np.bool_), np.zeros((AWARD_WORK, NMAX), dtype=np.int64),
    )  # fmt: skip
    ready = np.ones((m, 4), dtype=np.bool_)
    unit = np.zeros(m, dtype=np.bool_)  # fields of all ones (the uniform play-out): exact integer sums
    for p in range(m):
        unit[p] = True
        for h in range(N_HOLDINGS):
            if field_w[p, h] != 1.0:
                unit[p] = False
                break
    want_q = np.zeros(m, dtype=np.bool_)  # the percentile is read by the frequency expert only
    rank_unit = np.zeros(m, dtype=np.bool_)  # ranked among all the holdings: its percentile is its uniform HS_1
    uniform = True  # every active player's values from the BoardCache: fields all ones, percentiles among all holdings
    for p in range(m):
        want_q[p] = believed and _mixed(mix, p)
        if want_q[p]:
            rank_unit[p] = True
            for h in range(N_HOLDINGS):
                if rank_w[p, h] != 1.0:
                    rank_unit[p] = False
                    break
        if active0[p] and (not unit[p] or (want_q[p] and not rank_unit[p])):
            uniform = False
    memo = _memo_jit(MEMO_SLOTS if not uniform and nb0 < 5 else 4)  # read on later streets of weighted fields
    trial = _Trial(
        board, nb0, hole, active0, field_w, rank_w, want_q, unit, rank_unit, np.zeros(m), np.zeros(m),
        np.zeros(m, np.bool_), uniform, boards, memo,
    )  # fmt: skip
    base_used = np.uint64(0)
    base_used |= np.uint64(1) << np.uint64(hole_me[0])
    base_used |= np.uint64(1) << np.uint64(hole_me[1])
    for i in range(nb0):
        base_used |= np.uint64(1) << np.uint64(board0[i])
    street_slot = np.full((2, 4), -1, dtype=np.int64)  # per later street of a trial: the board's slot and mask
    # a flop decision's river board ranked by class (_rank_by_class): its class and flush ranks, the flush ranks by
    # holding, the flush holdings; whether it is ranked in this trial (0 no, 1 yes, -1 five of a suit: by holding,
    # in the board cache), its number of flush holdings and its card mask
    river = (
        np.zeros((1, N_CLASS_COLUMNS + _MAX_FLUSH_HOLDINGS), dtype=np.int16), np.zeros((1, N_HOLDINGS), dtype=np.int16),
        np.zeros((1, _MAX_FLUSH_HOLDINGS), dtype=np.int16), np.zeros(3, dtype=np.int64),
    )  # fmt: skip
    return trial, values, u, ranks, deck, scratch, ready, base_used, street_slot, river


@njit(cache=True, inline="always")
def _run_trials(i0, n_trials, spot, ranges, policies, ctx, out_call, out_raise, out_holes, tables):
    """Play trials ``i0 .. i0 + n_trials - 1`` of a decision (both branches each) with the work arrays ``ctx``
    (:func:`_context`), writing rows ``i0 ..`` of the outputs (:func:`sim_batch`; the loop is :func:`_play`'s)."""
    trial, values, u, ranks, deck, scratch, ready, base_used, street_slot, river = ctx
    no_trace = np.zeros((0, SIZE + 1), dtype=np.int64)
    lazy = (
        trial, ready, tables, ranges, base_used, deck, i0, n_trials, out_call, out_raise, out_holes, street_slot, river,
    )  # fmt: skip
    _play(CALL_A, spot, values, u, ranks, policies, scratch, no_trace, lazy)


@njit(cache=True)
def sim_batch(seed, n_trials, spot, ranges, policies, out_call, out_raise, out_holes, boards, tables):
    """Play ``n_trials`` trials of one decision (see :mod:`loki.simulator.driver`), both branches each.

    Writes per trial ``out_call[i]`` / ``out_raise[i]`` (our chips won minus chips put in from the decision on, first
    action forced to check/call resp. bet/raise) and ``out_holes[i, p]`` (the holding sampled for opponent ``p``;
    untouched for us and folded players).  The decision is ``spot`` (:class:`PlayoutSpot`), the players' beliefs and
    hand values on the decision's street ``ranges`` (:class:`PlayoutRanges`), how they act ``policies``
    (:class:`PlayoutPolicies`); on later streets the values come from :func:`_street_values` with the ranges'
    fields.  ``boards`` is the :class:`BoardCache` of the later streets' ranks, potentials and uniform values, shared
    by every decision; ``tables`` the evaluator tables.  Seeds numba's generator with ``seed`` first, so a batch is reproducible.
    """
    np.random.seed(seed)
    ctx = _context(spot, ranges, policies, boards)
    _run_trials(0, n_trials, spot, ranges, policies, ctx, out_call, out_raise, out_holes, tables)


#: Cut-off rules of :func:`sim_decision` (``SimConfig.cutoff``).
RULE_NONE, RULE_PAPER, RULE_PAIRED = 0, 1, 2


@njit(cache=True)
def _mean_sd(x):
    """``(x.mean(), x.std(ddof=1))`` with numpy's floating-point operations (:func:`np_sum`); sd inf for one value."""
    n = x.shape[0]
    mean = np_sum(x) / n
    if n < 2:
        return mean, np.inf
    d = np.empty(n)
    for i in range(n):
        e = x[i] - mean
        d[i] = e * e
    return mean, np.sqrt(np_sum(d) / (n - 1))


@njit(cache=True)
def _cutoff(rule, z, oc, orr, to_call, can_raise):
    """The obvious-move cut-off of :func:`loki.simulator.driver.simulate` (its docstring) on the first trials
    ``oc``, ``orr``: True to stop.  Candidates: call, raise if ``can_raise``, fold (EV 0, sd 0) if ``to_call > 0``;
    the best by EV, ties to the more aggressive action."""
    n = oc.shape[0]
    fold = to_call > 1e-9
    if 1 + int(can_raise) + int(fold) < 2:
        return True
    zeros = np.zeros(n)
    live = np.array([fold, True, can_raise])  # candidates by action code (fold, call, raise)
    ev = np.zeros(3)
    sd = np.zeros(3)
    if rule == RULE_PAPER:
        if fold:
            ev[0], sd[0] = _mean_sd(zeros)
        ev[1], sd[1] = _mean_sd(oc)
        if can_raise:
            ev[2], sd[2] = _mean_sd(orr)
    else:
        if fold:
            ev[0] = np_sum(zeros) / n
        ev[1] = np_sum(oc) / n
        if can_raise:
            ev[2] = np_sum(orr) / n
    best = -1
    for k in range(3):  # the greatest (EV, code): later codes win ties
        if live[k] and (best < 0 or ev[k] >= ev[best]):
            best = k
    if rule == RULE_PAPER:
        sec = -1
        for k in range(3):
            if live[k] and k != best and (sec < 0 or ev[k] >= ev[sec]):
                sec = k
        return ev[best] - ev[sec] > sd[best] + sd[sec]
    if rule != RULE_PAIRED:
        return False
    xb = zeros if best == 0 else (oc if best == 1 else orr)
    for k in range(3):
        if not live[k] or k == best:
            continue
        xk = zeros if k == 0 else (oc if k == 1 else orr)
        d = xb - xk
        mean, s = _mean_sd(d)
        se = s / np.sqrt(n)
        if not mean - z * se > 0.0:
            return False
    return True


@njit(cache=True)
def sim_decision(
    seed, n, check_every, min_trials, rule, z, to_call, can_raise, spot, ranges, policies, oc, orr, holes, boards,
    tables,
):  # fmt: skip
    """Every batch of one decision in one call: batches of ``check_every`` trials (:func:`sim_batch`, the ``b``-th
    seeded with ``(seed · 1,000,003 + b · 7919 + 12345) mod (2³¹ − 1)``), each followed, once ``min_trials`` are done
    and before the last, by the cut-off check ``rule`` (:data:`RULE_PAPER`, :data:`RULE_PAIRED` with ``z``, or
    :data:`RULE_NONE`; :func:`_cutoff`).  Outputs as :func:`sim_batch` (``oc``, ``orr``, ``holes``, ``(n,)`` /
    ``(n, m)``).

    Returns:
        ``(done, cut, ev_call, sd_call, ev_raise, sd_raise)``: trials played, whether the cut-off stopped them, and
        the mean and standard deviation (``ddof = 1``; inf for one trial) of the outcomes of the trials played, in
        chips, numpy's floats (:func:`_mean_sd`).
    """
    ctx = _context(spot, ranges, policies, boards)
    done = 0
    batch = 0
    while done < n:
        k = min(check_every, n - done)
        np.random.seed((seed * 1_000_003 + batch * 7919 + 12345) % (2**31 - 1))
        _run_trials(done, k, spot, ranges, policies, ctx, oc, orr, holes, tables)
        done += k
        batch += 1
        if rule != RULE_NONE and done >= min_trials and done < n:
            if _cutoff(rule, z, oc[:done], orr[:done], to_call, can_raise):
                return _finish(done, True, oc, orr)
    return _finish(done, False, oc, orr)


@njit(cache=True)
def _finish(done, cut, oc, orr):
    ev_c, sd_c = _mean_sd(oc[:done])
    ev_r, sd_r = _mean_sd(orr[:done])
    return done, cut, ev_c, sd_c, ev_r, sd_r
