"""Seat orders of a hand and a player's pre-flop situation (PAPP98 papp/node44)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

__all__ = ["seat_orders", "preflop_situation"]

_ORDER_CACHE: dict = {}


def seat_orders(n: int, button: int) -> tuple[int, int, tuple[int, ...], tuple[int, ...]]:
    """``(small_blind, big_blind, preflop_order, postflop_order)`` seats of an ``n``-player hand.

    From :func:`loki.betting.blind_seats` and :func:`loki.betting.first_seat`, the acting orders of
    the first orbit: pre-flop from the left of the big blind (heads-up from the button, who posts the small
    blind), post-flop from the left of the button (heads-up the big blind first).  Cached per
    ``(n, button)``.

    >>> seat_orders(2, 1)
    (1, 0, (1, 0), (0, 1))
    >>> seat_orders(4, 0)
    (1, 2, (3, 0, 1, 2), (1, 2, 3, 0))
    """
    key = (n, button)
    o = _ORDER_CACHE.get(key)
    if o is None:
        from loki.betting import blind_seats, first_seat  # numba: imported on first use only

        sb, bb = blind_seats(n, button)
        first, first_post = first_seat(n, button, 0), first_seat(n, button, 1)
        pre = tuple((first + i) % n for i in range(n))
        post = tuple((first_post + i) % n for i in range(n))
        o = (sb, bb, pre, post)
        _ORDER_CACHE[key] = o
    return o


def preflop_situation(
    order: Sequence[int], me: int, small_blind: int, big_blind: int, folded: Collection[int], acted: Collection[int]
) -> tuple[int, int, int]:
    """``(num_inpot, num_yet_to_act, position)`` for our pre-flop decision (PAPP98 papp/node44, Eq. 6.1–6.2).

    Args:
        order: seats in pre-flop acting order of the first orbit (left of the big blind first, the big
            blind last; heads-up: the button/small blind, then the big blind).
        me: our seat.
        small_blind, big_blind: the blinds' seats.
        folded: seats that have folded.
        acted: seats that have voluntarily acted (called, raised, checked) this round; posting a blind is
            not an action.

    Returns:
        - ``num_inpot``: live players who have put chips in (blinds, callers, raisers), plus ourselves;
        - ``num_yet_to_act``: live players after us who have not acted and are not blinds;
        - ``position``: live players still to act after us before the small blind's turn comes round
          again (the button 0, the big blind 0); the small blind's position is ``num_inpot − 1``
          (loki-algorithms.md §2.3).  The thesis example (six-handed, two folds, only the button
          behind us) gives 1.

    Raises:
        ValueError: ``me`` or a blind not in ``order``.

    >>> preflop_situation([3, 4, 5, 0, 1, 2], me=5, small_blind=1, big_blind=2, folded={3, 4}, acted={3, 4})
    (3, 1, 1)
    """
    for s, what in ((me, "me"), (small_blind, "small_blind"), (big_blind, "big_blind")):
        if s not in order:
            raise ValueError(f"{what}={s!r} is not in the acting order {list(order)!r}")
    folded, acted = set(folded), set(acted)
    live = [s for s in order if s not in folded]
    blinds = {small_blind, big_blind}
    inpot = {s for s in live if s in blinds or s in acted}
    inpot.add(me)
    i = list(order).index(me)
    n = len(order)
    yet = 0
    position = 0
    for k in range(1, n):
        s = order[(i + k) % n]
        if s == small_blind:
            break
        if s in folded or s in acted:
            continue
        position += 1
        if s not in blinds:
            yet += 1
    if me == small_blind:
        position = len(inpot) - 1  # loki-algorithms.md §2.3: "the small blind = num_inpot − 1"
    return len(inpot), yet, position
