"""AIVAT-style variance reduction: an unbiased, lower-variance estimate of each player's winnings in a hand.

Source: Burch, Schmid, Moravčík, Morrill, Bowling, "AIVAT: A New Variance Reduction Technique for Agent
Evaluation in Imperfect Information Games", AAAI-18 (here: its chance and action corrections with a value
function on the referee's full-information states, so that fewer deals give the same answer).

**The estimate.**  After a hand the referee knows every hole card (folded hands included), the public
history and, for players who say how they chose (:meth:`loki.players.base.Player.action_probabilities`),
the distribution each of their actions was drawn from.  With a value function ``v`` (chips, per seat) on
the states of the hand, player ``p``'s estimate is its payoff plus corrections:

* a **chance correction** at each public card reveal (flop, turn, river):
  ``E_c[v_p(h·c)] − v_p(h·c_dealt)``, the expectation exact over the cards that could have come given all
  known cards (the deck minus every dealt hole card and the board so far);
* an **action correction** at each decision of a player with a known *randomised* distribution ``π``:
  ``Σ_a π(a|h) v_p(h·a) − v_p(h·a_taken)`` (a pure policy's correction is exactly 0).

Each term has expectation 0 given the history before it, so the estimate is unbiased whatever ``v`` is (a
poor ``v`` only reduces the variance less).  The payoffs and every term sum to 0 over the players.

**The value functions.**  The ``aivat`` estimator (:func:`named_estimator`) uses :func:`shipped_value_function`:
the linear family below with a growth table ``G[street][k]`` fitted once on seeds ≥ 2000 and shipped with its
provenance (``loki/data/aivat_growth_v1.json``); ``aivat-pot-equity`` the plain pot-equity function (no
parameter): :func:`pot_equity_values`,
``v_p = pot · eq_p − contribution_p`` in chips, where ``eq_p`` is ``p``'s exact all-in equity (its share
of the pot if the board were completed now, ties split) against the other live hands, 0 for a folded
hand, 1 for the last live hand.  With exact equities ``E_c[v(h·c)] = v(h)`` at a reveal (equity is a
martingale over the cards to come, and pot and contributions do not change at a reveal), so the chance
correction is simply ``v(before the reveal) − v(after it)``; the tests check this identity by exact
enumeration.  Pitfall: the value function must be fixed before the evaluation data is seen; one fitted
(tuned, selected) on the hands it then evaluates correlates with their outcomes, and the estimate loses
its unbiasedness and its interval its meaning.  Tune any variant on separate seeds.

**Which decisions get action corrections.**  Those whose player reports a distribution that is not
one-hot: the Action Selector (Loki-2 feature B: its triple given what the hand's earlier actions revealed
of its per-hand number), the Bettor's check-raise coin, the ``random`` and ``maniac`` reference players, and
the Simulator with its softmax choice (``SimConfig.choice = "softmax"``).  Pre-flop strategies, the Bettor
otherwise, ``calling`` and ``equity`` are pure (zero correction).  Simulator decisions with the argmax choice
(the paper's) report None: their randomness is the seed of hundreds of simulated play-outs, whose
distribution over actions nobody computes; a guessed ``π`` would bias the estimate, so they get no
action correction (chance corrections still apply around them).

**The players' own values as action baselines** (``hand_corrections(..., baselines)``, the ``aivat``
estimator).  A Simulator decision also reports its EVs ``(0, EV(call), EV(raise))``, chips from the decision on
(:meth:`loki.players.base.Player.action_values`).  With the ``aivat-sim-evs`` estimator, at a randomised decision
the actor's value of each action is then its own EV, the difference from the value function's being shared by the other live seats (the values still
sum to 0).  The correction ``Σ_b π(b) B(b) − B(a)`` has expectation 0 given the past for any baselines ``B`` fixed
before the action is drawn; the EVs are (they come from the play-outs, before the softmax's own uniform number), so
this stays unbiased however noisy they are; what must be exact is ``π``, the probabilities the action was drawn
with.

**Duplicate tournaments.**  Corrections are added per game and averaged per deal like the payoffs
(:mod:`loki.tournament.stats`).  One caveat, measured in BENCHMARKS.md: the replays of a deal share its
board, and players that keep opponent models (Loki) carry what they saw in one replay into the next, so a
later replay's betting depends, weakly, on cards already seen; the correction of that replay then has
expectation 0 only up to this dependence (it is exactly 0 for players without memory across hands, and
for every independent hand).

**Cost.**  Equities are exact enumerations in numba (:mod:`loki.assessment.showdown`).  The pre-flop equity of a
set of live hands needs every 5-card board of the ``52 − 2n`` cards left (201,376 at 10 players); since a
deal is replayed ``n`` times with the same cards, :class:`EquityOracle` ranks each hand that reaches a flop
on all those boards once per deal and answers every later pre-flop question with one pass over the
cached ranks.  Heads-up, pre-flop equities come from a precomputed exact table (47,008 matchups distinct under
suit permutations).  Flop, turn and river equities enumerate their 406 / 28 / 1 completions (10 players).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from loki.engine import Action, HandState, new_hand
from loki.errors import CardError, EstimatorError

if TYPE_CHECKING:
    from loki.players.base import Player

__all__ = [
    "VALUE_FUNCTION",
    "EquityOracle",
    "heads_up_key",
    "heads_up_preflop_equity",
    "heads_up_preflop_shares",
    "pot_equity_values",
    "PotEquityValue",
    "POT_EQUITY",
    "ActionRecorder",
    "HandCorrections",
    "hand_corrections",
    "AivatEstimator",
    "GROWTH_TABLE",
    "shipped_value_function",
    "ESTIMATORS",
    "named_estimator",
]

#: Name of the value function, as reported in results.
VALUE_FUNCTION = "pot-equity"

#: Tolerance on a reported distribution's sum.
_PROB_TOL = 1e-9


_SUIT_PERMS = tuple(itertools.permutations(range(4)))


def heads_up_key(a: Sequence[int], b: Sequence[int]) -> tuple[int, bool]:
    """The canonical key of the heads-up matchup ``{a, b}`` (two disjoint holdings) under suit permutations.

    For each of the 24 suit permutations the two holdings are written high card first as ``52·hi + lo``, the
    higher of the two codes first, and packed as ``code_1 · 2704 + code_2``; the key is the smallest.  Two
    matchups with the same key have the same pre-flop equities (suits are symmetric when the four hole cards
    are the only dead cards).

    Returns:
        ``(key, swapped)``: ``swapped`` is True when ``a`` is the key's second holding.

    >>> from loki.cards import parse_cards
    >>> heads_up_key(parse_cards("AsKs"), parse_cards("QdQc")) == heads_up_key(parse_cards("AhKh"), parse_cards("QsQd"))
    True
    """
    best = -1
    swapped = False
    a0, a1, b0, b1 = int(a[0]), int(a[1]), int(b[0]), int(b[1])
    for p in _SUIT_PERMS:
        x0, x1 = (a0 & ~3) | p[a0 & 3], (a1 & ~3) | p[a1 & 3]
        y0, y1 = (b0 & ~3) | p[b0 & 3], (b1 & ~3) | p[b1 & 3]
        ka = x0 * 52 + x1 if x0 > x1 else x1 * 52 + x0
        kb = y0 * 52 + y1 if y0 > y1 else y1 * 52 + y0
        key, sw = (ka * 2704 + kb, False) if ka > kb else (kb * 2704 + ka, True)
        if best < 0 or key < best:
            best, swapped = key, sw
    return best, swapped


@functools.cache
def _heads_up_table() -> tuple[np.ndarray, np.ndarray, int] | None:
    from importlib import resources

    try:
        with resources.files("loki").joinpath("data/hu_preflop_equity.npz").open("rb") as f:
            z = np.load(f)
            return z["keys"], z["shares"], int(z["boards"])
    except (FileNotFoundError, OSError, KeyError, ValueError):  # pragma: no cover - a broken install
        return None


def heads_up_preflop_shares(a: Sequence[int], b: Sequence[int]) -> tuple[int, int] | None:
    """Holding ``a``'s exact pre-flop pot share against holding ``b`` when no other card is dead (heads-up), as
    ``(shares, total)`` integers (units of 1/:data:`~loki.assessment.showdown.SHARE_UNITS` of a pot per board; equity =
    shares / total), from the shipped table ``loki/data/hu_preflop_equity.npz`` (``scripts/hu_preflop_table.py``
    enumerated the 1,712,304 boards of each matchup distinct under suit permutations); None without the table.
    """
    from loki.assessment.showdown import SHARE_UNITS

    t = _heads_up_table()
    if t is None:
        return None
    keys, shares, boards = t
    key, swapped = heads_up_key(a, b)
    i = int(np.searchsorted(keys, key))
    if i >= keys.size or int(keys[i]) != key:  # pragma: no cover - the table covers every matchup
        return None
    total = boards * SHARE_UNITS
    s = int(shares[i])
    return (total - s, total) if swapped else (s, total)


def heads_up_preflop_equity(a: Sequence[int], b: Sequence[int]) -> float | None:
    """Exact pre-flop all-in equity of holding ``a`` against holding ``b`` heads-up (:func:`heads_up_preflop_shares`);
    None without the table.

    >>> from loki.cards import parse_cards
    >>> round(heads_up_preflop_equity(parse_cards("AsAh"), parse_cards("KsKh")), 6)
    0.826366
    """
    st = heads_up_preflop_shares(a, b)
    return None if st is None else st[0] / st[1]


class EquityOracle:
    """Exact all-in equities of the live hands of a deal, cached per deal.

    ``equities(holes, live, board)``: ``holes`` are the hole cards of every seat (all known: the dead cards),
    ``live`` which seats are still in, ``board`` the cards showing.  A new ``holes`` starts a new deal (the
    cache is dropped); the same ``holes`` (a replay of the deal in another seating) reuses it.

    Pre-flop, each live hand is ranked once per deal on every 5-card board of the undealt cards
    (:func:`loki.assessment.showdown.fill_board_ranks`, ``(n, C(52 − 2n, 5)) int16``, 4 MB at 10 players), then any
    set of live hands takes one pass over those ranks.  Heads-up (a 2-seat deal: the two hands are the only
    dead cards) the pre-flop equity is read from the shipped table of every matchup
    (:func:`heads_up_preflop_shares`) instead.  Post-flop the completions
    are enumerated (:func:`loki.assessment.showdown.runout_share_counts`).  Every answer is memoised per deal
    by ``(live, board)``.
    """

    def __init__(self) -> None:
        from loki.evaluator import kernel_tables

        self._tables = kernel_tables()
        self._deal: tuple | None = None
        self._holes_src: Any = None
        self._rows: np.ndarray | None = None
        self._memo: dict[tuple, np.ndarray] = {}
        self.stats = {"deals": 0, "rows": 0, "preflop_passes": 0, "runouts": 0, "memo_hits": 0, "heads_up_table": 0}

    def _set_deal(self, holes: tuple[tuple[int, int], ...]) -> None:
        if holes == self._deal:
            return
        cards = [c for h in holes for c in h]
        if len(set(cards)) != len(cards) or not all(isinstance(c, (int, np.integer)) and 0 <= c < 52 for c in cards):
            raise CardError(f"AIVAT equities: hole cards {holes!r} are not distinct card ints 0..51")
        n = len(holes)
        self._deal = holes
        self._holes = np.array(holes, dtype=np.int64).reshape(n, 2)
        dead = set(cards)
        self._deck = np.array([c for c in range(52) if c not in dead], dtype=np.int64)
        self._dead = frozenset(cards)
        self._have = np.zeros(n, dtype=np.bool_)
        self._memo = {}
        self.stats["deals"] += 1

    def _preflop_rows(self, live_idx: np.ndarray) -> np.ndarray:
        from loki.assessment.showdown import fill_board_ranks, n_boards

        n = self._holes.shape[0]
        nb = int(n_boards(self._deck.shape[0], 5))
        rows = self._rows
        if rows is None or rows.shape != (n, nb):
            rows = self._rows = np.empty((n, nb), dtype=np.int16)
        missing = live_idx[~self._have[live_idx]]
        if missing.size:
            fill_board_ranks(self._holes, missing, self._deck, rows, self._tables)
            self._have[missing] = True
            self.stats["rows"] += int(missing.size)
        return rows

    def equities(self, holes: Sequence[tuple[int, int]], live: Sequence[bool], board: Sequence[int] = ()) -> np.ndarray:
        """Each seat's exact all-in equity: its expected share of the pot over every completion of ``board``.

        Args:
            holes: ``n`` pairs of card ints, every seat's hole cards (folded hands included: they are dead).
            live: ``n`` flags, the seats still in the hand (at least one).
            board: 0, 3, 4 or 5 card ints showing.

        Returns:
            ``(n,) float64`` in [0, 1]: 0 for a seat not live, 1 for a single live seat; the live seats'
            equities sum to 1 (up to rounding).  Read-only (shared with the cache).

        Raises:
            CardError: hole cards or board cards that are not distinct card ints 0..51, or a board size
                other than 0, 3, 4, 5.
            EstimatorError: no live seat, or ``live`` not of length ``n``.
        """
        hk: tuple
        if holes is self._holes_src and self._deal is not None:  # the same tuple as the last call: already checked
            hk = self._deal
        else:
            hk = tuple((int(h[0]), int(h[1])) for h in holes)
            self._set_deal(hk)
            self._holes_src = holes if isinstance(holes, tuple) else None
        n = len(hk)
        lv = tuple(bool(x) for x in live)
        bd = tuple(int(c) for c in board)
        key = (lv, bd)
        hit = self._memo.get(key)
        if hit is not None:
            self.stats["memo_hits"] += 1
            return hit
        if len(lv) != n:
            raise EstimatorError(f"AIVAT equities: {len(lv)} live flags for {n} seats")
        idx = np.array([i for i in range(n) if lv[i]], dtype=np.int64)
        if idx.size == 0:
            raise EstimatorError("AIVAT equities: no live hand")
        if len(bd) not in (0, 3, 4, 5) or len(set(bd)) != len(bd) or any(c in self._dead for c in bd):
            raise CardError(f"AIVAT equities: board {bd!r} must be 0, 3, 4 or 5 distinct cards not in any hand")
        eq = np.zeros(n, dtype=np.float64)
        if idx.size == 1:
            eq[idx[0]] = 1.0
        elif not bd and n == 2 and (hu := heads_up_preflop_shares(hk[0], hk[1])) is not None:
            eq[0], eq[1] = hu[0] / hu[1], (hu[1] - hu[0]) / hu[1]
            self.stats["heads_up_table"] += 1
        elif not bd:
            from loki.assessment.showdown import SHARE_UNITS, row_share_counts

            rows = self._preflop_rows(idx)
            shares = row_share_counts(rows, idx)
            eq[idx] = shares / float(rows.shape[1] * SHARE_UNITS)
            self.stats["preflop_passes"] += 1
        else:
            from loki.assessment.showdown import SHARE_UNITS, runout_share_counts

            deck = self._deck[~np.isin(self._deck, np.array(bd, dtype=np.int64))]
            shares, nb = runout_share_counts(self._holes[idx], np.array(bd, dtype=np.int64), deck, self._tables)
            eq[idx] = shares / float(nb * SHARE_UNITS)
            self.stats["runouts"] += 1
        eq.flags.writeable = False
        self._memo[key] = eq
        return eq


#: Street of a board by its size (0, 3, 4, 5 cards): pre-flop 0 .. river 3.
_STREET = {0: 0, 3: 1, 4: 2, 5: 3}


class PotEquityValue:
    """The value function of the estimate, linear in the live hands' exact all-in equities.

    ``v_p = (pot + G) · eq_p − committed_p − G / k`` for each of the ``k`` live seats and ``v_p = −committed_p``
    for a folded one (chips), where ``pot`` is the chips put in so far, ``eq_p`` the exact all-in equity
    (:class:`EquityOracle`) and ``G = growth[street][k]`` the chips the pot is expected to grow by from here
    on, shared equally by the live players (default 0: ``v_p = pot · eq_p − committed_p``, each player's
    share of the pot by all-in equity minus its contribution: pot-equity, which the growth term extends).
    The values sum to 0 over the seats.

    Because ``v = a · eq + b`` with ``a``, ``b`` independent of the cards, and equity is a martingale over the
    cards to come, the expectation over a reveal is ``E_c[v(h·c)] = a(h·c) · eq(h) + b(h·c)``: the chance
    correction is ``a(h·c) · (eq(h) − eq(h·c))`` (with ``G = 0``: ``v(h) − v(h·c)``).

    Args:
        growth: None, or ``(4, 11)`` chips: ``growth[street][k]`` for the street of the node (pre-flop 0 ..
            river 3; a node after the last action of a street still belongs to it) and ``k`` live players.
            Fixed before any evaluation data is seen (module docstring).
        name: reported in results; version: its version ("" for pot-equity); provenance: how the table was made
            (a JSON-able dict: script, seeds, deals, date, commit), or None.

    Raises:
        ConfigError: ``growth`` not a ``(4, 11)`` array of finite numbers.
    """

    def __init__(self, growth: Any = None, name: str = "pot-equity", version: str = "", provenance: Any = None):
        from loki.errors import ConfigError

        if growth is None:
            self.growth = np.zeros((4, 11), dtype=np.float64)
        else:
            g = np.array(growth, dtype=np.float64)
            if g.shape != (4, 11) or not np.all(np.isfinite(g)):
                raise ConfigError(f"PotEquityValue: growth must be a (4, 11) table of finite chips, got {g.shape}")
            self.growth = g
        self.growth.flags.writeable = False
        self.name = name
        self.version = version
        self.provenance = provenance

    def describe(self) -> dict:
        """``{"name", "version", "provenance"}``: what ``summary.json`` records of this value function."""
        return {"name": self.name, "version": self.version, "provenance": self.provenance}

    def coefficients(
        self, committed: Sequence[float], live: Sequence[bool], street: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """``(a, b)``, ``(n,) float64`` chips each, with ``v = a · eq + b`` (class docstring)."""
        c = [float(x) for x in committed]
        lv = [bool(x) for x in live]
        k = sum(lv)
        g = float(self.growth[street, k]) if k > 1 else 0.0
        pot = sum(c)  # whole chips: exact
        share = g / k if k else 0.0
        a = np.array([pot + g if x else 0.0 for x in lv])
        b = np.array([-ci - share if x else -ci for ci, x in zip(c, lv)])
        return a, b

    def __call__(
        self,
        committed: Sequence[float],
        live: Sequence[bool],
        board: Sequence[int],
        holes: Sequence[tuple[int, int]],
        oracle: EquityOracle,
    ) -> np.ndarray:
        """The values ``(n,) float64`` (chips) of the node with these contributions, live seats and board.

        Raises:
            as :meth:`EquityOracle.equities`.
        """
        return self.expected_after_reveal(committed, live, board, 0, holes, oracle)

    def expected_after_reveal(
        self,
        committed: Sequence[float],
        live: Sequence[bool],
        board: Sequence[int],
        n_cards: int,
        holes: Sequence[tuple[int, int]],
        oracle: EquityOracle,
    ) -> np.ndarray:
        """``E_c[v(h·c)]`` over the ``n_cards`` cards revealed next (exact): ``a(h·c) · eq(h) + b(h·c)``.

        Args:
            committed, live, holes, oracle: as :meth:`__call__`; board: the board before the reveal;
            n_cards: the cards the reveal adds (3 for the flop, 1 for the turn or river, more when an
            all-in runs the board out; 0: the node's own value, :meth:`__call__`).

        Returns:
            ``(n,) float64`` chips.
        """
        a, b = self.coefficients(committed, live, _STREET[len(board) + n_cards])
        return a * oracle.equities(holes, live, board) + b


#: The default value function: each player's share of the pot by exact all-in equity, minus its contribution.
POT_EQUITY = PotEquityValue()


def pot_equity_values(
    committed: Sequence[float],
    live: Sequence[bool],
    board: Sequence[int],
    holes: Sequence[tuple[int, int]],
    oracle: EquityOracle,
) -> np.ndarray:
    """The value function ``v_p = pot · eq_p − committed_p`` (chips) of every seat (:data:`POT_EQUITY`).

    Args:
        committed: ``n`` chips each seat has put in during the hand (the pot is their sum).
        live: ``n`` flags, seats not folded.
        board: the board cards showing; holes: every seat's hole cards.
        oracle: the equity cache.

    Returns:
        ``(n,) float64`` chips; sums to 0 (up to rounding).

    Raises:
        as :meth:`EquityOracle.equities`.
    """
    return POT_EQUITY(committed, live, board, holes, oracle)


#: The shipped growth table (``loki/data/aivat_growth_v1.json``; ``benchmarks/aivat_value_function.py --ship``).
GROWTH_TABLE = "aivat_growth_v1.json"


@functools.cache
def shipped_value_function() -> PotEquityValue:
    """The value function fitted once and shipped: pot-equity plus the expected pot growth ``G[street][k]`` of
    ``loki/data/aivat_growth_v1.json`` (fitted on seeds ≥ 2000, never on evaluated games; its ``provenance`` says
    how), named ``"pot-equity+growth"`` with the file's ``version``.

    Raises:
        EstimatorError: the table is missing or malformed (a broken install).
    """
    import json
    from importlib import resources

    try:
        with resources.files("loki").joinpath(f"data/{GROWTH_TABLE}").open("r") as f:
            d = json.load(f)
        return PotEquityValue(d["growth"], name=d["name"], version=d["version"], provenance=d["provenance"])
    except (OSError, KeyError, ValueError) as e:  # pragma: no cover - a broken install
        raise EstimatorError(f"AIVAT: the shipped value function {GROWTH_TABLE} cannot be read: {e}") from None


#: The estimator settings a tournament can name (``estimator`` in its configuration): the value function and whether
#: Simulator decisions' own EVs are the action baselines (:func:`hand_corrections`'s ``baselines``).
ESTIMATORS = ("aivat", "aivat-pot-equity", "aivat-sim-evs")


def named_estimator(name: str) -> AivatEstimator:
    """The :class:`AivatEstimator` of an ``estimator`` setting: ``"aivat"``, the shipped fitted value function
    (:func:`shipped_value_function`) with its own action baselines; ``"aivat-pot-equity"``, plain pot-equity (the
    first AIVAT estimator); ``"aivat-sim-evs"``, the shipped value function with the players' own action values (the
    Simulator's EVs) as the baselines of their action corrections (unbiased too, but measured worse than the value
    function's full-information baselines: docs/EXPERIMENTS.md).

    Raises:
        EstimatorError: an unknown name.
    """
    if name == "aivat":
        return AivatEstimator(shipped_value_function(), action_baselines=False)
    if name == "aivat-sim-evs":
        return AivatEstimator(shipped_value_function(), action_baselines=True)
    if name == "aivat-pot-equity":
        return AivatEstimator(POT_EQUITY, action_baselines=False)
    raise EstimatorError(f"unknown AIVAT estimator {name!r}: expected one of {', '.join(ESTIMATORS)}")


class ActionRecorder:
    """The :func:`loki.players.table.play_hand` hook (``on_action``) that records each decision for AIVAT.

    Called before each action is applied with ``(state, seat, action, player)``; it keeps ``seats``,
    ``actions``, ``probs`` (the player's :meth:`~loki.players.base.Player.action_probabilities`, read
    right after its ``act``; None when unknown), ``values`` (its :meth:`~loki.players.base.Player.action_values`,
    the Simulator's EVs; None when it gives none) and ``snaps`` (a copy of the state before the action at the first
    decision of each street and at each random choice, else None: what :func:`hand_corrections` needs, so that it
    need not replay the hand).  :meth:`clear` before each hand (or use a new recorder).
    """

    __slots__ = ("seats", "actions", "probs", "values", "snaps", "_round")

    def __init__(self) -> None:
        self.seats: list[int] = []
        self.actions: list[Action] = []
        self.probs: list[tuple[float, float, float] | None] = []
        self.values: list[tuple[float, float, float] | None] = []
        self.snaps: list[HandState | None] = []
        self._round = 0

    def clear(self) -> None:
        """Forget the recorded hand."""
        self.seats.clear()
        self.actions.clear()
        self.probs.clear()
        self.values.clear()
        self.snaps.clear()
        self._round = 0

    def __call__(self, state: HandState, seat: int, action: Action, player: Player) -> None:
        self.seats.append(seat)
        self.actions.append(action)
        p = player.action_probabilities()
        self.probs.append(p)
        get = getattr(player, "action_values", None)
        self.values.append(get() if get is not None else None)
        r = state.round
        keep = r != self._round or (p is not None and not _pure_on(p, int(action)))
        self.snaps.append(state.clone() if keep else None)  # a street's first decision, or a random choice
        self._round = r


@dataclass(frozen=True)
class HandCorrections:
    """The AIVAT corrections of one hand, per seat, in chips.

    ``chance_by_street[r]``: the correction at the reveal that starts street ``r`` (1 flop, 2 turn, 3 river;
    row 0 is 0; several reveals at once, after an all-in, count for the last street), ``action_by_street[r]``:
    the corrections of the decisions made on street ``r`` (0 pre-flop .. 3 river), both ``(4, n) float64``.
    :attr:`chance` and :attr:`action` are their sums ``(n,)``, :attr:`total` adds both: add it to the payoffs
    for the AIVAT estimate.  Each term has expectation 0 given the hand before it."""

    chance_by_street: np.ndarray
    action_by_street: np.ndarray

    @property
    def chance(self) -> np.ndarray:
        """Chance corrections of the hand, ``(n,) float64`` chips."""
        return self.chance_by_street.sum(axis=0)

    @property
    def action(self) -> np.ndarray:
        """Action corrections of the hand, ``(n,) float64`` chips."""
        return self.action_by_street.sum(axis=0)

    @property
    def total(self) -> np.ndarray:
        """``chance + action``, ``(n,) float64`` chips."""
        return self.chance + self.action


def _pure_on(p: Any, a: int) -> bool:
    """``p`` is exactly the one-hot distribution of the taken action ``a`` (a pure choice: no correction, and
    nothing to check, the action taken being legal)."""
    return type(p) is tuple and len(p) == 3 and p[a] == 1.0 and p[(a + 1) % 3] == 0.0 and p[(a + 2) % 3] == 0.0


def _check_probs(p: Any, legal: tuple[Action, ...], taken: Action, where: str) -> tuple[float, float, float]:
    try:
        t = tuple(float(x) for x in p)
    except (TypeError, ValueError):
        raise EstimatorError(f"{where}: action probabilities {p!r} are not three numbers") from None
    if len(t) != 3 or not all(x >= 0.0 and x == x for x in t):
        raise EstimatorError(f"{where}: action probabilities {p!r} are not three non-negative numbers")
    if abs(sum(t) - 1.0) > 1e-6:
        raise EstimatorError(f"{where}: action probabilities {p!r} sum to {sum(t)!r}, not 1")
    for a in (Action.FOLD, Action.CALL, Action.RAISE):
        if a not in legal and t[a] > _PROB_TOL:
            raise EstimatorError(f"{where}: action probabilities {p!r} give {t[a]} to the illegal {a.name}")
    if t[taken] <= 0.0:
        raise EstimatorError(f"{where}: action probabilities {p!r} give 0 to the action taken ({taken.name})")
    return t[0], t[1], t[2]


def _check_values(x: Any, where: str) -> tuple[float, float, float]:
    try:
        t = tuple(float(v) for v in x)
    except (TypeError, ValueError):
        raise EstimatorError(f"{where}: action values {x!r} are not three numbers") from None
    if len(t) != 3 or not all(math.isfinite(v) for v in t):
        raise EstimatorError(f"{where}: action values {x!r} are not three finite numbers")
    return t[0], t[1], t[2]


def hand_corrections(
    final: HandState,
    probs: Sequence[tuple[float, float, float] | None] | None,
    oracle: EquityOracle,
    value: PotEquityValue = POT_EQUITY,
    baselines: Sequence[tuple[float, float, float] | None] | None = None,
    snapshots: Sequence[HandState | None] | None = None,
) -> HandCorrections:
    """The chance and action corrections of a finished hand (module docstring), per seat, in chips.

    The hand is replayed on the engine from its cards and betting string (``final.history``); at each action
    whose ``probs`` entry is a distribution that is not one-hot, every action it gives mass to is tried on a
    copy of the state; at each card reveal the value before and after the reveal are compared.

    Args:
        final: the finished hand (every seat's hole cards are read from it: the referee's view).
        probs: one entry per action of the hand, in order (an :class:`ActionRecorder`'s ``probs``), each
            ``(p_fold, p_call, p_raise)`` or None (unknown: no action correction); None for all unknown
            (a replayed log).
        oracle: the equity cache (reuse it across the replays of a deal).
        value: the value function (default :data:`POT_EQUITY`).
        baselines: None, or one entry per action like ``probs``: the acting player's own values ``(fold, call,
            raise)`` of its actions in chips from the decision on (an :class:`ActionRecorder`'s ``values``: the
            Simulator's ``(0, EV(call), EV(raise))``), or None.  Where an entry is given at a randomised decision,
            the action correction uses it as the actor's value of each action instead of the value function's:
            the node after action ``b`` is valued ``v(h·b)`` with the actor's entry replaced by ``E_b`` and the
            difference ``δ_b = E_b − v_actor(h·b)`` taken equally from the other live seats (so the values still sum
            to 0).  Unbiased whatever the entries are, as long as they are fixed before the action is drawn (module
            docstring).
        snapshots: None (replay the hand on the engine), or an :class:`ActionRecorder`'s ``snaps``: the states it
            kept while the hand was played, used instead of a replay (the same corrections, less CPU).

    Returns:
        :class:`HandCorrections` (``(n,) float64`` chips each; each sums to 0 over the seats up to rounding).

    Raises:
        EstimatorError: ``final`` not finished, ``probs`` not one entry per action, or an entry that is not a
            distribution over the legal actions giving mass to the action taken.
        CardError: hole cards not all known.
    """
    if not final.is_terminal:
        raise EstimatorError("AIVAT corrections need a finished hand")
    n = final.n_players
    holes = tuple(final.hole_cards(s) for s in range(n))
    actions = [Action.parse(ch) for ch in final.history if ch != "/"]
    if probs is not None and len(probs) != len(actions):
        raise EstimatorError(f"AIVAT corrections: {len(probs)} recorded decisions for {len(actions)} actions")
    if baselines is not None and len(baselines) != len(actions):
        raise EstimatorError(f"AIVAT corrections: {len(baselines)} recorded action values for {len(actions)} actions")
    chance = np.zeros((4, n), dtype=np.float64)
    action = np.zeros((4, n), dtype=np.float64)
    if not final.board and (probs is None or all(p is None or _pure_on(p, int(a)) for p, a in zip(probs, actions))):
        return HandCorrections(chance, action)  # over before the flop, every choice pure: nothing to correct
    if snapshots is not None and len(snapshots) == len(actions):
        _snapshot_corrections(final, actions, probs, baselines, snapshots, holes, oracle, value, chance, action)
        return HandCorrections(chance, action)
    slots: Any = final  # HandState's slot attributes (config, button) are not declared for mypy
    st = new_hand(
        slots.config,
        slots.button,
        hole_cards=list(holes),
        board=list(final.full_board),
        stacks=final.starting_stacks,
        record_events=False,
    )

    for i, a in enumerate(actions):
        b0 = st.board
        _action_correction(st, i, a, probs, baselines, holes, oracle, value, action)
        st.apply(a)
        b1 = st.board
        if len(b1) > len(b0):
            _chance_correction(st.total_committed, st.active, b0, b1, holes, oracle, value, chance)
    return HandCorrections(chance, action)


def _chance_correction(committed, live, b0, b1, holes, oracle, value, chance) -> None:
    """Add the correction of the reveal ``b0`` → ``b1`` (contributions and live seats as after it) to ``chance``:
    ``E_c[v(h·c)] − v(h·c) = a(h·c) (eq(h) − eq(h·c))`` for the linear value family."""
    expected = value.expected_after_reveal(committed, live, b0, len(b1) - len(b0), holes, oracle)
    chance[_STREET[len(b1)]] += expected - value(committed, live, b1, holes, oracle)


def _action_correction(st, i, a, probs, baselines, holes, oracle, value, action) -> None:
    """Add the correction of decision ``i`` (action ``a`` taken in state ``st``, before it) to ``action`` when its
    recorded distribution is not pure (checked first): ``Σ_b π(b) v(h·b) − v(h·a)``, with the actor's own values
    (``baselines[i]``) if given (:func:`hand_corrections`)."""
    p = probs[i] if probs is not None else None
    if p is None or _pure_on(p, int(a)):
        return
    legal = st.legal_actions()
    where = f"AIVAT corrections, action {i} ({a.name} by seat {st.current_player})"
    t = _check_probs(p, legal, a, where)
    if max(t) >= 1.0:
        return
    n = st.n_players
    b0 = st.board
    e = baselines[i] if baselines is not None else None
    own = _check_values(e, where) if e is not None else None
    actor = st.current_player
    others = [s for s in range(n) if s != actor and st.active[s]]
    expected = np.zeros(n, dtype=np.float64)
    taken = None
    for alt in legal:
        if t[alt] <= 0.0:
            continue
        c = st.clone()
        c.apply(alt)
        va = value(c.total_committed, c.active, b0, holes, oracle)
        if own is not None:  # the actor's own value of alt; the others give up the difference equally
            delta = own[alt] - va[actor]
            va = va.copy()
            va[actor] = own[alt]
            va[others] -= delta / len(others)
        expected += t[alt] * va
        if alt is a:
            taken = va
    assert taken is not None  # _check_probs: the taken action has mass
    action[_STREET[len(b0)]] += expected - taken


def _snapshot_corrections(final, actions, probs, baselines, snaps, holes, oracle, value, chance, action) -> None:
    """The corrections from the states an :class:`ActionRecorder` kept while the hand was played (``snaps[i]``:
    the state before action ``i`` when a street had just begun or the choice was random, else None) instead of a
    replay: the same values from the same states, so the same floats (a test compares the two paths)."""
    prev: tuple[int, ...] = ()
    for i, a in enumerate(actions):
        snap = snaps[i]
        if snap is not None:
            b = snap.board
            if len(b) > len(prev):
                _chance_correction(snap.total_committed, snap.active, prev, b, holes, oracle, value, chance)
                prev = b
            _action_correction(snap, i, a, probs, baselines, holes, oracle, value, action)
        elif probs is not None and probs[i] is not None and not _pure_on(probs[i], int(a)):
            raise EstimatorError(f"AIVAT corrections, action {i}: a random choice without its recorded state")
    fb = final.board
    if len(fb) > len(prev):  # cards shown after the last action (all-in): contributions and live seats are final
        _chance_correction(final.total_committed, final.active, prev, fb, holes, oracle, value, chance)


class AivatEstimator:
    """Per-hand AIVAT corrections for a run of hands: one :class:`EquityOracle` (cached per deal) and one
    :class:`ActionRecorder` to pass to :func:`loki.players.table.play_hand` as ``on_action``; ``value`` the value
    function, ``action_baselines`` whether the players' own action values (the Simulator's EVs) are the baselines of
    the action corrections (:func:`hand_corrections`).

    >>> from loki.engine import GameConfig
    >>> from loki.players import CallingStation, RandomPlayer
    >>> from loki.players.table import play_hand
    >>> est = AivatEstimator()
    >>> st = play_hand(GameConfig(n_players=3), [RandomPlayer(1), CallingStation(), RandomPlayer(2)], 0, 7,
    ...                on_action=est.start_hand())
    >>> corr = est.corrections(st)
    >>> abs(float(corr.total.sum())) < 1e-9
    True
    """

    def __init__(self, value: PotEquityValue = POT_EQUITY, action_baselines: bool = False) -> None:
        self.oracle = EquityOracle()
        self.recorder = ActionRecorder()
        self.value = value
        self.action_baselines = action_baselines

    def describe(self) -> dict:
        """What ``summary.json`` records: the value function (:meth:`PotEquityValue.describe`) and the action
        baselines (``"player values"``: a player's own :meth:`~loki.players.base.Player.action_values` where it
        gives them; ``"value function"``)."""
        return {
            "value_function": self.value.describe(),
            "action_baselines": "player values" if self.action_baselines else "value function",
        }

    def start_hand(self) -> ActionRecorder:
        """Clear the recorder and return it (the ``on_action`` hook of the next hand)."""
        self.recorder.clear()
        return self.recorder

    def corrections(self, final: HandState) -> HandCorrections:
        """The corrections of the hand just played with :meth:`start_hand`'s recorder."""
        base = self.recorder.values if self.action_baselines else None
        return hand_corrections(final, self.recorder.probs, self.oracle, self.value, base, self.recorder.snaps)
