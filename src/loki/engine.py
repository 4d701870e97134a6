"""Fixed-limit Texas Hold'em rules engine for 2-10 players, with an OpenSpiel-style state API.

The game is the one of the AAAI-99 paper (Billings, Peña, Schaeffer, Szafron, §2) and of the
ACPC limit game definitions (``holdem.limit.2p.reverse_blinds.game``, ``holdem.limit.3p.game``):

* Blinds: ``small_blind`` and ``big_blind`` chips (default 5 and 10).  With 3+ players the small
  blind is the seat left of the button (``button + 1``), the big blind ``button + 2``, and the first
  player to act pre-flop is ``button + 3`` (left of the big blind).  **Heads-up** the button posts
  the small blind and acts first pre-flop, the big blind acts first on later streets (ACPC
  ``reverse_blinds``: seat 1 posts 10, seat 2 posts 5, ``firstPlayer = 2 1 1 1``, i.e. the ACPC
  seat 2 is our ``button=1``).  The ACPC 3-player game (``blind = 5 10 0``,
  ``firstPlayer = 3 1 1 1``) is ``button=2``.  Post-flop the first player to act is the first
  active seat left of the button.
* Bets are fixed: ``small_bet`` chips pre-flop and on the flop, ``big_bet`` on the turn and river.
  At most ``max_bets`` bets per round (a bet and 3 raises); pre-flop the big blind counts as the
  first bet, so pre-flop allows ``max_bets - 1`` raises over the big blind (ACPC
  ``maxRaises = 3 4 4 4``).
* Actions are :class:`Action` ``FOLD``, ``CALL`` (check or call) and ``RAISE`` (bet or raise).
  **Folding is legal only when facing a bet**: folding when checking is free is illegal, as in the
  ACPC protocol 2.0 ("Folding is no longer allowed if the player could have called for free") and
  pokerkit's tournament mode.
* Bankroll: ``stacks=None`` gives every player an unlimited bankroll (the paper's experiments, and
  ACPC limit games).  Finite stacks give all-ins, side pots and return of uncalled chips, with the
  same rules as pokerkit 0.7.7 (a call for less than the bet puts the player all-in; a raise for
  less than a full bet is an all-in raise that counts toward the cap; a player who already acted
  may not re-raise when only incomplete all-in raises were made since; raising is illegal when
  nobody else could call it; chips of a bet nobody matched are returned at the end of the round).

Units: every amount is in **chips** unless the name says ``_sb`` (small bets) or ``_bets``.

Pots and the odd chip (``GameConfig.odd_chip``):

* ``"left_of_button"`` (default, integer chips): the pot is cut into layers at every distinct
  total contribution (folded players' chips included); a layer is won by the non-folded players
  who contributed at least its level; consecutive layers with the same eligible players are merged
  into one pot; each pot is divided equally among its best hands and the **whole remainder** of the
  division goes to the first winner clockwise from the button (the small blind's side).  This is
  exactly pokerkit 0.7.7 (``State._end_chips_pushing``: ``divmod(amount, len(winners))``, remainder
  to ``player_indices[0]``, pokerkit's player 0 being the seat left of the button).
* ``"split"`` (ACPC): every pot is divided exactly, so payoffs can be fractional (``float``); the
  ACPC dealer computes values as ``double`` and its 3-player log shows payoffs such as
  ``-5|2.5|2.5`` (hands 256 and 964 of ``3p.limit.h1000.r0.log``).  Use this mode to reproduce
  ACPC logs.

The two rules agree whenever no pot divides unevenly, which is always the case heads-up.

Example::

    >>> cfg = GameConfig(n_players=3)
    >>> s = new_hand(cfg, button=2, hole_cards=["5d5c", "9hQd", "8dAs"], board="8s4h6d5sJs")
    >>> s.current_player, s.legal_actions()
    (2, (<Action.FOLD: 0>, <Action.CALL: 1>, <Action.RAISE: 2>))
    >>> for a in "rfrrc" "cc" "rrc" "rrrrc":
    ...     s.apply(a)
    >>> s.history, s.payoffs
    ('rfrrc/cc/rrc/rrrrc', (-5, -160, 165))
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from loki.cards import format_card, format_cards, parse_cards
from loki.errors import IllegalActionError
from loki.evaluator import rank7

__all__ = [
    "Action",
    "FOLD",
    "CALL",
    "RAISE",
    "GameConfig",
    "IllegalActionError",
    "HandState",
    "PlayerView",
    "new_hand",
    "Event",
    "HandStarted",
    "BlindPosted",
    "ActionTaken",
    "BoardDealt",
    "Showdown",
    "PotAward",
    "HandEnded",
    "STREET_NAMES",
    "ODD_CHIP_RULES",
    "preflop_situation",
    "legalise",
]

STREET_NAMES = ("preflop", "flop", "turn", "river")
ODD_CHIP_RULES = ("left_of_button", "split")
_BOARD_VISIBLE = (0, 3, 4, 5)


# --------------------------------------------------------------------------------------------
# actions


class Action(IntEnum):
    """A betting action: ``FOLD`` (0), ``CALL`` (1, check or call), ``RAISE`` (2, bet or raise).

    ``.char`` is the ACPC letter (``'f'``, ``'c'``, ``'r'``); :meth:`parse` reads letters, words
    (``"fold"``, ``"check"``, ``"call"``, ``"bet"``, ``"raise"``) and ints.

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
                raise ValueError(
                    f"invalid action {value!r}: expected one of 'f', 'c', 'r', 'fold', 'check', 'call', 'bet', 'raise'"
                )
            return a
        if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and 0 <= int(value) <= 2:
            return _ACTIONS[int(value)]
        raise ValueError(f"invalid action {value!r}: expected Action, 0..2 or a letter f/c/r")


FOLD, CALL, RAISE = Action.FOLD, Action.CALL, Action.RAISE


def legalise(action: Action, legal: Sequence[Action]) -> Action:
    """Turn a wanted action into a legal one (the one place this rule is written): a fold when checking is free
    becomes a check, a raise when the betting is capped becomes a call.

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
    if action in legal:
        return action
    if CALL in legal:
        return CALL
    return legal[0]


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
_L_FCR = (FOLD, CALL, RAISE)
_L_FC = (FOLD, CALL)
_L_CR = (CALL, RAISE)
_L_C = (CALL,)


# --------------------------------------------------------------------------------------------
# configuration


@dataclass(frozen=True, slots=True)
class GameConfig:
    """Rules of a fixed-limit Texas Hold'em game (amounts in chips).

    Attributes:
        n_players: 2..10 seats, numbered 0..n-1.
        small_bet: bet size pre-flop and on the flop (chips, > 0).
        big_bet: bet size on the turn and river (chips, > 0).
        small_blind: forced bet of the small blind (chips, >= 0).
        big_blind: forced bet of the big blind (chips, > 0, >= small_blind).
        max_bets: bets per round including the first bet (pre-flop: including the big blind),
            so ``4`` means a bet and 3 raises; >= 1.
        stacks: ``None`` for unlimited bankrolls, an int (every seat) or a tuple of ``n_players``
            ints (per seat; chips at the start of each hand, each >= 1).
        odd_chip: ``"left_of_button"`` (integer chips, remainder of an uneven split to the first
            winner clockwise from the button; pokerkit's rule) or ``"split"`` (exact fractional
            split, float payoffs; the ACPC dealer's rule).  See the module docstring.

    Raises:
        ValueError: any field out of range; the message names the field and the value.
    """

    n_players: int = 2
    small_bet: int = 10
    big_bet: int = 20
    small_blind: int = 5
    big_blind: int = 10
    max_bets: int = 4
    stacks: int | tuple[int, ...] | None = None
    odd_chip: str = "left_of_button"

    def __post_init__(self):
        def _int(name, lo, hi=None):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise ValueError(f"GameConfig.{name} must be an int, got {v!r}")
            if v < lo or (hi is not None and v > hi):
                rng = f"{lo}..{hi}" if hi is not None else f">= {lo}"
                raise ValueError(f"GameConfig.{name} = {v!r} out of range (expected {rng})")
            object.__setattr__(self, name, int(v))

        _int("n_players", 2, 10)
        _int("small_bet", 1)
        _int("big_bet", 1)
        _int("small_blind", 0)
        _int("big_blind", 1)
        _int("max_bets", 1)
        if self.small_blind > self.big_blind:
            raise ValueError(f"GameConfig.small_blind = {self.small_blind} exceeds big_blind = {self.big_blind}")
        if self.odd_chip not in ODD_CHIP_RULES:
            raise ValueError(f"GameConfig.odd_chip = {self.odd_chip!r}: expected one of {ODD_CHIP_RULES}")
        st = self.stacks
        if st is not None:
            if isinstance(st, (int, np.integer)) and not isinstance(st, bool):
                st = (int(st),) * self.n_players
            else:
                try:
                    st = tuple(st)
                except TypeError:
                    raise ValueError(
                        f"GameConfig.stacks must be None, an int or a tuple of ints, got {self.stacks!r}"
                    ) from None
            if len(st) != self.n_players:
                raise ValueError(f"GameConfig.stacks has {len(st)} entries for {self.n_players} players")
            for v in st:
                if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
                    raise ValueError(f"GameConfig.stacks entries must be ints >= 1 chip, got {self.stacks!r}")
            object.__setattr__(self, "stacks", tuple(int(v) for v in st))

    @property
    def bet_sizes(self) -> tuple[int, int, int, int]:
        """Bet size per round (chips): ``(small_bet, small_bet, big_bet, big_bet)``."""
        return (self.small_bet, self.small_bet, self.big_bet, self.big_bet)

    @property
    def raise_caps(self) -> tuple[int, int, int, int]:
        """Bets-or-raises allowed per round *excluding* the big blind (ACPC ``maxRaises``)."""
        return (self.max_bets - 1, self.max_bets, self.max_bets, self.max_bets)


# --------------------------------------------------------------------------------------------
# events (all public: hole cards appear only in Showdown, for the hands that are shown)
#
# Events are read-only by convention: they are plain slotted dataclasses (not frozen, because a
# frozen dataclass costs about 4x more to construct and the engine makes one per action), and the
# same objects are shared by clones and by every player.  Never mutate one.


@dataclass(slots=True)
class HandStarted:
    """A hand begins.  ``stacks`` is None with unlimited bankrolls, else chips per seat."""

    n_players: int
    button: int
    stacks: tuple[int, ...] | None


@dataclass(slots=True)
class BlindPosted:
    """``seat`` posts a blind of ``amount`` chips (less than the blind if the stack is short);
    ``kind`` is ``"small"`` or ``"big"``."""

    seat: int
    amount: int
    kind: str


@dataclass(slots=True)
class ActionTaken:
    """``seat`` takes ``action`` in ``round`` (0..3), putting ``amount`` chips in the pot
    (0 for a fold or a check); ``all_in`` when this left the player without chips.

    The situation the player faced *before* acting, for opponent modelling: ``to_call`` chips
    to call, ``pot`` chips in the pot, ``bets`` bets/raises made this round (the big blind
    counting as one pre-flop), ``n_active`` players not folded, and ``voluntary`` whether the
    player had already put chips in voluntarily this round (a blind does not count; Make1's
    fold rule, PAPP98 papp/node44)."""

    seat: int
    action: Action
    amount: int
    round: int
    all_in: bool = False
    to_call: int = 0
    pot: int = 0
    bets: int = 0
    n_active: int = 0
    voluntary: bool = False


@dataclass(slots=True)
class BoardDealt:
    """Board cards of ``round`` (1 flop, 2 turn, 3 river) are revealed: ``cards`` the new cards,
    ``board`` all visible cards (card ints)."""

    round: int
    cards: tuple[int, ...]
    board: tuple[int, ...]


@dataclass(slots=True)
class Showdown:
    """Hands shown at the showdown: ``hands`` is a tuple of ``(seat, (card, card), rank)`` for
    every non-folded player, in seat order from the button's left; rank as ``rank7`` (higher is
    stronger)."""

    hands: tuple[tuple[int, tuple[int, int], int], ...]


@dataclass(slots=True)
class PotAward:
    """One pot: ``amount`` chips, ``eligible`` seats, ``winners`` seats and the chips each gets
    (``shares``, parallel to ``winners``; floats under the ``"split"`` rule)."""

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple


@dataclass(slots=True)
class HandEnded:
    """The hand is over: ``payoffs`` net chips per seat (sum 0), ``pots`` how they were won,
    ``showdown`` whether hands were compared (False: everyone else folded)."""

    payoffs: tuple
    pots: tuple[PotAward, ...]
    showdown: bool


Event = HandStarted | BlindPosted | ActionTaken | BoardDealt | Showdown | HandEnded


# --------------------------------------------------------------------------------------------
# seat orders, cached per (n, button)

_ORDER_CACHE: dict = {}


def _orders(n: int, button: int):
    key = (n, button)
    o = _ORDER_CACHE.get(key)
    if o is None:
        if n == 2:
            sb, bb, first = button, (button + 1) % 2, button
        else:
            sb, bb, first = (button + 1) % n, (button + 2) % n, (button + 3) % n
        pre = tuple((first + i) % n for i in range(n))
        post = tuple((button + 1 + i) % n for i in range(n))
        ring = tuple(tuple((p + i) % n for i in range(1, n)) for p in range(n))
        o = (sb, bb, pre, post, ring)
        _ORDER_CACHE[key] = o
    return o


def _make_rng(rng):
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None:
        return None
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        return np.random.default_rng(int(rng))
    raise ValueError(f"rng must be a numpy.random.Generator, an int seed or None, got {rng!r}")


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
                raise ValueError(f"invalid card int {c} in {what}: expected 0..51")
            out.append(c)
    return out


def _side_pots(total: list, contenders: list, ranks: list) -> list:
    """Main and side pots as pokerkit 0.7.7 forms them at the showdown: ``[(chips, eligible)]``.

    The pot is cut into layers at every distinct total contribution (folded players' chips
    included); a layer belongs to the non-folded players who contributed at least its level
    (``contenders`` is in seat order from the button's left).  pokerkit mucks/kills the hands that
    win no layer before pushing chips, so consecutive layers are merged when they have the same
    eligible *winning* players; this decides where odd chips go.  ``eligible`` reported for a
    merged pot is the widest original eligible set among its layers.
    """
    layers = []
    prev = 0
    for lv in sorted(set(total)):
        cnt = 0
        for t in total:
            if t >= lv:
                cnt += 1
        elig = tuple(s for s in contenders if total[s] >= lv)
        if not elig:  # cannot happen with these rules (pokerkit would burn the chips)
            raise AssertionError(f"side pot at level {lv} with no eligible player: {total}")
        layers.append(((lv - prev) * cnt, elig))
        prev = lv
    won = set()
    for _, elig in layers:
        best = max(ranks[s] for s in elig)
        won.update(s for s in elig if ranks[s] == best)
    pots = []  # [amount, eligible, claimants among the layer winners]
    for amount, elig in layers:
        claim = tuple(s for s in elig if s in won)
        if pots and pots[-1][2] == claim:
            pots[-1][0] += amount
        else:
            pots.append([amount, elig, claim])
    return [(a, e) for a, e, _ in pots]


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


# --------------------------------------------------------------------------------------------
# the hand state


class HandState:
    """The state of one hand (mutable; :meth:`apply` advances it, :meth:`clone` copies it).

    Create with :func:`new_hand` (or :meth:`HandState.deal`).  Rounds are numbered 0 (pre-flop)
    .. 3 (river).  Between rounds nothing is pending: after the last action of a round the next
    board cards are revealed at once, so :attr:`current_player` is always the seat to act, or
    ``None`` when the hand is over.  Per-seat quantities are tuples of length ``n_players``.
    """

    __slots__ = (
        "config",
        "n",
        "button",
        "round",
        "_hole",
        "_board",
        "_nvis",
        "_bet",
        "_total",
        "_stack",
        "_start_stacks",
        "_folded",
        "_allin",
        "_n_in",
        "_queue",
        "_maxbet",
        "_nraises",
        "_raise_amt",
        "_acted",
        "_short",
        "_hist",
        "_r_acted",
        "_r_vol",
        "_r_raised",
        "_prev_raised",
        "_r_actions",
        "_events",
        "_terminal",
        "_payoffs",
        "_pots",
        "_ranks",
        "_showdown",
        "_sb_seat",
        "_bb_seat",
        "_pre",
        "_post",
        "_ring",
        "_bet_sizes",
        "_caps",
    )

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
                :mod:`loki.table` need it).

        Raises:
            ValueError: bad button, cards (wrong count, duplicates), stacks or rng.
        """
        n = config.n_players
        if isinstance(button, bool) or not isinstance(button, (int, np.integer)) or not 0 <= button < n:
            raise ValueError(f"button must be a seat 0..{n - 1}, got {button!r}")
        button = int(button)
        gen = _make_rng(rng)

        # --- cards
        used: list[int] = []
        hole = None
        if hole_cards is not None:
            if len(hole_cards) != n:
                raise ValueError(f"hole_cards has {len(hole_cards)} entries for {n} players")
            hole = []
            for i, h in enumerate(hole_cards):
                if h.__class__ is tuple and len(h) == 2 and h[0].__class__ is int and h[1].__class__ is int:
                    hole.append(h)  # fast path: (card, card) ints, range-checked below
                    used += h
                    continue
                cs = _cards_arg(h, f"hole_cards[{i}]")
                if len(cs) != 2:
                    raise ValueError(f"hole_cards[{i}] = {h!r}: expected 2 cards")
                hole.append((cs[0], cs[1]))
                used += cs
        if board is None:
            bd: list[int] = []
        elif board.__class__ is list and all(c.__class__ is int for c in board):
            bd = board[:]
        else:
            bd = _cards_arg(board, "board")
        if len(bd) > 5:
            raise ValueError(f"board {board!r} has {len(bd)} cards: at most 5")
        used += bd
        if used and (min(used) < 0 or max(used) > 51):
            raise ValueError(f"invalid card int among the given cards {used}: expected 0..51")
        if len(set(used)) != len(used):
            dup = sorted({format_card(c) for c in used if used.count(c) > 1})
            raise ValueError(f"duplicate card(s) {', '.join(dup)} among the given hole cards and board")
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
            raise ValueError("no hole_cards given and no rng to deal them: pass rng (a Generator or an int seed)")

        # --- stacks
        st = config.stacks if stacks is None else GameConfig(n_players=n, stacks=stacks).stacks

        self = cls.__new__(cls)
        self.config = config
        self.n = n
        self.button = button
        self.round = 0
        self._hole = hole
        self._board = bd
        self._nvis = 0
        sb_seat, bb_seat, pre, post, ring = _orders(n, button)
        self._sb_seat, self._bb_seat, self._pre, self._post, self._ring = sb_seat, bb_seat, pre, post, ring
        self._bet_sizes = (config.small_bet, config.small_bet, config.big_bet, config.big_bet)
        self._caps = (config.max_bets - 1, config.max_bets, config.max_bets, config.max_bets)
        self._bet = [0] * n
        self._total = [0] * n
        self._stack = list(st) if st is not None else None
        self._start_stacks = st
        self._folded = [False] * n
        self._allin = [False] * n
        self._n_in = n
        self._maxbet = 0
        self._nraises = 0
        self._raise_amt = 0
        self._acted = set()
        self._short = []
        self._hist = [""]
        self._r_acted = [False] * n
        self._r_vol = [False] * n
        self._r_raised = [False] * n
        self._prev_raised = [False] * n
        self._r_actions = 0
        ev = [] if record_events else None
        self._events = ev
        self._terminal = False
        self._payoffs = None
        self._pots = ()
        self._ranks = None
        self._showdown = False
        if ev is not None:
            ev.append(HandStarted(n, button, st))

        # --- blinds
        bet, total, stk = self._bet, self._total, self._stack
        for seat, amount, kind in ((sb_seat, config.small_blind, "small"), (bb_seat, config.big_blind, "big")):
            if stk is not None and amount >= stk[seat]:
                amount = stk[seat]
                self._allin[seat] = True
            if stk is not None:
                stk[seat] -= amount
            bet[seat] += amount
            total[seat] += amount
            if ev is not None:
                ev.append(BlindPosted(seat, amount, kind))
        self._maxbet = max(bet)
        self._start_round()
        return self

    # ---- round control ----------------------------------------------------------------------

    def _start_round(self) -> None:
        folded, allin = self._folded, self._allin
        order = self._pre if self.round == 0 else self._post
        q = [s for s in order if not folded[s] and not allin[s]]
        stk = self._stack
        if stk is not None and q:
            bet = self._bet
            # pokerkit: a player whose "effective stack" is 0 (nobody left could match more) does not act
            tot = sorted(bet[i] + stk[i] for i in range(self.n) if not folded[i])
            second = tot[-2]
            q = [s for s in q if second - bet[s] > 0]
            if len(q) == 1 and bet[q[0]] >= self._maxbet:
                q = []
        self._queue = q
        if not q:
            self._end_round()

    def _end_round(self) -> None:
        if self._n_in <= 1:
            self._finish(showdown=False)
            return
        stk = self._stack
        if stk is not None:
            folded = self._folded
            with_chips = 0
            for i in range(self.n):
                if not folded[i] and stk[i]:
                    with_chips += 1
            # return the part of a bet nobody matched (pokerkit's bet collection).  ``with_chips`` is
            # counted before, as pokerkit does; an unmatched bet means every other contender is
            # all-in, so the hand is all-in either way
            bet = self._bet
            srt = sorted(bet)
            if srt[-1] > srt[-2]:
                s = bet.index(srt[-1])
                over = srt[-1] - srt[-2]
                bet[s] -= over
                self._total[s] -= over
                stk[s] += over
                self._allin[s] = False
            if with_chips <= 1:
                # all-in: run the board out and show down
                while self.round < 3:
                    self._next_street()
                self._finish(showdown=True)
                return
        if self.round == 3:
            self._finish(showdown=True)
            return
        self._next_street()
        self._start_round()

    def _next_street(self) -> None:
        r = self.round + 1
        self.round = r
        nv_old = self._nvis
        nv = _BOARD_VISIBLE[r]
        bd = self._board
        if len(bd) < nv:
            raise ValueError(
                f"the hand reached the {STREET_NAMES[r]} but only {len(bd)} board cards were given and no rng"
            )
        self._nvis = nv
        self._bet = [0] * self.n
        self._maxbet = 0
        self._nraises = 0
        self._raise_amt = 0
        if self._stack is not None:
            self._acted = set()
            self._short = []
        self._hist.append("")
        self._prev_raised = self._r_raised
        self._r_raised = [False] * self.n
        self._r_acted = [False] * self.n
        self._r_vol = [False] * self.n
        self._r_actions = 0
        ev = self._events
        if ev is not None:
            ev.append(BoardDealt(r, tuple(bd[nv_old:nv]), tuple(bd[:nv])))

    def _finish(self, showdown: bool) -> None:
        n = self.n
        total = self._total
        folded = self._folded
        self._queue = []
        self._terminal = True
        self._showdown = showdown
        split = self.config.odd_chip == "split"
        win = [0] * n
        pots = []
        if not showdown:
            w = folded.index(False)
            amount = sum(total)
            win[w] = amount
            pots.append(PotAward(amount, (w,), (w,), (amount,)))
        else:
            bd = self._board
            b0, b1, b2, b3, b4 = bd[0], bd[1], bd[2], bd[3], bd[4]
            ranks = [0] * n
            hole = self._hole
            order = self._post  # pokerkit's player order: first seat left of the button first
            shown = []
            for s in order:
                if not folded[s]:
                    h = hole[s]
                    r = int(rank7(h[0], h[1], b0, b1, b2, b3, b4))
                    ranks[s] = r
                    shown.append((s, h, r))
            self._ranks = ranks
            if self._events is not None:
                self._events.append(Showdown(tuple(shown)))
            contenders = [s for s in order if not folded[s]]
            if self._stack is None or len(set(total[s] for s in contenders)) == 1:
                # every non-folded player put in the same amount: one pot (pokerkit merges the layers)
                pot_list = [(sum(total), tuple(contenders))]
            else:
                pot_list = _side_pots(total, contenders, ranks)
            for amount, elig in pot_list:
                best = max(ranks[s] for s in elig)
                winners = tuple(s for s in elig if ranks[s] == best)
                k = len(winners)
                if split:
                    share = amount / k if amount % k else amount // k
                    shares = (share,) * k
                else:
                    q_, rem = divmod(amount, k)
                    shares = (q_ + rem,) + (q_,) * (k - 1)
                for s, sh in zip(winners, shares):
                    win[s] += sh
                pots.append(PotAward(amount, elig, winners, shares))
        self._pots = tuple(pots)
        self._payoffs = tuple(win[i] - total[i] for i in range(n))
        if self._events is not None:
            self._events.append(HandEnded(self._payoffs, self._pots, showdown))

    # ---- legality ---------------------------------------------------------------------------

    def _can_raise(self, p: int) -> bool:
        if self._nraises >= self._caps[self.round]:
            return False
        stk = self._stack
        if stk is None:
            return True
        bet, mb = self._bet, self._maxbet
        facing = mb - bet[p]
        sp = stk[p]
        if sp <= facing:  # calling puts the player all-in
            return False
        if facing < self._raise_amt:  # pokerkit: "short all-in cannot be raised"
            return False
        short = self._short
        if short and sum(short) < self._raise_amt and p in self._acted:
            return False
        folded = self._folded
        for i in range(self.n):
            if i != p and not folded[i] and stk[i] + bet[i] > mb:
                return True
        return False  # nobody could call a raise

    def legal_actions(self) -> tuple[Action, ...]:
        """Legal actions of the player to act, in the order FOLD, CALL, RAISE; ``()`` when the hand
        is over.  FOLD only when facing a bet; RAISE unless the round is capped, the player cannot
        put in more than a call, or (finite stacks) nobody could answer the raise."""
        q = self._queue
        if not q:
            return ()
        p = q[0]
        if self._maxbet > self._bet[p]:
            return _L_FCR if self._can_raise(p) else _L_FC
        return _L_CR if self._can_raise(p) else _L_C

    def is_legal(self, action) -> bool:
        """Whether ``action`` (an :class:`Action`, int or letter) is legal now."""
        try:
            return Action.parse(action) in self.legal_actions()
        except ValueError:
            return False

    # ---- transitions ------------------------------------------------------------------------

    def _illegal(self, action, why: str):
        q = self._queue
        seat = q[0] if q else None
        legal = self.legal_actions()
        names = ", ".join(a.name for a in legal) or "none"
        who = f"seat {seat}" if seat is not None else "nobody (the hand is over)"
        return IllegalActionError(
            f"illegal action {getattr(action, 'name', action)!r} by {who} on the {STREET_NAMES[self.round]}: {why}; "
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
        q = self._queue
        if not q:
            raise self._illegal(action, "the hand is over")
        p = q[0]
        bet = self._bet
        mb = self._maxbet
        facing = mb - bet[p]
        if self._events is not None:
            before = (
                facing,
                sum(self._total),
                self._nraises + (1 if self.round == 0 else 0),
                self._n_in,
                self._r_vol[p],
            )
        stk = self._stack
        allin = False
        if action is CALL:
            amount = facing
            if stk is not None:
                if stk[p] <= facing:
                    amount = stk[p]
                    allin = True
                    self._allin[p] = True
                stk[p] -= amount
                self._acted.add(p)
            bet[p] += amount
            self._total[p] += amount
            del q[0]
        elif action is RAISE:
            if not self._can_raise(p):
                why = "the round is capped" if self._nraises >= self._caps[self.round] else "cannot raise here"
                raise self._illegal(action, why)
            size = self._bet_sizes[self.round]
            ra = self._raise_amt
            target = mb + (ra if ra > size else size)
            if stk is not None and stk[p] + bet[p] <= target:
                target = stk[p] + bet[p]
                allin = True
                self._allin[p] = True
            amount = target - bet[p]
            bet[p] = target
            self._total[p] += amount
            self._maxbet = target
            self._nraises += 1
            inc = target - mb
            folded = self._folded
            if stk is None:
                self._raise_amt = inc
                self._queue = [s for s in self._ring[p] if not folded[s]]
            else:
                stk[p] -= amount
                if inc >= ra:
                    self._acted = {p}
                else:
                    self._acted.add(p)
                if inc > ra:
                    self._raise_amt = ra = inc
                short = self._short
                if allin:
                    short.append(inc)
                    if sum(short) >= ra:
                        short.clear()
                else:
                    short.clear()
                aflags = self._allin
                self._queue = [s for s in self._ring[p] if not folded[s] and not aflags[s]]
        else:  # FOLD
            if facing <= 0:
                raise self._illegal(action, "folding is not allowed when checking is free")
            amount = 0
            self._folded[p] = True
            self._n_in -= 1
            if stk is not None:
                self._acted.add(p)
            del q[0]
        r = self.round
        self._hist[r] += "fcr"[action]
        self._r_actions += 1
        if action is not FOLD:
            self._r_acted[p] = True
            if amount > 0:
                self._r_vol[p] = True
            if action is RAISE:
                self._r_raised[p] = True
        if self._events is not None:
            self._events.append(ActionTaken(p, action, amount, r, allin, *before))
        if not self._queue or self._n_in <= 1:
            self._end_round()

    def apply_many(self, actions: Iterable | str) -> None:
        """Apply several actions in turn (e.g. an ACPC betting string; ``'/'`` is ignored).

        Raises:
            IllegalActionError: at the first illegal action (earlier ones stay applied).
        """
        for a in actions:
            if a != "/":
                self.apply(a)

    def clone(self) -> HandState:
        """An independent copy (lists copied, events list copied, events shared: they are immutable)."""
        c = HandState.__new__(HandState)
        for k in HandState.__slots__:
            setattr(c, k, getattr(self, k))
        c._hole = self._hole  # never mutated
        c._board = self._board  # never mutated
        c._bet = self._bet[:]
        c._total = self._total[:]
        c._stack = self._stack[:] if self._stack is not None else None
        c._folded = self._folded[:]
        c._allin = self._allin[:]
        c._queue = self._queue[:]
        c._acted = set(self._acted)
        c._short = self._short[:]
        c._hist = self._hist[:]
        c._r_acted = self._r_acted[:]
        c._r_vol = self._r_vol[:]
        c._r_raised = self._r_raised[:]
        c._prev_raised = self._prev_raised[:]
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
    def current_player(self) -> int | None:
        """Seat to act, or ``None`` when the hand is over."""
        q = self._queue
        return q[0] if q else None

    @property
    def is_terminal(self) -> bool:
        return self._terminal

    @property
    def street_name(self) -> str:
        """``"preflop"``, ``"flop"``, ``"turn"`` or ``"river"``."""
        return STREET_NAMES[self.round]

    @property
    def board(self) -> tuple[int, ...]:
        """Visible board cards (card ints): 0, 3, 4 or 5 of them."""
        return tuple(self._board[: self._nvis])

    @property
    def preflop_order(self) -> tuple[int, ...]:
        """Seats in pre-flop acting order of the first orbit: left of the big blind first, the big blind
        last (heads-up: the button/small blind first)."""
        return _orders(self.n, self.button)[2]

    @property
    def postflop_order(self) -> tuple[int, ...]:
        """Seats in post-flop acting order: left of the button first, the button last (heads-up: the big
        blind first)."""
        return _orders(self.n, self.button)[3]

    @property
    def small_blind_seat(self) -> int:
        return self._sb_seat

    @property
    def big_blind_seat(self) -> int:
        return self._bb_seat

    @property
    def bet_size(self) -> int:
        """Size of a bet/raise this round (chips)."""
        return self._bet_sizes[self.round]

    @property
    def pot(self) -> int:
        """Chips in the pot, this round's bets included."""
        return sum(self._total)

    @property
    def bets_this_round(self) -> int:
        """Bets and raises made this round, the big blind counting as one pre-flop."""
        return self._nraises + (1 if self.round == 0 else 0)

    @property
    def raises_left(self) -> int:
        """How many more bets/raises the cap allows this round."""
        return self._caps[self.round] - self._nraises

    @property
    def max_bet(self) -> int:
        """The largest amount (chips) committed by one seat this round."""
        return self._maxbet

    def to_call(self, seat: int | None = None) -> int:
        """Chips ``seat`` (default: the player to act) must add to call (capped by its stack)."""
        if seat is None:
            seat = self.current_player
            if seat is None:
                return 0
        c = self._maxbet - self._bet[seat]
        if self._folded[seat] or c < 0:
            return 0
        if self._stack is not None and self._stack[seat] < c:
            return self._stack[seat]
        return c

    def to_call_bets(self, seat: int | None = None) -> float:
        """:meth:`to_call` in bets of this round (0.5 for the small blind facing the big blind)."""
        return self.to_call(seat) / self._bet_sizes[self.round]

    @property
    def committed(self) -> tuple[int, ...]:
        """Chips put in this round, per seat (blinds included pre-flop)."""
        return tuple(self._bet)

    @property
    def total_committed(self) -> tuple[int, ...]:
        """Chips put in during the whole hand, per seat (uncalled chips returned are deducted)."""
        return tuple(self._total)

    @property
    def stacks(self) -> tuple[int, ...] | None:
        """Chips behind per seat, or None with unlimited bankrolls."""
        return tuple(self._stack) if self._stack is not None else None

    @property
    def starting_stacks(self) -> tuple[int, ...] | None:
        """Chips per seat at the start of the hand, before the blinds (length ``n``), or None with
        unlimited bankrolls."""
        return self._start_stacks

    @property
    def folded(self) -> tuple[bool, ...]:
        """Per seat (length ``n``): has folded this hand (the complement of :attr:`active`)."""
        return tuple(self._folded)

    @property
    def active(self) -> tuple[bool, ...]:
        """Per seat: still in the hand (not folded); all-in players are active."""
        return tuple(not f for f in self._folded)

    @property
    def all_in(self) -> tuple[bool, ...]:
        """Per seat: has no chips left (finite stacks only)."""
        return tuple(self._allin)

    @property
    def can_act(self) -> tuple[bool, ...]:
        """Per seat: neither folded nor all-in."""
        return tuple(not (f or a) for f, a in zip(self._folded, self._allin))

    @property
    def num_active(self) -> int:
        """Players not folded."""
        return self._n_in

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
        return tuple(self._r_acted)

    @property
    def voluntary_this_round(self) -> tuple[bool, ...]:
        """Per seat: has put chips in voluntarily in the current round (called or raised an amount
        above 0; blinds do not count).  Make1's fold rule reads it (PAPP98 papp/node44)."""
        return tuple(self._r_vol)

    @property
    def raised_this_round(self) -> tuple[bool, ...]:
        """Per seat: has bet or raised in the current round."""
        return tuple(self._r_raised)

    @property
    def raised_last_round(self) -> tuple[bool, ...]:
        """Per seat: bet or raised in the previous betting round (all False pre-flop); the Bettor's
        check-raise rule looks for such an aggressor behind us (loki-algorithms.md §3 rule 6)."""
        return tuple(self._prev_raised)

    @property
    def actions_this_round(self) -> int:
        """Actions (folds included) taken in the current round so far; 0 means the player to act is
        the first to act this round."""
        return self._r_actions

    def preflop_situation(self, seat: int) -> tuple[int, int, int]:
        """``(num_inpot, num_yet_to_act, position)`` of ``seat`` for a pre-flop decision (PAPP98
        papp/node44, Eq. 6.1-6.2); see :func:`preflop_situation`.  Uses the folds and this round's
        actions so far, so call it in round 0."""
        folded = {s for s in range(self.n) if self._folded[s]}
        acted = {s for s in range(self.n) if self._r_acted[s]}
        return preflop_situation(self._pre, seat, self._sb_seat, self._bb_seat, folded, acted)

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
            raise ValueError(f"the hand is not over (history {self.history!r}): no payoffs yet")
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
        return self._showdown

    @property
    def showdown_ranks(self) -> dict[int, int]:
        """``{seat: rank7}`` of the hands shown (empty without a showdown)."""
        if not self._showdown:
            return {}
        return {s: self._ranks[s] for s in range(self.n) if not self._folded[s]}

    def shown_cards(self) -> dict[int, tuple[int, int]]:
        """Hole cards revealed at the showdown, ``{seat: (card, card)}``."""
        if not self._showdown:
            return {}
        return {s: self._hole[s] for s in range(self.n) if not self._folded[s]}

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see: its own hole cards, the public state, shown cards."""
        return PlayerView(self, seat)

    def __repr__(self) -> str:
        board = format_cards(self.board) or "-"
        if self._terminal:
            tail = f"payoffs={list(self._payoffs)}"
        else:
            tail = f"to act: seat {self.current_player}, to call {self.to_call()}"
        st = "" if self._stack is None else f", stacks={self._stack}"
        return (
            f"<HandState {self.n}p button={self.button} {self.street_name} board={board} pot={self.pot} "
            f"history='{self.history}'{st}, {tail}>"
        )


class PlayerView:
    """A player's window on a :class:`HandState`: public information plus its own hole cards.

    The view is **live** (it reads the state it was made from, so it follows the hand); keep
    copies of what you need.  Other players' hole cards are hidden (``None``) unless shown at
    the showdown.
    """

    __slots__ = ("_s", "seat")

    def __init__(self, state: HandState, seat: int):
        if not 0 <= seat < state.n:
            raise ValueError(f"seat {seat} out of range 0..{state.n - 1}")
        self._s = state
        self.seat = seat

    @property
    def hole_cards(self) -> tuple[int, int]:
        """This player's hole cards."""
        return self._s._hole[self.seat]

    def preflop_situation(self) -> tuple[int, int, int]:
        """``(num_inpot, num_yet_to_act, position)`` of this player for its pre-flop decision (PAPP98
        papp/node44, Eq. 6.1-6.2; :func:`preflop_situation`).

        >>> s = new_hand(GameConfig(n_players=6), button=0, rng=0)
        >>> s.apply_many("ff")  # seats 3 and 4 fold; seat 5 to act, only the button (0) behind
        >>> s.view(5).preflop_situation()
        (3, 1, 1)
        """
        return self._s.preflop_situation(self.seat)

    def cards_of(self, seat: int) -> tuple[int, int] | None:
        """Hole cards of ``seat`` if this player may see them (own seat or shown), else None."""
        s = self._s
        if seat == self.seat or (s._showdown and not s._folded[seat]):
            return s._hole[seat]
        return None

    def legal_actions(self) -> tuple[Action, ...]:
        """Legal actions if it is this player's turn, else ``()``."""
        s = self._s
        return s.legal_actions() if s.current_player == self.seat else ()

    def to_call(self, seat: int | None = None) -> int:
        """Chips (not bets) ``seat`` must add to call; default this player's seat (not the player
        to act, unlike :meth:`HandState.to_call`).  0 if folded or nothing to call; capped by the
        stack with finite stacks."""
        return self._s.to_call(self.seat if seat is None else seat)

    def to_call_bets(self, seat: int | None = None) -> float:
        """:meth:`to_call` in bets of the current round (chips / this round's bet size): e.g. 0.5
        for the small blind facing the big blind, 1.0 facing one bet; default this player's seat."""
        return self._s.to_call_bets(self.seat if seat is None else seat)

    def shown_cards(self) -> dict[int, tuple[int, int]]:
        """Hole cards revealed at the showdown, ``{seat: (card, card)}`` (card ints); empty before
        the showdown or without one, so other players' cards stay hidden during the hand."""
        return self._s.shown_cards()

    @property
    def events(self) -> list:
        """The hand's public events so far, in order (the state's list, live: do not mutate);
        empty if recording was disabled.  Amounts in events are chips."""
        return self._s.events

    def __getattr__(self, name):
        if name in _VIEW_PUBLIC:
            return getattr(self._s, name)
        raise AttributeError(f"PlayerView has no attribute {name!r}")

    def __repr__(self) -> str:
        return f"<PlayerView seat={self.seat} cards={format_cards(self.hole_cards)} of {self._s!r}>"


_VIEW_PUBLIC = frozenset(
    {
        "config",
        "n",
        "n_players",
        "button",
        "round",
        "street_name",
        "board",
        "pot",
        "bets_this_round",
        "raises_left",
        "max_bet",
        "bet_size",
        "committed",
        "total_committed",
        "stacks",
        "starting_stacks",
        "folded",
        "active",
        "all_in",
        "can_act",
        "num_active",
        "current_player",
        "is_terminal",
        "history",
        "round_histories",
        "payoffs",
        "payoffs_sb",
        "pots",
        "went_to_showdown",
        "showdown_ranks",
        "small_blind_seat",
        "big_blind_seat",
        "preflop_order",
        "postflop_order",
        "acted_this_round",
        "voluntary_this_round",
        "raised_this_round",
        "raised_last_round",
        "actions_this_round",
    }
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

    >>> s = new_hand(GameConfig(n_players=2), button=1, rng=0)
    >>> s.small_blind_seat, s.big_blind_seat, s.current_player, s.pot
    (1, 0, 1, 15)
    """
    return HandState.deal(config, button, hole_cards, board, rng, stacks=stacks, record_events=record_events)
