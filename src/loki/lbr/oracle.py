"""The measured player's action probabilities for every holding: what the local best response reads to follow its range.

A local best response (:mod:`loki.lbr.player`) needs, at every decision of the player ``σ`` it measures, the
probability ``σ(a | h, public history)`` of the action taken for **every** holding ``h`` that σ may hold (Bayes'
rule over the 1,326 holdings), and, before it bets, the probability that σ folds to the bet, again for every
holding.  :class:`StrategyOracle` gets them from σ itself, without peeking at σ's cards:

* a player whose action depends on nothing but its cards and the public state says so for every holding at once
  (:meth:`loki.players.base.Player.holding_probabilities`: the reference players), read from one copy;
* any other player (Loki-1, Loki-2, a plug-in) is asked one holding at a time: the oracle keeps one **copy** of the
  frozen player per holding (:class:`loki.players.frozen.Snapshot`), dealt that holding, fed the hand's public events
  as they come (so that its weight tables, frequencies and per-hand state follow the hand exactly as the real
  player's would had it held those cards), and at each of σ's decisions asks each copy to act on the public state
  with its own cards (:class:`HoldingView`) and reads the distribution it drew from
  (:meth:`loki.players.base.Player.action_probabilities`, the same number the AIVAT referee reads).  Its own draw is
  never played: the action σ really took is what every copy then observes (a Loki player's per-hand state follows
  its observed action, :meth:`loki.players.loki.LokiPlayer.observe`).  A copy that cannot say (a Simulator decision:
  its randomness is the seed of its play-outs) is read as the one-hot of its own draw: one sample of its choice,
  drawn with the copy's own seeds (never σ's), an unbiased estimate of the probability.
* The fold probabilities after a bet of ours are asked of **forks** of the copies (deep copies sharing the frozen
  player's immutable parts, told of the hypothetical bet, asked to act); if we do bet, the forks become the copies
  and their answers σ's probabilities at its answer.  A fork keeps its copy's random generators: only one of the
  two plays on.

**Sampling holdings** (``holdings=K``): instead of every holding, ``K`` holdings drawn uniformly from those σ may
hold get copies (importance sampling with the prior as proposal: each carries the likelihood of σ's actions as its
weight).  When fewer than ``K/2`` of them (none, for ``K`` = 1) still carry weight, new holdings are drawn and brought
up to date by replaying the hand's events and σ's decisions so far (their weights are the likelihoods of those
decisions); none is drawn twice in a hand, so a range can still empty.  Every
estimate is sound for the bound (what the best response does is still a function of public information and its own
random draws); sampling only makes the range coarser.

Units: probabilities; arrays ``(1326, 3) float64`` in the holding order of :data:`loki.cards.HOLDING_CARDS`,
``(fold, call, raise)``.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import numpy as np

from loki.cards import HOLDING_CARDS, HOLDING_MASKS, N_HOLDINGS, cards_mask
from loki.engine import Action, ActionTaken, BoardDealt, GameConfig, HandState, PlayerView, new_hand
from loki.errors import InputError
from loki.players.base import Player
from loki.players.frozen import FrozenConfig, Snapshot, restored

__all__ = ["HoldingView", "ShadowHand", "StrategyOracle", "live_mask"]


class HoldingView(PlayerView):
    """The view of the player in ``seat`` of ``state``, with ``hole`` as its hole cards: what that player would see
    had it been dealt ``hole`` (every public attribute reads the state; the state's own cards for that seat are
    never shown).

    >>> from loki.engine import GameConfig, new_hand
    >>> s = new_hand(GameConfig(n_players=2), button=0, hole_cards=["AsKs", "2c2d"], board="8s4h6d5sJs")
    >>> HoldingView(s, 1, (12, 13)).hole_cards, HoldingView(s, 1, (12, 13)).pot
    ((12, 13), 15)
    """

    __slots__ = ("_hole",)

    def __init__(self, state: Any, seat: int, hole: tuple[int, int]):
        super().__init__(state, seat)
        self._hole = hole

    @property
    def hole_cards(self) -> tuple[int, int]:
        """The holding this view pretends the player holds."""
        return self._hole

    def cards_of(self, seat: int) -> tuple[int, int] | None:
        """As :meth:`PlayerView.cards_of`, with :attr:`hole_cards` for the own seat."""
        return self._hole if seat == self.seat else super().cards_of(seat)


def live_mask(cards: Sequence[int]) -> np.ndarray:
    """``(1326,) bool``: the holdings that share no card with ``cards``."""
    return (HOLDING_MASKS & np.uint64(cards_mask(tuple(int(c) for c in cards)))) == 0


class ShadowHand:
    """The public state of a heads-up hand as one player knows it: its own cards, the board shown so far and every
    action, on a :class:`~loki.engine.HandState` whose unknown cards (the other seat's, the board to come) are fillers
    no view shows (:class:`HoldingView` replaces the other seat's).  Rebuilt when a board card is shown.

    Args:
        config: the rules; button: the hand's button; seat: our seat; hole: our cards.
    """

    def __init__(self, config: GameConfig, button: int, seat: int, hole: tuple[int, int]):
        self.config = config
        self.button = button
        self.seat = seat
        self.hole = (int(hole[0]), int(hole[1]))
        self.board: tuple[int, ...] = ()
        self.actions: list[Action] = []
        self.state = self._build()

    def _build(self) -> HandState:
        used = set(self.hole) | set(self.board)
        spare = [c for c in range(52) if c not in used]
        other = (spare[0], spare[1])
        fill = spare[2 : 2 + 5 - len(self.board)]
        holes = [self.hole, other] if self.seat == 0 else [other, self.hole]
        st = new_hand(self.config, self.button, hole_cards=holes, board=list(self.board) + fill)
        for a in self.actions:
            st.apply(a)
        return st

    def apply(self, action: Action) -> None:
        """An action of the player to act (either seat)."""
        self.state.apply(action)
        self.actions.append(action)

    def show(self, board: Sequence[int]) -> None:
        """The board shown so far (a :class:`~loki.engine.BoardDealt`): the state is rebuilt with those cards."""
        self.board = tuple(int(c) for c in board)
        self.state = self._build()


class StrategyOracle:
    """The measured player's action probabilities for every holding (module docstring).

    Args:
        snapshot: the frozen player's snapshot (:func:`loki.players.frozen.frozen_snapshot`).
        config: its configuration (the warm-up's seats).
        seed: seeds the copies' random generators (never the real player's: a copy's draws are its own).
        holdings: 0 for a copy of every holding; ``K`` to sample ``K`` holdings (module docstring).

    Attributes:
        card_blind_api: the player answers for every holding at once (:meth:`Player.holding_probabilities`).
        copies: ``{holding index: copy}`` this hand.
        weight: ``(1326,) float64`` the holdings' weights (prior times the likelihood of σ's actions so far; 0 for
            holdings σ cannot hold or that have no copy).
        stats: counters (copies made, asked, forked, replayed) for reports.
    """

    def __init__(self, snapshot: Snapshot, config: FrozenConfig, seed: int = 0, holdings: int = 0):
        if holdings < 0:
            raise InputError(f"holdings={holdings!r}: expected 0 (every holding) or a positive sample size")
        self.snapshot = snapshot
        self.config = config
        self.holdings = int(holdings)
        self._rng = np.random.default_rng([int(seed), 5])
        probe = snapshot.restore(0)
        method = getattr(type(probe), "holding_probabilities", None)
        self.card_blind_api = method is not None and method is not Player.holding_probabilities
        self.copies: dict[int, Any] = {}
        self.weight = np.zeros(N_HOLDINGS)
        self._public: Any = None
        self._forks: dict[int, Any] | None = None  # the copies told of a bet of ours (after_raise)
        self._pending: Any = None  # σ's probabilities at its answer to that bet (all, or the forks' rows)
        self._answer: Any = None  # the same, once we did bet: what probabilities() returns next
        self._memo = {id(o): o for o in snapshot.shared}  # a fork shares the snapshot's immutable parts
        self.stats = {"copies": 0, "asked": 0, "forks": 0, "replayed": 0, "decisions": 0}

    # -------------------------------------------------------------------------------------- the hand
    def begin_hand(self, seat: int, game: GameConfig, button: int, prior: np.ndarray) -> None:
        """A hand starts with the measured player in ``seat``; ``prior`` ``(1326,)`` its possible holdings' weights
        (1 where it may hold them given our own cards, 0 elsewhere)."""
        self.seat, self.game, self.button = seat, game, button
        self._log: list[tuple[str, Any]] = []  # ("event", ev) and ("decision", (state, legal, action)) for replays
        self._forks = self._pending = self._answer = None
        self.copies = {}
        self.weight = np.array(prior, dtype=np.float64)
        self._possible = self.weight > 0
        self._public = None  # type: ignore[assignment]
        if self.card_blind_api:
            self._public = self._copy(None)
            return
        live = np.flatnonzero(self._possible)
        if self.holdings and live.size > self.holdings:
            chosen = np.sort(self._rng.choice(live, size=self.holdings, replace=False))
            self.weight[:] = 0.0
            self.weight[chosen] = 1.0
            live = chosen
        self._tried = {int(h) for h in live}
        for h in live:
            self.copies[int(h)] = self._copy(int(h))

    def _copy(self, h: int | None) -> Any:
        p = restored(self.snapshot, self.config, int(self._rng.integers(2**63 - 1)), self.seat, self.game.n_players)
        p.begin_hand(self.seat, self.game, _cards(h), self.button)
        self.stats["copies"] += 1
        return p

    def observe(self, event: Any) -> None:
        """A public event of the hand, from its start (the showdown and the end are not needed).  Our own bet after
        :meth:`after_raise` makes the forks, which have seen it already, the copies of their holdings, and their
        answers σ's probabilities at its answer."""
        self._log.append(("event", event))
        if isinstance(event, BoardDealt):  # holdings with a card of the board are out
            self.weight *= live_mask(event.board)
            for h in [h for h in self.copies if self.weight[h] <= 0.0]:
                del self.copies[h]
        skip: dict[int, Any] = {}
        if isinstance(event, ActionTaken) and event.seat != self.seat:  # our action
            forks, pending = self._forks, self._pending
            self._forks, self._pending = None, None
            if pending is not None and event.action is Action.RAISE:
                self._answer = pending
                skip = forks or {}
                self.copies.update(skip)
        if self._public is not None:
            self._public.observe(event)
        for h, p in self.copies.items():
            if h not in skip:
                p.observe(event)

    def probabilities(self, state: HandState, legal: Sequence[Action]) -> np.ndarray:
        """``(1326, 3)``: σ's probabilities at its decision in ``state`` (its turn) for every holding with a copy
        (rows of other holdings: 0).  At σ's answer to our bet the holdings asked already (:meth:`after_raise`) keep
        their answers."""
        self.stats["decisions"] += 1
        answer, self._answer = self._answer, None
        if self._public is not None:
            return answer if answer is not None else self._card_blind(state, legal)
        out = np.zeros((N_HOLDINGS, 3))
        done = answer[1] if answer is not None else {}
        for h, p in self.copies.items():
            row = done.get(h)
            out[h] = row if row is not None else self._ask(p, state, h, legal)
        return out

    def _card_blind(self, state: HandState, legal: Sequence[Action]) -> np.ndarray:
        out = np.asarray(self._public.holding_probabilities(HoldingView(state, self.seat, (0, 1)), legal), np.float64)
        if out.shape != (N_HOLDINGS, 3):
            raise InputError(
                f"{type(self._public).__name__}.holding_probabilities returned shape {out.shape}, expected (1326, 3)"
            )
        return out

    def _ask(self, p: Any, state: HandState, h: int, legal: Sequence[Action]) -> np.ndarray:
        a = p.act(HoldingView(state, self.seat, _cards(h)), legal)
        self.stats["asked"] += 1
        probs = p.action_probabilities()
        if probs is None:  # one sample of the copy's own choice
            row = np.zeros(3)
            row[int(a)] = 1.0
            return row
        return np.asarray(probs, dtype=np.float64)

    def decided(self, state: HandState, legal: Sequence[Action], action: Action, probs: np.ndarray) -> None:
        """σ took ``action`` at the decision of ``state`` (whose probabilities were ``probs``): the weights follow
        Bayes' rule, holdings left without weight lose their copies, and (sampling) new holdings are drawn when
        fewer than half the sample still carries weight.  Call it before :meth:`observe` of that action."""
        self._log.append(("decision", (state.clone(), tuple(legal), action)))
        self.weight *= probs[:, int(action)]
        if self._public is not None:
            return
        for h in [h for h in self.copies if self.weight[h] <= 0.0]:
            del self.copies[h]
        if self.holdings and len(self.copies) < max(1, self.holdings // 2):  # a sample of one: when it is lost
            self._top_up()

    def _top_up(self) -> None:
        """Draw new holdings (not tried this hand) and replay the hand so far for each: its weight is the likelihood
        of σ's decisions so far (the decision being applied included: the copy is asked at it too, and the action
        event that follows reaches it through :meth:`observe`)."""
        possible = self._possible.copy()
        for kind, item in self._log:
            if kind == "event" and isinstance(item, BoardDealt):
                possible &= live_mask(item.board)
        fresh = np.array([h for h in np.flatnonzero(possible) if int(h) not in self._tried], dtype=np.int64)
        want = self.holdings - len(self.copies)
        if fresh.size == 0 or want <= 0:
            return
        for h in np.sort(self._rng.choice(fresh, size=min(want, fresh.size), replace=False)):
            h = int(h)
            self._tried.add(h)
            p = self._copy(h)
            w = 1.0
            for kind, item in self._log:
                if kind == "event":
                    p.observe(item)
                    continue
                st, legal, taken = item
                w *= float(self._ask(p, st, h, legal)[int(taken)])
                if w <= 0.0:
                    break
            self.stats["replayed"] += 1
            if w > 0.0:
                self.copies[h] = p
                self.weight[h] = w

    def after_raise(self, state: HandState, holdings: Sequence[int] | np.ndarray | None = None) -> np.ndarray:
        """``(1326, 3)``: σ's probabilities at its answer to a bet or raise of ours now (``state``: before it, our
        turn), for every holding with a copy, or for ``holdings`` only (rows of others: 0): each copy is forked,
        told of the bet and asked.  If we do bet, the :meth:`observe` of our action makes the forks the copies
        (they have seen it already) and :meth:`probabilities` at σ's answer keeps these rows."""
        nxt = state.clone()
        nxt.apply(Action.RAISE)
        ev = nxt.events[-1]
        legal = nxt.legal_actions()
        if self._public is not None:
            out = self._card_blind(nxt, legal)
            self._pending = out
            return out
        out = np.zeros((N_HOLDINGS, 3))
        forks, rows = {}, {}
        which = self.copies.keys() if holdings is None else [int(h) for h in holdings if int(h) in self.copies]
        for h in which:
            f = copy.deepcopy(self.copies[h], dict(self._memo))
            self.stats["forks"] += 1
            f.observe(ev)
            out[h] = rows[h] = self._ask(f, nxt, h, legal)
            forks[h] = f
        self._forks = forks
        self._pending = (out, rows)
        return out


def _cards(h: int | None) -> tuple[int, int]:
    """The two cards of holding ``h`` (None: a placeholder for a player whose cards do not matter)."""
    if h is None:
        return (0, 1)
    return (int(HOLDING_CARDS[h][0]), int(HOLDING_CARDS[h][1]))
