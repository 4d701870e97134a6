"""Cards, holdings and hand classes.

The 52 cards are small ints ``card = 4 * rank + suit`` with ``rank`` 0..12 for
``2 3 4 5 6 7 8 9 T J Q K A`` and ``suit`` 0..3 for ``c d h s``.  This is the
same numbering as phevaluator's card ids, which keeps test oracles simple.

The 1,326 two-card **holdings** have one canonical order: pairs ``(i, j)`` of
card ints with ``i < j``, sorted lexicographically, so holding 0 is ``2c2d`` and
holding 1325 is ``AhAs``.  Lookup both ways is O(1): :data:`HOLDING_CARDS`
``(1326, 2) int64`` and :data:`HOLDING_INDEX` ``(52, 52) int64`` (``-1`` on the
diagonal).

The 169 **hand classes** are laid out as Papp's income-rate tables
(PAPP98 papp/node37, Appendix A): class id ``13 * row + col`` where a pair has
``row == col``, a suited class has ``row > col`` (row = high rank) and an
offsuit class has ``row < col`` (col = high rank).

>>> parse_card("As"), format_card(51)
(51, 'As')
>>> format_cards(parse_cards("QsJd2c"))
'QsJd2c'
>>> int(HOLDING_INDEX[parse_card("Ah"), parse_card("As")])
1325
>>> CLASS_NAMES[holding_class(parse_cards("AhKh"))], int(CLASS_SIZES[class_index("AKo")])
('AKs', 12)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import numpy as np

from loki.errors import CardError

__all__ = [
    "RANKS",
    "SUITS",
    "N_CARDS",
    "N_HOLDINGS",
    "N_CLASSES",
    "CARD_MASKS",
    "HOLDING_CARDS",
    "HOLDING_INDEX",
    "HOLDING_MASKS",
    "CARD_HOLDINGS",
    "HOLDING_CLASS",
    "CLASS_NAMES",
    "CLASS_SIZES",
    "card_rank",
    "card_suit",
    "make_card",
    "parse_card",
    "format_card",
    "parse_cards",
    "format_cards",
    "cards_mask",
    "holding_index",
    "parse_holding",
    "format_holding",
    "live_holdings",
    "holding_class",
    "class_index",
    "class_holdings",
]

RANKS = "23456789TJQKA"
SUITS = "cdhs"
N_CARDS = 52
N_HOLDINGS = 1326
N_CLASSES = 169

_CARD_RE = re.compile(r"([2-9TJQKA])([cdhs])", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s,]+")
#: every two-character spelling ``_CARD_RE`` accepts (rank and suit in either case), to its card int
_CARD_INDEX = {
    r + s: 4 * i + j
    for i, rank in enumerate(RANKS)
    for j, suit in enumerate(SUITS)
    for r in {rank, rank.lower()}
    for s in {suit, suit.upper()}
}


def card_rank(card: int) -> int:
    """Rank 0..12 (``2``..``A``) of a card int."""
    return card >> 2


def card_suit(card: int) -> int:
    """Suit 0..3 (``c d h s``) of a card int."""
    return card & 3


def make_card(rank: int, suit: int) -> int:
    """Card int from a rank 0..12 and suit 0..3.

    Raises:
        ValueError: rank or suit out of range.
    """
    if not (0 <= rank < 13 and 0 <= suit < 4):
        raise CardError(f"rank {rank!r} / suit {suit!r} out of range (rank 0..12, suit 0..3)")
    return 4 * rank + suit


def parse_card(text: str) -> int:
    """Parse one card such as ``"As"``, ``"Td"`` or ``"9c"`` (rank upper or lower case).

    Raises:
        ValueError: the text is not exactly one card; the message quotes it.
    """
    if not isinstance(text, str):
        raise CardError(f"card must be a string like 'As', got {text!r}")
    c = _CARD_INDEX.get(text)
    if c is not None:
        return c
    s = text.strip()
    if len(s) != 2 or not _CARD_RE.fullmatch(s):
        raise CardError(f"invalid card {text!r}: expected a rank from '{RANKS}' and a suit from '{SUITS}', e.g. 'As'")
    return 4 * RANKS.index(s[0].upper()) + SUITS.index(s[1].lower())


def format_card(card: int) -> str:
    """Two-character text of a card int (``51 -> 'As'``).

    Raises:
        ValueError: not an int in 0..51.
    """
    try:
        c = int(card)
    except (TypeError, ValueError, OverflowError):
        raise CardError(f"invalid card int {card!r}: expected an integer 0..51") from None
    if not 0 <= c < 52 or c != card:
        raise CardError(f"invalid card int {card!r}: expected an integer 0..51")
    return RANKS[c >> 2] + SUITS[c & 3]


def parse_cards(text: str | Iterable[str] | Iterable[int], count: int | Sequence[int] | None = None) -> list[int]:
    """Parse several cards: ``"QsJd2c"``, ``"Qs Jd 2c"``, ``["Qs", "Jd"]`` or card ints.

    Args:
        text: a string of concatenated or whitespace/comma-separated cards, or an
            iterable of card strings or ints.
        count: if given, the number of cards required (an int, or a collection of
            allowed numbers, e.g. ``(0, 3, 4, 5)`` for a board).

    Returns:
        list of card ints, in the given order.

    Raises:
        ValueError: a malformed card, a duplicate card, or the wrong count; the
            message quotes the offending text.
    """
    if isinstance(text, str):
        compact = _SEPARATORS.sub("", text)
        if len(compact) % 2:
            raise CardError(f"invalid cards {text!r}: expected pairs of rank+suit like 'QsJd2c'")
        cards = [parse_card(compact[i : i + 2]) for i in range(0, len(compact), 2)]
    else:
        cards = []
        for item in text:
            if isinstance(item, str):
                cards.append(parse_card(item))
            else:
                try:
                    c = int(item)
                except (TypeError, ValueError, OverflowError):
                    raise CardError(f"invalid card {item!r} in {text!r}") from None
                format_card(item)  # range check, and a number that is not a whole one (9.5 is not card 9)
                cards.append(c)
    if len(set(cards)) != len(cards):
        dup = sorted({format_card(c) for c in cards if cards.count(c) > 1})
        raise CardError(f"duplicate card(s) {', '.join(dup)} in {text!r}")
    if count is not None:
        allowed = (count,) if isinstance(count, int) else tuple(count)
        if len(cards) not in allowed:
            raise CardError(
                f"wrong number of cards in {text!r}: got {len(cards)}, expected {' or '.join(map(str, allowed))}"
            )
    return cards


def format_cards(cards: Iterable[int]) -> str:
    """Concatenated text of card ints (``[51, 47] -> 'AsKs'``)."""
    return "".join(format_card(c) for c in cards)


def cards_mask(cards: Iterable[int]) -> int:
    """64-bit mask with bit ``card`` set for each card (as a Python int)."""
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def _build_tables():
    hc = np.empty((N_HOLDINGS, 2), dtype=np.int64)
    hi = np.full((N_CARDS, N_CARDS), -1, dtype=np.int64)
    k = 0
    for i in range(N_CARDS):
        for j in range(i + 1, N_CARDS):
            hc[k] = (i, j)
            hi[i, j] = hi[j, i] = k
            k += 1
    card_masks = (np.uint64(1) << np.arange(N_CARDS, dtype=np.uint64)).astype(np.uint64)
    hm = card_masks[hc[:, 0]] | card_masks[hc[:, 1]]
    ch = np.empty((N_CARDS, N_CARDS - 1), dtype=np.int64)
    for c in range(N_CARDS):
        ch[c] = np.sort(hi[c][hi[c] >= 0])
    r0, r1 = hc[:, 0] >> 2, hc[:, 1] >> 2
    s0, s1 = hc[:, 0] & 3, hc[:, 1] & 3
    hi_r, lo_r = np.maximum(r0, r1), np.minimum(r0, r1)
    suited = s0 == s1
    # Papp's layout: suited when row > col -> row = high, col = low; offsuit row = low, col = high.
    cls = np.where(hi_r == lo_r, 13 * hi_r + lo_r, np.where(suited, 13 * hi_r + lo_r, 13 * lo_r + hi_r))
    names = []
    for cid in range(N_CLASSES):
        row, col = divmod(cid, 13)
        if row == col:
            names.append(RANKS[row] * 2)
        elif row > col:
            names.append(RANKS[row] + RANKS[col] + "s")
        else:
            names.append(RANKS[col] + RANKS[row] + "o")
    sizes = np.bincount(cls, minlength=N_CLASSES).astype(np.int64)
    for a in (hc, hi, hm, ch, cls, sizes, card_masks):
        a.setflags(write=False)
    return hc, hi, hm, ch, cls.astype(np.int64), tuple(names), sizes, card_masks


(
    HOLDING_CARDS,
    HOLDING_INDEX,
    HOLDING_MASKS,
    CARD_HOLDINGS,
    HOLDING_CLASS,
    CLASS_NAMES,
    CLASS_SIZES,
    CARD_MASKS,
) = _build_tables()

_CLASS_BY_NAME = {n: i for i, n in enumerate(CLASS_NAMES)}


def holding_index(c1: int, c2: int) -> int:
    """Canonical holding index 0..1325 of two distinct card ints (either order).

    Raises:
        ValueError: equal or out-of-range cards.
    """
    a, b = int(c1), int(c2)
    if not (0 <= a < 52 and 0 <= b < 52) or a == b:
        raise CardError(f"invalid holding ({c1!r}, {c2!r}): expected two distinct card ints 0..51")
    return int(HOLDING_INDEX[a, b])


def parse_holding(text: str) -> int:
    """Holding index of two hole cards given as text, e.g. ``"AhKs"``.

    Raises:
        ValueError: not exactly two distinct valid cards.
    """
    a, b = parse_cards(text, count=2)
    return int(HOLDING_INDEX[a, b])


def format_holding(index: int) -> str:
    """Text of a holding index, higher card first (``1325 -> 'AsAh'``).

    Raises:
        ValueError: index outside 0..1325.
    """
    i = int(index)
    if not 0 <= i < N_HOLDINGS:
        raise CardError(f"invalid holding index {index!r}: expected 0..1325")
    a, b = HOLDING_CARDS[i]
    return format_card(b) + format_card(a)


def live_holdings(dead: Iterable[int]) -> np.ndarray:
    """``(1326,) bool``: True for holdings that share no card with ``dead`` (card removal)."""
    m = np.uint64(cards_mask(dead))
    return (HOLDING_MASKS & m) == 0


def holding_class(cards: Sequence[int]) -> int:
    """Hand-class id 0..168 of two hole cards (see the module docstring for the layout)."""
    a, b = cards
    return int(HOLDING_CLASS[holding_index(a, b)])


def class_index(name: str) -> int:
    """Class id of a class name such as ``"AA"``, ``"AKs"``, ``"72o"`` (``"KA s"`` orders are accepted).

    Raises:
        ValueError: not a valid class name.
    """
    s = name.strip() if isinstance(name, str) else ""
    if len(s) in (2, 3) and s[0].upper() in RANKS and s[1].upper() in RANKS:
        r0, r1 = RANKS.index(s[0].upper()), RANKS.index(s[1].upper())
        suffix = s[2:].lower()
        hi, lo = max(r0, r1), min(r0, r1)
        if hi == lo and suffix == "":
            return 13 * hi + lo
        if hi != lo and suffix == "s":
            return 13 * hi + lo
        if hi != lo and suffix == "o":
            return 13 * lo + hi
    raise CardError(f"invalid hand class {name!r}: expected e.g. 'AA', 'AKs', 'AKo'")


def class_holdings(name_or_id: str | int) -> np.ndarray:
    """Holding indices ``(k,) int64`` of a hand class (6 for a pair, 4 suited, 12 offsuit).

    Raises:
        ValueError: unknown class name or id.
    """
    if isinstance(name_or_id, str):
        cid = class_index(name_or_id)
    else:
        cid = int(name_or_id)
        if not 0 <= cid < N_CLASSES:
            raise CardError(f"invalid hand class id {name_or_id!r}: expected 0..168")
    return np.flatnonzero(HOLDING_CLASS == cid)
