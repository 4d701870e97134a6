"""Dealing the cards of a hand: given hole cards and board checked, the rest dealt from a generator."""

from __future__ import annotations

import numpy as np

from loki.cards import format_card, parse_cards
from loki.errors import CardError, ConfigError

__all__ = ["deal_cards"]


def _make_rng(rng):
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None:
        return None
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        return np.random.default_rng(int(rng))
    raise ConfigError(f"rng must be a numpy.random.Generator, an int seed or None, got {rng!r}")


def _cards_arg(x, what: str) -> list[int]:
    if isinstance(x, str):
        return parse_cards(x)
    out = []
    for c in x:
        if isinstance(c, str):
            out.extend(parse_cards(c))
        else:
            c = int(c)
            if not 0 <= c < 52:
                raise CardError(f"invalid card int {c} in {what}: expected 0..51")
            out.append(c)
    return out


def deal_cards(n: int, hole_cards=None, board=None, rng=None) -> tuple[list[tuple[int, int]], list[int]]:
    """The hole cards and the board of an ``n``-player hand (card ints 0..51).

    Args:
        n: players.
        hole_cards: ``None`` (dealt from ``rng``) or one pair per seat, each a string such as ``"AsKd"``
            or two card ints/strings.
        board: ``None`` or up to 5 board cards (a string or card ints); missing cards are dealt from
            ``rng`` when there is one.
        rng: ``numpy.random.Generator``, an int seed, or None (then the hole cards must be given; the
            board may stay short).

    Returns:
        ``(hole, board)``: ``n`` pairs ``(card, card)`` and a list of up to 5 board cards (5 when dealt).
        Dealing order: one permutation of the deck from ``rng``, the given cards removed, two cards per
        seat in seat order, then the board.

    Raises:
        CardError: wrong count of hole cards or board cards, invalid or duplicate cards.
        ConfigError: no hole cards and no rng, or an rng that is neither a Generator nor an int.
    """
    gen = _make_rng(rng)
    used: list[int] = []
    hole = None
    if hole_cards is not None:
        if len(hole_cards) != n:
            raise CardError(f"hole_cards has {len(hole_cards)} entries for {n} players")
        hole = []
        for i, h in enumerate(hole_cards):
            if h.__class__ is tuple and len(h) == 2 and h[0].__class__ is int and h[1].__class__ is int:
                hole.append(h)  # fast path: (card, card) ints, range-checked below
                used += h
                continue
            cs = _cards_arg(h, f"hole_cards[{i}]")
            if len(cs) != 2:
                raise CardError(f"hole_cards[{i}] = {h!r}: expected 2 cards")
            hole.append((cs[0], cs[1]))
            used += cs
    if board is None:
        bd: list[int] = []
    elif board.__class__ is list and all(c.__class__ is int for c in board):
        bd = board[:]
    else:
        bd = _cards_arg(board, "board")
    if len(bd) > 5:
        raise CardError(f"board {board!r} has {len(bd)} cards: at most 5")
    used += bd
    if used and (min(used) < 0 or max(used) > 51):
        raise CardError(f"invalid card int among the given cards {used}: expected 0..51")
    if len(set(used)) != len(used):
        dup = sorted({format_card(c) for c in used if used.count(c) > 1})
        raise CardError(f"duplicate card(s) {', '.join(dup)} among the given hole cards and board")
    need = (0 if hole is not None else 2 * n) + (5 - len(bd))
    if need and gen is not None:
        deck = gen.permutation(52).tolist()
        if used:
            u = set(used)
            deck = [c for c in deck if c not in u]
        k = 0
        if hole is None:
            hole = [(deck[2 * i], deck[2 * i + 1]) for i in range(n)]
            k = 2 * n
        bd = bd + deck[k : k + 5 - len(bd)]
    elif hole is None:
        raise ConfigError("no hole_cards given and no rng to deal them: pass rng (a Generator or an int seed)")
    return hole, bd
