"""Exact 5-, 6- and 7-card poker hand ranker, compiled with numba.

A **rank** is an ``int64`` in ``1..7462``; **higher is stronger** and two hands
tie exactly when their ranks are equal.  The 7,462 values are the distinct
5-card hand classes of Cactus Kev's evaluator (Kevin Suffecool, "Cactus Kev's
Poker Hand Evaluator", 2006; the same classes as phevaluator, whose ranks run the
other way: ``ours == 7463 - phevaluator_rank``), densely numbered from the worst
high card (``7-5-4-3-2``, rank 1) to the royal flush (rank 7462).  A 6- or 7-card
hand gets the rank of its best 5-card subset.

Categories occupy consecutive blocks (:data:`CATEGORY_FIRST_RANK`):

====  ===============  ==========  =======
cat   name             ranks       classes
====  ===============  ==========  =======
0     high card        1..1277     1277
1     pair             1278..4137  2860
2     two pair         4138..4995  858
3     three of a kind  4996..5853  858
4     straight         5854..5863  10
5     flush            5864..7140  1277
6     full house       7141..7296  156
7     four of a kind   7297..7452  156
8     straight flush   7453..7462  10
====  ===============  ==========  =======

The wheel ``A-2-3-4-5`` is the lowest straight (5854) and the lowest straight
flush (7453).

Design: one additive key per card (our own design, in the spirit of the
"rank key + suit count" evaluators such as SKPokerEval and OMPEval)
-------------------------------------------------------------------------------
Every card ``c = 4 * rank + suit`` has

* ``CARD_KEY[c] = RANK_KEYS[rank] << 32 | 1 << 4 * suit``: bits 0..15 hold four
  4-bit suit counters, bits 32..63 sum per-rank keys;
* ``CARD_BIT[c] = 1 << (13 * suit + rank)``: the suit's 13-bit rank mask.

For any set of cards, ``key = sum(CARD_KEY[c])`` and ``bits = OR(CARD_BIT[c])``.
The 13 :data:`RANK_KEYS` were found offline by a greedy search (each key is the
smallest value above the previous one that keeps all sums distinct) so that
the rank-key sums of all rank multisets with at most 7 cards and at most 4 of a
rank are pairwise distinct (a test re-verifies this); the 73,775 multisets of 5,
6 and 7 cards have sums below 18,393,158.

:func:`rank_from_key` then does:

1. **flush test from the key alone**: with at most 7 cards every counter is at
   most 7, so adding ``0x3333`` to the key sets bit 3 of a nibble exactly when that
   suit has 5 or more cards (no carry between nibbles).  At most one suit can;
   with 7 cards a flush also excludes quads and full houses, so the answer is
   ``FLUSH_TABLE[(bits >> 13 * suit) & 0x1FFF]`` (8,192 ``int16`` entries: best
   straight flush or flush within a 5..7-card rank mask);
2. otherwise the rank sum ``r = key >> 32`` is looked up through a
   row-displacement **perfect hash** (Tarjan and Yao, "Storing a sparse table",
   CACM 1979; first-fit decreasing) on the sum itself:
   ``RANK_TABLE[r + HASH_OFFSETS[r >> 12]]``.  ``RANK_TABLE`` has 233,954
   ``int16`` slots for the 73,775 multisets (468 kB) and ``HASH_OFFSETS``
   4,491 ``int32`` (18 kB): with ``FLUSH_TABLE`` (16 kB) everything stays in L2,
   and a row keeps its sums in order, so nearby sums (hands sharing most of their
   ranks) read nearby slots.  Per hand that is two shifts and two dependent reads.

:func:`rank_batch` ranks seven-card rows with the seven-card keys :data:`CARD_KEY7` (the same rank part, suit
fields of 5 bits that need no bias: the flush test is one AND) in a kernel of its own
(:func:`~loki.evaluator.kernels.rank_rows7_into`), at OMPEval's speed on random hands
(``benchmarks/bench_evaluator_omp.py``).

Tables, kernels and modules
---------------------------
The tables are built on first use, not at import (:func:`tables`; about 0.1 s once the
construction kernels are cached, :mod:`loki.evaluator.build`): every rank multiset and suited
mask is scored directly (category, then tie-break ranks packed in nibbles), and the 7,462
distinct 5-card scores are sorted and densely numbered.  Importing this module imports neither
numba nor builds anything.

The numba kernels (:mod:`loki.evaluator.kernels`: :func:`rank_from_key`, ``rank5/6/7``,
``rank_cards``, ``rank_batch``) take the tables as their last argument ``tables``
(:func:`kernel_tables`), and every kernel that ranks hands elsewhere in loki passes ``tables`` down
the same way: no kernel reads a table as a global, so numba freezes no table into compiled
code.  :mod:`loki._jit` keys numba's disk cache by the source of every kernel module, so an
edited kernel never leaves stale cached callers.

The functions here (:func:`evaluate`, :func:`evaluate_batch`, :func:`rank5` .. :func:`rank7`,
:func:`rank_cards`, :func:`rank_batch`, :func:`category_name`, :func:`describe`,
:func:`class_ranks`) are Python wrappers that fetch the tables themselves.
``RANK_TABLE``, ``FLUSH_TABLE``, ``HASH_OFFSETS``, :func:`rank_from_key` and
:func:`hand_category` are still attributes of this module, resolved on first access.

>>> evaluate("AsKsQsJsTs")
7462
>>> evaluate("7c5d4h3s2c")
1
>>> category_name(evaluate("AhAdKcKs2d9h3c")), describe(evaluate("AhAdKcKs2d9h3c"))
('two pair', 'two pair, Aces and Kings')
>>> evaluate("5s4h3d2cAc") < evaluate("6s5h4d3c2c")  # the wheel is the lowest straight
True
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Iterable

import numpy as np

from loki.cards import RANKS, parse_cards
from loki.errors import CardError, InputError
from loki.evaluator.keys import CARD_KEY7, CATEGORY_FIRST_RANK, CATEGORY_NAMES, N_RANKS, EvalTables

__all__ = [
    "tables",
    "kernel_tables",
    "rank5",
    "rank6",
    "rank7",
    "rank_cards",
    "rank_batch",
    "evaluate",
    "evaluate_batch",
    "category_name",
    "describe",
    "describe_kickers",
    "class_ranks",
]


# --------------------------------------------------------------------------- #
# the tables, built on first use
# --------------------------------------------------------------------------- #


@functools.cache
def _built() -> tuple[EvalTables, np.ndarray]:
    from loki.evaluator.build import build_tables

    return build_tables()


def tables() -> EvalTables:
    """The evaluator tables, built on the first call of the process (then cached).

    Returns:
        :class:`EvalTables` (read-only arrays, shared by every caller).

    >>> t = tables()
    >>> t.rank_table.dtype, t.flush_table.shape, t.hash_offsets.dtype
    (dtype('int16'), (8192,), dtype('int32'))
    """
    return _built()[0]


@functools.cache
def kernel_tables() -> tuple[np.ndarray, ...]:
    """:func:`tables` as a plain tuple, the form the Python wrappers hand to kernels.

    Kernels accept an :class:`EvalTables` too; numba dispatches a plain tuple of arrays through
    its fast path (~0.4 µs per call from Python, against ~0.9 µs for the named tuple).
    """
    return tuple(tables())


def _class_scores() -> np.ndarray:
    return _built()[1]


# the kernel module and kernel_tables(), bound on the first call of a wrapper (rank7 is called
# once per player at every showdown of the engine: keep its Python overhead small)
_K = None
_KT: tuple = ()


def _kernels():
    global _K, _KT
    if _K is None:
        from loki.evaluator import kernels

        _KT = kernel_tables()
        _K = kernels
    return _K


def rank5(c0, c1, c2, c3, c4) -> int:
    """Rank (int 1..7462) of five distinct card ints 0..51; unchecked (Python wrapper of the kernel).

    >>> rank5(51, 47, 43, 39, 35)  # AsKsQsJsTs
    7462
    """
    return (_K or _kernels()).rank5(c0, c1, c2, c3, c4, _KT)


def rank6(c0, c1, c2, c3, c4, c5) -> int:
    """Rank (int 1..7462) of the best 5 of six distinct card ints 0..51; unchecked.

    >>> rank6(51, 47, 43, 39, 35, 0)
    7462
    """
    return (_K or _kernels()).rank6(c0, c1, c2, c3, c4, c5, _KT)


def rank7(c0, c1, c2, c3, c4, c5, c6) -> int:
    """Rank (int 1..7462) of the best 5 of seven distinct card ints 0..51; unchecked.

    >>> rank7(51, 47, 43, 39, 35, 0, 1)
    7462
    """
    return (_K or _kernels()).rank7(c0, c1, c2, c3, c4, c5, c6, _KT)


def rank_cards(cards) -> int:
    """Rank (int 1..7462) of a 1-D int array of 5..7 distinct card ints; cards unchecked.

    Raises:
        CardError: fewer than 5 or more than 7 cards.

    >>> rank_cards(np.array([0, 5, 10, 15, 16]))  # 2c 3d 4h 5s 6c: six-high straight
    5855
    """
    if not 5 <= len(cards) <= 7:
        raise CardError(f"rank_cards needs 5..7 cards, got {len(cards)}")
    return _kernels().rank_cards(cards, kernel_tables())


def rank_batch(hands, out: np.ndarray | None = None) -> np.ndarray:
    """Ranks ``(N,) int64`` of ``hands`` ``(N, k) int`` (any integer dtype, k = 5, 6 or 7); unchecked.

    Use :func:`evaluate_batch` for validated input.

    Args:
        hands: ``(N, k)`` card ints.
        out: optional preallocated ``(N,)`` integer array (``int16`` or wider, signed or unsigned; e.g. one
            ``int16`` buffer reused across calls) that receives the ranks and is returned; without it a new
            ``int64`` array is returned.

    Raises:
        CardError: ``hands`` not 2-D or k outside 5..7.
        InputError: ``out`` not a writeable 1-D integer array of ``N`` elements of at least 16 bits.

    >>> rank_batch(np.array([[51, 47, 43, 39, 35, 0, 1], [0, 4, 8, 12, 49, 30, 22]], np.int8))
    array([7462, 5854])
    >>> buf = np.empty(2, np.int16)
    >>> rank_batch(np.array([[51, 47, 43, 39, 35, 0, 1], [0, 4, 8, 12, 49, 30, 22]], np.int8), out=buf) is buf
    True
    >>> buf
    array([7462, 5854], dtype=int16)
    """
    if np.ndim(hands) != 2 or not 5 <= np.shape(hands)[1] <= 7:
        raise CardError(f"rank_batch needs hands of shape (N, 5..7), got {np.shape(hands)}")
    n, k = np.shape(hands)
    if out is None:
        if k == 7:
            return _rank_rows7(hands, np.empty(n, np.int64))
        return _kernels().rank_batch(hands, kernel_tables())
    if (
        not isinstance(out, np.ndarray)
        or out.ndim != 1
        or out.shape[0] != n
        or out.dtype.kind not in "iu"
        or out.dtype.itemsize < 2
        or not out.flags.writeable
    ):
        raise InputError(
            f"rank_batch: out must be a writeable ({n},) integer array of 16 bits or more, got "
            f"{getattr(out, 'shape', None)} {getattr(out, 'dtype', type(out).__name__)}"
        )
    if k == 7:
        return _rank_rows7(hands, out)
    return _kernels().rank_batch_into(hands, out, kernel_tables())


def _rank_rows7(hands, out: np.ndarray) -> np.ndarray:
    # seven-card rows through their kernel called from Python, compiled on its own (its docstring says why)
    flat = np.ascontiguousarray(hands).reshape(-1)
    _kernels().rank_rows7_into(flat, flat, out, kernel_tables(), CARD_KEY7)
    return out


# --------------------------------------------------------------------------- #
# Python API (validated)
# --------------------------------------------------------------------------- #


def evaluate(cards: str | Iterable[str] | Iterable[int]) -> int:
    """Rank (Python int 1..7462, higher is stronger) of 5..7 cards.

    Args:
        cards: text such as ``"AsKsQsJsTs"`` / ``"As Ks Qs Js Ts 2c"``, or a
            sequence of card strings or card ints 0..51.

    Raises:
        CardError: a malformed or duplicate card, or not 5..7 cards.

    >>> evaluate("AsKsQsJsTs"), evaluate(["Ah", "Kh", "Qh", "Jh", "9h", "2c", "2d"])
    (7462, 7140)
    """
    cs = parse_cards(cards, count=(5, 6, 7))
    return int(_kernels().rank_cards(np.array(cs, dtype=np.int64), kernel_tables()))


def evaluate_batch(hands) -> np.ndarray:
    """Validated :func:`rank_batch`: ranks ``(N,) int64`` of ``hands`` ``(N, k)``, k in 5..7.

    Args:
        hands: array-like ``(N, k)`` of card ints 0..51 (any integer dtype).

    Raises:
        CardError: not 2-D, k outside 5..7, not integers, a value outside
            0..51 or a repeated card within a row (the message names the row).

    >>> evaluate_batch([[51, 47, 43, 39, 35], [0, 4, 8, 12, 49]])
    array([7462, 5854])
    """
    a = np.asarray(hands)
    if a.ndim != 2 or not 5 <= a.shape[1] <= 7:
        raise CardError(f"hands must have shape (N, 5..7), got {a.shape}")
    if a.size and not np.issubdtype(a.dtype, np.integer):
        raise CardError(f"hands must hold integer card ids 0..51, got dtype {a.dtype}")
    if a.shape[0] == 0:
        return np.empty(0, np.int64)
    bad = np.flatnonzero(((a < 0) | (a > 51)).any(axis=1))
    if bad.size:
        i = int(bad[0])
        raise CardError(f"row {i}: card ids must be 0..51, got {a[i].tolist()}")
    s = np.sort(a, axis=1)
    bad = np.flatnonzero((s[:, 1:] == s[:, :-1]).any(axis=1))
    if bad.size:
        i = int(bad[0])
        raise CardError(f"row {i}: duplicate card in {a[i].tolist()}")
    return rank_batch(a)


def category_name(rank: int) -> str:
    """Category name of a rank 1..7462 (``"pair"``, ``"flush"``, ...).

    Raises:
        ValueError: rank outside 1..7462.

    >>> category_name(7462), category_name(1)
    ('straight flush', 'high card')
    """
    r = _check_rank(rank)
    return CATEGORY_NAMES[_category(r)]


_NAMES = ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace")
_PLURALS = (
    "Twos",
    "Threes",
    "Fours",
    "Fives",
    "Sixes",
    "Sevens",
    "Eights",
    "Nines",
    "Tens",
    "Jacks",
    "Queens",
    "Kings",
    "Aces",
)


def describe(rank: int) -> str:
    """Plain-English description of a rank, e.g. ``"pair of Kings"``.

    The text names the category and its defining ranks; kickers are left out,
    so different ranks may share a description (:func:`class_ranks` gives all
    five card ranks).

    Raises:
        ValueError: rank outside 1..7462.

    >>> [describe(evaluate(h)) for h in ("AsKsQsJsTs", "5h4h3h2hAh", "KdKc7s6h2c", "9c9d9h4s4c")]
    ['royal flush', 'straight flush, Five high', 'pair of Kings', 'full house, Nines full of Fours']
    """
    r = _check_rank(rank)
    cat = _category(r)
    score = int(_class_scores()[r - 1])
    a, b = (score >> 16) & 15, (score >> 12) & 15
    if cat == 8:
        return "royal flush" if a == 12 else f"straight flush, {_NAMES[a]} high"
    if cat == 7:
        return f"four of a kind, {_PLURALS[a]}"
    if cat == 6:
        return f"full house, {_PLURALS[a]} full of {_PLURALS[b]}"
    if cat == 5:
        return f"flush, {_NAMES[a]} high"
    if cat == 4:
        return f"straight, {_NAMES[a]} high"
    if cat == 3:
        return f"three of a kind, {_PLURALS[a]}"
    if cat == 2:
        return f"two pair, {_PLURALS[a]} and {_PLURALS[b]}"
    if cat == 1:
        return f"pair of {_PLURALS[a]}"
    return f"high card, {_NAMES[a]}"


#: Card ranks that define each category's description (:func:`describe`); the rest of the five are kickers.
_DEFINING = {0: 1, 1: 2, 2: 4, 3: 3, 4: 5, 5: 1, 6: 5, 7: 4, 8: 5}


def describe_kickers(rank: int) -> str:
    """:func:`describe` with the kickers named, as a dealer reads out a hand that a kicker decides:
    ``"two pair, Sevens and Fives, Ace kicker"``, ``"pair of Kings, kickers Ace, Queen, Seven"``; hands without
    kickers (straights, full houses, straight flushes) read as :func:`describe`.

    Raises:
        ValueError: rank outside 1..7462.

    >>> describe_kickers(evaluate("7h7c5h5dAs")), describe_kickers(evaluate("7h7c5h5d9s"))
    ('two pair, Sevens and Fives, Ace kicker', 'two pair, Sevens and Fives, Nine kicker')
    >>> describe_kickers(evaluate("KdKc7s6h2c")), describe_kickers(evaluate("9c9d9h4s4c"))
    ('pair of Kings, kickers Seven, Six, Two', 'full house, Nines full of Fours')
    """
    r = _check_rank(rank)
    kickers = class_ranks(r)[_DEFINING[_category(r)] :]
    text = describe(r)
    names = [_NAMES[RANKS.index(c)] for c in kickers]
    if len(names) == 1:
        return f"{text}, {names[0]} kicker"
    if names:
        return f"{text}, kickers {', '.join(names)}"
    return text


def class_ranks(rank: int) -> str:
    """The five card ranks of a hand class, best-first, as ``RANKS`` letters (e.g. ``"KK762"``).

    Raises:
        ValueError: rank outside 1..7462.

    >>> class_ranks(7462), class_ranks(1), class_ranks(5854), class_ranks(evaluate("9c9d9h4s4c"))
    ('AKQJT', '75432', '5432A', '99944')
    """
    r = _check_rank(rank)
    cat = _category(r)
    score = int(_class_scores()[r - 1])
    nib = [(score >> (16 - 4 * i)) & 15 for i in range(5)]
    if cat in (4, 8):
        hi = nib[0]
        seq = [hi - i for i in range(5)] if hi > 3 else [3, 2, 1, 0, 12]
    elif cat == 7:
        seq = [nib[0]] * 4 + [nib[1]]
    elif cat == 6:
        seq = [nib[0]] * 3 + [nib[1]] * 2
    elif cat == 3:
        seq = [nib[0]] * 3 + nib[1:3]
    elif cat == 2:
        seq = [nib[0]] * 2 + [nib[1]] * 2 + [nib[2]]
    elif cat == 1:
        seq = [nib[0]] * 2 + nib[1:4]
    else:
        seq = nib
    return "".join(RANKS[x] for x in seq)


def _category(rank: int) -> int:
    """Category 0..8 of a checked rank (Python twin of the table-free kernel ``hand_category``)."""
    return bisect.bisect_right(_CATEGORY_FIRST, rank) - 1


_CATEGORY_FIRST = tuple(int(x) for x in CATEGORY_FIRST_RANK)


def _check_rank(rank) -> int:
    try:
        r = int(rank)
    except (TypeError, ValueError):
        raise InputError(f"invalid rank {rank!r}: expected an int 1..{N_RANKS}") from None
    if r != rank or not 1 <= r <= N_RANKS:
        raise InputError(f"invalid rank {rank!r}: expected an int 1..{N_RANKS}")
    return r
