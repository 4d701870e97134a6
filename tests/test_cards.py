"""Tests for loki.cards: parsing, the 1,326 holdings and the 169 classes."""

import itertools
import re

import numpy as np
import pytest

from loki import cards as C


def test_card_roundtrip_all_52():
    texts = [r + s for r in C.RANKS for s in C.SUITS]
    ints = [C.parse_card(t) for t in texts]
    assert ints == list(range(52))
    assert [C.format_card(i) for i in ints] == texts
    assert C.parse_card("as") == C.parse_card("AS") == 51


@pytest.mark.parametrize("bad", ["1x", "A", "Asx", "10s", "Zs", "", "Ax", 5])
def test_bad_card_raises_naming_input(bad):
    with pytest.raises(ValueError) as e:
        C.parse_card(bad)
    assert repr(bad) in str(e.value)


def test_every_two_character_spelling_parses_as_the_grammar_says():
    """The lookup table of spellings agrees with the card grammar (rank from RANKS, suit from SUITS, either case) on
    every pair of characters from the ranks, the suits, both cases, digits and a few others: the same card, or a
    CardError naming the input."""
    alphabet = sorted(set(C.RANKS + C.RANKS.lower() + C.SUITS + C.SUITS.upper() + "0123456789xyzXYZ _,\t"))
    checked = 0
    for a, b in itertools.product(alphabet, repeat=2):
        text = a + b
        expect = None
        if a.upper() in C.RANKS and b.lower() in C.SUITS:
            expect = 4 * C.RANKS.index(a.upper()) + C.SUITS.index(b.lower())
        if expect is None:
            with pytest.raises(C.CardError, match=re.escape(repr(text))):
                C.parse_card(text)
            if not set(text) & set(" ,\t"):  # separators are dropped between cards
                with pytest.raises(C.CardError):
                    C.parse_cards("2c" + text)
        else:
            assert C.parse_card(text) == expect
            assert C.parse_card(f" {text} ") == expect
            assert C.parse_cards(text + ("2c" if expect != 0 else "3c"))[0] == expect
        checked += 1
    assert checked == len(alphabet) ** 2


@pytest.mark.parametrize("bad", [9.5, float("nan"), float("inf"), -1, 52, 10**30, None, "x"])
def test_card_ints_that_are_not_whole_numbers_0_to_51_raise_naming_them(bad):
    """A card given as a number must be a whole number 0..51: 9.5 is not card 9, and NaN, infinities and huge ints
    raise the card error (not ``OverflowError``) with the input in the message; 9.0 is card 9."""
    with pytest.raises(C.CardError) as e:
        C.parse_cards([0, 5, bad])
    assert repr(bad) in str(e.value)
    if not isinstance(bad, str):
        with pytest.raises(C.CardError):
            C.format_card(bad)
    assert C.parse_cards([0, 5, 9.0]) == [0, 5, 9]


def test_parse_cards_board_strings():
    assert C.format_cards(C.parse_cards("QsJd2c")) == "QsJd2c"
    assert C.parse_cards("Qs Jd, 2c") == C.parse_cards("QsJd2c")
    assert C.parse_cards(["Qs", "Jd"]) == [C.parse_card("Qs"), C.parse_card("Jd")]
    assert C.parse_cards([51, 0]) == [51, 0]
    with pytest.raises(ValueError, match="duplicate card.*As"):
        C.parse_cards("AsKdAs")
    with pytest.raises(ValueError, match="wrong number of cards.*expected 3 or 4 or 5"):
        C.parse_cards("AsKd", count=(3, 4, 5))
    with pytest.raises(ValueError, match="QsJ"):
        C.parse_cards("QsJ")
    with pytest.raises(ValueError, match="1x"):
        C.parse_cards("As1x")
    with pytest.raises(ValueError):
        C.parse_cards([52])


def test_holdings_canonical_order_and_lookup():
    pairs = list(itertools.combinations(range(52), 2))
    assert len(pairs) == C.N_HOLDINGS == 1326
    assert np.array_equal(C.HOLDING_CARDS, np.array(pairs))
    for k, (a, b) in enumerate(pairs):
        assert C.HOLDING_INDEX[a, b] == C.HOLDING_INDEX[b, a] == k
        assert C.holding_index(b, a) == k
        assert int(C.HOLDING_MASKS[k]) == (1 << a) | (1 << b)
    assert (np.diag(C.HOLDING_INDEX) == -1).all()
    for c in range(52):
        hs = C.CARD_HOLDINGS[c]
        assert len(set(hs.tolist())) == 51
        assert all(c in C.HOLDING_CARDS[h] for h in hs)
    assert C.parse_holding("AsAh") == 1325 and C.format_holding(1325) == "AsAh"
    with pytest.raises(ValueError):
        C.holding_index(3, 3)
    with pytest.raises(ValueError):
        C.format_holding(1326)


def test_live_holdings_card_removal():
    dead = C.parse_cards("AhKd9c")
    live = C.live_holdings(dead)
    assert live.sum() == 1326 - 3 * 51 + 3  # inclusion-exclusion: 3 pairs of dead cards counted twice
    assert live.sum() == 1176 == (49 * 48) // 2
    assert not live[C.parse_holding("AhAs")] and live[C.parse_holding("AsAc")]


def test_classes():
    assert len(C.CLASS_NAMES) == 169 and len(set(C.CLASS_NAMES)) == 169
    sizes = C.CLASS_SIZES
    assert sizes.sum() == 1326
    names = C.CLASS_NAMES
    assert sum(1 for n in names if len(n) == 2) == 13
    assert sum(1 for n in names if n.endswith("s")) == 78
    assert sum(1 for n in names if n.endswith("o")) == 78
    for cid, n in enumerate(names):
        assert C.class_index(n) == cid
        hold = C.class_holdings(n)
        assert len(hold) == {2: 6, 3: 4 if n.endswith("s") else 12}[len(n)]
        for h in hold:
            a, b = C.HOLDING_CARDS[h]
            ra, rb = sorted((a >> 2, b >> 2), reverse=True)
            assert C.RANKS[ra] + C.RANKS[rb] == n[:2]
            if len(n) == 3:
                assert ((a & 3) == (b & 3)) == n.endswith("s")
        row, col = divmod(cid, 13)  # Papp's layout: suited when row > col
        assert (row > col) == n.endswith("s") and (row == col) == (len(n) == 2)
    assert C.class_index("KAs") == C.class_index("AKs")
    for bad in ["AAs", "AK", "XY", "AKx", ""]:
        with pytest.raises(ValueError):
            C.class_index(bad)
