"""Tests for loki.evaluator: exhaustive category counts, phevaluator agreement, API consistency, errors."""

import itertools

import numpy as np
import pytest

from loki import evaluator as E
from loki._jit import njit
from loki.cards import RANKS, parse_cards
from loki.errors import CardError, InputError
from loki.evaluator import kernels as K

CARD_KEY = E.CARD_KEY
CARD_BIT = E.CARD_BIT
rank_from_key = K.rank_from_key
hand_category = K.hand_category
T = E.kernel_tables()  # the evaluator tables, every ranking kernel's last argument

# category index 0..8 (high card .. straight flush)
CLASSES_PER_CATEGORY = (1277, 2860, 858, 858, 10, 1277, 156, 156, 10)
FIVE_CARD_COUNTS = (1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40)
SEVEN_CARD_COUNTS = (
    23_294_460,
    58_627_800,
    31_433_400,
    6_461_620,
    6_180_020,
    4_047_644,
    3_473_184,
    224_848,
    41_584,
)


def _phevaluator_7():
    """phevaluator's fastest 7-card entry, returning its rank (lower = stronger)."""
    ph = pytest.importorskip("phevaluator")
    try:
        from phevaluator._pheval import evaluate_7cards  # private, fast (pinned phevaluator==0.6.0)

        return evaluate_7cards
    except ImportError:  # pragma: no cover - other phevaluator versions
        return lambda *cs: ph.evaluate_cards(*cs)


def _deal(rng, n, k):
    """``(n, k) int8`` rows of k distinct cards, uniformly random."""
    out = np.empty((n, k), np.int8)
    for i in range(0, n, 100_000):
        m = min(100_000, n - i)
        out[i : i + m] = np.argpartition(rng.random((m, 52), dtype=np.float32), k, axis=1)[:, :k]
    return out


# --------------------------------------------------------------------------- #
# construction invariants
# --------------------------------------------------------------------------- #


def test_rank_keys_give_unique_sums_for_all_multisets_up_to_7_cards():
    sums = np.array([0], np.int64)
    sizes = np.array([0], np.int64)
    for key in E.RANK_KEYS:
        c = np.arange(5)
        s = (sums[:, None] + c[None, :] * key).ravel()
        z = (sizes[:, None] + c[None, :]).ravel()
        keep = z <= 7
        sums, sizes = s[keep], z[keep]
    assert sums.size == np.unique(sums).size  # every multiset (<= 4 of a rank, <= 7 cards) is distinct
    assert [int((sizes == n).sum()) for n in (5, 6, 7)] == [6175, 18395, 49205]
    assert sums.max() < 2**31  # the sum fits a key's bits 32..62: a key is never negative


def test_card_key_and_bit_layout():
    for c in range(52):
        r, s = c >> 2, c & 3
        assert CARD_KEY[c] == (int(E.RANK_KEYS[r]) << E.RANK_SHIFT) + (1 << (E.SUIT_SHIFT + 4 * s))
        assert CARD_BIT[c] == 1 << (13 * s + r)
    assert CARD_KEY.dtype == CARD_BIT.dtype == np.int64 and CARD_KEY.shape == CARD_BIT.shape == (52,)


def test_a_card_sets_key_holds_its_rank_sum_and_suit_counts():
    # a key holds the rank-key sum in its bits 32..63 and the suit counters in its low 16 bits, and the biased
    # counters flag exactly the suits of five or more cards, for random 5..7-card sets
    rng = np.random.default_rng(5)
    for _ in range(3000):
        cs = rng.choice(52, int(rng.integers(5, 8)), replace=False)
        key = int(CARD_KEY[cs].sum())
        assert key >> E.RANK_SHIFT == sum(int(E.RANK_KEYS[c >> 2]) for c in cs)
        counts = np.bincount(cs & 3, minlength=4)
        assert [(key >> (E.SUIT_SHIFT + 4 * s)) & 15 for s in range(4)] == counts.tolist()
        flush = ((key >> E.SUIT_SHIFT) + E.SUIT_BIAS) & E.FLUSH_CHECK
        assert [bool(flush >> (4 * s + 3) & 1) for s in range(4)] == (counts >= 5).tolist()
        if len(cs) == 7:  # the seven-card keys: the same rank sum, fields of 2 * count + 7, flagged without a bias
            key7 = int(E.CARD_KEY7[cs].sum())
            assert key7 >> E.RANK_SHIFT == key >> E.RANK_SHIFT
            assert [(key7 >> (5 * s)) & 31 for s in range(4)] == (2 * counts + 7).tolist()
            assert [bool((key7 & E.FLUSH_CHECK7) >> (5 * s) & 16) for s in range(4)] == (counts >= 5).tolist()


def test_tables_are_small_and_readonly():
    assert E.RANK_TABLE.dtype == np.int16 and E.FLUSH_TABLE.shape == (8192,)
    # an L2 cache's worth (the hash's offsets alone well inside L1)
    assert E.RANK_TABLE.nbytes + E.HASH_OFFSETS.nbytes + E.FLUSH_TABLE.nbytes < 512 * 1024
    assert E.HASH_OFFSETS.nbytes < 32 * 1024
    for a in (E.RANK_TABLE, E.FLUSH_TABLE, E.HASH_OFFSETS, E.CARD_KEY, E.CARD_BIT):
        assert not a.flags.writeable


def test_tables_accessor_is_cached_and_matches_module_attributes():
    t = E.tables()
    assert E.tables() is t and E.kernel_tables() == tuple(t)
    assert t._fields == ("card_key", "card_bit", "rank_table", "flush_table", "hash_offsets")
    assert t.rank_table is E.RANK_TABLE and t.flush_table is E.FLUSH_TABLE and t.hash_offsets is E.HASH_OFFSETS
    assert t.card_key is E.CARD_KEY and t.card_bit is E.CARD_BIT
    # the kernels take the named tuple as well as the plain one
    assert K.rank7(51, 47, 43, 39, 35, 0, 1, t) == K.rank7(51, 47, 43, 39, 35, 0, 1, T) == 7462
    with pytest.raises(AttributeError):
        E.NO_SUCH_TABLE  # noqa: B018


# --------------------------------------------------------------------------- #
# exhaustive enumerations
# --------------------------------------------------------------------------- #


@njit(cache=True)
def _all_five_card_ranks(tables):
    out = np.empty(2_598_960, np.int64)
    n = 0
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    for e in range(d + 1, 52):
                        out[n] = K.rank5(a, b, c, d, e, tables)
                        n += 1
    return out


@njit(cache=True)
def _seven_card_category_counts(tables):
    card_key, card_bit = tables[0], tables[1]
    counts = np.zeros(9, np.int64)
    seen = np.zeros(7463, np.bool_)
    for a in range(52):
        ka, ba = card_key[a], card_bit[a]
        for b in range(a + 1, 52):
            kb, bb = ka + card_key[b], ba | card_bit[b]
            for c in range(b + 1, 52):
                kc, bc = kb + card_key[c], bb | card_bit[c]
                for d in range(c + 1, 52):
                    kd, bd = kc + card_key[d], bc | card_bit[d]
                    for e in range(d + 1, 52):
                        ke, be = kd + card_key[e], bd | card_bit[e]
                        for f in range(e + 1, 52):
                            kf, bf = ke + card_key[f], be | card_bit[f]
                            for g in range(f + 1, 52):
                                r = rank_from_key(kf + card_key[g], bf | card_bit[g], tables)
                                counts[hand_category(r)] += 1
                                seen[r] = True
    return counts, seen


def test_all_five_card_hands():
    ranks = _all_five_card_ranks(T)
    assert ranks.min() == 1 and ranks.max() == 7462
    distinct = np.unique(ranks)
    assert distinct.size == 7462  # dense: every value 1..7462 occurs
    cats = np.array([E.hand_category(r) for r in range(1, 7463)])
    assert tuple(np.bincount(cats, minlength=9)) == CLASSES_PER_CATEGORY
    assert tuple(np.bincount(cats[ranks - 1], minlength=9)) == FIVE_CARD_COUNTS
    assert ranks.size == 2_598_960


@pytest.mark.slow
def test_all_five_card_hands_are_cactus_kev_classes():
    """Every 5-card hand's rank is exactly 7463 - phevaluator's rank (same 7,462 classes)."""
    ph = pytest.importorskip("phevaluator")
    try:
        from phevaluator._pheval import evaluate_5cards
    except ImportError:  # pragma: no cover
        evaluate_5cards = ph.evaluate_cards
    ours = _all_five_card_ranks(T)
    theirs = np.fromiter(
        (evaluate_5cards(*h) for h in itertools.combinations(range(52), 5)), dtype=np.int64, count=2_598_960
    )
    np.testing.assert_array_equal(ours, 7463 - theirs)


@pytest.mark.slow
def test_all_seven_card_hands_category_counts():
    counts, seen = _seven_card_category_counts(T)
    assert tuple(counts) == SEVEN_CARD_COUNTS
    assert counts.sum() == 133_784_560
    assert seen.sum() == 4824  # 7-card hands cannot make every 5-card class


# --------------------------------------------------------------------------- #
# agreement with phevaluator
# --------------------------------------------------------------------------- #


@pytest.mark.slow
def test_one_million_random_showdowns_agree_with_phevaluator():
    ph7 = _phevaluator_7()
    rng = np.random.default_rng(20261121)
    n = 1_000_000
    deal = _deal(rng, n, 9)  # 2 + 2 hole cards, shared 5-card board
    a = np.concatenate([deal[:, 0:2], deal[:, 4:9]], axis=1)
    b = deal[:, 2:9]
    ours_a, ours_b = E.rank_batch(a), E.rank_batch(b)
    ph_a = np.fromiter((ph7(*h) for h in a.tolist()), dtype=np.int64, count=n)
    ph_b = np.fromiter((ph7(*h) for h in b.tolist()), dtype=np.int64, count=n)
    # win / tie / lose: higher is stronger for us, lower for phevaluator
    np.testing.assert_array_equal(np.sign(ours_a - ours_b), np.sign(ph_b - ph_a))
    assert (np.sign(ours_a - ours_b) == 0).sum() > 1000  # ties are exercised
    np.testing.assert_array_equal(ours_a, 7463 - ph_a)
    np.testing.assert_array_equal(ours_b, 7463 - ph_b)


# --------------------------------------------------------------------------- #
# API consistency
# --------------------------------------------------------------------------- #


@njit(cache=True)
def _scalar_ranks(hands, tables):
    n, k = hands.shape
    out = np.empty(n, np.int64)
    for i in range(n):
        h = hands[i]
        if k == 5:
            out[i] = K.rank5(h[0], h[1], h[2], h[3], h[4], tables)
        elif k == 6:
            out[i] = K.rank6(h[0], h[1], h[2], h[3], h[4], h[5], tables)
        else:
            out[i] = K.rank7(h[0], h[1], h[2], h[3], h[4], h[5], h[6], tables)
    return out


@njit(cache=True)
def _cards_ranks(hands, tables):
    out = np.empty(hands.shape[0], np.int64)
    for i in range(hands.shape[0]):
        out[i] = K.rank_cards(hands[i], tables)
    return out


@pytest.mark.parametrize("k", [5, 6, 7])
def test_entry_points_agree(k):
    rng = np.random.default_rng(k)
    hands = _deal(rng, 20_000, k).astype(np.int64)
    batch = E.rank_batch(hands)
    np.testing.assert_array_equal(batch, _scalar_ranks(hands, T))
    np.testing.assert_array_equal(batch, _cards_ranks(hands, T))
    np.testing.assert_array_equal(batch, E.evaluate_batch(hands))
    for dtype in (np.int8, np.uint8, np.int16, np.int32, np.uint64):
        np.testing.assert_array_equal(batch, E.rank_batch(hands.astype(dtype)))
    keys = CARD_KEY[hands].sum(axis=1)
    bits = np.bitwise_or.reduce(CARD_BIT[hands], axis=1)
    np.testing.assert_array_equal(
        batch[:500], [rank_from_key(int(x), int(y), T) for x, y in zip(keys[:500], bits[:500])]
    )
    for h, r in zip(hands[:300], batch[:300]):
        assert E.evaluate(h.tolist()) == r
        assert E.evaluate("".join(RANKS[c >> 2] + "cdhs"[c & 3] for c in h)) == r
    assert batch.dtype == np.int64 and batch.min() >= 1 and batch.max() <= 7462


@pytest.mark.parametrize("k", [6, 7])
def test_best_of_five_card_subsets(k):
    rng = np.random.default_rng(100 + k)
    hands = _deal(rng, 5_000, k)
    subsets = np.array(list(itertools.combinations(range(k), 5)))
    best = E.rank_batch(hands[:, subsets].reshape(-1, 5)).reshape(len(hands), len(subsets)).max(axis=1)
    np.testing.assert_array_equal(E.rank_batch(hands), best)


def test_incremental_board_plus_holdings():
    board = parse_cards("AsQhJd6c2c")
    bkey = int(CARD_KEY[board].sum())
    bbits = int(np.bitwise_or.reduce(CARD_BIT[board]))
    holes = [(a, b) for a, b in itertools.combinations(range(52), 2) if a not in board and b not in board]
    assert len(holes) == 1081
    inc = [
        rank_from_key(bkey + int(CARD_KEY[a] + CARD_KEY[b]), bbits | int(CARD_BIT[a] | CARD_BIT[b]), T)
        for a, b in holes
    ]
    full = E.rank_batch(np.array([list(h) + board for h in holes]))
    np.testing.assert_array_equal(inc, full)


# --------------------------------------------------------------------------- #
# known hands
# --------------------------------------------------------------------------- #


def test_extremes_and_wheel():
    assert E.evaluate("AsKsQsJsTs") == 7462
    assert E.evaluate("AhKhQhJhTh9h8h") == 7462
    assert E.evaluate("7c5d4h3s2c") == 1
    assert E.evaluate("5h4h3h2hAh") == 7453  # steel wheel: lowest straight flush
    assert E.evaluate("6h5h4h3h2h") == 7454
    assert E.evaluate("5s4h3d2cAc") == 5854  # wheel: lowest straight
    assert E.evaluate("5s4h3d2cAc") < E.evaluate("6s5h4d3c2c") < E.evaluate("AsKhQdJcTc") == 5863
    assert E.evaluate("AhKhQhJh9h") == 7140  # best flush
    assert E.evaluate("7h5h4h3h2h") == 5864  # worst flush
    assert E.evaluate("AhAdAcAsKd") == 7452 and E.evaluate("2h2d2c2s3d") == 7297


@pytest.mark.parametrize(
    "hand, category",
    [
        ("7c5d4h3s2c8d9h", "high card"),  # 7-5-4-3-2 plus two low non-pair cards, no straight
        ("7c5d4h3s2cKdJh", "high card"),
        ("7c5d4h3s2c6d9h", "straight"),
        ("AcAd4h3s2c8d9h", "pair"),
        ("AcAdKhKsQcQd2h", "two pair"),  # three pairs: best two plus best kicker
        ("7c7d7h3s2c8d9h", "three of a kind"),
        ("7c7d7h3s3c8d8h", "full house"),
        ("7c7d7h3s3c3d9h", "full house"),  # two trips
        ("7c7d7h7s3c3d3h", "four of a kind"),
        ("Ac2c3c4c9c9d9h", "flush"),
        ("Ac2c3c4c5c9d9h", "straight flush"),
        ("Tc9d8h7s6cTdTh", "straight"),  # straight beats trips
        ("9h9c9sTs8s7s6s", "straight flush"),
    ],
)
def test_known_categories(hand, category):
    assert E.category_name(E.evaluate(hand)) == category


def test_known_orderings():
    ev = E.evaluate
    assert ev("AcAdKhKsQcQd2h") == ev("AcAdKhKsQc")  # kicker Q from the third pair
    assert ev("AcAdKhKsQcQd2h") > ev("AcAdKhKsJc")
    assert ev("7c7d7h3s3c3d9h") == ev("7c7d7h3s3c")  # 777-33 from two trips
    assert ev("7c7d7h7s3c3d3h") == ev("7c7d7h7s3c")
    assert ev("AhAdKcQsJd") > ev("AhAdKcQsTd") > ev("KhKdAcQsJd")
    assert ev("2c2d2h2sAc") > ev("AcAdAhKsKc") > ev("AhKhQhJh9h") > ev("AsKhQdJcTc")
    assert ev("AsKsQsJsTs9d8d") == ev("AsKsQsJsTs")


def test_category_blocks_and_names():
    for cat, first in enumerate(E.CATEGORY_FIRST_RANK):
        assert E.hand_category(int(first)) == cat
        if first > 1:
            assert E.hand_category(int(first) - 1) == cat - 1
    assert E.CATEGORY_NAMES[E.hand_category(7462)] == "straight flush"
    assert E.category_name(1) == "high card"
    assert E.describe(E.evaluate("KdKc7s6h2c")) == "pair of Kings"
    assert E.describe(E.evaluate("AhKhQhJhTh")) == "royal flush"
    assert E.describe(E.evaluate("5s4h3d2cAc")) == "straight, Five high"
    assert E.describe(E.evaluate("AcAdKhKsQc")) == "two pair, Aces and Kings"
    assert E.describe(E.evaluate("7c5d4h3s2c")) == "high card, Seven"


def test_class_ranks_rebuild_every_class():
    """A hand built from class_ranks(r) (flush suits for flush classes) has rank r, for all 7,462 ranks."""
    for r in range(1, 7463):
        text = E.class_ranks(r)
        cat = E.hand_category(r)
        if cat in (5, 8):
            suits = "hhhhh"
        elif len(set(text)) == 5:
            suits = "cdhhh"  # high card / straight: not all one suit
        else:  # the i-th copy of a rank gets suit i: at most 4 of a suit, never a flush
            suits = "".join("cdhs"[text[:i].count(ch)] for i, ch in enumerate(text))
        hand = "".join(x + s for x, s in zip(text, suits))
        assert E.evaluate(hand) == r, (r, hand)
        assert E.describe(r)


# --------------------------------------------------------------------------- #
# errors
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize(
    "bad",
    ["AsKsQsJsXx", "AsAsQsJsTs", "AsKsQsJs", "AsKsQsJsTs9s8s7s", "", [51, 47, 43, 39, 52], [51, 47, 43, 39, 39]],
)
def test_evaluate_errors(bad):
    with pytest.raises(CardError):
        E.evaluate(bad)


def test_evaluate_batch_errors_name_the_row():
    good = [[51, 47, 43, 39, 35], [0, 1, 2, 3, 4]]
    with pytest.raises(CardError, match="row 1"):
        E.evaluate_batch([good[0], [0, 1, 2, 3, 52]])
    with pytest.raises(CardError, match="row 1"):
        E.evaluate_batch([good[0], [0, 1, 2, 3, -1]])
    with pytest.raises(CardError, match="row 1.*duplicate"):
        E.evaluate_batch([good[0], [0, 1, 2, 3, 3]])
    with pytest.raises(CardError, match="shape"):
        E.evaluate_batch([[0, 1, 2, 3]])
    with pytest.raises(CardError, match="shape"):
        E.evaluate_batch([0, 1, 2, 3, 4])
    with pytest.raises(CardError, match="shape"):
        E.evaluate_batch(np.zeros((2, 8), np.int64))
    with pytest.raises(CardError, match="integer"):
        E.evaluate_batch(np.array(good, dtype=float))
    assert E.evaluate_batch(np.zeros((0, 7), np.int8)).shape == (0,)
    np.testing.assert_array_equal(E.evaluate_batch(good), [7462, E.evaluate("2c2d2h2s3c")])


@pytest.mark.parametrize("k", [5, 6, 7])
def test_rank_batch_into_preallocated(k):
    """A preallocated output (any integer dtype of 16 bits or more, reused across calls) gets exactly the ranks of
    the allocating call, and is returned."""
    rng = np.random.default_rng(100 + k)
    hands = _deal(rng, 20_000, k)
    ref = E.rank_batch(hands)
    assert ref.dtype == np.int64
    for dtype in (np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64):
        buf = np.full(len(hands), -1).astype(dtype)
        got = E.rank_batch(hands, out=buf)
        assert got is buf
        np.testing.assert_array_equal(got, ref)
        # reused for another batch of the same size
        other = _deal(rng, 20_000, k)
        np.testing.assert_array_equal(E.rank_batch(other, out=buf), E.rank_batch(other))
    # rows read from a strided array (not C-contiguous) rank the same
    wide = np.repeat(hands, 2, axis=1)[:, ::2]
    assert not wide.flags.c_contiguous
    np.testing.assert_array_equal(E.rank_batch(wide, out=np.empty(len(hands), np.int16)), ref)
    if k == 7:  # the seven-card kernel itself, every suit's flushes among the rows, a longer buffer
        flushes = np.array([[4 * r + s for r in (0, 3, 5, 8, 12)] + [1, 6] for s in range(4)], hands.dtype)
        rows = np.concatenate([hands, flushes])
        flat = np.ascontiguousarray(rows).reshape(-1)
        buf = np.zeros(len(rows) + 3, np.int16)
        K.rank_rows7_into(flat, flat, buf, T, E.CARD_KEY7)
        np.testing.assert_array_equal(buf[: len(rows)], K.rank_batch_into(rows, np.empty(len(rows), np.int64), T))
        assert not buf[len(rows) :].any() and (buf[len(hands) : len(rows)] >= 5864).all()  # flushes or better
    # the kernel itself, with a longer buffer (rows past N untouched)
    buf = np.zeros(len(hands) + 3, np.int16)
    assert K.rank_batch_into(hands, buf, T) is buf
    np.testing.assert_array_equal(buf[: len(hands)], ref)
    assert not buf[len(hands) :].any()


def test_rank_batch_out_errors():
    hands = np.zeros((3, 7), np.int64)
    hands[:] = np.arange(7)
    for bad in (
        np.zeros(4, np.int16),  # wrong length
        np.zeros((3, 1), np.int16),  # not 1-D
        np.zeros(3, np.int8),  # too narrow for 7462
        np.zeros(3, np.float64),  # not integer
        [0, 0, 0],  # not an array
    ):
        with pytest.raises(InputError):
            E.rank_batch(hands, out=bad)
    ro = np.zeros(3, np.int16)
    ro.flags.writeable = False
    with pytest.raises(InputError):
        E.rank_batch(hands, out=ro)
    with pytest.raises(CardError):
        E.rank_batch(np.zeros((3, 4), np.int64), out=np.zeros(3, np.int16))
    with pytest.raises(ValueError):
        K.rank_batch_into(hands, np.zeros(2, np.int16), T)


def test_kernel_count_errors():
    with pytest.raises(CardError):
        E.rank_batch(np.zeros((3, 4), np.int64))
    with pytest.raises(CardError):
        E.rank_cards(np.arange(4))
    with pytest.raises(CardError):
        E.rank_cards(np.arange(8))
    # the kernels keep their own guard (ValueError raised inside compiled code)
    with pytest.raises(ValueError):
        K.rank_batch(np.zeros((3, 4), np.int64), T)
    with pytest.raises(ValueError):
        K.rank_cards(np.arange(8), T)


@pytest.mark.parametrize("bad", [0, 7463, -5, 1.5, "x"])
def test_rank_argument_errors(bad):
    with pytest.raises(ValueError):
        E.category_name(bad)
    with pytest.raises(ValueError):
        E.describe(bad)


def test_rank_from_key_compiles_without_reference_counting():
    """Every ranking loop inlines rank_from_key: a reference-count call in it (one atomic increment and
    decrement per table array and hand) makes those loops ~10x slower.  It is compiled without reference counting
    (``nrt=False``); compiled afresh with its own options (cached code cannot be inspected), with its flush branch
    and its hash reads, it holds no reference-count call."""
    assert K.rank_from_key.targetoptions["_nrt"] is False
    fresh = njit(_nrt=False)(K.rank_from_key.py_func)
    flush = [51, 47, 43, 39, 35]  # a royal flush, then a pair of deuces with no flush
    for cards, want in ((flush, 7462), ([0, 1, 13, 17, 22], int(K.rank5(0, 1, 13, 17, 22, T)))):
        assert fresh(int(CARD_KEY[cards].sum()), int(np.bitwise_or.reduce(CARD_BIT[cards])), T) == want
    asm = fresh.inspect_asm(fresh.signatures[0])
    assert "NRT_incref" not in asm and "NRT_decref" not in asm
