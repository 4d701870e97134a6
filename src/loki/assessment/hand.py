"""The Hand Evaluator box of Loki (PAPP98 papp/node39-41, papp/node60; PENA99 pena/node23).

Hand strength against a weighted range (:mod:`loki.assessment.strength`), hand potential
(:mod:`loki.assessment.potential`), and their combinations::

    EHS  = HS_n * (1 - NPot) + (1 - HS_n) * PPot      (AAAI98; PAPP98 papp/node76)
    EHS' = HS_n + (1 - HS_n) * PPot                   (optimistic, PAPP98 Eq. 6.4)

Loki-1's betting rules compare **EHS'** with the thresholds (papp/node76); inside
re-weighting EHS' is computed with HS_1 (papp/node60), see :func:`ehs_prime_all`.

:func:`assess` is the one-call entry point: it returns an :class:`Assessment` with HS,
HS_n, PPot, NPot, EHS, EHS' and the raw counts.

>>> a = assess("AdQc", "3h4cJh", np.ones(1326), lookahead=2)
>>> a.hand_strength_counts, round(a.hs, 3), round(a.ppot, 3), round(a.npot, 3)
((628.0, 9.0, 444.0), 0.585, 0.208, 0.274)
>>> round(ehs_prime(0.585, 0.208), 4)
0.6713
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from loki.assessment.potential import (
    hand_potential,
    hand_potential_all,
    hand_potential_all_counts,
    hand_potential_counts,
    hp1_counts_kernel,
    hp1_from_counts,
    hp2_kernel,
    ppot_npot,
    showdown_counts_kernel,
    triple_ranks,
)
from loki.assessment.strength import (
    AHEAD,
    BEHIND,
    TIED,
    check_cards,
    check_n_opponents,
    hand_strength,
    hand_strength_all,
    hand_strength_all_counts,
    hand_strength_counts,
    hs_counts_kernel,
    rank_holdings,
)
from loki.assessment.weights import WeightTable, combine_field, field_array, live_weights, validate_weights  # noqa: F401
from loki.cards import live_holdings
from loki.errors import CardError, ConfigError, RangeError
from loki.evaluator import kernel_tables

__all__ = [
    "equity",
    "range_equity",
    "showdown_counts",
    "equity_all",
    "equity_against",
    "contest_equity",
    "AHEAD",
    "TIED",
    "BEHIND",
    "Assessment",
    "assess",
    "assess_field",
    "uniform_board_values",
    "ehs",
    "ehs_prime",
    "ehs_prime_all",
    "hand_strength",
    "hand_strength_counts",
    "hand_strength_all",
    "hand_strength_all_counts",
    "hand_potential",
    "hand_potential_counts",
    "hand_potential_all",
    "hand_potential_all_counts",
    "ppot_npot",
    "rank_holdings",
]


def ehs(hs_n, ppot, npot):
    """Effective hand strength ``HS_n (1 - NPot) + (1 - HS_n) PPot`` (AAAI98; PAPP98 papp/node76).

    Works on floats or broadcastable arrays (e.g. ``(1326,) float64``); NaN propagates.

    >>> round(ehs(0.585, 0.208, 0.274), 4)
    0.511
    """
    r = np.multiply(hs_n, np.subtract(1.0, npot)) + np.multiply(np.subtract(1.0, hs_n), ppot)
    return float(r) if np.ndim(r) == 0 else r


def ehs_prime(hs_n, ppot):
    """Optimistic effective hand strength ``HS_n + (1 - HS_n) PPot`` (PAPP98 Eq. 6.4; PENA99 pena/node23).

    This is what Loki-1's Bettor compares with make1/make2.  Floats or arrays.

    >>> ehs_prime(0.5, 0.5)
    0.75
    """
    r = np.add(hs_n, np.multiply(np.subtract(1.0, hs_n), ppot))
    return float(r) if np.ndim(r) == 0 else r


def ehs_prime_all(board, weights, dead: Iterable = (), fill: float = np.nan) -> np.ndarray:
    """EHS' of **every** holding against one range: HS_1 + (1 - HS_1) PPot1 (papp/node60, §4.4).

    The value re-weighting ranks opponent holdings by, computed exactly (PPot1 from a
    one-card look-ahead; the literature's crude PPot_c is not used).  HS_1, as papp/node60
    says, whatever the number of opponents.  On the river PPot = 0, so EHS' = HS_1.

    Args:
        board: 3, 4 or 5 cards.
        weights: ``(1326,)`` range the holdings are measured against (e.g. uniform, or the
            field array of the other players).
        dead: extra known cards (e.g. our own hole cards).
        fill: value for holdings that clash with ``board``/``dead`` (or face no weight); NaN.

    Returns:
        ``(1326,) float64``.

    Raises:
        CardError: bad or overlapping cards.
        RangeError: invalid weights.
    """
    _, b, d = check_cards(None, board, dead=dead)
    if len(b) == 5:
        return hand_strength_all(b, weights, d, fill=fill)
    hp, tot, npos = hand_potential_all_counts(b, weights, d)
    a, t, bh = tot[:, 0], tot[:, 1], tot[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        hs = (a + 0.5 * t) / (a + t + bh)
    pp, _ = ppot_npot(hp, tot)
    out = ehs_prime(hs, pp)
    out[npos <= 0] = fill
    return out


def _freeze(a: np.ndarray | list) -> np.ndarray:
    a = np.array(a, dtype=np.float64, copy=True)
    a.setflags(write=False)
    return a


@dataclass(frozen=True)
class Assessment:
    """Result of :func:`assess`; all probabilities in [0, 1].

    Attributes:
        hs: HS_1 on the current board (PAPP98 papp/node62).
        hs_n: HS_1 ** n_opponents (Eq. 5.3).
        ppot, npot: positive/negative potential (papp/node40); 0 on the river (DEFAULT).
        ehs: HS_n (1 - NPot) + (1 - HS_n) PPot.
        ehs_prime: HS_n + (1 - HS_n) PPot (Eq. 6.4), the value Loki-1's Bettor uses.
        n_opponents: the n of HS_n.
        lookahead: 1 (PPot1/NPot1) or 2 (PPot2/NPot2); on the river the value asked for.
        ahead, tied, behind: weighted opponent holdings we beat/tie/lose to now (range units;
            holding counts for a uniform range).
        hp: ``(3, 3) float64`` read-only, ``hp[now, end]`` with states ahead/tied/behind,
            each completion weighted ``w/K`` (so rows sum to ``hp_total``).
        hp_total: ``(3,) float64`` read-only, equal to ``(ahead, tied, behind)``.
    """

    hs: float
    hs_n: float
    ppot: float
    npot: float
    ehs: float
    ehs_prime: float
    n_opponents: int
    lookahead: int
    ahead: float
    tied: float
    behind: float
    hp: np.ndarray
    hp_total: np.ndarray

    @property
    def hand_strength_counts(self) -> tuple[float, float, float]:
        """``(ahead, tied, behind)``."""
        return (self.ahead, self.tied, self.behind)


def _combine_ranges(ranges, dead: list[int]) -> tuple[np.ndarray, int]:
    """One validated ``(1326,)`` array from ``ranges`` and the number of ranges given."""
    if isinstance(ranges, WeightTable):
        return ranges.weights, 1
    if isinstance(ranges, np.ndarray) and ranges.ndim == 2:
        items = list(ranges)
    elif isinstance(ranges, (list, tuple)) and len(ranges) > 0 and not np.isscalar(ranges[0]):
        items = list(ranges)
    else:
        return validate_weights(ranges, "ranges"), 1
    if len(items) == 0:
        raise RangeError("ranges: expected a (1326,) weight array, a WeightTable or a non-empty list of them")
    for i, r in enumerate(items):
        validate_weights(r, f"ranges[{i}]")
    if len(items) == 1:
        return validate_weights(items[0], "ranges[0]"), 1
    try:
        return field_array(items, dead), len(items)
    except ValueError as e:
        raise RangeError(f"ranges: {e}") from None


def assess(hole, board, ranges, n_opponents: int | None = None, lookahead: int = 1) -> Assessment:
    """Assess our holding on a 3-5 card board against one or several opponent ranges.

    Args:
        hole: our two hole cards, text (``"AdQc"``) or card ints.
        board: 3, 4 or 5 cards, text or ints.
        ranges: one ``(1326,)`` weight array or :class:`~loki.assessment.weights.WeightTable`, or a list
            of them (one per active opponent).  Several ranges are combined into the field
            array (:func:`~loki.assessment.weights.field_array`, DEFAULT of §1.2) and HS is computed
            against it; potentials too (papp/node41).
        n_opponents: the ``n`` of HS_n; default the number of ranges given.
        lookahead: 1 for PPot1/NPot1 (flop: 45 turn cards, turn: 44 river cards), 2 for
            PPot2/NPot2 (flop only: 990 turn+river pairs).  Ignored on the river, where
            PPot = NPot = 0 and ``hp`` is all zeros (DEFAULT; the formulas are 0/0 there).

    Returns:
        a frozen :class:`Assessment`.

    Raises:
        CardError: malformed or overlapping cards (``hole``/``board``), a board of other than
            3, 4 or 5 cards.
        RangeError: a range of the wrong shape or with negative/NaN/infinite weights
            (``ranges``), or with no positive weight on a holding that is still possible.
        ConfigError: a bad ``n_opponents`` or ``lookahead`` (not 1/2, or 2 off the flop).
        All three are ValueErrors and name the input.

    >>> a = assess("Ah8h", "9h8c2c", np.ones(1326), n_opponents=3)
    >>> (a.ahead, a.tied, a.behind), round(a.hs, 2), round(a.hs_n, 2)
    ((903.0, 6.0, 172.0), 0.84, 0.59)
    """
    h, b, _ = check_cards(hole, board)
    w, n_ranges = _combine_ranges(ranges, h + b)
    n = check_n_opponents(n_ranges if n_opponents is None else n_opponents)
    if lookahead not in (1, 2) or isinstance(lookahead, bool):
        raise ConfigError(f"lookahead: expected 1 or 2, got {lookahead!r}")
    if lookahead == 2 and len(b) != 3:
        raise ConfigError(f"lookahead: the two-card look-ahead (PPot2) needs a 3-card board, got {len(b)} cards")
    if not live_weights(w, h + b).sum() > 0:
        raise RangeError("ranges: all holdings still possible (no card shared with hole or board) have weight 0")
    return _assess_checked(h, b, w, n, lookahead)


def assess_field(hole: tuple[int, int], board: tuple[int, ...], tables, n_opponents: int, lookahead: int = 1):
    """:func:`assess` for inputs already known to be valid: the same result, without the checks.

    For a player's own decision (:class:`loki.modeler.situation.Situation`), whose cards come from the engine and whose
    opponents' weight tables come from the modeler (finite, floored at 0.01).  Several tables are combined as
    :func:`~loki.assessment.weights.field_array` does, with the same operations.

    Args:
        hole: our two card ints; board: 3, 4 or 5 card ints (distinct).
        tables: ``(1326,) float64`` weight arrays, one per opponent (at least one, each with weight on a live
            holding).
        n_opponents: the ``n`` of HS_n (≥ 1); lookahead: 1, or 2 on the flop.

    Returns:
        the :class:`Assessment` :func:`assess` gives.
    """
    h = [int(hole[0]), int(hole[1])]
    b = [int(c) for c in board]
    if len(tables) == 1:
        w = tables[0]
    else:
        w = combine_field(tables, _clash(tuple(h + b)))
    return _assess_checked(h, b, w, int(n_opponents), lookahead)


@lru_cache(maxsize=64)
def _own_hp1_counts(c0: int, c1: int, board: tuple[int, ...]):
    """:func:`~loki.assessment.potential.hp1_counts_kernel` of holding ``(c0, c1)`` on a sorted 3- or 4-card ``board``,
    kept for the last 64 inputs (about 6.5 KB each): the counts do not depend on the opponents' weights, and a
    holding's decisions on one board (every decision of a round, the same deal in every seating of a duplicate
    tournament) read them again with other weights (in ``fig3-BR`` about 11 decisions per count)."""
    r3, pos = triple_ranks(board)
    return hp1_counts_kernel(c0, c1, np.asarray(board, dtype=np.int64), kernel_tables(), r3, pos)


@lru_cache(maxsize=256)
def _hp2_tables(c0: int, c1: int, board: tuple[int, ...], weights: bytes):
    """The 3×3 HP table (nine floats, row-major) and HPTotal (three floats) of holding ``(c0, c1)`` on a flop against
    the ``(1326,) float64`` range whose bytes are ``weights``, two-card look-ahead: :func:`hp2_kernel`'s numbers, kept
    for the last 256 inputs (the same decision meets the same opponent tables again in the seatings of a deal)."""
    w = np.frombuffer(weights, dtype=np.float64).copy()
    hp, tot = hp2_kernel(c0, c1, np.asarray(board, dtype=np.int64), w, kernel_tables())
    return tuple(hp.ravel().tolist()), tuple(tot.tolist())


@lru_cache(maxsize=1024)
def _clash(cards: tuple[int, ...]) -> np.ndarray:
    # ``(1326,) bool`` holdings sharing a card with ``cards``, shared (never written: a read-only flag would make numba
    # compile the field kernel again): a decision's hole cards and board recur (every seating of a deal, every
    # decision of a round)
    return ~live_holdings(cards)


def _assess_checked(h: list[int], b: list[int], w: np.ndarray, n: int, lookahead: int) -> Assessment:
    hp_rows: list
    if len(b) == 5:
        tot = np.array(hs_counts_kernel(h[0], h[1], np.asarray(b, dtype=np.int64), w, kernel_tables()))
        ahead, tied, behind = (float(v) for v in tot)  # the HS counts: HPTotal is the same sum
        hp_rows = [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
    elif lookahead == 1:
        hold, now, ends, k = _own_hp1_counts(h[0], h[1], tuple(sorted(b)))
        wc = np.ascontiguousarray(w, dtype=np.float64)
        if not wc.flags.writeable:  # a read-only array is another numba type: the kernel would be compiled again
            wc = wc.copy()
        hp, tot = hp1_from_counts(hold, now, ends, k, wc)
        ahead, tied, behind = tot.tolist()
        hp_rows = hp.tolist()
    else:
        wb = np.ascontiguousarray(w, dtype=np.float64).tobytes()
        hp_flat, (ahead, tied, behind) = _hp2_tables(h[0], h[1], tuple(b), wb)
        hp_rows = [hp_flat[0:3], hp_flat[3:6], hp_flat[6:9]]
    total = ahead + tied + behind
    hs = (ahead + 0.5 * tied) / total
    hs_n = hs**n
    # ppot_npot, ehs and ehs_prime on Python floats: the same IEEE operations in the same order, without numpy's
    # per-call cost on 3x3 arrays and scalars (a test checks the values against those functions)
    (h_aa, h_at, h_ab), (h_ta, _h_tt, h_tb), (h_ba, h_bt, _h_bb) = hp_rows
    dp = behind + 0.5 * tied
    dn = ahead + 0.5 * tied
    pp = (h_ba + 0.5 * h_bt + 0.5 * h_ta) / dp if dp > 0 else 0.0
    nn = (h_ab + 0.5 * h_at + 0.5 * h_tb) / dn if dn > 0 else 0.0
    return Assessment(
        hs=float(hs),
        hs_n=float(hs_n),
        ppot=pp,
        npot=nn,
        ehs=hs_n * (1.0 - nn) + (1.0 - hs_n) * pp,
        ehs_prime=hs_n + (1.0 - hs_n) * pp,
        n_opponents=n,
        lookahead=int(lookahead),
        ahead=float(ahead),
        tied=float(tied),
        behind=float(behind),
        hp=_freeze(hp_rows),
        hp_total=_freeze(np.array([ahead, tied, behind])),
    )


@lru_cache(maxsize=256)
def _uniform_board_values_cached(board: tuple[int, ...]):
    w = np.ones(1326)
    hp, tot, npos = hand_potential_all_counts(list(board), w)
    a, t, bh = tot[:, 0], tot[:, 1], tot[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        hs = (a + 0.5 * t) / (a + t + bh)
    if len(board) == 5:
        pp = np.zeros(1326)
        nn = np.zeros(1326)
    else:
        pp, nn = ppot_npot(hp, tot)
    bad = npos <= 0
    out = []
    for arr in (hs, pp, nn):
        arr = np.where(bad, 0.0, arr)
        arr.setflags(write=False)
        out.append(arr)
    return tuple(out)


def uniform_board_values(board) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(HS_1, PPot1, NPot1)`` of **every** holding on ``board`` against a uniform range, ``(1326,) float64`` each.

    An opponent's view of its own hand (it cannot see our cards): the hand value used by Loki-1's
    post-flop re-weighting (EHS' = HS_1 + (1 − HS_1)·PPot1, papp/node60 with the exact PPot1 instead of
    the crude PPot_c), by the Triple Generator for feature R and by the Simulator on the decision
    street.  It depends on the board only, so it is cached per board (read-only arrays, shared by
    every player in the process); holdings that clash with the board get 0; on the river
    PPot = NPot = 0.

    Raises:
        CardError: a board of other than 3, 4 or 5 distinct valid cards.
    """
    ints = type(board) is tuple and all(type(c) is int for c in board)
    if ints:  # a board of card ints checked before: its sorted cards without parsing it again
        key = _CHECKED_BOARDS.get(board)
        if key is not None:
            return _uniform_board_values_cached(key)
    _, b, _ = check_cards(None, board)
    key = tuple(sorted(b))
    if ints:
        if len(_CHECKED_BOARDS) >= 4096:  # bounded: the boards of past deals do not recur
            _CHECKED_BOARDS.clear()
        _CHECKED_BOARDS[board] = key
    return _uniform_board_values_cached(key)


#: Boards given to :func:`uniform_board_values` as tuples of Python ints that passed :func:`check_cards`, with their
#: sorted cards (at most 4,096, then emptied).  Only such tuples are looked up (a float, bool or numpy int equal to a
#: card int would find its entry), so every other spelling of a board is checked as before.
_CHECKED_BOARDS: dict[tuple[int, ...], tuple[int, ...]] = {}


def equity_against(hole, board, opponents) -> float:
    """Exact all-in equity of our holding against the opponents' **known** holdings: our share of the pot (ties split)
    averaged over every completion of the board (:func:`loki.assessment.showdown.runout_share_counts`).  What an
    oracle knows (the cheat generator of the ablations of what limits B and S; the AIVAT referee's equities).

    Args:
        hole: our two card ints; board: 3, 4 or 5 card ints; opponents: the live opponents' holdings (pairs).

    Returns:
        float in [0, 1].

    Raises:
        CardError: overlapping or out-of-range cards, or a board of other than 3..5 cards.

    >>> round(equity_against((51, 47), (43, 39, 2), [(0, 1)]), 4)  # AsKs against a set on QsJs2h: draws
    0.3384
    """
    from loki.assessment.showdown import SHARE_UNITS, runout_share_counts

    holes = [tuple(int(c) for c in hole)] + [tuple(int(c) for c in h) for h in opponents]
    bd = [int(c) for c in board]
    cards = [c for h in holes for c in h] + bd
    if len(set(cards)) != len(cards) or not all(0 <= c < 52 for c in cards) or not 3 <= len(bd) <= 5:
        raise CardError(f"equity_against: cards {cards} must be distinct card ints 0..51 with a 3..5-card board")
    dead = set(cards)
    deck = np.array([c for c in range(52) if c not in dead], dtype=np.int64)
    shares, nb = runout_share_counts(
        np.array(holes, dtype=np.int64), np.array(bd, dtype=np.int64), deck, kernel_tables()
    )
    return float(shares[0]) / float(nb * SHARE_UNITS)


#: The most samples :func:`contest_equity` takes (about a second of CPU; a decision uses hundreds).
MAX_CONTEST_SAMPLES = 1_000_000


def contest_equity(hole, board, weights, play, n_samples: int, seed: int) -> tuple[float, float]:
    """Our expected share of a contested pot, by sampling: each opponent takes part with its probability ``play[j]``
    and holds a holding drawn from its weight table ``weights[j]``, the board is completed at random, and our
    showdown share is counted (ties split; the whole pot when no opponent takes part).  Against opponents that all
    take part it is the multi-way all-in equity against their ranges (the pre-flop contest valuation of
    :mod:`loki.modeler.contest` reads it; :func:`loki.assessment.showdown.sampled_contest_share` is the kernel).

    Args:
        hole: our two card ints; board: 0 to 5 card ints (distinct, none of ours).
        weights: ``(k, 1326) float64`` the opponents' weight tables (k >= 0, non-negative; a row without weight on
            any holding free of our cards never takes part).
        play: ``(k,) float64`` each opponent's probability of taking part, in [0, 1].
        n_samples: 1 to :data:`MAX_CONTEST_SAMPLES` samples; seed: the sampler's seed (0 to 2**31 - 1): the same seed
            gives the same estimate.

    Returns:
        ``(share, standard error)``, both in [0, 1].

    Raises:
        CardError: bad or overlapping cards; RangeError: ``weights`` or ``play`` of the wrong shape or with values
        outside their ranges; ConfigError: ``n_samples`` or ``seed`` out of range.

    >>> w = np.ones((1, 1326))
    >>> share, se = contest_equity((48, 49), (), w, np.ones(1), 20_000, seed=7)  # AA against one random holding
    >>> abs(share - 0.852) < 4 * se
    True
    """
    from loki.assessment.showdown import sampled_contest_share

    h, b, _ = check_cards(hole, board, board_sizes=(0, 1, 2, 3, 4, 5))
    w = np.asarray(weights, dtype=np.float64)
    q = np.asarray(play, dtype=np.float64)
    if w.ndim != 2 or w.shape[1] != 1326 or q.shape != (w.shape[0],):
        raise RangeError(f"contest_equity: weights (k, 1326) and play (k,), got {w.shape} and {q.shape}")
    if not (np.all(np.isfinite(w)) and np.all(w >= 0.0) and np.all((q >= 0.0) & (q <= 1.0))):
        raise RangeError("contest_equity: weights must be finite and >= 0, play probabilities in [0, 1]")
    if not 1 <= int(n_samples) <= MAX_CONTEST_SAMPLES or not 0 <= int(seed) < 2**31:
        raise ConfigError(
            f"contest_equity: n_samples={n_samples!r} (1..{MAX_CONTEST_SAMPLES:,}) and seed={seed!r} (0..2**31-1)"
        )
    dead = np.zeros(1326, dtype=bool)
    if w.shape[0]:
        dead = ~live_holdings(list(h) + list(b))
    wl = np.where(dead[None, :], 0.0, w)
    cum = np.cumsum(wl, axis=1)
    totals = np.ascontiguousarray(cum[:, -1]) if w.shape[0] else np.zeros(0)
    share, var = sampled_contest_share(
        int(h[0]), int(h[1]), np.array(b, dtype=np.int64), np.ascontiguousarray(cum), totals, q,
        int(n_samples), int(seed), kernel_tables(),
    )  # fmt: skip
    return float(share), float(np.sqrt(var / int(n_samples)))


def equity(hole, board, weights=None) -> float:
    """All-in equity of our holding against one opponent holding drawn from ``weights``: the chance to win (ties
    count half) when the board is completed, exactly over every opponent holding and every completion.

    On the flop this enumerates 1,081 holdings × 990 turn-river pairs (the PPot2 table), on the turn 1,035 × 44,
    on the river it is HS_1.  Against a uniform range (``weights=None``) it is the equity a reference "equity"
    player compares with 0.5; e.g. A♠K♠ on Q♠J♦2♣ has 0.641079 (loki-algorithms oracles).

    Args:
        hole: our two hole cards; board: 3, 4 or 5 cards (text or ints).
        weights: ``(1326,)`` opponent weights (default uniform).

    Returns:
        equity in [0, 1] (float).

    Raises:
        CardError, RangeError: as :func:`assess`.

    >>> round(equity("AsKs", "QsJd2c"), 6)
    0.641079
    """
    h, b, _ = check_cards(hole, board)
    w = np.ones(1326) if weights is None else weights
    hp, tot = hand_potential_counts(h, b, w, lookahead=2 if len(b) == 3 else 1)
    total = float(np.sum(tot))
    if len(b) == 5:
        return (float(tot[0]) + 0.5 * float(tot[1])) / total
    end = hp.sum(axis=0)
    return (float(end[0]) + 0.5 * float(end[1])) / total


def range_equity(hole, board, weights) -> float:
    """:func:`equity` against the range ``weights``, from our showdown counts against every holding over every
    completion (:func:`showdown_counts`, kept for the last 256 (hole, board) pairs): the same number within float
    rounding (the counts are exact integers; the sums differ in order), and one enumeration per hole and board
    however many ranges a decision values (a contest's call and raise ranges, every decision on a street).

    Args:
        hole: our two hole cards; board: 3, 4 or 5 cards (text or ints).
        weights: ``(1326,) float64`` opponent weights (those clashing with our cards or the board ignored).

    Returns:
        equity in [0, 1] (float).

    Raises:
        CardError: bad or overlapping cards, a board of other than 3..5 cards.
        RangeError: weights that are not ``(1326,)``, finite and ≥ 0, or no weight on a holding still possible.

    >>> round(range_equity("AsKs", "QsJd2c", np.ones(1326)), 6)
    0.641079
    """
    h, b, _ = check_cards(hole, board)
    w = validate_weights(weights, "range_equity: weights")
    counts, k, live = _showdown_counts_cached(tuple(sorted(h)), tuple(b))
    total = float(np.dot(w, live))
    if not total > 0.0:
        raise RangeError("range_equity: the range has no weight on a holding live with our cards and the board")
    return float(np.dot(w, counts)) / (2.0 * k * total)


def showdown_counts(hole, board) -> tuple[np.ndarray, int]:
    """Our showdown outcome against every opponent holding over every completion of the board: ``(1326,) int64``
    ``2·wins + ties`` (0 for holdings that clash) and the completions per holding K (990 on the flop, 44 on the turn,
    1 on the river); read-only, kept for the last 256 (hole, board) pairs (:func:`showdown_counts_kernel`).

    Raises:
        CardError: bad or overlapping cards, a board of other than 3..5 cards.
    """
    h, b, _ = check_cards(hole, board)
    counts, k, _ = _showdown_counts_cached(tuple(sorted(h)), tuple(b))
    return counts, k


@lru_cache(maxsize=256)
def _showdown_counts_cached(hole: tuple[int, ...], board: tuple[int, ...]) -> tuple[np.ndarray, int, np.ndarray]:
    # the counts, K, and the (1326,) float64 mask of the holdings live with the hole cards and the board (read-only)
    counts, k = showdown_counts_kernel(hole[0], hole[1], np.array(board, dtype=np.int64), kernel_tables())
    live = live_holdings(list(hole) + list(board)).astype(np.float64)
    counts.setflags(write=False)
    live.setflags(write=False)
    return counts, int(k), live


@lru_cache(maxsize=64)
def _equity_all_cached(board: tuple[int, ...]) -> np.ndarray:
    from loki.assessment.strength import dead_array, hs_all_counts_kernel

    tables = kernel_tables()
    w = np.ones(1326)
    rest = [c for c in range(52) if c not in board]
    total = np.zeros((3, 1326))
    k = 5 - len(board)
    runouts = (
        [()]
        if k == 0
        else [(a,) for a in rest]
        if k == 1
        else [(a, b) for i, a in enumerate(rest) for b in rest[i + 1 :]]
    )
    for extra in runouts:  # every completion: the river HS counts of every holding live with it (exact integers)
        full = list(board) + list(extra)
        counts, _ = hs_all_counts_kernel(np.array(full, dtype=np.int64), dead_array(full), w, tables)
        total += counts
    with np.errstate(divide="ignore", invalid="ignore"):
        out = (total[0] + 0.5 * total[1]) / total.sum(axis=0)
    out.setflags(write=False)
    return out


def equity_all(board) -> np.ndarray:
    """:func:`equity` of **every** holding against a uniform range on a flop, turn or river ``board``:
    ``(1326,) float64`` (NaN for the holdings that clash with the board), the same numbers (the counts are whole
    numbers in both, so the divisions are the same floats).  What the reference ``equity`` player compares with 0.5
    for each holding it might hold (the range of a local best response against it, :mod:`loki.lbr`).

    Every completion of the board is ranked once for all holdings (:func:`hand_strength_all_counts` on the river
    board it makes): 1,176 river boards on the flop (about 60 ms), 48 on the turn, one on the river; cached per
    board (read-only result).

    Raises:
        CardError: a board of other than 3, 4 or 5 distinct valid cards.

    >>> from loki.cards import HOLDING_INDEX, parse_cards
    >>> a, b = parse_cards("AsKs")
    >>> round(float(equity_all(parse_cards("QsJd2c"))[HOLDING_INDEX[a, b]]), 6)
    0.641079
    """
    _, b, _ = check_cards(None, board)
    return _equity_all_cached(tuple(sorted(b)))
