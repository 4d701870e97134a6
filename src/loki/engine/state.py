"""The state of one hand: :class:`HandState` and :func:`new_hand`.

The betting lives in a :mod:`loki.betting` state vector (one ``int64`` array) and every betting
rule (acting order, cap, legal actions, bets, pot, the end of rounds, pots and payoffs) is a call to
that module; this class adds the cards, the ACPC history, the events and the Python API.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import cast

import numpy as np

from loki import betting as bt
from loki.cards import format_cards
from loki.engine.actions import LEGAL_TUPLES, Action
from loki.engine.config import STREET_NAMES, GameConfig
from loki.engine.dealing import deal_cards
from loki.engine.events import (
    ActionTaken,
    BlindPosted,
    BoardDealt,
    HandEnded,
    HandStarted,
    PotAward,
    Showdown,
)
from loki.engine.payout import settle
from loki.engine.seats import preflop_situation, seat_orders
from loki.engine.view import PlayerView
from loki.errors import CardError, ConfigError, IllegalActionError, InputError

__all__ = ["HandState", "new_hand"]

_BOARD_VISIBLE = (0, 3, 4, 5)
_WHY = {
    bt.ERR_OVER: "the hand is over",
    bt.ERR_CAPPED: "the round is capped",
    bt.ERR_NO_RAISE: "cannot raise here",
    bt.ERR_FREE_FOLD: "folding is not allowed when checking is free",
}
_N, _ROUND, _CUR, _STATUS, _POT = bt.N, bt.ROUND, bt.CUR, bt.STATUS, bt.POT
_BET, _TOTAL, _STACK, _FOLDED, _ALL_IN = bt.BET, bt.TOTAL, bt.STACK, bt.FOLDED, bt.ALL_IN
_LAST, _LAST_END = bt.LAST, bt.LAST + bt.LAST_SIZE
_legal_mask, _apply_noting, _to_call = bt.legal_mask, bt.apply_action_noting, bt.to_call
_COULD_RAISE, _ENDED = bt.COULD_RAISE, bt.ROUND_ENDED | bt.HAND_ENDED
_TEMPLATES: dict = {}  # (GameConfig, button) -> state vector before the blinds (unlimited or config stacks)


def _template(config: GameConfig, button: int, stacks) -> np.ndarray:
    """A fresh state vector of ``config`` with ``button`` and ``stacks`` (None: unlimited)."""
    own = stacks is config.stacks
    if own:
        t = _TEMPLATES.get((config, button))
        if t is not None:
            return t.copy()
    t = bt.new_state(
        config.n_players,
        button,
        config.small_blind,
        config.big_blind,
        config.bet_sizes,
        config.raise_caps,
        stacks,
        config.odd_chip == "split",
    )
    if own:
        _TEMPLATES[(config, button)] = t
        return t.copy()
    return t


def _flags(a: np.ndarray) -> tuple[bool, ...]:
    return tuple(map(bool, a.tolist()))


class HandState:
    """The state of one hand (mutable; :meth:`apply` advances it, :meth:`clone` copies it).

    Create with :func:`new_hand` (or :meth:`HandState.deal`).  Rounds are numbered 0 (pre-flop)
    .. 3 (river).  Between rounds nothing is pending: after the last action of a round the next
    board cards are revealed at once, so :attr:`current_player` is always the seat to act, or
    ``None`` when the hand is over.  Per-seat quantities are tuples of length ``n_players``;
    amounts are chips.  The betting state is a :mod:`loki.betting` state vector.
    """

    __slots__ = (
        "config",
        "n",
        "button",
        "_st",
        "_hole",
        "_board",
        "_start_stacks",
        "_hist",
        "_events",
        "_payoffs",
        "_pots",
        "_ranks",
        "_orders",
        "_folded_memo",
    )
    config: GameConfig
    n: int
    button: int
    _st: np.ndarray  # the loki.betting state vector
    _hole: list[tuple[int, int]]
    _board: list[int]
    _start_stacks: tuple[int, ...] | None
    _hist: list[str]
    _events: list | None
    _payoffs: tuple | None
    _pots: tuple[PotAward, ...]
    _ranks: list[int] | None
    _orders: tuple[int, int, tuple[int, ...], tuple[int, ...]]
    _folded_memo: tuple[int, tuple[bool, ...]]

    # ---- construction -----------------------------------------------------------------------

    @classmethod
    def deal(
        cls,
        config: GameConfig,
        button: int = 0,
        hole_cards=None,
        board=None,
        rng=None,
        *,
        stacks=None,
        record_events: bool = True,
    ) -> HandState:
        """Start a hand: deal cards, post the blinds, and stop at the first decision.

        Args:
            config: the :class:`GameConfig`.
            button: dealer-button seat 0..n-1 (the caller rotates it between hands).
            hole_cards: ``None`` (dealt from ``rng``) or one pair per seat, each a string such as
                ``"AsKd"`` or two card ints/strings.
            board: ``None`` or up to 5 board cards (a string such as ``"8s4h6d5sJs"`` or card
                ints), fixed in advance and revealed street by street; missing cards are dealt
                from ``rng``.  Without ``rng`` a short board is allowed only if the hand never
                needs the missing cards (replays of hands that end by a fold).
            rng: ``numpy.random.Generator``, an int seed, or None (then all cards must be given).
            stacks: overrides ``config.stacks`` for this hand (int or per-seat tuple; None keeps
                the config's).
            record_events: keep the :attr:`events` list (True by default; the players of
                :mod:`loki.players.table` need it).

        Raises:
            ConfigError: bad button, stacks or rng (ValueError).
            CardError: bad cards: wrong count, duplicates, out of range (ValueError).
        """
        n = config.n_players
        if isinstance(button, bool) or not isinstance(button, (int, np.integer)) or not 0 <= button < n:
            raise ConfigError(f"button must be a seat 0..{n - 1}, got {button!r}")
        button = int(button)
        hole, bd = deal_cards(n, hole_cards, board, rng)

        # --- stacks and the betting state
        st_stacks = cast(
            "tuple[int, ...] | None", config.stacks if stacks is None else GameConfig(n_players=n, stacks=stacks).stacks
        )
        st = _template(config, button, st_stacks)

        self = cls.__new__(cls)
        self.config = config
        self.n = n
        self.button = button
        self._st = st
        self._hole = hole
        self._board = bd
        self._start_stacks = st_stacks
        self._hist = [""]
        self._orders = seat_orders(n, button)
        self._folded_memo = (-1, ())
        ev: list | None = [] if record_events else None
        self._events = ev
        self._payoffs = None
        self._pots = ()
        self._ranks = None

        # --- blinds
        bt.post_blinds(st)
        if ev is not None:
            sb_seat, bb_seat = self._orders[0], self._orders[1]
            ev.append(HandStarted(n, button, st_stacks))
            ev.append(BlindPosted(sb_seat, st.item(_BET + sb_seat), "small"))
            ev.append(BlindPosted(bb_seat, st.item(_BET + bb_seat), "big"))
        if bt.start_betting(st):
            self._advance(0)
        return self

    # ---- rounds and the end of the hand --------------------------------------------------------

    def _advance(self, r0: int) -> None:
        """After the betting state moved on from round ``r0``: reveal the boards of the rounds
        reached (history, events) and, if the hand is over, show down and award the pots."""
        st = self._st
        bd = self._board
        ev = self._events
        for r in range(r0 + 1, st.item(_ROUND) + 1):
            nv = _BOARD_VISIBLE[r]
            if len(bd) < nv:
                raise CardError(
                    f"the hand reached the {STREET_NAMES[r]} but only {len(bd)} board cards were given and no rng"
                )
            self._hist.append("")
            if ev is not None:
                ev.append(BoardDealt(r, tuple(bd[_BOARD_VISIBLE[r - 1] : nv]), tuple(bd[:nv])))
        status = st.item(_STATUS)
        if status != bt.BETTING:
            self._finish(status == bt.SHOWDOWN)

    def _finish(self, showdown: bool) -> None:
        shown, self._ranks, self._pots, self._payoffs = settle(
            self._st, self._orders[3], self._hole, self._board, showdown
        )
        if self._events is not None:
            if showdown:
                self._events.append(Showdown(shown))
            self._events.append(HandEnded(self._payoffs, self._pots, showdown))

    # ---- legality ---------------------------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """Legal actions of the player to act, in the order FOLD, CALL, RAISE; ``()`` when the hand
        is over.  FOLD only when facing a bet; RAISE unless the round is capped, the player cannot
        put in more than a call, or (finite stacks) nobody could answer the raise
        (:func:`loki.betting.legal_mask`)."""
        return LEGAL_TUPLES[_legal_mask(self._st)]

    def is_legal(self, action) -> bool:
        """Whether ``action`` (an :class:`Action`, int or letter) is legal now."""
        try:
            return Action.parse(action) in self.legal_actions()
        except ValueError:
            return False

    # ---- transitions ------------------------------------------------------------------------

    def _illegal(self, action, why: str):
        seat = self.current_player
        legal = self.legal_actions()
        names = ", ".join(a.name for a in legal) or "none"
        who = f"seat {seat}" if seat is not None else "nobody (the hand is over)"
        return IllegalActionError(
            f"illegal action {getattr(action, 'name', action)!r} by {who} on the {self.street_name}: {why}; "
            f"legal: {names} (history {self.history!r})",
            seat,
            action,
            legal,
        )

    def apply(self, action) -> None:
        """Apply the action of :attr:`current_player` (an :class:`Action`, int 0..2 or letter).

        Raises:
            IllegalActionError: the action is not legal (or the hand is over); the state is
                unchanged.  The message names the seat, the action and the legal set.
        """
        if action.__class__ is not Action:
            try:
                action = Action.parse(action)
            except ValueError as e:
                raise self._illegal(action, str(e)) from None
        st = self._st
        res = _apply_noting(st, action.value)
        if res < 0:
            raise self._illegal(action, _WHY[res])
        seat, _, amount, all_in, to_call, pot, bets, n_in, vol, r = st[_LAST:_LAST_END].tolist()
        self._hist[r] += action.char
        if self._events is not None:
            could = (res & _COULD_RAISE) != 0
            self._events.append(
                ActionTaken(seat, action, amount, r, all_in == 1, to_call, pot, bets, n_in, vol == 1, could)
            )
        if res & _ENDED:
            self._advance(r)

    def apply_many(self, actions: Iterable | str) -> None:
        """Apply several actions in turn (e.g. an ACPC betting string; ``'/'`` is ignored).

        Raises:
            IllegalActionError: at the first illegal action (earlier ones stay applied).
        """
        for a in actions:
            if a != "/":
                self.apply(a)

    def clone(self) -> HandState:
        """An independent copy (state vector, history and events list copied; events shared: they
        are immutable)."""
        c = HandState.__new__(HandState)
        for k in HandState.__slots__:
            setattr(c, k, getattr(self, k))
        c._st = self._st.copy()
        c._hist = self._hist[:]
        c._events = self._events[:] if self._events is not None else None
        return c

    __copy__ = clone

    def __deepcopy__(self, memo):
        return self.clone()

    # ---- observers --------------------------------------------------------------------------

    @property
    def n_players(self) -> int:
        return self.n

    @property
    def round(self) -> int:
        """The betting round: 0 pre-flop, 1 flop, 2 turn, 3 river."""
        return self._st.item(_ROUND)

    @property
    def current_player(self) -> int | None:
        """Seat to act, or ``None`` when the hand is over."""
        p = self._st.item(_CUR)
        return p if p >= 0 else None

    @property
    def is_terminal(self) -> bool:
        return self._payoffs is not None

    @property
    def street_name(self) -> str:
        """``"preflop"``, ``"flop"``, ``"turn"`` or ``"river"``."""
        return STREET_NAMES[self._st.item(_ROUND)]

    @property
    def board(self) -> tuple[int, ...]:
        """Visible board cards (card ints): 0, 3, 4 or 5 of them."""
        return tuple(self._board[: _BOARD_VISIBLE[self._st.item(_ROUND)]])

    @property
    def preflop_order(self) -> tuple[int, ...]:
        """Seats in pre-flop acting order of the first orbit: left of the big blind first, the big blind
        last (heads-up: the button/small blind first)."""
        return self._orders[2]

    @property
    def postflop_order(self) -> tuple[int, ...]:
        """Seats in post-flop acting order: left of the button first, the button last (heads-up: the big
        blind first)."""
        return self._orders[3]

    @property
    def small_blind_seat(self) -> int:
        return self._orders[0]

    @property
    def big_blind_seat(self) -> int:
        return self._orders[1]

    @property
    def bet_size(self) -> int:
        """Size of a bet/raise this round (chips)."""
        st = self._st
        return st.item(bt.BET_SIZE + st.item(_ROUND))

    @property
    def pot(self) -> int:
        """Chips in the pot, this round's bets included."""
        return self._st.item(_POT)

    @property
    def bets_this_round(self) -> int:
        """Bets and raises made this round, the big blind counting as one pre-flop."""
        return self._st.item(bt.BETS)

    @property
    def raises_left(self) -> int:
        """How many more bets/raises the cap allows this round."""
        st = self._st
        return st.item(bt.CAP + st.item(_ROUND)) - st.item(bt.N_RAISES)

    @property
    def max_bet(self) -> int:
        """The largest amount (chips) committed by one seat this round."""
        return self._st.item(bt.MAX_BET)

    def to_call(self, seat: int | None = None) -> int:
        """Chips ``seat`` (default: the player to act) must add to call (capped by its stack)."""
        if seat is None:
            seat = self.current_player
            if seat is None:
                return 0
        return _to_call(self._st, seat)

    def to_call_bets(self, seat: int | None = None) -> float:
        """:meth:`to_call` in bets of this round (0.5 for the small blind facing the big blind)."""
        return self.to_call(seat) / self.bet_size

    @property
    def committed(self) -> tuple[int, ...]:
        """Chips put in this round, per seat (blinds included pre-flop)."""
        return tuple(self._st[_BET : _BET + self.n].tolist())

    @property
    def total_committed(self) -> tuple[int, ...]:
        """Chips put in during the whole hand, per seat (uncalled chips returned are deducted)."""
        return tuple(self._st[_TOTAL : _TOTAL + self.n].tolist())

    @property
    def stacks(self) -> tuple[int, ...] | None:
        """Chips behind per seat, or None with unlimited bankrolls."""
        if self._start_stacks is None:
            return None
        return tuple(self._st[_STACK : _STACK + self.n].tolist())

    @property
    def starting_stacks(self) -> tuple[int, ...] | None:
        """Chips per seat at the start of the hand, before the blinds (length ``n``), or None with
        unlimited bankrolls."""
        return self._start_stacks

    @property
    def folded(self) -> tuple[bool, ...]:
        """Per seat (length ``n``): has folded this hand (the complement of :attr:`active`)."""
        # memo keyed by the number of players in: it changes with every fold and only then
        n_in, t = self._folded_memo
        if n_in != self._st.item(bt.N_IN):
            t = _flags(self._st[_FOLDED : _FOLDED + self.n])
            self._folded_memo = (self._st.item(bt.N_IN), t)
        return t

    @property
    def active(self) -> tuple[bool, ...]:
        """Per seat: still in the hand (not folded); all-in players are active."""
        return tuple(map(operator.not_, self.folded))

    @property
    def all_in(self) -> tuple[bool, ...]:
        """Per seat: has no chips left (finite stacks only)."""
        return _flags(self._st[_ALL_IN : _ALL_IN + self.n])

    @property
    def can_act(self) -> tuple[bool, ...]:
        """Per seat: neither folded nor all-in."""
        return tuple(not (f or a) for f, a in zip(self.folded, self.all_in))

    @property
    def num_active(self) -> int:
        """Players not folded."""
        return self._st.item(bt.N_IN)

    def hole_cards(self, seat: int) -> tuple[int, int]:
        """Hole cards of ``seat`` (card ints).  The full state sees everything; use :meth:`view`."""
        return self._hole[seat]

    @property
    def full_board(self) -> tuple[int, ...]:
        """All board cards dealt in advance (hidden ones included)."""
        return tuple(self._board)

    @property
    def history(self) -> str:
        """ACPC betting string: per-round action letters joined by ``'/'``, e.g. ``'cc/crc/cc/cc'``.
        After an all-in the rounds run out without betting appear empty (``'rc//'``)."""
        return "/".join(self._hist)

    @property
    def round_histories(self) -> tuple[str, ...]:
        """The ACPC action letters (``f``, ``c``, ``r``) of each betting round reached so far, one
        string per round from pre-flop (index 0) on; :attr:`history` joins them with ``'/'``."""
        return tuple(self._hist)

    # ---- public facts of the current round (for players' policies; computed once, here) ----

    @property
    def acted_this_round(self) -> tuple[bool, ...]:
        """Per seat: has checked, called, bet or raised in the current round (a fold or a posted
        blind is not an action here)."""
        return _flags(self._st[bt.ACTED : bt.ACTED + self.n])

    @property
    def voluntary_this_round(self) -> tuple[bool, ...]:
        """Per seat: has put chips in voluntarily in the current round (called or raised an amount
        above 0; blinds do not count).  Make1's fold rule reads it (PAPP98 papp/node44)."""
        return _flags(self._st[bt.VOLUNTARY : bt.VOLUNTARY + self.n])

    @property
    def raised_this_round(self) -> tuple[bool, ...]:
        """Per seat: has bet or raised in the current round."""
        return _flags(self._st[bt.RAISED : bt.RAISED + self.n])

    @property
    def raised_last_round(self) -> tuple[bool, ...]:
        """Per seat: bet or raised in the previous betting round (all False pre-flop); the Bettor's
        check-raise rule looks for such an aggressor behind us (loki-algorithms.md §3 rule 6)."""
        return _flags(self._st[bt.RAISED_LAST : bt.RAISED_LAST + self.n])

    @property
    def actions_this_round(self) -> int:
        """Actions (folds included) taken in the current round so far; 0 means the player to act is
        the first to act this round."""
        return self._st.item(bt.N_ACTIONS)

    def preflop_situation(self, seat: int) -> tuple[int, int, int]:
        """``(num_inpot, num_yet_to_act, position)`` of ``seat`` for a pre-flop decision (PAPP98
        papp/node44, Eq. 6.1-6.2); see :func:`~loki.engine.preflop_situation`.  Uses the folds and
        this round's actions so far, so call it in round 0."""
        st, n = self._st, self.n
        folded = [s for s, f in enumerate(st[_FOLDED : _FOLDED + n].tolist()) if f]
        acted = [s for s, f in enumerate(st[bt.ACTED : bt.ACTED + n].tolist()) if f]
        sb, bb, pre, _ = self._orders
        return preflop_situation(pre, seat, sb, bb, folded, acted)

    @property
    def events(self) -> list:
        """Events so far, in order (a list; do not mutate).  Empty if recording was disabled."""
        return self._events if self._events is not None else []

    @property
    def payoffs(self) -> tuple:
        """Net chips won per seat (sum 0; ints, or floats under the ``"split"`` odd-chip rule).

        Raises:
            ValueError: the hand is not over.
        """
        if self._payoffs is None:
            raise InputError(f"the hand is not over (history {self.history!r}): no payoffs yet")
        return self._payoffs

    @property
    def payoffs_sb(self) -> tuple[float, ...]:
        """:attr:`payoffs` in small bets."""
        sb = self.config.small_bet
        return tuple(x / sb for x in self.payoffs)

    @property
    def pots(self) -> tuple[PotAward, ...]:
        """How the pot was awarded (empty until the hand is over)."""
        return self._pots

    @property
    def went_to_showdown(self) -> bool:
        return self._payoffs is not None and self._st.item(_STATUS) == bt.SHOWDOWN

    @property
    def showdown_ranks(self) -> dict[int, int]:
        """``{seat: rank7}`` of the hands shown (empty without a showdown)."""
        ranks = self._ranks
        if ranks is None or not self.went_to_showdown:
            return {}
        folded = self.folded
        return {s: ranks[s] for s in range(self.n) if not folded[s]}

    def shown_cards(self) -> dict[int, tuple[int, int]]:
        """Hole cards revealed at the showdown, ``{seat: (card, card)}``."""
        if not self.went_to_showdown:
            return {}
        folded = self.folded
        return {s: self._hole[s] for s in range(self.n) if not folded[s]}

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see: its own hole cards, the public state, shown cards."""
        return PlayerView(self, seat)

    def __repr__(self) -> str:
        board = format_cards(self.board) or "-"
        if self._payoffs is not None:
            tail = f"payoffs={list(self._payoffs)}"
        else:
            tail = f"to act: seat {self.current_player}, to call {self.to_call()}"
        stacks = self.stacks
        st = "" if stacks is None else f", stacks={list(stacks)}"
        return (
            f"<HandState {self.n}p button={self.button} {self.street_name} board={board} pot={self.pot} "
            f"history='{self.history}'{st}, {tail}>"
        )


def new_hand(
    config: GameConfig,
    button: int = 0,
    hole_cards=None,
    board=None,
    rng=None,
    *,
    stacks=None,
    record_events: bool = True,
) -> HandState:
    """Start a hand; see :meth:`HandState.deal` for the arguments.

    >>> from loki.engine import GameConfig
    >>> s = new_hand(GameConfig(n_players=2), button=1, rng=0)
    >>> s.small_blind_seat, s.big_blind_seat, s.current_player, s.pot
    (1, 0, 1, 15)
    """
    return HandState.deal(config, button, hole_cards, board, rng, stacks=stacks, record_events=record_events)
