"""The betting rules on a state vector: acting order, legal actions, actions, the end of rounds.

``@njit`` functions over a :mod:`loki.betting` state vector (see its docstring for the layout and the
rules; AAAI99 §2, the ACPC limit game definitions, pokerkit 0.7.7 for finite stacks).  Amounts are
chips.
"""

from __future__ import annotations

import numpy as np

from loki._jit import njit
from loki.betting.layout import (
    ACTED,
    ALL_IN,
    BB_SEAT,
    BET,
    BET_SIZE,
    BETS,
    BIG_BLIND,
    BUTTON,
    CALL_A,
    CAN_CALL,
    CAN_FOLD,
    CAN_RAISE,
    CAP,
    COULD_RAISE,
    CUR,
    ERR_CAPPED,
    ERR_FREE_FOLD,
    ERR_NO_RAISE,
    ERR_OVER,
    FOLD_A,
    FOLDED,
    FOLDED_OUT,
    HAND_ENDED,
    L_ACTION,
    L_ALL_IN,
    L_AMOUNT,
    L_BETS,
    L_N_IN,
    L_POT,
    L_ROUND,
    L_SEAT,
    L_TO_CALL,
    L_VOLUNTARY,
    LAST,
    MAX_BET,
    N_ACTIONS,
    N_IN,
    N_RAISES,
    NEED,
    NMAX,
    PK_ACTED,
    POT,
    RAISE_A,
    RAISE_AMT,
    RAISED,
    RAISED_LAST,
    ROUND,
    ROUND_ENDED,
    SB_SEAT,
    SHORT,
    SHOWDOWN,
    SIZE,
    SMALL_BLIND,
    SPLIT,
    STACK,
    STATUS,
    TOTAL,
    UNLIMITED,
    VOLUNTARY,
    N,
)

__all__ = [
    "new_state",
    "blind_seats",
    "first_seat",
    "first_to_act",
    "next_to_act",
    "start_round",
    "post_blinds",
    "start_betting",
    "start_hand",
    "can_raise",
    "legal_mask",
    "nearest_legal",
    "legalise",
    "to_call",
    "bets_this_round",
    "apply_action",
    "apply_action_noting",
]

# ------------------------------------------------------------------------------------------ order


def new_state(
    n: int,
    button: int,
    small_blind: int,
    big_blind: int,
    bet_sizes,
    caps,
    stacks=None,
    split: bool = False,
) -> np.ndarray:
    """A state vector with the header set and the hand not started (Python; kernels copy one).

    Args:
        n: players, 2..NMAX.
        button: the button seat 0..n-1.
        small_blind, big_blind: the blinds (chips).
        bet_sizes: 4 bet sizes (chips), pre-flop, flop, turn, river.
        caps: 4 numbers of bets/raises allowed per round, the big blind excluded (ACPC
            ``maxRaises``: ``(max_bets - 1, max_bets, max_bets, max_bets)``).
        stacks: None (unlimited bankrolls) or ``n`` stacks (chips).
        split: the ``"split"`` odd-chip rule (else ``"left_of_button"``).

    Returns:
        ``(SIZE,) int64``; :func:`loki.betting.start_hand` posts the blinds and opens the betting.

    Raises:
        ValueError: ``n`` or ``button`` out of range (the engine validates its inputs before).
    """
    if not 2 <= n <= NMAX or not 0 <= button < n:
        raise ValueError(f"new_state: n={n} (2..{NMAX}), button={button} out of range")
    st = np.zeros(SIZE, dtype=np.int64)
    st[N] = n
    st[BUTTON] = button
    st[SB_SEAT], st[BB_SEAT] = blind_seats(n, button)
    st[SMALL_BLIND] = small_blind
    st[BIG_BLIND] = big_blind
    st[BET_SIZE : BET_SIZE + 4] = bet_sizes
    st[CAP : CAP + 4] = caps
    st[SPLIT] = 1 if split else 0
    if stacks is None:
        st[UNLIMITED] = 1
    else:
        st[STACK : STACK + n] = stacks
    st[N_IN] = n
    st[CUR] = -1
    return st


@njit(cache=True)
def blind_seats(n, button):
    """``(small_blind, big_blind)`` seats: ``button + 1`` and ``button + 2``; heads-up the button posts the
    small blind (ACPC ``reverse_blinds``).  (AAAI99 §2; ACPC limit game definitions.)"""
    if n == 2:
        return button, (button + 1) % 2
    return (button + 1) % n, (button + 2) % n


@njit(cache=True)
def first_seat(n, button, rnd):
    """The seat that opens round ``rnd``'s acting order (before skipping folded/all-in seats).

    Pre-flop: left of the big blind (``button + 3``), heads-up the button (small blind); post-flop:
    left of the button (``button + 1``), heads-up that is the big blind.  (AAAI99 §2; ACPC
    ``firstPlayer``.)
    """
    if rnd == 0:
        return button if n == 2 else (button + 3) % n
    return (button + 1) % n


@njit(cache=True, nrt=False)
def first_to_act(st, rnd):
    """:func:`first_seat` of the hand of ``st``."""
    return first_seat(st[N], st[BUTTON], rnd)


@njit(cache=True, nrt=False)
def next_to_act(st, start):
    """The first seat from ``start`` (0..N-1) on, clockwise, that still needs to act this round; -1 if none."""
    n = st[N]
    for s in range(start, n):
        if st[NEED + s]:
            return s
    for s in range(start):
        if st[NEED + s]:
            return s
    return -1


@njit(cache=True, nrt=False)
def start_round(st):
    """Mark who needs to act in the round that begins (``NEED``), without choosing ``CUR``.

    Everyone not folded and not all-in; with finite stacks (pokerkit) a player whose bet already
    reaches the second-largest "bet + stack" among the players in (nobody could match more) does
    not act, nor a lone player left to act who already matches the largest bet.
    """
    n = st[N]
    for s in range(n):
        st[NEED + s] = 1 if st[FOLDED + s] == 0 and st[ALL_IN + s] == 0 else 0
    if st[UNLIMITED]:
        return
    hi = -1
    second = -1
    for s in range(n):
        if st[FOLDED + s] == 0:
            v = st[BET + s] + st[STACK + s]
            if v > hi:
                second = hi
                hi = v
            elif v > second:
                second = v
    cnt = 0
    last = -1
    for s in range(n):
        if st[NEED + s]:
            if second - st[BET + s] <= 0:
                st[NEED + s] = 0
            else:
                cnt += 1
                last = s
    if cnt == 1 and st[BET + last] >= st[MAX_BET]:
        st[NEED + last] = 0


@njit(cache=True, nrt=False)
def _next_street(st):
    """Round ``ROUND + 1`` begins: this round's bets and per-round flags are cleared."""
    st[ROUND] += 1
    n = st[N]
    for s in range(n):
        st[BET + s] = 0
        st[PK_ACTED + s] = 0
        st[RAISED_LAST + s] = st[RAISED + s]
        st[RAISED + s] = 0
        st[ACTED + s] = 0
        st[VOLUNTARY + s] = 0
    st[MAX_BET] = 0
    st[N_RAISES] = 0
    st[BETS] = 0
    st[RAISE_AMT] = 0
    st[SHORT] = 0
    st[N_ACTIONS] = 0


@njit(cache=True, nrt=False)
def _settle(st, start):
    """Find the next seat to act from ``start`` on, ending rounds (and the hand) as needed.

    Sets ``CUR`` (-1 when the hand is over, then ``STATUS``); returns ``ROUND_ENDED | HAND_ENDED``
    bits of what happened.
    """
    out = 0
    while True:
        if st[N_IN] > 1:
            p = next_to_act(st, start)
            if p >= 0:
                st[CUR] = p
                return out
        # the round is over
        out |= ROUND_ENDED
        st[CUR] = -1
        if st[N_IN] <= 1:
            st[STATUS] = FOLDED_OUT
            return out | HAND_ENDED
        n = st[N]
        if not st[UNLIMITED]:
            with_chips = 0
            for s in range(n):
                if st[FOLDED + s] == 0 and st[STACK + s] > 0:
                    with_chips += 1
            # return the part of a bet nobody matched (pokerkit's bet collection); ``with_chips`` is
            # counted before, as pokerkit does: an unmatched bet means every other contender is
            # all-in, so the hand is all-in either way
            top = 0
            hi = -1
            second = -1
            for s in range(n):
                b = st[BET + s]
                if b > hi:
                    second = hi
                    hi = b
                    top = s
                elif b > second:
                    second = b
            if hi > second:
                over = hi - second
                st[BET + top] -= over
                st[TOTAL + top] -= over
                st[STACK + top] += over
                st[POT] -= over
                st[ALL_IN + top] = 0
            if with_chips <= 1:  # all-in: run the board out and show down
                while st[ROUND] < 3:
                    _next_street(st)
                st[STATUS] = SHOWDOWN
                return out | HAND_ENDED
        if st[ROUND] == 3:
            st[STATUS] = SHOWDOWN
            return out | HAND_ENDED
        _next_street(st)
        start_round(st)
        start = first_to_act(st, st[ROUND])


@njit(cache=True)
def _post(st, seat, amount):
    if not st[UNLIMITED] and amount >= st[STACK + seat]:
        amount = st[STACK + seat]
        st[ALL_IN + seat] = 1
    if not st[UNLIMITED]:
        st[STACK + seat] -= amount
    st[BET + seat] += amount
    st[TOTAL + seat] += amount
    st[POT] += amount
    if st[BET + seat] > st[MAX_BET]:
        st[MAX_BET] = st[BET + seat]


@njit(cache=True)
def post_blinds(st):
    """Post the blinds: ``SMALL_BLIND`` from ``SB_SEAT``, then ``BIG_BLIND`` from ``BB_SEAT``; a short stack
    posts what it has and is all-in.  The posted amounts are then ``st[BET + SB_SEAT]`` and
    ``st[BET + BB_SEAT]``."""
    _post(st, st[SB_SEAT], st[SMALL_BLIND])
    _post(st, st[BB_SEAT], st[BIG_BLIND])
    st[BETS] = 1  # the big blind is the first bet of the pre-flop round


@njit(cache=True)
def start_betting(st):
    """Open the pre-flop betting after the blinds: find the first seat to act.

    Returns ``ROUND_ENDED | HAND_ENDED`` bits like :func:`apply_action`: with finite stacks the hand
    can end here (everyone all-in from the blinds, the board runs out).
    """
    start_round(st)
    return _settle(st, first_to_act(st, 0))


@njit(cache=True)
def start_hand(st):
    """:func:`post_blinds` then :func:`start_betting` (returns its bits)."""
    post_blinds(st)
    return start_betting(st)


# ------------------------------------------------------------------------------------------ legality


@njit(cache=True, nrt=False)
def can_raise(st, p):
    """Whether seat ``p`` may bet/raise now.

    Not when the round is capped; with finite stacks (pokerkit 0.7.7) also not when calling already
    puts ``p`` all-in, when ``p`` faces an incomplete all-in raise smaller than the last full raise,
    when ``p`` already acted and only incomplete all-in raises (summing to less than a full raise)
    were made since, or when nobody else could call a raise.
    """
    if st[N_RAISES] >= st[CAP + st[ROUND]]:
        return False
    if st[UNLIMITED]:
        return True
    mb = st[MAX_BET]
    facing = mb - st[BET + p]
    if st[STACK + p] <= facing:  # calling puts the player all-in
        return False
    ra = st[RAISE_AMT]
    if facing < ra:  # pokerkit: "short all-in cannot be raised"
        return False
    if st[SHORT] > 0 and st[SHORT] < ra and st[PK_ACTED + p]:
        return False
    for i in range(st[N]):
        if i != p and st[FOLDED + i] == 0 and st[STACK + i] + st[BET + i] > mb:
            return True
    return False  # nobody could call a raise


@njit(cache=True, nrt=False)
def legal_mask(st):
    """Legal actions of the seat to act as bits ``CAN_FOLD | CAN_CALL | CAN_RAISE``; 0 when the hand is over.

    CALL (check/call) is always legal, FOLD only when facing a bet, RAISE per :func:`can_raise`.
    """
    p = st[CUR]
    if p < 0:
        return 0
    m = CAN_CALL
    if st[MAX_BET] > st[BET + p]:
        m |= CAN_FOLD
    if can_raise(st, p):
        m |= CAN_RAISE
    return m


@njit(cache=True, nrt=False)
def nearest_legal(mask, a):
    """The legal action nearest to the wanted action ``a`` (the one place this rule is written): ``a`` if
    its bit is in ``mask`` (a :func:`legal_mask`), else check/call if legal, else the first legal action
    (fold, call, raise order); -1 if nothing is legal.  So a fold when checking is free becomes a check,
    a raise that is not allowed becomes a call."""
    if mask & (1 << a):
        return a
    if mask & CAN_CALL:
        return CALL_A
    for b in range(3):
        if mask & (1 << b):
            return b
    return -1


@njit(cache=True, nrt=False)
def legalise(st, a):
    """:func:`nearest_legal` for the seat to act of ``st``: the wanted action ``a`` (0 fold, 1 call, 2 raise) made legal
    (the kernel-level :func:`loki.engine.legalise`, the same rule)."""
    return nearest_legal(legal_mask(st), a)


@njit(cache=True, nrt=False)
def to_call(st, seat):
    """Chips ``seat`` must add to call: 0 if folded or nothing to call; capped by its stack."""
    c = st[MAX_BET] - st[BET + seat]
    if st[FOLDED + seat] or c < 0:
        return 0
    if not st[UNLIMITED] and st[STACK + seat] < c:
        return st[STACK + seat]
    return c


@njit(cache=True)
def bets_this_round(st):
    """Bets and raises made this round, the big blind counting as one pre-flop (the ``BETS`` register)."""
    return st[BETS]


# ------------------------------------------------------------------------------------------ actions


@njit(cache=True, nrt=False)
def apply_action(st, a):  # noqa: C901 - the betting rules of one action, in one numba kernel
    """Apply action ``a`` (0 fold, 1 check/call, 2 bet/raise) of the seat to act.

    Records the action in the ``LAST`` block, updates bets, stacks, pot and the per-round flags,
    then moves to the next seat to act, ending the round (next round's ``NEED``, uncalled chips
    returned, board run-out) or the hand (``STATUS``) when the betting is over.

    Returns:
        ``>= 0`` on success: bits ``ROUND_ENDED`` (1) and ``HAND_ENDED`` (2); a negative error code
        when the action is not legal, the state unchanged: ``ERR_OVER`` (nobody to act),
        ``ERR_CAPPED`` (raise, the round is capped), ``ERR_NO_RAISE`` (raise not allowed otherwise),
        ``ERR_FREE_FOLD`` (fold when checking is free).
    """
    p = st[CUR]
    if p < 0:
        return ERR_OVER
    rnd = st[ROUND]
    mb = st[MAX_BET]
    facing = mb - st[BET + p]
    if a == RAISE_A and not can_raise(st, p):
        return ERR_CAPPED if st[N_RAISES] >= st[CAP + rnd] else ERR_NO_RAISE
    if a == FOLD_A and facing <= 0:
        return ERR_FREE_FOLD
    unlimited = st[UNLIMITED] != 0
    n = st[N]
    st[LAST + L_SEAT] = p
    st[LAST + L_ACTION] = a
    st[LAST + L_TO_CALL] = facing
    st[LAST + L_POT] = st[POT]
    st[LAST + L_BETS] = bets_this_round(st)
    st[LAST + L_N_IN] = st[N_IN]
    st[LAST + L_VOLUNTARY] = st[VOLUNTARY + p]
    st[LAST + L_ROUND] = rnd
    all_in = 0
    amount = 0
    if a == CALL_A:
        amount = facing
        if not unlimited:
            if st[STACK + p] <= facing:
                amount = st[STACK + p]
                all_in = 1
                st[ALL_IN + p] = 1
            st[STACK + p] -= amount
            st[PK_ACTED + p] = 1
        st[BET + p] += amount
        st[TOTAL + p] += amount
        st[POT] += amount
        st[NEED + p] = 0
    elif a == RAISE_A:
        size = st[BET_SIZE + rnd]
        ra = st[RAISE_AMT]
        target = mb + (ra if ra > size else size)
        if not unlimited and st[STACK + p] + st[BET + p] <= target:
            target = st[STACK + p] + st[BET + p]
            all_in = 1
            st[ALL_IN + p] = 1
        amount = target - st[BET + p]
        st[BET + p] = target
        st[TOTAL + p] += amount
        st[POT] += amount
        st[MAX_BET] = target
        st[N_RAISES] += 1
        st[BETS] += 1
        inc = target - mb
        if unlimited:
            st[RAISE_AMT] = inc
            for s in range(n):
                st[NEED + s] = 1 if s != p and st[FOLDED + s] == 0 else 0
        else:
            st[STACK + p] -= amount
            if inc >= ra:  # a full raise reopens the betting for everyone
                for s in range(n):
                    st[PK_ACTED + s] = 0
            st[PK_ACTED + p] = 1
            if inc > ra:
                st[RAISE_AMT] = ra = inc
            if all_in:
                st[SHORT] += inc
                if st[SHORT] >= ra:
                    st[SHORT] = 0
            else:
                st[SHORT] = 0
            for s in range(n):
                st[NEED + s] = 1 if s != p and st[FOLDED + s] == 0 and st[ALL_IN + s] == 0 else 0
    else:  # fold
        st[FOLDED + p] = 1
        st[N_IN] -= 1
        st[NEED + p] = 0
        if not unlimited:
            st[PK_ACTED + p] = 1
    st[LAST + L_AMOUNT] = amount
    st[LAST + L_ALL_IN] = all_in
    st[N_ACTIONS] += 1
    if a != FOLD_A:
        st[ACTED + p] = 1
        if amount > 0:
            st[VOLUNTARY + p] = 1
        if a == RAISE_A:
            st[RAISED + p] = 1
    return _settle(st, p + 1 if p + 1 < n else 0)


@njit(cache=True, nrt=False)
def apply_action_noting(st, a):
    """:func:`apply_action`, its result (``>= 0``) also carrying the bit ``COULD_RAISE`` when the seat to act could
    bet/raise before its action (:func:`can_raise`): what the engine's ``ActionTaken`` event records, in the same call.
    The play-outs call :func:`apply_action`, which does not ask."""
    p = st[CUR]
    could = p >= 0 and can_raise(st, p)
    res = apply_action(st, a)
    if res >= 0 and could:
        res |= COULD_RAISE
    return res
