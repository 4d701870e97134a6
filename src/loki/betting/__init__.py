"""Fixed-limit betting on array state: the one implementation of the betting rules.

The rules engine (:mod:`loki.engine`) and the Simulator's play-out (:mod:`loki.simulator`) both keep
the betting of a hand in one ``int64`` vector (a **state vector**, :data:`SIZE` entries) and change
it only through the ``@njit`` functions of this package, callable from Python and from numba
kernels.  The rules are those of the :mod:`loki.engine` docstring (AAAI99 §2; the ACPC limit game
definitions; pokerkit 0.7.7 for finite stacks):

* acting order (:func:`blind_seats`, :func:`first_seat`, :func:`next_to_act`): pre-flop from the left
  of the big blind (heads-up the button, who posts the small blind), post-flop from the left of the
  button (heads-up the big blind);
* fixed bet sizes per round, at most ``CAP`` bets/raises per round (pre-flop the big blind is the
  first bet, so the pre-flop cap counts raises over it);
* FOLD only when facing a bet (:func:`legal_mask`, :func:`apply_action`; a wanted action made legal:
  :func:`nearest_legal`); finite stacks: calls and
  raises for less are all-ins, an incomplete all-in raise does not reopen the betting for players
  who already acted (pokerkit's rule), no raise when nobody could call it (:func:`can_raise`), a
  player whose effective stack is 0 does not act (:func:`start_round`), the part of a bet nobody
  matched is returned at the end of the round, the board runs out when at most one player has chips;
* pots (:func:`award`): one pot with unlimited stacks, else main and side pots as pokerkit forms
  them; the odd chip of an uneven split to the first winner left of the button
  (``"left_of_button"``) or an exact fractional split (``"split"``, the ACPC dealer's rule;
  :func:`pot_share`).

Units: every amount is in **chips**.

Modules: :mod:`~loki.betting.layout` (the index constants),
:mod:`~loki.betting.rules` (:func:`new_state`, order, legality, actions, the end of rounds), :mod:`~loki.betting.pots`
(pots and payoffs).  Everything is re-exported here.

Layout of a state vector ``st`` (``np.int64``, length :data:`SIZE`); the names are constants
indexing it.  Header, set at the start of the hand:

=====================  ======================================================================
``N``                  players (2..:data:`NMAX`), seats ``0..N-1``
``BUTTON``             the button seat; ``SB_SEAT``, ``BB_SEAT`` the blinds' seats
``SMALL_BLIND``,       the blinds (chips)
``BIG_BLIND``
``BET_SIZE + r``       bet size of round ``r`` = 0..3 (chips)
``CAP + r``            bets/raises allowed in round ``r``, the big blind excluded
``UNLIMITED``          1: unlimited bankrolls (``STACK`` unused); 0: finite stacks
``SPLIT``              odd-chip rule: 0 ``"left_of_button"``, 1 ``"split"``
=====================  ======================================================================

Registers:

=====================  ======================================================================
``ROUND``              0 pre-flop .. 3 river
``CUR``                seat to act, ``-1`` when nobody is (the hand is over)
``STATUS``             :data:`BETTING`, :data:`FOLDED_OUT` (one player left) or :data:`SHOWDOWN`
``POT``                chips in the pot (every seat's ``TOTAL`` plus ``DEAD``)
``DEAD``               chips in the pot not assigned to a seat (the play-out's chips from before
                       the decision; 0 in the engine); they belong to the main pot
``MAX_BET``            the largest ``BET`` of this round
``N_RAISES``           bets/raises made this round (the big blind not counted)
``RAISE_AMT``          size of the last full raise this round (0 at a new round)
``SHORT``              sum of the incomplete all-in raises since the last full raise (pokerkit)
``N_IN``               players not folded
``N_ACTIONS``          actions (folds included) taken this round
``BETS``               bets and raises made this round, the big blind counting as one pre-flop
=====================  ======================================================================

The last action (written by :func:`apply_action`; the engine's ``ActionTaken`` event) is a block
of ``LAST_SIZE`` entries from ``LAST``: ``LAST + L_SEAT``, ``L_ACTION`` (0 fold, 1 check/call, 2
bet/raise), ``L_AMOUNT`` (chips put in), ``L_ALL_IN`` (0/1), and the situation before it:
``L_TO_CALL`` (maximum bet minus the seat's bet), ``L_POT``, ``L_BETS`` (bets this round, the big
blind counting as one pre-flop), ``L_N_IN``, ``L_VOLUNTARY`` (the seat had put chips in voluntarily
this round), ``L_ROUND``.

Per-seat blocks (``st[BLOCK + seat]``, :data:`NMAX` entries each): ``BET`` chips put in this round,
``TOTAL`` chips put in this hand, ``STACK`` chips behind, and 0/1 flags ``FOLDED``, ``ALL_IN``,
``NEED`` (must act before the round ends), ``PK_ACTED`` (acted since the last full raise:
pokerkit's re-raise rule), ``ACTED`` (checked, called, bet or raised this round), ``VOLUNTARY``
(put chips in voluntarily this round), ``RAISED`` (bet or raised this round), ``RAISED_LAST`` (bet
or raised in the previous round).

>>> st = new_state(3, button=2, small_blind=5, big_blind=10, bet_sizes=(10, 10, 20, 20), caps=(3, 4, 4, 4))
>>> start_hand(st)
0
>>> int(st[CUR]), int(st[POT]), legal_mask(st) == CAN_FOLD | CAN_CALL | CAN_RAISE
(2, 15, True)
>>> for a in (RAISE_A, FOLD_A, RAISE_A, RAISE_A, CALL_A):  # seat 2 raises, 0 folds, 1 re-raises, ...
...     assert apply_action(st, a) >= 0
>>> int(st[ROUND]), int(st[POT]), int(st[TOTAL + 2]), int(st[CUR])
(1, 85, 40, 1)
"""

from __future__ import annotations

from loki.betting import pots, rules
from loki.betting.layout import *  # noqa: F403  (the index constants and codes)
from loki.betting.pots import *  # noqa: F403
from loki.betting.rules import *  # noqa: F403

__all__ = list(rules.__all__)
__all__ += pots.__all__
