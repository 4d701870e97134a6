"""Betting actions: :class:`Action` (``FOLD``, ``CALL``, ``RAISE``) and their ACPC letters and words."""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum

import numpy as np

from loki.errors import InputError

__all__ = ["Action", "FOLD", "CALL", "RAISE", "legalise"]


class Action(IntEnum):
    """A betting action: ``FOLD`` (0), ``CALL`` (1, check or call), ``RAISE`` (2, bet or raise).

    ``.char`` is the ACPC letter (``'f'``, ``'c'``, ``'r'``); :meth:`parse` reads letters, words
    (``"fold"``, ``"check"``, ``"call"``, ``"bet"``, ``"raise"``) and ints.  The values are the action
    codes of :mod:`loki.betting` (``FOLD_A``, ``CALL_A``, ``RAISE_A``).

    >>> Action.parse("check"), Action.parse("r").char, Action(1).char
    (<Action.CALL: 1>, 'r', 'c')
    """

    FOLD = 0
    CALL = 1
    RAISE = 2

    @property
    def char(self) -> str:
        """ACPC letter ``'f'``, ``'c'`` or ``'r'``."""
        return "fcr"[self]

    @classmethod
    def parse(cls, value: Action | int | str) -> Action:
        """Action from an :class:`Action`, an int 0..2, an ACPC letter or a word.

        Raises:
            ValueError: anything else; the message quotes it.
        """
        if isinstance(value, Action):
            return value
        if isinstance(value, str):
            a = _ACTION_WORDS.get(value.strip().lower())
            if a is None:
                raise InputError(
                    f"invalid action {value!r}: expected one of 'f', 'c', 'r', 'fold', 'check', 'call', 'bet', 'raise'"
                )
            return a
        if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and 0 <= int(value) <= 2:
            return _ACTIONS[int(value)]
        raise InputError(f"invalid action {value!r}: expected Action, 0..2 or a letter f/c/r")


FOLD, CALL, RAISE = Action.FOLD, Action.CALL, Action.RAISE


def legalise(action: Action, legal: Sequence[Action]) -> Action:
    """Turn a wanted action into a legal one: a fold when checking is free becomes a check, a raise when the
    betting is capped becomes a call (the rule is :func:`loki.betting.nearest_legal`, which the
    Simulator's play-out uses too).

    Args:
        action: the wanted action.
        legal: the legal actions (non-empty, as :meth:`HandState.legal_actions` returns them).

    Returns:
        ``action`` if legal, else CALL if legal, else the first legal action.

    Raises:
        IndexError: ``legal`` empty.

    >>> legalise(FOLD, (CALL, RAISE)).name, legalise(RAISE, (FOLD, CALL)).name
    ('CALL', 'CALL')
    """
    mask = _MASKS.get(legal) if legal.__class__ is tuple else None
    if mask is None:
        mask = 0
        for x in legal:
            mask |= 1 << x
    key = (mask, int(action))
    got = _NEAREST.get(key)
    if got is None:
        from loki.betting import nearest_legal  # numba, loaded on first use (importing loki.engine stays light)

        got = int(nearest_legal(mask, key[1]))
        if 0 <= key[1] <= 2:
            _NEAREST[key] = got
    if got < 0:
        raise IndexError("legalise: no legal action")
    return _ACTIONS[got]


#: nearest_legal's answers by (legal mask, wanted action): the rule stays the kernel's; a decision reads it here
_NEAREST: dict[tuple[int, int], int] = {}


_ACTIONS = (FOLD, CALL, RAISE)
_ACTION_WORDS = {
    "f": FOLD,
    "fold": FOLD,
    "c": CALL,
    "k": CALL,
    "check": CALL,
    "call": CALL,
    "check/call": CALL,
    "r": RAISE,
    "b": RAISE,
    "bet": RAISE,
    "raise": RAISE,
    "bet/raise": RAISE,
    "0": FOLD,
    "1": CALL,
    "2": RAISE,
}

#: legal-action tuples indexed by a :func:`loki.betting.legal_mask` (bits 1 fold, 2 call, 4 raise)
LEGAL_TUPLES: tuple[tuple[Action, ...], ...] = tuple(
    tuple(a for a, bit in ((FOLD, 1), (CALL, 2), (RAISE, 4)) if m & bit) for m in range(8)
)
_MASKS = {t: m for m, t in enumerate(LEGAL_TUPLES)}
